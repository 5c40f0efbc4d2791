"""Event-loop lag while four search-level computer players think (issue 15).

    python bench/eventloop.py [--workers 2] [--budget 1.0] [--moves 3] [--images]

Four tables (Vikings, one person and one search player each, the search player to act) let their
computer players move through ``bot.host.seats.play_bots`` at once, ``--moves`` moves each, while a
probe coroutine sleeps 5 ms again and again and records how late it wakes up: that lateness is
what a gateway heartbeat or another table's click would wait. Run twice: searches in threads of
this process (``CpuPool(0)``, the old way) and in ``--workers`` worker processes. Target: p99 lag
≤ 20 ms with the process pool.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.registry import default_registry  # noqa: E402
from bot.host.seats import add_bot, play_bots  # noqa: E402
from bot.host.service import HostService  # noqa: E402
from bot.processes.cpu import CpuPool  # noqa: E402
from bot.storage import Storage  # noqa: E402

TABLES = 4


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def probe(lags: list[float], stop: asyncio.Event, period: float = 0.005) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        t0 = loop.time()
        await asyncio.sleep(period)
        lags.append(max(0.0, loop.time() - t0 - period))


async def run(workers: int, budget: float, moves: int, images: bool, tmp: Path) -> dict:
    with CpuPool(workers) as cpu:
        async with await Storage.open(tmp / f"loop-{workers}.db") as store:
            svc = HostService(store, default_registry(), images=images, cpu=cpu)
            for t in range(TABLES):
                ch = f"c{t}"
                await svc.join(ch, f"p{t}", f"Player {t}")
                await add_bot(svc, ch, "search")
                assert (await svc.start(ch, f"p{t}", "vikings", seed=t + 1, start_seat=1)).ok
            if workers:  # warm the workers (imports) before measuring, as a running bot has
                table = await svc.table("c0")
                await asyncio.gather(*(cpu.choose("vikings", "random", 1, {}, table.game.view(1),
                                                  table.game.legal_actions(1)) for _ in range(workers)))
            lags: list[float] = []
            stop = asyncio.Event()
            prober = asyncio.create_task(probe(lags, stop))
            t0 = time.perf_counter()
            made = await asyncio.gather(*(play_bots(svc, f"c{t}", budget=budget, max_moves=moves)
                                          for t in range(TABLES)))
            wall = time.perf_counter() - t0
            stop.set()
            await prober
    return {"mode": f"{workers} worker processes" if workers else "threads", "moves": sum(map(len, made)),
            "wall_s": round(wall, 2), "probes": len(lags), "lag_p50_ms": round(pct(lags, 50) * 1000, 1),
            "lag_p99_ms": round(pct(lags, 99) * 1000, 1), "lag_max_ms": round(max(lags) * 1000, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--moves", type=int, default=3)
    ap.add_argument("--images", action="store_true", help="also draw each move's picture")
    args = ap.parse_args()
    out = {"machine": f"{platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}",
           "tables": TABLES, "budget_s": args.budget, "images": args.images, "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (0, args.workers):
            res = asyncio.run(run(workers, args.budget, args.moves, args.images, Path(tmp)))
            print(res, flush=True)
            out["runs"].append(res)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
