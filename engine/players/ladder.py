"""The ladder (issue 30): the levels against each other, rated.

    meadhall arena --ladder vikings --games 40 --seed 1 [--budget 0.25] [--levels random,easy,…] [--players 4]

plays ``--games`` seeded games among :data:`LADDER` (``random``, ``easy``, ``normal``, ``hard`` and
``montecarlo``, issue 8's flat search kept for comparison), one seat per level at a table of
``--players`` seats (the game's largest table, at most the number of levels, by default). Game ``i``
leaves out the levels that do not fit in turn and rotates the seats, so every level meets every
other in every seat. It prints JSON::

    {"game": "vikings", "games": N, "seed": S, "budget": B,
     "levels": {"hard": {"mu": …, "sigma": …, "ordinal": …, "games": …, "wins": …, "mean_vp": …,
                         "mean_decision_ms": …}, …},
     "pairs": [{"a": "hard", "b": "normal", "games": n, "a_wins": x, "rate": p, "low": l, "high": h}, …]}

* ``mu``, ``sigma``, ``ordinal``: openskill's Plackett-Luce rating (its defaults, as
  ``bot/host/ratings.py``), folded over the games in order, with the ranks the host gives a finished
  game (the winners first, the others by final VP);
* a pair counts the games where both levels sat: ``a_wins`` is how often ``a``'s seat finished above
  ``b``'s (a winner above a non-winner, else by final VP; a tie counts half); ``low``–``high`` is the
  95 % Wilson interval of ``rate``;
* ``wins`` counts games won (a shared win counts for each winner), ``mean_vp`` the final VP.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from . import SEARCHING, canonical_level, make_player
from .analysis import final_vp
from .match import game_class, play_game

LADDER = ("random", "easy", "normal", "hard", "montecarlo")
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional: ties count half)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def finish_order(winners: Sequence[int], vp: Sequence[int]) -> list[tuple[int, int]]:
    """Per seat, the key its finish is compared by: (won, final VP); higher is better."""
    won = set(winners)
    return [(1 if s in won else 0, vp[s]) for s in range(len(vp))]


def ranks(winners: Sequence[int], vp: Sequence[int]) -> list[int]:
    """Openskill ranks as the host gives them (``bot.host.ratings.ranks_of``): winners 1, the rest
    after them by VP, equal VP sharing a rank."""
    won = set(winners)
    out = []
    for s in range(len(vp)):
        if s in won:
            out.append(1)
        else:
            better = sum(1 for o in range(len(vp)) if o not in won and o != s and vp[o] > vp[s])
            out.append(1 + len(won) + better)
    return out


def seating(levels: Sequence[str], seats: int, i: int) -> list[str]:
    """Game ``i``'s levels by seat: a window of ``seats`` levels moving one along each game's cycle,
    rotated by ``i`` so every level takes every seat."""
    k = len(levels)
    start = (i // seats) % k if seats < k else 0
    chosen = [levels[(start + j) % k] for j in range(seats)]
    return [chosen[(s - i) % seats] for s in range(seats)]


def run_ladder(game_id: str, games: int, seed: int, budget: float | None = None,
               levels: Sequence[str] = LADDER, seats: int | None = None,
               options: dict[str, Any] | None = None, progress: Any = None) -> dict[str, Any]:
    from openskill.models import PlackettLuce

    levels = [canonical_level(lv, internal=True) for lv in levels]
    if len(set(levels)) != len(levels):
        raise ValueError("each level once in the ladder")
    if len(levels) < 2:
        raise ValueError("a ladder needs at least two levels")
    if games < 1:
        raise ValueError("games must be at least 1")
    cls = game_class(game_id)
    seats = seats or min(cls.MAX_PLAYERS, len(levels))
    if not cls.MIN_PLAYERS <= seats <= cls.MAX_PLAYERS or seats > len(levels):
        raise ValueError(f"{game_id} is for {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players, one a level: "
                         f"not {seats} seats for {len(levels)} levels")
    model = PlackettLuce()
    rating = {lv: model.rating(name=lv) for lv in levels}
    st = {lv: {"games": 0, "wins": 0, "vp": 0, "decisions": 0, "seconds": 0.0} for lv in levels}
    # a pair names the stronger-listed level first (the ladder lists the levels weakest first)
    pair_games = {pair: 0 for pair in combinations(reversed(levels), 2)}
    pair_wins = {pair: 0.0 for pair in combinations(reversed(levels), 2)}
    for i in range(games):
        table = seating(levels, seats, i)
        players = []
        for s, lv in enumerate(table):
            pseed = (seed * 1_000_003 + i * 101 + s) & 0xFFFFFFFF
            opts = {"budget": budget} if (lv in SEARCHING and budget is not None) else {}
            players.append(make_player(game_id, lv, pseed, **opts))
        game, rec = play_game(game_id, players, seed * 7919 + i, options)
        vp = final_vp(game)
        winners = game.winners()
        teams = [[rating[lv]] for lv in table]
        for lv, [new] in zip(table, model.rate(teams, ranks=[float(r) for r in ranks(winners, vp)])):
            rating[lv] = new
        for s, lv in enumerate(table):
            x = st[lv]
            x["games"] += 1
            x["wins"] += 1 if s in winners else 0
            x["vp"] += vp[s]
            x["decisions"] += rec.decisions[s]
            x["seconds"] += rec.seconds[s]
        key = finish_order(winners, vp)
        where = {lv: s for s, lv in enumerate(table)}
        for a, b in pair_games:
            if a in where and b in where:
                pair_games[(a, b)] += 1
                ka, kb = key[where[a]], key[where[b]]
                pair_wins[(a, b)] += 1.0 if ka > kb else 0.5 if ka == kb else 0.0
        if progress is not None:
            progress(i + 1, table, vp)
    out_levels = {}
    for lv in levels:
        x, r = st[lv], rating[lv]
        out_levels[lv] = {
            "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3),
            "games": int(x["games"]), "wins": int(x["wins"]),
            "mean_vp": round(x["vp"] / x["games"], 1) if x["games"] else 0.0,
            "mean_decision_ms": round(1000 * x["seconds"] / x["decisions"], 2) if x["decisions"] else 0.0,
        }
    pairs = []
    for (a, b), n in pair_games.items():
        w = pair_wins[(a, b)]
        lo, hi = wilson(w, n)
        pairs.append({"a": a, "b": b, "games": n, "a_wins": w, "rate": round(w / n, 3) if n else 0.0,
                      "low": round(lo, 3), "high": round(hi, 3)})
    return {"game": game_id, "games": games, "seed": seed, "budget": budget, "levels": out_levels, "pairs": pairs}

