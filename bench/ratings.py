"""Records speed (issue 17): /leaderboard, /profile and /history over N finished Vikings games.

``python bench/ratings.py [N ...]`` prints JSON: for each N, the median milliseconds of each
command through ``HostService`` on a SQLite file, and the first leaderboard call (each match's
result read and parsed once, then cached). Ratings are folded from every finished match at
each request (docs/decisions.md), so this shows how that cost grows. The matches are copies of one
real finished 4-player game (its final snapshot is what each request parses), with players drawn
from 12 people in 2 servers.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.registry import default_registry  # noqa: E402
from bot.host.service import HostService  # noqa: E402
from bot.storage import MatchRecord, Seat, Storage  # noqa: E402
from engine.core import Rng  # noqa: E402
from engine.vikings import VikingsGame  # noqa: E402

PEOPLE = [f"user{i}" for i in range(12)]


def finished_snapshot(seed: int = 3) -> dict:
    game = VikingsGame.new(["A", "B", "C", "D"], seed=seed)
    rng = Rng(seed)
    while not game.is_over:
        seat = game.acting_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game.to_json()


async def fill(store: Storage, n: int, snapshot: dict) -> None:
    rng = Rng(n)
    for i in range(1, n + 1):
        people = list(PEOPLE)
        rng.shuffle(people)
        users = people[:4]
        record = MatchRecord(
            id=i, guild=f"g{i % 2}", channel=f"c{i}", game="vikings", options={}, seed=i, start_seat=0,
            status="finished", creator=users[0], seats=[Seat(u, u.title()) for u in users], votes=[],
            version=0, snapshot=snapshot, created=float(i), updated=float(i))
        await store.import_match(record, [], [])


async def measure(n: int, repeat: int = 5) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Storage.open(Path(tmp) / "bench.db")
        try:
            await fill(store, n, finished_snapshot())
            svc = HostService(store, default_registry(), images=False)
            out = {"games": n}
            for name, call in [("leaderboard_ms", lambda: svc.leaderboard("vikings", guild="g0")),
                               ("profile_ms", lambda: svc.profile("user1", guild="g0")),
                               ("history_ms", lambda: svc.game_history(guild="g0"))]:
                times = []
                for _ in range(repeat):
                    t = time.perf_counter()
                    reply = await call()
                    times.append((time.perf_counter() - t) * 1000)
                    assert reply.ok, reply
                out[name] = round(statistics.median(times), 1)
                out.setdefault("first_call_ms", round(times[0], 1))  # results not cached yet
            return out
        finally:
            await store.close()


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [100, 1000]
    print(json.dumps([asyncio.run(measure(n)) for n in sizes], indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
