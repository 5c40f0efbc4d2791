"""Vikings table image speed: render a late 4-player table vs. only PNG-encoding an image that size.

    python bench/render.py [REPEATS]

The table is a real engine position: a seeded random 4-player game played into round 6 until
a few combos are left, drawn for the seat to act with its homeland in focus. Three figures, each
the median of REPEATS runs of CPU time (``time.process_time``, so other processes disturb them
less): ``render`` = ``render_vikings`` (drawing + PNG encoding, warm sprite caches), ``encode`` =
``encode_png`` alone of an image of the same size and content, and their ratio. The first, cold
render (fonts and sprites built) is printed too. Targets (issue 4): ratio <= 2.0, file <= 500 KB,
width <= 1600 px.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Rng  # noqa: E402
from engine.vikings import VikingsGame  # noqa: E402
from renderer.common import encode_png  # noqa: E402
from renderer.vikings import draw_vikings, render_vikings  # noqa: E402

NAMES = ["Astrid", "Bjorn", "Sigrid", "Ulf"]


def late_table(seed: int = 7, left: int = 4) -> tuple[dict, int]:
    """A seeded 4-player game in round 6 with ``left`` combos still on the wheel; (view, seat)."""
    game = VikingsGame.new(NAMES, seed=seed)
    chooser = Rng(seed * 7919 + 17)
    while True:
        seat = game.acting_seats()[0]
        view = game.view(seat)
        if view["round"] == 6 and view["phase"] == "buy" and sum(1 for c in view["wheel"] if c) <= left:
            return view, seat
        game.apply(seat, chooser.choice(game.legal_actions(seat)))


def _median_cpu(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


def bench(repeats: int = 15) -> dict:
    view, seat = late_table()
    t = time.process_time()
    png = render_vikings(view, focus=seat)
    cold = time.process_time() - t
    img = draw_vikings(view, focus=seat)
    render = _median_cpu(lambda: render_vikings(view, focus=seat), repeats)
    encode = _median_cpu(lambda: encode_png(img), repeats)
    plain = render_vikings(view)
    return {
        "table": "Vikings, 4 players, round 6, focus on the seat to act",
        "width": img.width,
        "height": img.height,
        "file_kb": round(len(png) / 1024, 1),
        "file_kb_no_focus": round(len(plain) / 1024, 1),
        "render_ms": round(render * 1000, 1),
        "encode_ms": round(encode * 1000, 1),
        "ratio": round(render / encode, 2),
        "cold_render_ms": round(cold * 1000, 1),
        "repeats": repeats,
        "python": platform.python_version(),
        "nproc": os.cpu_count(),
    }


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    r = bench(repeats)
    print(f"late 4-player table: {r['width']}x{r['height']} px, {r['file_kb']} KB "
          f"({r['file_kb_no_focus']} KB without focus)")
    print(f"render (draw + encode): {r['render_ms']} ms   encode only: {r['encode_ms']} ms   "
          f"ratio {r['ratio']}   (cold first render {r['cold_render_ms']} ms)")
    ok = r["ratio"] <= 2.0 and r["file_kb"] <= 500 and r["width"] <= 1600
    print("targets (ratio <= 2.0, file <= 500 KB, width <= 1600 px):", "met" if ok else "NOT met")
    print(json.dumps(r))


if __name__ == "__main__":
    main()
