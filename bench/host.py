"""Host speed on a late-game 4-player Vikings table: command → reply payload ready.

    python bench/host.py [GAMES]

For each game a seeded 4-player game is played through the host service up to round 6 (images
off), then every remaining action is timed with images on: ``HostService.act`` (engine + SQLite
commit + the reply's picture: the turn picture, or the scoring picture with the log replayed at the
end). In the same run: the turn picture alone (the adapter's ``picture``) and the database commit
alone (``Storage.commit_action``) for the same positions, and the message policy's state kept after
each published reply (``MessagePolicy.state`` as JSON into ``Storage.set_meta``, what the Discord
transport adds per move since the sixth landing). Wall-clock times on this machine.
Target (issue 14): command -> reply p95 <= 40 ms.

    python bench/host.py [GAMES] --analyses N [--same-priority]

Issue 31: the same games twice, first alone, then while ``N`` game analyses run beside them (each
in a :class:`~bot.processes.cpu.CpuPool` of its own, as ``N`` bot processes would, piece after piece
of a finished 4-player Brian Boru game's review, without end); prints both p95s and their ratio.
Target: the p95 grows by at most 20 % with ``N`` = 2 on this 2-core machine. ``--same-priority``
runs the analyses at the host's own priority instead of the background worker's (``os.nice`` 19):
what the low priority buys.
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

from bot.discord.publishing.policy import MessagePolicy  # noqa: E402
from bot.discord.publishing.posting import LIVE_META  # noqa: E402
from bot.games.registry import default_registry  # noqa: E402
from bot.host.service import HostService  # noqa: E402
from bot.storage import Storage  # noqa: E402
from engine.core import Rng  # noqa: E402
from renderer.picture import warm_up  # noqa: E402

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def one_game(seed: int, tmp: Path, act_ms: list, render_ms: list, commit_ms: list, live_ms: list) -> None:
    storage = await Storage.open(tmp / f"bench-{seed}.db")
    try:
        svc = HostService(storage, default_registry(), images=False)
        for n in NAMES:
            await svc.join("bench", n, n, game="vikings")
        await svc.start("bench", NAMES[0], "vikings", seed=seed)
        # the commit alone is timed on a second match, so that the bench's log stays the game's log
        for n in NAMES:
            await svc.join("bench-commit", n, n, game="vikings")
        await svc.start("bench-commit", NAMES[0], "vikings", seed=seed)
        scratch = (await svc.table("bench-commit")).record
        policy = MessagePolicy()
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
                adapter.picture(game)
                render_ms.append((time.perf_counter() - t2) * 1000)
                t3 = time.perf_counter()
                await storage.commit_action(scratch.id, expected_version=scratch.version, seat=seat, action=action,
                                            snapshot=game.to_json(), status="active", now=time.time())
                commit_ms.append((time.perf_counter() - t3) * 1000)
                scratch.version += 1
                t4 = time.perf_counter()
                plan = policy.plan("bench", reply, picture=str(reply.version))
                policy.done("bench", plan, reply, 1000 + (reply.version or 0), 1, controls=True,
                            picture=str(reply.version))
                await storage.set_meta(LIVE_META + "bench", json.dumps(policy.state("bench"), sort_keys=True))
                live_ms.append((time.perf_counter() - t4) * 1000)
    finally:
        await storage.close()


async def timed(games: int) -> dict[str, list[float]]:
    act_ms: list[float] = []
    render_ms: list[float] = []
    commit_ms: list[float] = []
    live_ms: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(games):
            await one_game(seed, Path(tmp), act_ms, render_ms, commit_ms, live_ms)
    return {"act": act_ms, "render": render_ms, "commit": commit_ms, "live": live_ms}


async def analysing(stop: asyncio.Event, same_priority: bool, pieces: list[int], me: int) -> None:
    """One bot process's analyses, without end until ``stop``: the review of a finished game in the
    host's pieces, through a CPU pool of its own (its background worker, or a plain worker)."""
    from bot.host.analysis import PIECE
    from bot.processes.cpu import CpuPool, _review_in_worker, _start
    from engine.players.match import NAMES
    from engine.players.review import REVIEW_OPTIONS, decisions

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from analysis import played  # bench/analysis.py: a seeded game of easy and normal players

    game_id, seed = "brian-boru", 3100
    moves = played(game_id, seed)
    setup = (NAMES[:4], seed, None, None)  # as analysis.played starts it (start seat from the seed)
    todo = decisions(_start(game_id, setup), moves, range(4))
    with CpuPool(1) as cpu:
        k = 0
        while not stop.is_set():
            piece = todo[k % len(todo):k % len(todo) + PIECE]
            k += PIECE
            if same_priority:  # a plain worker of the pool, at the host's priority
                await cpu._run(_review_in_worker, game_id, setup, moves, piece, dict(REVIEW_OPTIONS))
            else:
                await cpu.review(game_id, setup, moves, piece, dict(REVIEW_OPTIONS))
            pieces[me] += len(piece)


async def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="bench/host.py")
    ap.add_argument("games", nargs="?", type=int, default=3)
    ap.add_argument("--analyses", type=int, default=0, help="analyses beside the second pass (issue 31)")
    ap.add_argument("--same-priority", action="store_true")
    args = ap.parse_args()
    t = time.perf_counter()
    warm_up()  # what a starting bot does once (renderer.picture.warm_up)
    warm_ms = (time.perf_counter() - t) * 1000
    ms = await timed(args.games)
    act_ms, render_ms, commit_ms, live_ms = ms["act"], ms["render"], ms["commit"], ms["live"]
    out: dict[str, object] = {
        "machine": f"{platform.machine()} Python {platform.python_version()}",
        "samples": len(act_ms),
        "command_to_reply_ms": {"p50": round(pct(act_ms, 50), 1), "p95": round(pct(act_ms, 95), 1)},
        "render_ms": {"p50": round(pct(render_ms, 50), 1), "p95": round(pct(render_ms, 95), 1)},
        "db_commit_ms": {"p50": round(pct(commit_ms, 50), 2), "p95": round(pct(commit_ms, 95), 2)},
        "live_message_kept_ms": {"p50": round(pct(live_ms, 50), 2), "p95": round(pct(live_ms, 95), 2)},
    }
    out["mean_command_ms"] = round(statistics.mean(act_ms), 1)
    out["warm_up_ms"] = round(warm_ms, 1)
    if args.analyses:
        stop, pieces = asyncio.Event(), [0] * args.analyses  # decisions judged, per analysis
        loops = [asyncio.create_task(analysing(stop, args.same_priority, pieces, i)) for i in range(args.analyses)]
        while not all(pieces):  # every analysis has its worker started and busy
            if any(t.done() for t in loops):
                await asyncio.gather(*loops)  # an analysis that failed says why
            await asyncio.sleep(0.2)
        busy = (await timed(args.games))["act"]
        stop.set()
        await asyncio.gather(*loops)
        base = pct(act_ms, 95)
        out["with_analyses"] = {
            "analyses": args.analyses, "priority": "host's own" if args.same_priority else "background (nice 19)",
            "decisions_judged_meanwhile": sum(pieces), "samples": len(busy),
            "command_to_reply_ms": {"p50": round(pct(busy, 50), 1), "p95": round(pct(busy, 95), 1)},
            "p95_growth": f"{100 * (pct(busy, 95) / base - 1):+.0f} %",
            "target": "met" if pct(busy, 95) <= 1.2 * base else "NOT met",
        }
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out, indent=2))
    print("target p95 <= 40 ms:", "met" if pct(act_ms, 95) <= 40 else "NOT met")


if __name__ == "__main__":
    asyncio.run(main())
