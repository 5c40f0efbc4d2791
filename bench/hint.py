"""``/hint``'s time (issue 25): the search's analysis of a seat's decision, as the host runs it.

    python bench/hint.py [POSITIONS] [--vs COMMIT]

For each game (Vikings and Brian Boru, 4 players) POSITIONS positions (default 8) are reached by
heuristic play from seeded starts, at different points of the game (only decisions with a real
choice); each is analysed once exactly as ``bot.host.hints`` does it (the seat's view and legal
actions, the seed drawn from the view, ``HINT_OPTIONS``: a fixed amount of work, no wall-clock
cut). Printed per game: the median and the largest wall-clock and CPU (``time.process_time``)
seconds of one hint, over every position and over the searched ones (Brian Boru leaves its
secondary actions to the heuristic), the sweeps (sampled deals), and the rollout decisions per
CPU second.

Then one hint through the host as Discord runs it: ``HostService.hint`` with a warmed
``CpuPool(size=1)`` worker process (pickling the view and the analysis included).

``--vs COMMIT``: the rollout decisions per CPU second of the search players of this tree against
those of ``engine/players`` at COMMIT (e.g. e02759b), loaded side by side in this one process,
on the same positions (the same engine): the ratio says what the players' own changes bought.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.host.hints import HINT_OPTIONS, analyse, position_seed  # noqa: E402
from engine.brianboru import BrianBoruGame  # noqa: E402
from engine.core import Action, Game  # noqa: E402
from engine.players import make_player  # noqa: E402
from engine.vikings import VikingsGame  # noqa: E402

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]
GAMES: dict[str, type[Game]] = {"vikings": VikingsGame, "brian-boru": BrianBoruGame}
SEARCHED = {"vikings": None, "brian-boru": ("keep", "active", "lead", "play")}


def positions(game_id: str, count: int) -> list[tuple[Game, int]]:
    """``count`` positions with a real choice, spread over the game (heuristic play, seeded)."""
    out: list[tuple[Game, int]] = []
    seed = 0
    while len(out) < count:
        g = GAMES[game_id].new(NAMES, seed=100 + seed)
        players = [make_player(game_id, "heuristic", 7 * seed + s) for s in range(4)]
        steps = 8 + 23 * (seed % 6)
        for _ in range(steps):
            if g.is_over:
                break
            s = g.acting_seats()[0]
            g.apply(s, players[s].choose(g.view(s), g.legal_actions(s)))
        seed += 1
        while not g.is_over:  # on to the next decision with a choice (Brian Boru: a searched one when it can)
            s = g.acting_seats()[0]
            legal = g.legal_actions(s)
            kind = str(legal[0]).split(" ", 1)[0]
            if len(legal) > 1 and (SEARCHED[game_id] is None or kind in SEARCHED[game_id] or seed % 3 == 0):
                out.append((g, s))
                break
            g.apply(s, players[s].choose(g.view(s), legal))
    return out


def time_hints(game_id: str, count: int) -> dict[str, Any]:
    rows = []
    for g, seat in positions(game_id, count):
        view, legal = g.view(seat), g.legal_actions(seat)
        w, c = time.perf_counter(), time.process_time()
        found = analyse(game_id, position_seed(view, legal), HINT_OPTIONS, view, legal)
        rows.append({"wall": time.perf_counter() - w, "cpu": time.process_time() - c, "searched": found.searched,
                     "sweeps": found.sweeps, "work": found.work, "decision": str(legal[0]).split(" ", 1)[0]})
    searched = [r for r in rows if r["searched"]]

    def summary(rs: list[dict[str, Any]]) -> dict[str, Any]:
        if not rs:
            return {}
        return {"positions": len(rs), "median_wall_s": round(statistics.median(r["wall"] for r in rs), 3),
                "max_wall_s": round(max(r["wall"] for r in rs), 3),
                "median_cpu_s": round(statistics.median(r["cpu"] for r in rs), 3),
                "max_cpu_s": round(max(r["cpu"] for r in rs), 3)}

    out: dict[str, Any] = {"all": summary(rows), "searched": summary(searched)}
    if searched:
        out["searched"]["median_sweeps"] = statistics.median(r["sweeps"] for r in searched)
        out["searched"]["rollout_decisions_per_cpu_s"] = round(
            sum(r["work"] for r in searched) / sum(r["cpu"] for r in searched))
    out["decisions"] = sorted({r["decision"] for r in rows})
    return out


async def through_the_host() -> dict[str, float]:
    """One Vikings and one Brian Boru hint through ``HostService.hint`` and a CPU pool worker."""
    from bot.games.registry import default_registry
    from bot.host.service import HostService
    from bot.processes.cpu import CpuPool
    from bot.storage import Storage

    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp, CpuPool(size=1) as cpu:
        store = await Storage.open(Path(tmp) / "bench.db")
        svc = HostService(store, default_registry(), images=False, cpu=cpu, seed_source=lambda: 11)
        try:
            for game_id, players in (("vikings", ("a", "b", "c", "d")), ("brian-boru", ("a", "b", "c", "d"))):
                channel = f"bench-{game_id}"
                for i, u in enumerate(players):
                    await svc.join(channel, u, u.upper(), game=game_id if i == 0 else None)
                await svc.start(channel, "a", game_id, ["hints"], seed=11, start_seat=0)
                for _ in range(40):  # on to a searched decision (the draft in Brian Boru)
                    table = await svc.table(channel)
                    g = table.game
                    s = g.acting_seats()[0]
                    legal = g.legal_actions(s)
                    kind = str(legal[0]).split(" ", 1)[0]
                    if len(legal) > 1 and (SEARCHED[game_id] is None or kind in SEARCHED[game_id]):
                        break
                    await svc.act(channel, table.record.seats[s].user, str(legal[0]))
                user = table.record.seats[s].user
                await svc.hint(channel, user)  # warms the worker (spawn, imports)
                times = []
                for _ in range(3):
                    t = time.perf_counter()
                    reply = await svc.hint(channel, user)
                    times.append(time.perf_counter() - t)
                    assert reply.ok, reply
                out[f"{game_id}_median_wall_s"] = round(statistics.median(times), 3)
        finally:
            await store.close()
    return out


def old_players(commit: str) -> Any:
    """``engine/players`` as it was at ``commit``, importable beside this tree's (same engine)."""
    tmp = Path(tempfile.mkdtemp(prefix="players-"))
    pkg = tmp / "players_then"
    pkg.mkdir()
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{commit}:engine/players"],
                           check=True, capture_output=True, text=True).stdout.split()
    for name in names:
        if name.endswith(".py"):
            src = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:engine/players/{name}"], check=True,
                                 capture_output=True, text=True).stdout
            (pkg / name).write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("players_then", pkg / "__init__.py",
                                                  submodule_search_locations=[str(pkg)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["players_then"] = module
    spec.loader.exec_module(module)
    return importlib.import_module("players_then.search")


def versus(commit: str, count: int) -> dict[str, Any]:
    """Rollout decisions per CPU second, this tree's search players against ``commit``'s, in turn."""
    from engine.players import search as now

    then = old_players(commit)
    out: dict[str, Any] = {}
    for game_id in GAMES:
        pos = [(g, s) for g, s in positions(game_id, count)]
        rates: dict[str, list[float]] = {"now": [], "then": []}
        for g, s in pos:
            view, legal = g.view(s), g.legal_actions(s)
            for name, mod in (("then", then), ("now", now)):
                p = mod.SearchPlayer(game_id, position_seed(view, legal), budget=HINT_OPTIONS["budget"])
                c = time.process_time()
                p.choose(view, legal)
                dt = time.process_time() - c
                if p.last_stats:  # a searched decision
                    rates[name].append(p.last_stats["work"] / dt)
        if rates["now"]:
            ratios = [a / b for a, b in zip(rates["now"], rates["then"], strict=True)]
            out[game_id] = {"now_decisions_per_cpu_s": round(statistics.median(rates["now"])),
                            "then_decisions_per_cpu_s": round(statistics.median(rates["then"])),
                            "median_ratio_now_over_then": round(statistics.median(ratios), 2),
                            "positions": len(ratios)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions", nargs="?", type=int, default=8)
    ap.add_argument("--vs", default=None, help="a commit whose engine/players to compare rollout speed with")
    args = ap.parse_args()
    out: dict[str, Any] = {"machine": f"{platform.machine()} {platform.python_implementation()} "
                                      f"{platform.python_version()}", "hint_options": HINT_OPTIONS}
    for game_id in GAMES:
        out[game_id] = time_hints(game_id, args.positions)
    out["through_the_host"] = asyncio.run(through_the_host())
    if args.vs:
        out["versus_" + args.vs] = versus(args.vs, args.positions)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    _ = Action  # the analysis's actions are the engine's
    main()
