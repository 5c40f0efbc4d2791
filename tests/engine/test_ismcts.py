"""The ``hard`` level (issue 30): Brian Boru's draft memory, deals rebuilt at any decision, ISMCTS.

Strength and speed figures live in ``docs/performance-players.md`` (bench/ismcts.py), not here.
"""

from __future__ import annotations

import copy
import json

import pytest

from engine.brianboru import BrianBoruGame
from engine.core import Rng
from engine.players import bbdeal, make_player
from engine.players.analysis import Analysis
from engine.players.base import RandomPlayer
from engine.players.brianboru import BrianBoruHeuristic
from engine.players.ismcts import ISMCTSPlayer
from engine.vikings import VikingsGame

TINY = {"budget": 0.02, "wall_limit": None}


def bb_decisions(n: int, seed: int, every: int = 1):
    """(game, seat) at every ``every``-th decision of a seeded Brian Boru game of mixed players."""
    g = BrianBoruGame.new([f"p{i}" for i in range(n)], seed=seed)
    ps = [BrianBoruHeuristic(seed * 10 + i) if (seed + i) % 2 else RandomPlayer(seed * 10 + i) for i in range(n)]
    k = 0
    while not g.is_over:
        for s in g.acting_seats():
            if k % every == 0:
                yield g, s
            k += 1
        s = g.acting_seats()[0]
        g.apply(s, ps[s].choose(g.view(s), g.legal_actions(s)))


# --------------------------------------------------------------------------- the draft memory (B-14)


def test_the_draft_memory_is_the_seats_own_and_no_spectator_sees_it_B14():
    g = BrianBoruGame.new(["a", "b", "c", "d"], seed=3)
    while g.s["phase"] == "setup":
        s = g.acting_seats()[0]
        g.apply(s, g.legal_actions(s)[0])
    piles = [list(g.s["pile"][q]) for q in range(4)]
    for q in range(4):
        assert g.view(q)["you"]["drafted"] == []
        g.apply(q, g.legal_actions(q)[0])
    for q in range(4):
        (step,) = g.view(q)["you"]["drafted"]
        assert step["to"] == (q + 1) % 4
        assert sorted(step["kept"] + step["passed"]) == sorted(piles[q])
        assert sorted(g.s["pile"][(q + 1) % 4]) == step["passed"]  # passed to the left (B-14)
    spectator = g.view(None)
    assert "you" not in spectator and "drafted" not in json.dumps(spectator)
    for q in (1, 2, 3):  # another seat sees its own draft only, never seat 0's
        (step,) = g.view(q)["you"]["drafted"]
        assert [step["kept"], step["passed"]] == g.s["memory"]["draft"][q][0]
        assert [step["kept"], step["passed"]] != g.s["memory"]["draft"][0][0]


def test_the_rounds_plays_are_public_and_the_memory_ends_with_the_tricks_B17_B21():
    for g, _s in bb_decisions(4, 2, every=7):
        view = g.view(None)
        if g.s["phase"] == "tricks":
            played = [(e["seat"], e["card"]) for e in view["played"]]
            trick = [(c["seat"], c["card"]) for c in view["trick"]["cards"]]
            assert played[len(played) - len(trick):] == trick  # the trick under way is the last played
        elif g.s["phase"] in ("upkeep", "over"):
            assert "played" not in view and "memory" not in g.s


def test_old_states_without_memory_load_and_play_on():
    g = BrianBoruGame.new(["a", "b", "c"], seed=4)
    state = g.to_json()
    state.pop("memory", None)
    h = BrianBoruGame.from_json(state)
    assert "drafted" not in h.view(0).get("you", {})
    p = make_player("brian-boru", "hard", 1, **TINY)
    for _ in range(40):
        if h.is_over:
            break
        s = h.acting_seats()[0]
        h.apply(s, p.choose(h.view(s), h.legal_actions(s)))


# --------------------------------------------------------------------------- deals at any decision


@pytest.mark.parametrize("n", [3, 4, 5])
def test_a_deal_shows_the_seat_exactly_its_view_at_every_decision(n, monkeypatch):
    """Every decision kind, the draft memory honoured (never the uniform fallback), the same legal
    actions: the rebuilt game is one the seat cannot tell from the real one."""
    fallback = []
    monkeypatch.setattr(bbdeal, "_uniform", lambda *a: fallback.append(1))
    kinds = set()
    rng = Rng(n)
    for seed in range(3):
        for g, s in bb_decisions(n, seed):
            view = g.view(s)
            world = bbdeal.deal(view, rng)
            assert world.view(s) == view
            assert [a.text for a in world.legal_actions(s)] == view["you"]["legal"]
            kinds.add(view["pending"]["kind"])
    assert not fallback
    assert {"keep", "active", "lead", "play", "option", "extra", "town"} <= kinds


def test_a_deal_keeps_what_the_seat_passed_with_the_seats_after_it_B14():
    """The cards a seat passed are with the seats it passed them to (or played), never set aside."""
    rng = Rng(5)
    checked = 0
    for g, s in bb_decisions(4, 1, every=3):
        view = g.view(s)
        drafted = view["you"].get("drafted", [])
        if not drafted or view["phase"] not in ("draft", "tricks"):
            continue
        for _ in range(3):
            world = bbdeal.deal(view, rng)
            first = set(drafted[0]["passed"])
            assert not first & set(world.s["aside"])
            if view["phase"] == "draft" and len(drafted) == 1:  # the next seat's pile is what s passed
                assert set(world.s["pile"][(s + 1) % 4]) == first
            played = {e["card"]: e["seat"] for e in view.get("played", [])}
            for q in range(4):
                if q != s:  # an opponent's hand holds no card it already played
                    assert not set(world.s["hand"][q]) & set(played)
            checked += 1
    assert checked > 20


def test_a_deal_puts_an_opponents_plays_in_its_own_hand_B18():
    """Played cards came from the player's hand: the deal gives every opponent cards it could have held."""
    rng = Rng(8)
    for g, s in bb_decisions(3, 4, every=5):
        view = g.view(s)
        if view["phase"] != "tricks":
            continue
        world = bbdeal.deal(view, rng)
        mine = set(view["you"]["hand"])
        for q in range(3):
            if q != s:
                assert not set(world.s["hand"][q]) & mine
        assert sorted(c for h in world.s["hand"] for c in h) == sorted(
            set(c for h in world.s["hand"] for c in h))


def test_deal_refuses_a_spectator_and_another_seats_decision():
    g = BrianBoruGame.new(["a", "b", "c"], seed=1)
    with pytest.raises(ValueError, match="seat's own view"):
        bbdeal.deal(g.view(None), Rng(1))
    seat = g.acting_seats()[0]
    other = (seat + 1) % 3
    with pytest.raises(ValueError, match="own decisions"):
        bbdeal.deal(g.view(other), Rng(1))


# --------------------------------------------------------------------------- the ISMCTS player


@pytest.mark.parametrize("game_id", ["vikings", "brian-boru"])
def test_hard_is_ismcts_and_its_analysis_matches_its_choice(game_id):
    cls = VikingsGame if game_id == "vikings" else BrianBoruGame
    g = cls.new(["a", "b", "c", "d"], seed=6)
    p = make_player(game_id, "hard", 3, budget=0.05, horizon=6, wall_limit=None)
    assert isinstance(p, ISMCTSPlayer) and p.level == "hard"
    for _ in range(30):
        s = g.acting_seats()[0]
        legal = g.legal_actions(s)
        if len(legal) > 2:
            break
        g.apply(s, legal[0])
    view = g.view(s)
    before = copy.deepcopy(view)
    found = make_player(game_id, "hard", 3, budget=0.05, horizon=6, wall_limit=None).analyse(view, legal)
    assert view == before
    assert isinstance(found, Analysis) and found.searched and found.sweeps >= 2
    assert found.best == make_player(game_id, "hard", 3, budget=0.05, horizon=6, wall_limit=None).choose(view, legal)
    assert found.candidates[0].action == found.best and found.runner_up is not None
    visits = [c.rollouts for c in found.candidates]
    assert visits == sorted(visits, reverse=True) and sum(visits) == found.sweeps
    assert found.margin == found.candidates[0].margin and found.margin_se is not None
    assert found.why is not None


@pytest.mark.parametrize("game_id", ["vikings", "brian-boru"])
def test_hard_tries_each_of_its_first_moves_however_small_the_budget(game_id):
    """The game analysis (issue 31) asks hard to value two actions, the best and the one played, at a
    small budget: each must come back valued (it once came back with one, and the review's lookup of
    the other raised StopIteration in a worker thread, which hangs an awaiting task for ever)."""
    cls = VikingsGame if game_id == "vikings" else BrianBoruGame
    g = cls.new(["a", "b"] if game_id == "vikings" else ["a", "b", "c"], seed=5)
    checked = 0
    while not g.is_over and checked < 12:
        s = g.acting_seats()[0]
        legal = g.legal_actions(s)
        if len(legal) > 1:
            pair = [legal[-1], legal[0]]
            found = make_player(game_id, "hard", 1, budget=0.0001, wall_limit=None).analyse(g.view(s), pair)
            assert found.searched and {c.action for c in found.candidates} == set(pair)
            checked += 1
        g.apply(s, legal[0])
    assert checked == 12


def test_hard_searches_brian_borus_secondary_decisions_B20_B22():
    """Options, extras, expansions, monasteries …: searched, not left to the heuristic."""
    seen = set()
    for g, s in bb_decisions(4, 0):
        kind = g.s["pending"]["kind"]
        legal = g.legal_actions(s)
        if kind in seen or kind in ("keep", "active", "lead", "play") or len(legal) < 2:
            continue
        found = ISMCTSPlayer("brian-boru", 2, budget=0.01, wall_limit=None).analyse(g.view(s), legal)
        assert found.searched and found.best in legal
        seen.add(kind)
    assert {"option", "extra"} <= seen


@pytest.mark.parametrize("game_id", ["vikings", "brian-boru"])
def test_hard_is_a_fixed_amount_of_work_same_view_same_seed_same_choice(game_id):
    cls = VikingsGame if game_id == "vikings" else BrianBoruGame
    g = cls.new(["a", "b", "c"], seed=9)
    s = g.acting_seats()[0]
    view, legal = g.view(s), g.legal_actions(s)
    runs = [ISMCTSPlayer(game_id, 4, budget=0.03, wall_limit=None).analyse(view, legal) for _ in range(2)]
    assert runs[0] == runs[1]
    assert ISMCTSPlayer(game_id, 4, budget=1.0, max_rollouts=5, horizon=4, wall_limit=None).analyse(view, legal).sweeps == 5


@pytest.mark.parametrize("rollout", ["heuristic", 0.5])
def test_hard_rollout_policies(rollout):
    g = VikingsGame.new(["a", "b"], seed=2)
    s = g.acting_seats()[0]
    p = ISMCTSPlayer("vikings", 1, budget=0.02, rollout=rollout, wall_limit=None)
    assert p.choose(g.view(s), g.legal_actions(s)) in g.legal_actions(s)


@pytest.mark.parametrize("bad, message", [
    ({"budget": 0}, "budget"), ({"top_k": 0}, "top_k"), ({"horizon": "forever"}, "horizon"),
    ({"rollout": "clever"}, "rollout"), ({"rollout": 1.5}, "rollout"), ({"wall_limit": 0}, "wall_limit"),
    ({"max_rollouts": 0}, "max_rollouts"),
])
def test_hard_refuses_bad_options(bad, message):
    with pytest.raises(ValueError, match=message):
        make_player("vikings", "hard", 1, **bad)


@pytest.mark.parametrize("bad, message", [
    ({"budget": 0}, "budget must be more than 0"), ({"top_k": 0}, "top_k must be at least 1"),
    ({"horizon": -1}, "horizon is 'round', 'game'"), ({"wall_limit": -2}, "wall_limit is a positive"),
    ({"max_rollouts": 0}, "max_rollouts must be at least 1"),
])
def test_both_searches_refuse_a_bad_option_in_the_same_words(bad, message):
    """montecarlo and hard share one check of their common options (engine.players.base)."""
    for level in ("montecarlo", "hard"):
        with pytest.raises(ValueError, match=message):
            make_player("brian-boru", level, 1, **bad)
