"""Cost of checking the fake Discord's traffic against Discord's OpenAPI schema (issue 12).

    python bench/discord_schema.py [ROUNDS]

Loads and compiles the schema once (timed), then times, per check: a move's channel message
request (content, 4 rows of 5 buttons, a file) and the fake's answer to it (a full
``MessageResponse``), an interaction callback with a select, and an autocomplete answer of 25
choices. Wall clock on this machine; the figures go to docs/performance.md.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fakediscord import schema  # noqa: E402
from tests.fakediscord.models import Attachment, FakeUser, Message  # noqa: E402


def samples() -> list[tuple[str, str, str, int | None, object]]:
    bot, alice = FakeUser(1001, "meadhall", bot=True), FakeUser(1002, "alice")
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": f"B{r}{c}", "custom_id": f"mh:1:2:b:buy {r}{c}"}
                                       for c in range(5)]} for r in range(4)]
    body = {"content": "Astrid buys 4.\n<@1002>: place the tile", "components": rows,
            "allowed_mentions": {"parse": [], "users": ["1002"]}, "attachments": [{"id": 0, "filename": "board.png"}]}
    msg = Message(id=5, channel_id=6, guild_id=7, author=bot, origin="channel", content=body["content"],
                  components=rows, attachments=[Attachment("board.png", b"x" * 100, url="http://127.0.0.1/a")],
                  allowed_mentions=body["allowed_mentions"])
    select = {"type": 4, "data": {"content": "Pick", "flags": 64, "components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "mh:1:2:s0:{}", "options": [{"label": f"cell {i}", "value": str(i)} for i in range(25)]}]}]}}
    choices = {"type": 8, "data": {"choices": [{"name": f"buy {i} for {i} gold", "value": f"buy {i}"} for i in range(25)]}}
    return [
        ("request", "POST", "/channels/6/messages", None, body),
        ("response", "POST", "/channels/6/messages", 200, msg.payload({1002: alice})),
        ("request", "POST", "/interactions/9/tok/callback", None, select),
        ("request", "POST", "/interactions/9/tok/callback", None, choices),
    ]


def main(rounds: int = 200) -> None:
    started = time.perf_counter()
    schema.document()
    checker = schema.SchemaChecker()
    cases = samples()
    for kind, method, path, status, body in cases:  # compile each validator once
        problems = (checker.check_request(method, path, body) if kind == "request"
                    else checker.check_response(method, path, status, body))
        assert problems == [], problems
    print(f"schema load + compile of {len(cases)} validators: {time.perf_counter() - started:.2f} s")
    print(f"{platform.python_implementation()} {platform.python_version()}, {rounds} rounds")
    for kind, method, path, status, body in cases:
        times = []
        for _ in range(rounds):
            t = time.perf_counter()
            if kind == "request":
                checker.check_request(method, path, body)
            else:
                checker.check_response(method, path, status, body)
            times.append((time.perf_counter() - t) * 1000)
        what = f"{kind} {method} {schema.find_route(path)}"
        print(f"{what:70} median {statistics.median(times):6.2f} ms  max {max(times):6.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
