"""Replay speed (issue 25): the cost of one press of a replay's buttons.

    python bench/replay.py [POSITIONS]

A seeded 4-player game of each game (random legal moves, ``engine.core.Rng``) is played to its end
through the host service (images off) and stored. Then POSITIONS positions spread over the log are
shown as a press shows them, each timed on the wall clock:

* ``log``: :func:`bot.host.replays.walk` alone, the whole log replayed from the set-up (every press
  replays it: nothing is kept between presses) and the position's move described and narrated;
* ``picture``: the full table's picture of that position (the adapter's ``picture(board=True)``,
  drawn and PNG-encoded) alone;
* ``step``: ``HostService.replay_position`` with pictures on: reading the record and the log from
  SQLite, the replay, the revealed lines and the picture (what a press waits for before Discord is
  answered).

Prints a Markdown table row per game (median and p95 in ms) and the same as JSON.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.registry import default_registry  # noqa: E402
from bot.host.replays import walk  # noqa: E402
from bot.host.service import HostService  # noqa: E402
from bot.storage import Storage, effective_actions  # noqa: E402
from engine.core import Rng  # noqa: E402
from renderer.picture import warm_up  # noqa: E402

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]
CHANNEL, GUILD = "bench", "g"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def finished(svc: HostService, game: str, seed: int) -> int:
    for i, name in enumerate(NAMES):
        await svc.join(CHANNEL, name.lower(), name, guild=GUILD, game=game if i == 0 else None)
    r = await svc.start(CHANNEL, "astrid", game, [], seed=seed, start_seat=0)
    assert r.ok, r
    chooser = Rng(seed * 7919 + 17)
    while (table := await svc.table(CHANNEL)) is not None:
        seat = table.game.acting_seats()[0]
        r = await svc.act(CHANNEL, table.record.seats[seat].user, str(chooser.choice(table.game.legal_actions(seat))))
        assert r.ok, r
    assert r.match_id is not None
    return r.match_id


async def measure(game: str, positions: int, seed: int = 7) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Storage.open(Path(tmp) / "bench.db")
        try:
            svc = HostService(store, default_registry(), images=False)
            match = await finished(svc, game, seed)
            svc.images = True
            record = await store.get_match(match)
            assert record is not None
            adapter = svc.games[game]
            moves = [(a.seat, a.action) for a in effective_actions(await store.actions(match))]
            steps = [round(i * len(moves) / (positions - 1)) for i in range(positions)]
            logs, pictures, presses = [], [], []
            for step in steps:
                t = time.perf_counter()
                pos = walk(adapter, record, moves, step)
                logs.append(time.perf_counter() - t)
                t = time.perf_counter()
                adapter.picture(pos.game, board=True)
                pictures.append(time.perf_counter() - t)
                t = time.perf_counter()
                reply = await svc.replay_position(match, step, guild=GUILD)
                presses.append(time.perf_counter() - t)
                assert reply.ok and reply.image is not None, reply
        finally:
            await store.close()
    ms = {k: [1000 * x for x in v] for k, v in (("log", logs), ("picture", pictures), ("step", presses))}
    return {"game": game, "players": len(NAMES), "moves": len(moves), "positions": len(steps),
            **{f"{k}_median_ms": round(statistics.median(v), 1) for k, v in ms.items()},
            **{f"{k}_p95_ms": round(pct(v, 95), 1) for k, v in ms.items()}}


async def main() -> None:
    positions = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    warm_up()
    rows = [await measure(game, positions) for game in ("vikings", "brian-boru")]
    machine = f"`nproc` {os.cpu_count()}, Python {platform.python_version()}"
    print("| date | machine | game | moves | log (median / p95) | picture (median / p95) | step (median / p95) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {time.strftime('%Y-%m-%d')} | {machine} | {r['game']} ({r['players']} players) | {r['moves']} | "
              f"{r['log_median_ms']} / {r['log_p95_ms']} ms | {r['picture_median_ms']} / {r['picture_p95_ms']} ms | "
              f"{r['step_median_ms']} / {r['step_p95_ms']} ms |")
    print(json.dumps(rows))


if __name__ == "__main__":
    asyncio.run(main())
