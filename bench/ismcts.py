"""The ``hard`` level's figures (issue 30): head-to-head matches, rollout policies, decision time.

    python bench/ismcts.py match GAME --seats hard,hard,montecarlo,montecarlo --games N --seed S \\
        [--budget 0.25] [--set hard.rollout=heuristic] [--set hard.horizon=8] [--jobs 2] [--log games.jsonl] [--start N]
    python bench/ismcts.py time GAME [--positions 24] [--budget 1.0] [--seed S]
    python bench/ismcts.py costs GAME
    python bench/ismcts.py calibrate GAME [--positions 60] [--seed 5005]

``match`` plays seeded, seat-rotated games (game ``i`` moves every seat ``i`` along) and prints, per
level (a level's option set with ``--set level.option=value`` names a variant, e.g. ``hard.rollout=
heuristic``), the games, the games won by one of its seats (a shared win counts) with the 95 %
Wilson interval, and its mean final VP. ``time`` times ``hard``'s decisions on positions reached by
heuristic play (CPU seconds of this process, ``time.process_time``: one core). ``costs`` measures
what :data:`engine.players.ismcts.COST_US` holds, on this machine now, one part at a time;
``calibrate`` fits the whole table (and ``montecarlo``'s rate) to the CPU time of real decisions
(``bench/calibrate.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.players import heuristic_player, make_player  # noqa: E402
from engine.players.arena import final_vp, game_class, play_game  # noqa: E402
from engine.players.ladder import wilson  # noqa: E402


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _one(args: tuple[str, list[str], dict[str, dict[str, Any]], int, int, float]) -> dict[str, Any]:
    game_id, seats, sets, seed, i, budget = args
    n = len(seats)
    table = [seats[(s - i) % n] for s in range(n)]
    players = []
    for s, name in enumerate(table):
        level = name.split("#")[0]
        opts = dict(sets.get(name, {}))
        if level in ("hard", "montecarlo"):
            opts.setdefault("budget", budget)
        p = make_player(game_id, level, (seed * 1_000_003 + i * 101 + s) & 0xFFFFFFFF, **opts)
        players.append(p)
    game, rec = play_game(game_id, players, seed * 7919 + i)
    return {"table": table, "vp": final_vp(game), "winners": game.winners(),
            "ms": [1000 * rec.seconds[s] / max(1, rec.decisions[s]) for s in range(n)]}


def match(game_id: str, seats: list[str], games: int, seed: int, budget: float, sets: dict[str, dict[str, Any]],
          jobs: int, log: str | None = None, start: int = 0) -> dict[str, Any]:
    work = [(game_id, seats, sets, seed, i, budget) for i in range(start, start + games)]
    results: list[dict[str, Any]] = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else _Serial() as ex:
        for i, r in enumerate(ex.map(_one, work), start):
            results.append(r)
            if log:  # one JSON line a game as it ends: a long match can be read before it finishes
                with open(log, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"game": i, **r}) + "\n")
    out: dict[str, Any] = {"game": game_id, "seats": seats, "games": games, "seed": seed, "budget": budget,
                           "sets": sets, "levels": {}}
    for name in dict.fromkeys(seats):
        won = sum(1 for r in results if any(r["table"][w] == name for w in r["winners"]))
        vps = [r["vp"][s] for r in results for s, x in enumerate(r["table"]) if x == name]
        ms = [r["ms"][s] for r in results for s, x in enumerate(r["table"]) if x == name]
        lo, hi = wilson(won, games)
        out["levels"][name] = {"wins": won, "rate": round(won / games, 3), "low": round(lo, 3), "high": round(hi, 3),
                               "mean_vp": round(statistics.fmean(vps), 2), "mean_decision_ms": round(statistics.fmean(ms), 1)}
    return out


class _Serial:
    """``ProcessPoolExecutor``'s ``map`` in this process (``--jobs 1``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Any, work: list[Any]) -> Any:
        return map(fn, work)


def positions(game_id: str, count: int, seed: int) -> list[tuple[Any, Any]]:
    out: list[tuple[Any, Any]] = []
    s0 = seed
    while len(out) < count:
        g = game_class(game_id).new(["A", "B", "C", "D"], seed=s0)
        ps = [heuristic_player(game_id, s0 * 10 + q) for q in range(4)]
        k = 0
        while not g.is_over:
            s = g.acting_seats()[0]
            legal = g.legal_actions(s)
            view = g.view(s)
            if len(legal) > 1 and k % 11 == 5 and len(out) < count:
                out.append((view, legal))
            g.apply(s, ps[s].choose(view, legal))
            k += 1
        s0 += 1
    return out


def timing(game_id: str, count: int, budget: float, seed: int) -> dict[str, Any]:
    cpu = []
    for j, (view, legal) in enumerate(positions(game_id, count, seed)):
        p = make_player(game_id, "hard", seed + j, budget=budget, wall_limit=None)
        t = time.process_time()
        p.choose(view, legal)
        cpu.append(time.process_time() - t)
    cpu.sort()
    return {"game": game_id, "positions": count, "budget": budget, "seed": seed,
            "median_s": round(statistics.median(cpu), 3), "p95_s": round(cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))], 3),
            "max_s": round(cpu[-1], 3)}


def costs(game_id: str) -> dict[str, float]:
    from engine.core import Rng
    from engine.players.ismcts import values

    rng = Rng(1)
    pos = positions(game_id, 40, 1)
    games = []
    for view, _legal in pos:
        if game_id == "vikings":
            from engine.vikings.determinize import determinize

            games.append((determinize(view, rng), view["seat"]))
        else:
            from engine.players.bbdeal import deal

            games.append((deal(view, rng), view["seat"]))
    out: dict[str, float] = {}
    t = time.process_time()
    for view, _legal in pos:
        (determinize(view, rng) if game_id == "vikings" else deal(view, rng))  # noqa: B018
    out["deal"] = (time.process_time() - t) / len(pos)
    t = time.process_time()
    for g, s in games:
        values(game_id, g, s)
    out["leaf"] = (time.process_time() - t) / len(games)
    for policy in ("heuristic", "random"):  # heuristic: the mean decision (COST_US fits it by legal actions)
        k = 0
        t = time.process_time()
        for g, _s in games:
            g = g.copy()
            hs = [heuristic_player(game_id, q) for q in range(4)]
            for _ in range(10 if policy == "heuristic" else 40):
                if g.is_over:
                    break
                q = g.acting_seats()[0]
                legal = g.legal_actions(q)
                a = hs[q].choose(g.view(q), legal) if policy == "heuristic" else legal[rng.randbelow(len(legal))]
                g.apply(q, a)
                k += 1
        out[policy] = (time.process_time() - t) / k
    return {k: round(v * 1e6, 1) for k, v in out.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/ismcts.py")
    ap.add_argument("what", choices=["match", "time", "costs", "calibrate"])
    ap.add_argument("game", choices=["vikings", "brian-boru"])
    ap.add_argument("--seats", default="hard,hard,montecarlo,montecarlo")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--budget", type=float, default=0.25)
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--set", action="append", default=[], help="NAME.option=value, e.g. hard.rollout=heuristic")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--log", help="match: append each game's result to this file as one JSON line")
    ap.add_argument("--start", type=int, default=0, help="match: the first game's number (a run continued: --start 50)")
    args = ap.parse_args(argv)
    if args.what == "match":
        sets: dict[str, dict[str, Any]] = {}
        for item in args.set:
            name, rest = item.split(".", 1)
            key, value = rest.split("=", 1)
            sets.setdefault(name, {})[key] = _value(value)
        seats = [x.strip() for x in args.seats.split(",")]
        print(json.dumps(match(args.game, seats, args.games, args.seed, args.budget, sets, args.jobs, args.log,
                               args.start)))
    elif args.what == "time":
        print(json.dumps(timing(args.game, args.positions, args.budget, args.seed)))
    elif args.what == "calibrate":
        from calibrate import calibrate

        print(json.dumps(calibrate(args.game, args.positions, args.seed)))
    else:
        print(json.dumps({"game": args.game, "cost_us": costs(args.game)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
