"""The Vikings quiet step's shortcuts agree with the plain ways (issue 30, item 3).

A quiet ``step`` (random playouts) writes no scoring lines and keeps its ``last`` record unwritten
until it is read; the sailing targets, ``can_sail`` and the threat zone read the rows directly.
Here each is compared with the plain way, at every step of seeded random games (basic and
advanced), beside the whole-state comparison of ``tests/engine/test_fast_paths.py``.
"""

from __future__ import annotations

import pytest

from engine.core import Rng
from engine.vikings import VikingsGame
from engine.vikings.data import KINDS, SAILOR, SHIP_DEPTH
from engine.vikings.game import sail_targets
from engine.vikings.homeland import Homeland
from engine.vikings.scoring import Purse, major_scoring, small_scoring

OPTIONS = [None, {"advanced": True}, {"single_sailor": True, "specials": True}]


def _plain_sail_targets(h: Homeland, trip) -> list[tuple[int, int]]:
    """V-34 as written at 12896ee: the empty tiles of every kind that may sail now, sorted."""
    if trip is None:
        kinds = [k for k in KINDS if k != SAILOR and h.base[k] > 0]
    elif trip["mode"] == "all":
        kinds = [trip["kinds"][0]] if h.base[trip["kinds"][0]] > 0 else []
    elif trip["mode"] == "each":
        kinds = [k for k in KINDS if k != SAILOR and h.base[k] > 0 and k not in trip["kinds"]]
    else:
        kinds = [k for k in KINDS if k != SAILOR and h.base[k] > 0]
    return sorted(cell for k in kinds for cell in h.empty_tiles(k))


def _plain_can_sail(h: Homeland) -> bool:
    return h.base[SAILOR] > 0 and any(k != SAILOR and h.base[k] > 0 and h.empty_tiles(k) for k in KINDS)


def _plain_threat_zone(h: Homeland) -> set[tuple[int, int]]:
    return {(row, col) for col, sail, defended in h.ships() if not defended for row in range(1, SHIP_DEPTH[sail] + 1)}


def _games(options, seeds=range(4)):
    """Every state of seeded random games, quiet steps only; yields the game before each step."""
    for seed in seeds:
        g = VikingsGame.new(["A", "B", "C", "D"], seed=seed, options=options)
        chooser = Rng(seed * 31 + 7)
        while not g.is_over:
            seat = g.acting_seats()[0]
            legal = g.legal_actions(seat)
            yield g, seat, legal
            g.step(seat, legal[chooser.randbelow(len(legal))], quiet=True)


@pytest.mark.parametrize("options", OPTIONS)
def test_scorings_without_lines_change_the_purse_alike_V32_V33(options) -> None:
    checked = 0
    for g, _seat, _legal in _games(options):
        for h, gold, vp in zip(g.homelands, g.gold, g.vp):
            for scoring in (small_scoring, major_scoring):
                loud, quiet = Purse(gold, vp), Purse(gold, vp)
                with_lines = scoring(h, loud)
                without = scoring(h, quiet, lines=False)
                assert (quiet.gold, quiet.vp, without.gold, without.vp) == (
                    loud.gold, loud.vp, with_lines.gold, with_lines.vp)
                assert with_lines.messages and not without.messages
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("options", OPTIONS)
def test_sailing_targets_can_sail_and_threat_read_from_the_rows_V31_V34_V35(options) -> None:
    trips = 0
    for g, seat, _legal in _games(options, range(8)):
        for h in g.homelands:
            assert h.can_sail() == _plain_can_sail(h)
            assert h.threat_zone() == _plain_threat_zone(h)
            assert sail_targets(h, None) == _plain_sail_targets(h, None)
        if g.phase == "sail" and g.trip is not None:
            h = g.homelands[seat]
            assert sail_targets(h, g.trip) == _plain_sail_targets(h, g.trip)
            trips += 1
    assert trips > 5  # trips under way (with single-sailor most end at once, V-44)


@pytest.mark.parametrize("options", OPTIONS)
def test_a_quiet_steps_last_record_is_the_applied_one(options) -> None:
    for seed in range(3):
        quiet = VikingsGame.new(["A", "B", "C"], seed=seed, options=options)
        loud = quiet.copy()
        chooser = Rng(seed)
        while not quiet.is_over:
            seat = quiet.acting_seats()[0]
            legal = quiet.legal_actions(seat)
            action = legal[chooser.randbelow(len(legal))]
            quiet.step(seat, action, quiet=True)
            loud.apply(seat, action)
            if chooser.randbelow(3) == 0:  # read now and then: written out when read, kept after
                assert quiet.last == loud.last
        assert quiet.last == loud.last and quiet.to_json() == loud.to_json()
