"""The search player's analysis (issue 25, ``/hint``): the choice it explains is the one it makes,
the margin and its parts are the rollouts' means, the why names the part that differs most, and
nothing hidden changes it."""

from __future__ import annotations

import json
import math

import pytest

from engine.brianboru import BrianBoruGame
from engine.core import msg_text
from engine.players.analysis import WIN_BONUS, Candidate, static, why
from engine.players.search import SearchPlayer
from engine.vikings import VikingsGame
from tests.engine.test_players import _bb_variant, _vikings_variant, random_position

GAMES = {"vikings": VikingsGame, "brian-boru": BrianBoruGame}
SEARCHED_BB = ("keep", "active", "lead", "play")


def searcher(game_id: str, seed: int = 3) -> SearchPlayer:
    # a small fixed amount of work and no wall-clock cut: the result depends on position and seed only
    return SearchPlayer(game_id, seed, budget=0.05, horizon=8, wall_limit=None)


def positions(game_id: str, want: int, searched: bool = True):
    """Seeded positions with a real choice (several legal actions; Brian Boru: searched or not)."""
    found = 0
    for seed in range(200):
        g = random_position(GAMES[game_id], seed, 6 + 5 * (seed % 20))
        if g.is_over:
            continue
        seat = g.acting_seats()[0]
        if len(g.legal_actions(seat)) < 2:
            continue
        if game_id == "brian-boru" and (g.s["pending"]["kind"] in SEARCHED_BB) != searched:
            continue
        yield g, seat
        found += 1
        if found == want:
            return


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hint_analysis_best_is_the_search_choice(game_id):
    """analyse() and choose() from the same seed agree; the runner-up is another legal action."""
    checked = 0
    for g, seat in positions(game_id, 5):
        view, legal = g.view(seat), g.legal_actions(seat)
        a = searcher(game_id).analyse(view, legal)
        assert a.best == searcher(game_id).choose(view, legal)
        assert a.searched and a.best in legal and a.candidates[0].action == a.best
        assert a.runner_up is not None and a.runner_up.action in legal and a.runner_up.action != a.best
        assert a.margin == a.candidates[0].margin and math.isfinite(a.margin)
        values = [c.value for c in a.candidates]
        assert values[0] >= max(values) - 1e-9 and values[1:] == sorted(values[1:], reverse=True)
        assert a.why is not None and "runner-up" in msg_text(a.why)
        assert a.sweeps >= 1 and all(c.rollouts == a.sweeps for c in a.candidates)
        checked += 1
    assert checked == 5


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hint_parts_add_up_to_the_margin(game_id):
    """Each candidate's margin is its own parts minus the best rival, as the rollouts end."""
    for g, seat in positions(game_id, 3):
        a = searcher(game_id).analyse(g.view(seat), g.legal_actions(seat))
        for c in a.candidates:
            assert sum(c.parts.values()) - c.rival == pytest.approx(c.margin, abs=1e-6)
            # the value the search ranks by adds the bonus of the games won (a share of WIN_BONUS)
            assert -1e-9 <= c.value - c.margin <= WIN_BONUS + 1e-9


def test_hint_analysis_of_a_brianboru_decision_left_to_the_heuristic_B22():
    """Secondary actions (B-22 …) are not rolled out: the heuristic's order, the position's margin."""
    [(g, seat)] = list(positions("brian-boru", 1, searched=False))
    view, legal = g.view(seat), g.legal_actions(seat)
    a = searcher("brian-boru").analyse(view, legal)
    assert not a.searched and a.best == searcher("brian-boru").choose(view, legal)
    assert a.margin == static("brian-boru", view)[0]
    assert a.runner_up is not None and a.runner_up.action != a.best
    assert a.why is not None and "heuristic" in msg_text(a.why)


def test_hint_analysis_with_one_legal_action():
    g = VikingsGame.new(["A", "B", "C"], seed=1)
    seat = g.acting_seats()[0]
    legal = g.legal_actions(seat)[:1]
    a = searcher("vikings").analyse(g.view(seat), legal)
    assert a.best == legal[0] and a.runner_up is None and a.why is None and not a.searched
    assert a.margin == static("vikings", g.view(seat))[0]


def test_hint_why_names_the_part_that_differs_most():
    g = VikingsGame.new(["A", "B"], seed=1)
    act = g.legal_actions(g.acting_seats()[0])[0]
    other = Candidate(act, 1.0, 1.0, 20.0, {"vp": 10.0, "gold": 2.0, "homeland": 9.0})
    homeland = Candidate(act, 3.5, 3.5, 20.0, {"vp": 10.0, "gold": 2.5, "homeland": 11.0})
    assert msg_text(why(homeland, other)) == "Mostly your homeland: about 2.0 VP more than after the runner-up."
    held_back = Candidate(act, 4.0, 4.0, 17.0, {"vp": 10.0, "gold": 2.0, "homeland": 9.0})
    assert msg_text(why(held_back, other)) == (
        "Mostly it holds the best rival back: about 3.0 VP less for them than after the runner-up.")
    even = Candidate(act, 1.01, 1.01, 20.0, {"vp": 10.0, "gold": 2.0, "homeland": 9.01})
    assert "about even" in msg_text(why(even, other))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hint_analysis_ignores_what_the_seat_cannot_see(game_id):
    """Redealt hands (Brian Boru) or restacked tiles and bag (Vikings): the same analysis."""
    checked = 0
    for g, seat in positions(game_id, 3):
        variants = [g, *(_bb_variant(g, seat, k) if game_id == "brian-boru" else _vikings_variant(g, k)
                         for k in (11, 12))]
        views = [v.view(seat) for v in variants]
        assert views[0] == views[1] == views[2]
        found = [searcher(game_id).analyse(json.loads(json.dumps(v)), x.legal_actions(seat))
                 for v, x in zip(views, variants)]
        assert found[0] == found[1] == found[2]
        checked += 1
    assert checked == 3


def test_hint_wall_limit_must_be_positive_or_none():
    with pytest.raises(ValueError, match="wall_limit"):
        SearchPlayer("vikings", 1, wall_limit=0)
    assert SearchPlayer("vikings", 1, wall_limit=None).wall_limit is None
