"""Seeded random playouts of Vikings with invariants at every step (the OpenSpiel pattern)."""

from __future__ import annotations

import itertools

import pytest

from engine.vikings import VikingsGame
from engine.vikings.notation import parse_table, print_table
from tests.conformance import random_playout

NAMES = ["Astrid", "Bjorn", "Cnut", "Dagny"]


class Invariants:
    """78 vikings (V-1), 76 tiles (V-2), no negative gold/VP (V-4), 12 purchases a round (V-12),
    notation round trip, views that hide the stacks and the bag (V-6) and, during the auction and
    the removal, the round's tiles (V-42)."""

    def __init__(self) -> None:
        self.purchases: dict[int, int] = {}

    def __call__(self, g: VikingsGame) -> None:
        assert g.viking_count() == 78, g.viking_count()
        assert g.tile_count() == 76, g.tile_count()
        assert all(x >= 0 for x in g.gold) and all(x >= 0 for x in g.vp)
        assert 0 <= g.purchases <= 12
        if g.phase in ("buy", "place"):
            self.purchases[g.round] = max(self.purchases.get(g.round, 0), g.purchases)
        text = g.to_notation()
        assert print_table(parse_table(text)) == text
        v = g.view(0)
        assert "stacks" not in v and isinstance(v["stacks_left"], int) and isinstance(v["bag"], int)
        if g.phase in ("bid", "remove"):  # V-42: no tile is laid out before the removal
            assert v["wheel"] == [None] * 12 and g.wheel == [None] * 12


def _check_end(g: VikingsGame, inv: Invariants) -> None:
    assert g.is_over and g.round == 6
    assert g.winners()
    assert all(k in inv.purchases for k in range(1, 7))
    assert len(g.bag) == 78 - 72 - (6 if g.options["auction"] else 0)


@pytest.mark.slow  # a long seeded playout: skipped by `pytest -m "not slow"`, run in CI
@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("block", range(4))
def test_random_playouts_basic(n, block):
    """≥ 200 games: 3 player counts × 4 blocks × 17 seeds = 204."""
    for seed in range(block * 17, block * 17 + 17):
        inv = Invariants()
        g = random_playout(VikingsGame, NAMES[:n], seed=seed * 31 + n, invariants=inv)
        _check_end(g, inv)


OPTION_SETS = [
    dict(zip(("auction", "single_sailor", "specials"), bits))
    for bits in itertools.product([False, True], repeat=3)
    if any(bits)
]


@pytest.mark.slow  # a long seeded playout: skipped by `pytest -m "not slow"`, run in CI
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "+".join(k for k, v in o.items() if v))
def test_random_playouts_progress_options(options):
    """≥ 100 games for every combination of the three progress options (V-40 … V-49)."""
    for seed in range(100):
        n = 2 + seed % 3
        inv = Invariants()
        g = random_playout(VikingsGame, NAMES[:n], seed=seed, options=options, invariants=inv, check_every=1)
        _check_end(g, inv)


@pytest.mark.slow  # a long seeded playout: skipped by `pytest -m "not slow"`, run in CI
def test_random_playouts_strict_ships_V20_D6():
    """Strict ships (V-20): the ships row is always one gap-free block, beyond column 3 only once 1-3 are full."""
    for seed in range(30):
        n = 2 + seed % 3
        inv = Invariants()

        def check(g: VikingsGame, inv=inv) -> None:
            inv(g)
            for h in g.homelands:
                cols = [i + 1 for i, t in enumerate(h.rows[0]) if t != "."]
                if cols:
                    assert cols == list(range(cols[0], cols[0] + len(cols))), h.rows[0]
                if any(c > 3 for c in cols):
                    assert {1, 2, 3} <= set(cols), h.rows[0]

        g = random_playout(VikingsGame, NAMES[:n], seed=seed, options={"ships_any_order": False}, invariants=check)
        _check_end(g, inv)
