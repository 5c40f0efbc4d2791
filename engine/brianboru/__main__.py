"""``python -m engine.brianboru score FILE``: final scoring (B-33, B-34) of a position as JSON.

FILE is written in the notation of ``docs/brian-boru-notation.md`` (``-`` reads standard input).
Exit status 0 on success, 2 on a usage or notation error (the message names line and column).
"""

from __future__ import annotations

import json
import sys

from engine.brianboru.notation import parse_position
from engine.brianboru.scoring import final_scoring
from engine.core import NotationError, msg_text

USAGE = "usage: python -m engine.brianboru score FILE   (FILE in Brian Boru notation, '-' = stdin)"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "score":
        print(USAGE, file=sys.stderr)
        return 2
    path = args[1]
    try:
        if path == "-":
            raw = getattr(sys.stdin, "buffer", None)  # bytes, so bad UTF-8 is our error, not a traceback
            text = raw.read().decode("utf-8") if raw is not None else sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        print(f"cannot read {path}: {e.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as e:
        print(f"cannot read {path}: not UTF-8 text (byte {e.start})", file=sys.stderr)
        return 2
    try:
        pos = parse_position(text)
    except NotationError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return 2
    res = final_scoring(pos)
    # "lines": the English text; "messages": the same lines structured, as the game's view holds them
    players = [{**p, "lines": [msg_text(m) for m in p["lines"]], "messages": p["lines"]} for p in res["players"]]
    print(json.dumps({"players": players, "winners": res["winners"]}, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
