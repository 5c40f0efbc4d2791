"""Animated recap speed and size (issue 25): a whole 4-player Vikings game and a whole 5-player
Brian Boru game, each played by seeded heuristic computer players, made into its recap.

    python bench/recap.py [SEED]

For each game: the moves, the frames, the file's bytes and frame size, the animation's length,
and the time (wall and CPU of this process, ``time.process_time``: other processes disturb it
less) of the whole recap (``bot.games.recap.make_recap``: replay, the frames' pictures, the header
strips, scaling and WebP encoding), split into collecting the frames (replay + the chat pictures)
and encoding (strips + scaling + WebP); frames per second = frames / CPU time of the whole. The
same frames encoded as a GIF are given for comparison.
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import PIL  # noqa: E402

from bot.games.registry import default_registry  # noqa: E402
from bot.games.replay import make_recap  # noqa: E402
from engine.players.arena import logged_game  # noqa: E402
from renderer import recap as R  # noqa: E402

GAMES = (("vikings", ["Astrid", "Bjorn", "Sigrid", "Ulf"]), ("brian-boru", ["Aoife", "Brian", "Cormac", "Deirdre", "Eimear"]))


def play(game_id: str, names: list[str], seed: int) -> tuple[Any, tuple, list[tuple[int, str]]]:
    return default_registry()[game_id], (names, seed, None, None), logged_game(game_id, names, seed)


def measure(game_id: str, names: list[str], seed: int) -> dict[str, Any]:
    adapter, setup, moves = play(game_id, names, seed)
    collected: list[R.Frame] = []
    real = R.encode_recap

    def spy(frames: list[R.Frame], **kw: Any) -> R.Recap:
        collected.extend(frames)
        t = time.process_time()
        out = real(frames, **kw)
        spy.encode = time.process_time() - t  # type: ignore[attr-defined]
        return out

    R.encode_recap = spy  # type: ignore[assignment]  # make_recap imports it when called
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        recap = make_recap(adapter, setup, moves)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        R.encode_recap = real  # type: ignore[assignment]
    t = time.process_time()
    gif = real(collected, fmt="gif")
    gif_cpu = time.process_time() - t
    return {"game": game_id, "players": len(names), "moves": len(moves), "frames": recap.frames,
            "bytes": len(recap.data), "size": recap.size, "seconds": sum(recap.durations) / 1000,
            "wall": wall, "cpu": cpu, "encode": getattr(spy, "encode", 0.0), "fps": recap.frames / cpu,
            "gif_bytes": len(gif.data), "gif_cpu": gif_cpu, "data": recap.data}


def main(argv: list[str]) -> int:
    seed = int(argv[1]) if len(argv) > 1 else 5
    print(f"Python {platform.python_version()}, Pillow {PIL.__version__}, seed {seed}")
    print("| game | moves | frames | file | frame size | animation | wall | CPU | of it encoding | frames/s (CPU) "
          "| same frames as GIF |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game_id, names in GAMES:
        m = measure(game_id, names, seed)
        print(f"| {m['game']}, {m['players']} players | {m['moves']} | {m['frames']} | {m['bytes'] / 1e6:.2f} MB "
              f"| {m['size'][0]} × {m['size'][1]} | {m['seconds']:.0f} s | {m['wall']:.1f} s | {m['cpu']:.1f} s "
              f"| {m['encode']:.1f} s | {m['fps']:.1f} | {m['gif_bytes'] / 1e6:.2f} MB, {m['gif_cpu']:.1f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
