"""Host speed on a late-game 4-player Vikings table: command → reply payload ready.

    python bench/host.py [GAMES]

For each game a seeded 4-player game is played through the host service up to round 6 (images
off), then every remaining action is timed with images on: ``HostService.act`` (engine + SQLite
commit + render). In the same run: the render alone (the adapter's ``render``) and the database
commit alone (``Storage.commit_action``) for the same positions. Wall-clock times on this machine.
"""

from __future__ import annotations

import asyncio
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.adapters import default_registry  # noqa: E402
from bot.service import HostService  # noqa: E402
from bot.storage import Storage  # noqa: E402
from engine.core import Rng  # noqa: E402

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def one_game(seed: int, tmp: Path, act_ms: list, render_ms: list, commit_ms: list) -> None:
    storage = await Storage.open(tmp / f"bench-{seed}.db")
    try:
        svc = HostService(storage, default_registry(), images=False)
        for n in NAMES:
            await svc.join("bench", n, n, game="vikings")
        await svc.start("bench", NAMES[0], "vikings", seed=seed)
        chooser = Rng(seed)
        table = await svc.table("bench")
        game, adapter = table.game, table.adapter
        while not game.is_over:
            seat = game.acting_seats()[0]
            acts = game.legal_actions(seat)
            action = str(acts[chooser.randbelow(len(acts))])
            late = game.round == 6
            svc.images = late
            t0 = time.perf_counter()
            reply = await svc.act("bench", NAMES[seat], action)
            t1 = time.perf_counter()
            assert reply.ok, reply.private
            if late and not game.is_over:
                act_ms.append((t1 - t0) * 1000)
                t2 = time.perf_counter()
                adapter.render(game)
                render_ms.append((time.perf_counter() - t2) * 1000)
                rec = table.record
                t3 = time.perf_counter()
                await storage.commit_action(rec.id, expected_version=rec.version, seat=seat, action=action,
                                            snapshot=game.to_json(), status="active", now=time.time())
                commit_ms.append((time.perf_counter() - t3) * 1000)
                rec.version += 1  # the extra log row keeps the versions in step
    finally:
        await storage.close()


async def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    act_ms: list[float] = []
    render_ms: list[float] = []
    commit_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(games):
            await one_game(seed, Path(tmp), act_ms, render_ms, commit_ms)
    out = {
        "machine": f"{platform.machine()} Python {platform.python_version()}",
        "samples": len(act_ms),
        "command_to_reply_ms": {"p50": round(pct(act_ms, 50), 1), "p95": round(pct(act_ms, 95), 1)},
        "render_ms": {"p50": round(pct(render_ms, 50), 1), "p95": round(pct(render_ms, 95), 1)},
        "db_commit_ms": {"p50": round(pct(commit_ms, 50), 2), "p95": round(pct(commit_ms, 95), 2)},
    }
    out["p95_over_render_p95"] = round(out["command_to_reply_ms"]["p95"] / out["render_ms"]["p95"], 2)
    out["mean_command_ms"] = round(statistics.mean(act_ms), 1)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
