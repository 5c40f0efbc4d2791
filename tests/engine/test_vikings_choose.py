"""The Vikings heuristic's ``choose`` takes the action ``score_actions`` ranks first (issue 30, item 3).

``choose`` values the candidates of a purchase, a placement and a sailor's trip with a ``_Frame``
(home_value's terms by column, so a candidate costs a few columns instead of a whole pass) and
computes exact scores only for those within ``_TOL`` of the best; ``score_actions`` stays the exact
list (the pinned games compare it bit for bit). Here, at every decision of seeded games (2 to 4
players, the rule options, heuristic and random seats), ``choose`` must give the first of the best
of ``score_actions`` and move the player's RNG alike; and the frame's values must be home_value's
less one constant per frame, up to rounding, for every placement and trip state met.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.players.base import RandomPlayer, argmax
from engine.players.vikings import (
    Context,
    VikingsHeuristic,
    _column,
    _Frame,
    _home,
    _Sailing,
    _tokens,
    best_placement_value,
    home_value,
)
from engine.vikings import VikingsGame
from engine.vikings import actions as A
from engine.vikings.data import KIND_ROW, ROUNDS
from engine.vikings.game import sail_actions, sail_move

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]
OPTIONS: list[dict[str, Any] | None] = [None, {"advanced": True}, {"ships_any_order": False},
                                        {"single_sailor": True}, {"advanced": True, "single_sailor": True}]
# (players, seed, options, seats: "h" heuristic / "r" random)
CASES = [(2 + k % 3, 7100 + k, OPTIONS[k % len(OPTIONS)], ("hhhh", "hrhh", "hhrh")[k % 3][: 2 + k % 3])
         for k in range(15)]


def _game(case: tuple[int, int, dict[str, Any] | None, str]) -> tuple[VikingsGame, list[Any]]:
    n, seed, options, seats = case
    g = VikingsGame.new(NAMES[:n], seed=seed, options=options)
    players = [VikingsHeuristic(seed * 10 + s) if seats[s] == "h" else RandomPlayer(seed * 10 + s, "vikings")
               for s in range(n)]
    return g, players


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p-seed{c[1]}-{c[3]}")
def test_choose_is_the_first_best_of_score_actions(case) -> None:
    g, players = _game(case)
    decisions = 0
    while not g.is_over:
        s = g.acting_seats()[0]
        legal = g.legal_actions(s)
        p = players[s]
        if isinstance(p, VikingsHeuristic) and len(legal) > 1:
            view = g.view(s)
            twin = copy.deepcopy(p)
            want = argmax(list(legal), twin.score_actions(view, legal))
            got = p.choose(view, legal)
            assert got == want, (view["phase"], view["round"], got, want)
            assert p.rng.state == twin.rng.state
            decisions += 1
        else:
            got = p.choose(g.view(s), legal)
        g.step(s, got)
    assert decisions > 50


def _constant(fr: _Frame, rows: list[list[str]]) -> float:
    """The frame's constant: the column terms of its homeland."""
    return sum(_column(fr, *_tokens(rows, i))[0] for i in range(max(len(r) for r in rows)))


@pytest.mark.parametrize("case", CASES[:6], ids=lambda c: f"{c[0]}p-seed{c[1]}-{c[3]}")
def test_frame_values_are_home_values_less_a_constant(case) -> None:
    g, players = _game(case)
    checked = sailed = 0
    while not g.is_over:
        s = g.acting_seats()[0]
        legal = g.legal_actions(s)
        view = g.view(s)
        h = _home(view["players"][s])
        if view["phase"] in ("buy", "place") and not h.start_pending:
            ctx = Context(view, s)
            fr = _Frame(h, ctx)
            k = _constant(fr, h.rows)
            if view["phase"] == "buy":
                combos = {(view["wheel"][a.pos]["tile"], view["wheel"][a.pos]["viking"]) for a in legal}
            else:
                combos = {(view["pending"]["tile"], view["pending"]["viking"])}
            for tile, viking in sorted(combos):
                based = dict(h.base)
                based[viking] += 1
                cells = h.cells_for(tile, view["options"]["ships_any_order"])
                for r, c in cells or [(0, 0)]:
                    ways = [(tile, based)] + ([(tile + "*", h.base)] if r == KIND_ROW.get(viking) else [])
                    for tok, base in ways:
                        want = home_value(h.variant(r, c, tok if c else "", base), ctx)
                        assert fr.placed(r, c, tok, fr.based(base)) + k == pytest.approx(want, rel=0, abs=1e-9)
                        checked += 1
                if cells:  # the purchase's best placement at once
                    want = best_placement_value(h, tile, viking, ctx, view["options"]["ships_any_order"])
                    got = fr.best(cells, tile, KIND_ROW.get(viking), fr.based_plus(viking), fr.based_here())
                    assert got + k == pytest.approx(want, rel=0, abs=1e-9)
        if view["phase"] == "place" and h.start_pending and len(legal) > 1:  # one frame per start cell
            ctx = Context(view, s)
            p = VikingsHeuristic(0)
            got = p._start_place_values(h, view["pending"], legal, ctx, view["options"]["ships_any_order"])
            assert got == pytest.approx(p.score_actions(view, legal), rel=0, abs=1e-9)
            checked += 1
        if view["phase"] == "sail":  # every first and second step of a trip from here
            ctx = Context(view, s)
            fr = _Frame(h, ctx)
            k = _constant(fr, h.rows)
            single = bool(view["options"].get("single_sailor"))
            for a in legal:
                if type(a) is not A.Sail:
                    assert _Sailing(fr).value(h.base) + k == pytest.approx(home_value(h, ctx), rel=0, abs=1e-9)
                    continue
                h1 = h.copy()
                trip = view["trip"] and {"kinds": list(view["trip"]["kinds"]), "mode": view["trip"]["mode"],
                                         "boat": view["trip"]["boat"]}
                trip, _ends = sail_move(h1, trip, a, single)
                st = _Sailing(fr)
                assert st.value(h1.base, a.row, a.col) + k == pytest.approx(home_value(h1, ctx), rel=0, abs=1e-9)
                st.add(a.row, a.col)
                assert st.value(h1.base) + k == pytest.approx(home_value(h1, ctx), rel=0, abs=1e-9)
                for b in sail_actions(h1, trip, single, view["round"] == ROUNDS):
                    if type(b) is A.Sail:
                        h2 = h1.copy()
                        sail_move(h2, {"kinds": list(trip["kinds"]), "mode": trip["mode"], "boat": trip["boat"]}, b,
                                  single)
                        want = home_value(h2, ctx)
                        assert st.value(h2.base, b.row, b.col) + k == pytest.approx(want, rel=0, abs=1e-9)
                        sailed += 1
        a = legal[0] if len(legal) == 1 else players[s].choose(view, legal)
        g.step(s, a)
    assert checked > 100
    assert sailed > 0
