"""Play computer players against each other and report by level (issue 8).

    python -m engine.players.arena --game vikings --players heuristic,random,random,random \\
        --games 40 --seed 1 [--budget 1.0]

plays ``--games`` games, rotating the seats (game ``i`` moves every player ``i`` seats on), and prints
JSON keyed by level::

    {"heuristic": {"games": 40, "wins": 37, "mean_vp": 81.2, "mean_decision_ms": 4.1}, "random": {…}}

A shared win counts as a win for each winner; ``games`` counts the games a level took part in (once
per game, however many seats it held); ``mean_vp`` is over the seats the level held. Every player
sees only ``game.view(seat)`` and that seat's legal actions.

``--ladder GAME`` plays the levels' ladder instead (:mod:`engine.players.ladder`: openskill ratings
and pairwise win rates with 95 % intervals)::

    python -m engine.players.arena --ladder vikings --games 40 --seed 1 [--budget 0.25] [--levels …]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from . import SEARCHING, canonical_level, make_player
from .analysis import final_vp
from .match import NAMES, GameRecord, IllegalChoice, game_class, play_game


def logged_game(game_id: str, names: Sequence[str], seed: int, level: str = "heuristic") -> list[tuple[int, str]]:
    """A whole seeded game of computer players of ``level`` (seat ``i`` seeded ``seed + i``) at a table of
    ``names``: its moves as ``(seat, action text)``, the way a host's log keeps them."""
    from . import make_player

    game = game_class(game_id).new(list(names), seed=seed)
    bots = [make_player(game_id, level, seed=seed + i) for i in range(len(names))]
    moves: list[tuple[int, str]] = []
    while not game.is_over:
        seat = game.acting_seats()[0]
        action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
        game.apply(seat, action)
        moves.append((seat, str(action)))
    return moves


def run_arena(
    game_id: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    budget: float | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, dict[str, float]]:
    """Play ``games`` games rotating seats; return the per-level summary."""
    levels = [canonical_level(lv, internal=True) for lv in levels]  # ValueError names an unknown one
    cls = game_class(game_id)
    if not cls.MIN_PLAYERS <= len(levels) <= cls.MAX_PLAYERS:
        raise ValueError(f"{game_id} is for {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players, not {len(levels)}")
    stats: dict[str, dict[str, float]] = {
        lv: {"games": 0, "wins": 0, "vp": 0, "seats": 0, "decisions": 0, "seconds": 0.0} for lv in dict.fromkeys(levels)
    }
    n = len(levels)
    for i in range(games):
        seating = [levels[(s - i) % n] for s in range(n)]
        players = []
        for s, lv in enumerate(seating):
            pseed = (seed * 1_000_003 + i * 101 + s) & 0xFFFFFFFF
            opts = {"budget": budget} if (lv in SEARCHING and budget is not None) else {}
            players.append(make_player(game_id, lv, pseed, **opts))
        _game, rec = play_game(game_id, players, seed * 7919 + i, options)
        for lv in set(seating):
            stats[lv]["games"] += 1
            if any(seating[w] == lv for w in rec.winners):
                stats[lv]["wins"] += 1
        for s, lv in enumerate(seating):
            st = stats[lv]
            st["vp"] += rec.vp[s]
            st["seats"] += 1
            st["decisions"] += rec.decisions[s]
            st["seconds"] += rec.seconds[s]
    out = {}
    for lv, st in stats.items():
        out[lv] = {
            "games": int(st["games"]),
            "wins": int(st["wins"]),
            "mean_vp": round(st["vp"] / st["seats"], 1) if st["seats"] else 0.0,
            "mean_decision_ms": round(1000 * st["seconds"] / st["decisions"], 2) if st["decisions"] else 0.0,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="meadhall arena", description="computer players against each other")
    ap.add_argument("--game", choices=["vikings", "brian-boru"])
    ap.add_argument("--players", help="comma-separated levels, one per seat: random, easy, normal, hard "
                    "(heuristic and search, the old names, stay accepted), montecarlo (issue 8's search, for "
                    "comparison); with --ladder: the number of seats")
    ap.add_argument("--ladder", choices=["vikings", "brian-boru"], default=None,
                    help="play the levels' ladder in this game (openskill ratings, pairwise win rates)")
    ap.add_argument("--progress", action="store_true", help="with --ladder: a line on stderr as each game ends")
    ap.add_argument("--levels", default=None, help="with --ladder: the levels (default: random,easy,normal,hard,"
                    "montecarlo)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=None, help="seconds per decision of a searching level "
                    "(hard, montecarlo; default 1.0)")
    ap.add_argument("--option", action="append", default=[], help="Vikings table option, e.g. advanced")
    args = ap.parse_args(argv)
    if args.ladder is not None:
        return _ladder(args)
    if args.game is None or args.players is None:
        print("arena: --game and --players are needed (or --ladder GAME)", file=sys.stderr)
        return 2
    levels = [x.strip() for x in args.players.split(",") if x.strip()]
    if args.games < 1:
        print("arena: --games must be at least 1", file=sys.stderr)
        return 2
    if args.budget is not None and args.budget <= 0:
        print("arena: --budget must be more than 0 seconds", file=sys.stderr)
        return 2
    options = {o: True for o in args.option} or None
    try:
        result = run_arena(args.game, levels, args.games, args.seed, args.budget, options)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def _progress(done: int, table: list[str], vp: list[int]) -> None:
    """``--progress``: one line a finished game on stderr (a long ladder can be followed)."""
    print(f"game {done}: " + ", ".join(f"{lv} {v}" for lv, v in zip(table, vp)), file=sys.stderr, flush=True)


def _ladder(args: argparse.Namespace) -> int:
    from .ladder import LADDER, run_ladder

    levels = [x.strip() for x in args.levels.split(",") if x.strip()] if args.levels else list(LADDER)
    if args.budget is not None and args.budget <= 0:
        print("arena: --budget must be more than 0 seconds", file=sys.stderr)
        return 2
    try:
        seats = int(args.players) if args.players else None
    except ValueError:
        print(f"arena: with --ladder, --players is a number of seats, not {args.players!r}", file=sys.stderr)
        return 2
    options = {o: True for o in args.option} or None
    try:
        result = run_ladder(args.ladder, args.games, args.seed, args.budget, levels, seats, options,
                            progress=_progress if args.progress else None)
    except ValueError as e:
        print(f"arena: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


__all__ = ["NAMES", "GameRecord", "IllegalChoice", "final_vp", "game_class", "play_game", "logged_game", "run_arena",
           "main"]


if __name__ == "__main__":
    raise SystemExit(main())
