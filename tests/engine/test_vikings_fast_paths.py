"""The players' fast paths agree with the checked game (issue 30, item 3).

The Vikings heuristic plays a sailor's trip out on a copy of one homeland (``sail_actions`` /
``sail_move``) instead of on a whole game rebuilt from the view; here every sailing decision of
seeded games is scored both ways, the reference being the way of 12896ee (a determinized game,
``apply`` and ``legal_actions``), and the values must be the same floats (V-34, V-35, V-44, V-49).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine.core import Action, Rng
from engine.players.base import argmax
from engine.players.vikings import Context, VikingsHeuristic, home_value
from engine.vikings import VikingsGame
from engine.vikings.determinize import determinize


def _reference_sail_scores(view: Mapping[str, Any], legal: Sequence[Action], ctx: Context) -> list[float]:
    """As ``VikingsHeuristic._sail_scores`` was at 12896ee: the trip played on whole games."""
    seat = view["seat"]
    game = determinize(view, Rng(5))
    out = []
    for a in legal:
        g = game.copy()
        g.apply(seat, a)
        steps = 0
        while g.sailor_under_way(seat) and steps < 30:
            nxt = g.legal_actions(seat)
            vals = []
            for b in nxt:
                g2 = g.copy()
                g2.apply(seat, b)
                vals.append(home_value(g2.homeland(seat), ctx))
            g.apply(seat, argmax(nxt, vals))
            steps += 1
        out.append(home_value(g.homeland(seat), ctx))
    return out


@pytest.mark.parametrize("options", [None, {"advanced": True}, {"single_sailor": True, "specials": True}])
def test_sail_lookahead_on_one_homeland_matches_whole_games_V34(options) -> None:
    checked = 0
    for seed in range(3):
        g = VikingsGame.new(["A", "B", "C", "D"], seed=seed, options=options)
        players = [VikingsHeuristic(10 * seed + s) for s in range(4)]
        chooser = Rng(seed)
        while not g.is_over:
            s = g.acting_seats()[0]
            legal = g.legal_actions(s)
            view = g.view(s)
            if g.phase == "sail" and len(legal) > 1:
                ctx = Context(view, s)
                assert players[s]._sail_scores(view, legal, ctx) == _reference_sail_scores(view, legal, ctx)
                checked += 1
            # heuristic and random moves in turn: more kinds of homeland and trip
            a = players[s].choose(view, legal) if chooser.randbelow(2) else legal[chooser.randbelow(len(legal))]
            g.apply(s, a)
    assert checked >= 10


def test_threat_and_defence_shortcuts_match_the_zone_V30_V31() -> None:
    """``threatened_cells`` and ``defended_ships`` walk the ships instead of building the zone: the
    same cells and ships as the zone and ``ships()`` give, on every homeland of seeded games."""
    seen = 0
    for seed in range(4):
        g = VikingsGame.new(["A", "B", "C", "D"], seed=seed, options={"advanced": True} if seed % 2 else None)
        chooser = Rng(seed)
        while not g.is_over:
            s = g.acting_seats()[0]
            legal = g.legal_actions(s)
            g.apply(s, legal[chooser.randbelow(len(legal))])
            for q in range(4):
                h = g.homeland(q)
                zone = h.threat_zone()
                assert h.threatened_cells() == sorted(c for c in zone if h.has_viking(*c))
                assert h.defended_ships() == [f"^{col}" for col, _sail, d in h.ships() if d]
                seen += bool(zone)
    assert seen > 0
