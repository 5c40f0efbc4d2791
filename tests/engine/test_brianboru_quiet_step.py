"""Brian Boru's quiet step and its shortcuts (issue 30, item 3) against the plain ways.

Seeded random games with 3 to 5 players, at every step: the legal actions equal those built the
plain way from the pending decision (its options as actions, sorted by their text); a game played
with the quiet ``step`` and a game played with ``apply`` have the same state (``to_json``, RNG
included). A quiet game is also played to its end without being read on the way, so what a quiet
step leaves to be written when read (the final scoring) is written only then, and the same.
"""

from __future__ import annotations

import pytest

from engine.brianboru import BrianBoruGame
from engine.brianboru.game import TOWN_NAMES, TOWN_VERBS, _keep_actions, act
from engine.core import Action, Rng

NAMES = ["A", "B", "C", "D", "E"]


def plain_legal(g: BrianBoruGame, seat: int) -> list[Action]:
    """The legal actions of ``seat`` built the plain way from the pending decision."""
    p = g.s["pending"]
    if p is None:
        return []
    kind = p["kind"]
    if kind == "keep":
        return list(_keep_actions(g.s["pile"][seat])) if seat in p["seats"] else []
    if p["seat"] != seat:
        return []
    if kind in TOWN_VERBS:
        out = [act(kind, TOWN_NAMES[x]) for x in p["options"]]
    elif kind == "expand":
        out = [act(kind, "no" if x < 0 else TOWN_NAMES[x]) for x in p["options"]]
    else:
        out = [act(kind, v) for v in p["options"]]
    return sorted(out, key=lambda a: a.text)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_quiet_step_and_legal_actions_against_the_plain_ways(n: int) -> None:
    for seed in range(8):
        checked = BrianBoruGame.new(NAMES[:n], seed=100 + seed)
        quiet = checked.copy()
        unread = checked.copy()  # stepped quietly, never read until the end
        chooser = Rng(seed)
        steps = 0
        while not checked.is_over:
            for seat in range(n):
                assert quiet.legal_actions(seat) == plain_legal(checked, seat)
            s = quiet.acting_seats()[0]
            legal = quiet.legal_actions(s)
            assert legal == checked.legal_actions(s)
            a = legal[chooser.randbelow(len(legal))]
            checked.apply(s, a)
            quiet.step(s, a, quiet=True)
            unread.step(s, a, quiet=True)
            assert quiet.to_json() == checked.to_json()
            steps += 1
        assert quiet.is_over and unread.is_over and steps > 100
        assert unread.s["final"] is None  # not written yet: nobody read it
        reads = [lambda g: g.winners(), lambda g: g.view(0), lambda g: g.live_view(None), lambda g: g.to_json()]
        first = seed % len(reads)  # each reader in turn is the first to read the unread game
        for read in reads[first:] + reads[:first]:
            assert read(unread) == read(checked)
