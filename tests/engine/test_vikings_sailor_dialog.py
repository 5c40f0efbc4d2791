"""The sailor dialog's plan (``sail plan …``): a whole sailing as one decision (V-33 … V-35,
V-44, V-49, [D-12]); applied atomically and refused naming the sailor, its cells and the rule."""

from __future__ import annotations

import pytest

from engine.core import ActionSyntaxError, IllegalActionError, WrongPhaseError
from engine.vikings import VikingsGame
from engine.vikings.actions import SailPlan
from tests.vikings_helpers import new_game, set_homeland, snapshot


def _sailing(homeland_text: str, round_: int = 2, **options) -> VikingsGame:
    g = new_game(2, **options)
    set_homeland(g, 0, homeland_text)
    g.round, g.phase, g.turn, g.sail_queue = round_, "sail", 0, [0, 1]
    return g


def _refused(g: VikingsGame, text: str) -> IllegalActionError:
    before = snapshot(g)
    assert not g.is_legal(0, text)
    with pytest.raises(IllegalActionError) as e:
        g.apply(0, text)
    assert snapshot(g) == before  # a refused plan changes nothing, not even its first trips
    return e.value


@pytest.mark.parametrize("text, canonical", [
    ("sail plan N2 S3 / G4 G5", "sail plan N2 S3 / G4 G5"),
    ("SAIL PLAN s3 n2/g5 g4 / End", "sail plan N2 S3 / G4 G5 / end"),
    ("sail plan boat N3 N1 / end", "sail plan boat N1 N3 / end"),
    ("sail plan end", "sail plan end"),
])
def test_sailor_dialog_plan_text_round_trips_V34(text, canonical):
    g = VikingsGame.new(["a", "b"], seed=1)
    plan = g.parse_action(text)
    assert isinstance(plan, SailPlan) and str(plan) == canonical
    assert g.parse_action(str(plan)) == plan


@pytest.mark.parametrize("text", ["sail plan", "sail plan / end", "sail plan N2 // G4", "sail plan boat",
                                  "sail plan end / N2", "sail plan N2 end", "sail plan X9"])
def test_sailor_dialog_malformed_plan_is_a_syntax_error(text):
    with pytest.raises(ActionSyntaxError):
        VikingsGame.new(["a", "b"], seed=1).parse_action(text)


def test_sailor_dialog_legal_multi_trip_plan_is_one_decision_V34():
    g = _sailing("N: L Ma R\nS: L R\nG: L R\nbase: N3 S1 G1 B2")
    assert g.is_legal(0, "sail plan N1 N2 N3 / S1 G2 / end")
    assert not any(isinstance(a, SailPlan) for a in g.legal_actions(0))  # plans are never enumerated
    events = g.apply(0, "sail plan N1 N2 N3 / S1 G2 / end")
    assert [e.kind for e in events][:8] == ["sailor", "sailed", "sailed", "sailed", "sailor", "sailed", "sailed",
                                            "score"]
    h = g.homelands[0]
    assert h.rows[2] == ["L*", "Ma*", "R*"] and h.rows[3][0] == "L*" and h.rows[4][1] == "R*"
    assert h.base["B"] == 0 and g.out_vikings.count("B") == 2  # both sailors left the game
    assert g.last == {"seat": 0, "action": "sail plan N1 N2 N3 / S1 G2 / end", "cells": ["N1", "N2", "N3", "S1", "G2"]}


def test_sailor_dialog_plan_without_end_leaves_the_sailing_open_V34():
    g = _sailing("N: L Ma R\nS: L R\nbase: N1 S1 B2")
    g.apply(0, "sail plan N1")
    assert g.phase == "sail" and g.turn == 0 and g.trip is None  # the second sailor may still go


def test_sailor_dialog_mixed_kinds_in_an_all_of_one_kind_trip_refused_V34():
    g = _sailing("N: L Ma R\nS: L R\nbase: N3 S1 B2")
    err = _refused(g, "sail plan N1 N2 S1 / end")
    assert err.rule == "V-34" and "sailor 1 (N1 N2 S1), S1" in err.reason


def test_sailor_dialog_all_of_one_kind_stopping_short_refused_V34():
    g = _sailing("N: L Ma R\nS: L R\nbase: N3 S1 B2")
    err = _refused(g, "sail plan S1 / N1 N2 / end")
    assert err.rule == "V-34" and err.reason.startswith("sailor 2 (N1 N2)") and "nobles" in err.reason


def test_sailor_dialog_more_trips_than_sailors_refused_V34():
    g = _sailing("N: L Ma R\nS: L R\nG: L R\nbase: N1 S1 G1 B2")
    err = _refused(g, "sail plan N1 / S1 / G1")
    assert err.rule == "V-34" and err.reason.startswith("sailor 3 (G1)")


def test_sailor_dialog_single_sailor_moves_one_viking_V44():
    g = _sailing("N: L Ma R\nS: L R\nbase: N3 S1 B2", single_sailor=True)
    err = _refused(g, "sail plan N1 N2 / end")
    assert err.rule == "V-44" and "sailor 1 (N1 N2), N2" in err.reason
    g.apply(0, "sail plan N1 / S2 / end")
    assert g.homelands[0].rows[2][0] == "L*" and g.homelands[0].rows[3][1] == "R*"


def test_sailor_dialog_boat_lets_a_sailor_move_as_in_V34_under_single_sailor_V44_V49():
    g = _sailing("N: L Ma R\nS: L R\nbase: N3 S1 B2\nspecials: boat", single_sailor=True, specials=True)
    g.apply(0, "sail plan boat N1 N2 N3 / S1 / end")
    h = g.homelands[0]
    assert h.rows[2] == ["L*", "Ma*", "R*"] and h.rows[3][0] == "L*"
    assert "boat" not in h.specials and "boat" in g.out_specials


def test_sailor_dialog_boat_without_single_sailor_refused_V49():
    g = _sailing("N: L Ma R\nbase: N3 B1\nspecials: boat", specials=True)
    assert _refused(g, "sail plan boat N1 N2 N3").rule == "V-49"


def test_sailor_dialog_forced_trip_incomplete_refused_in_round_six_V35_D12():
    g = _sailing("N: L R\nS: L R\nG: L R\nbase: N1 S1 G1 B1", round_=6)
    err = _refused(g, "sail plan N1 S1 / end")
    assert err.rule == "V-35" and "[D-12]" in err.reason and err.reason.startswith("sailor 1 (N1 S1)")
    g.apply(0, "sail plan N1 S1 G2 / end")
    assert g.homelands[0].base["G"] == 0


def test_sailor_dialog_stopping_too_early_refused_in_round_six_V35():
    g = _sailing("N: L R\nS: L R\nG: L R\nbase: N1 S1 G1 B2", round_=6)
    err = _refused(g, "sail plan S1 / end")  # the trip is a full one, but the noble needs a sailor too
    assert err.rule == "V-35" and err.reason.startswith("sailor 1 (S1)")
    g3 = _sailing("N: L R\nS: L R\nbase: N2 S1 B2", round_=6)
    err = _refused(g3, "sail plan S1 N1 / end")  # a sailor and a noble with a free tile remain
    assert err.rule == "V-35" and "too early" in err.reason
    assert _refused(g3, "sail plan end").rule == "V-35"


def test_sailor_dialog_plan_before_round_six_may_stop_early_D12():
    g = _sailing("N: L R\nS: L R\nG: L R\nbase: N1 S1 G1 B2", round_=4)
    g.apply(0, "sail plan N1 S1 / end")
    assert g.homelands[0].base["G"] == 1 and g.phase != "sail"


def test_sailor_dialog_plan_while_a_sailor_is_under_way_refused_V34():
    g = _sailing("N: L R\nS: L R\nbase: N1 S1 B2")
    g.apply(0, "sail N1")
    assert _refused(g, "sail plan S1 / end").rule == "V-34"


def test_sailor_dialog_plan_outside_a_major_scoring_is_the_wrong_phase_V34():
    g = new_game(2)
    with pytest.raises(WrongPhaseError):
        g.apply(g.turn, "sail plan N1 / end")


def test_sailor_dialog_plan_replays_deterministically_from_its_text_V34():
    g = _sailing("N: L Ma R\nS: L R\nG: L R\nbase: N3 S1 G1 B2")
    again = g.copy()
    g.apply(0, "sail plan N1 N2 N3 / S1 G2 / end")
    again.apply(0, again.parse_action(g.last["action"]))
    assert again.to_json() == g.to_json()
