"""Picture speed: the chat turn pictures (issue 14) and the full Vikings table.

    python bench/render.py [REPEATS]

The table is a real engine position: a seeded random 4-player game played into round 6 until
a few combos are left, drawn for the seat to act with its homeland in focus. Three figures, each
the median of REPEATS runs of CPU time (``time.process_time``, so other processes disturb them
less): ``turn`` = the Vikings turn picture and the Brian Boru turn picture, drawing + encoding
(target, issue 14: median <= 25 ms), each split into draw and encode; ``render`` = the full table
``render_vikings`` (drawing + PNG encoding, warm caches). The first, cold turn picture (fonts,
sprites, palette built) is printed too. Each turn-picture run draws the position after another
move, so the text cache sees what a real game gives it, not one picture over and over.
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
from renderer.picture import encode_fast  # noqa: E402
from renderer.vikings import draw_vikings, render_vikings  # noqa: E402
from renderer.vikings_turn import draw_vikings_turn, render_vikings_turn  # noqa: E402

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


def late_turns(seed: int = 7, count: int = 30) -> list[dict]:
    """``count`` consecutive public views of a seeded 4-player Vikings game from round 5 on."""
    game = VikingsGame.new(NAMES, seed=seed)
    chooser = Rng(seed * 7919 + 17)
    views = []
    while len(views) < count and not game.is_over:
        seat = game.acting_seats()[0]
        if game.round >= 5:
            views.append(game.view(None))
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    return views


def bb_turns(count: int = 30) -> list[dict]:
    from engine.brianboru import BrianBoruGame

    game = BrianBoruGame.new(["Aoife", "Brian", "Cormac", "Deirdre", "Eithne"], seed=5)
    chooser = Rng(5)
    views = []
    while len(views) < count and not game.is_over:
        seat = game.acting_seats()[0]
        v = game.view(None)
        if v["phase"] == "tricks":
            views.append(v)
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    return views


def _median_each(fn, items: list, repeats: int) -> float:
    times = []
    for _ in range(max(1, repeats // len(items) + 1)):
        for it in items:
            t = time.process_time()
            fn(it)
            times.append(time.process_time() - t)
    return statistics.median(times)


def turn_bench(repeats: int = 60) -> dict:
    from renderer.brianboru_turn import draw_brianboru_turn, render_brianboru_turn

    views = late_turns()
    t = time.process_time()
    render_vikings_turn(views[0])
    cold = time.process_time() - t
    bb = bb_turns()
    img = draw_vikings_turn(views[-1])
    from renderer.common import text_mask

    text_mask.cache_clear()  # each position once, texts new to the cache: a game's first pass
    first = round(_median_each(render_vikings_turn, views, 0) * 1000, 1)
    return {
        "vikings_turn_first_pass_ms": first,
        "size": f"{img.width}x{img.height}",
        "vikings_turn_ms": round(_median_each(render_vikings_turn, views, repeats) * 1000, 1),
        "vikings_draw_ms": round(_median_each(draw_vikings_turn, views, repeats) * 1000, 1),
        "encode_ms": round(_median_each(encode_fast, [img], repeats) * 1000, 1),
        "vikings_file_kb": round(len(render_vikings_turn(views[-1])) / 1024, 1),
        "brianboru_turn_ms": round(_median_each(render_brianboru_turn, bb, repeats) * 1000, 1),
        "brianboru_draw_ms": round(_median_each(draw_brianboru_turn, bb, repeats) * 1000, 1),
        "cold_first_turn_ms": round(cold * 1000, 1),
    }


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
        "cold_render_ms": round(cold * 1000, 1),
        "repeats": repeats,
        "python": platform.python_version(),
        "nproc": os.cpu_count(),
    }


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    t = turn_bench(max(60, repeats))
    print(f"turn pictures {t['size']}: Vikings {t['vikings_turn_ms']} ms (draw {t['vikings_draw_ms']}, encode "
          f"{t['encode_ms']}, {t['vikings_file_kb']} KB; first pass {t['vikings_turn_first_pass_ms']} ms), Brian Boru {t['brianboru_turn_ms']} ms "
          f"(draw {t['brianboru_draw_ms']}); cold first {t['cold_first_turn_ms']} ms")
    print("target turn picture median <= 25 ms:",
          "met" if max(t["vikings_turn_ms"], t["brianboru_turn_ms"]) <= 25 else "NOT met")
    print(json.dumps(t))
    r = bench(repeats)
    print(f"late 4-player table: {r['width']}x{r['height']} px, {r['file_kb']} KB "
          f"({r['file_kb_no_focus']} KB without focus)")
    print(f"full table render (draw + encode): {r['render_ms']} ms   encode only: {r['encode_ms']} ms   "
          f"(cold first render {r['cold_render_ms']} ms)")
    ok = r["file_kb"] <= 500 and r["width"] <= 1600
    print("full table targets (file <= 500 KB, width <= 1600 px):", "met" if ok else "NOT met")
    print(json.dumps(r))


if __name__ == "__main__":
    main()
