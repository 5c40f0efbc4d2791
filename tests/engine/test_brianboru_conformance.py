"""Seeded random playouts of Brian Boru through the shared conformance harness (3, 4 and 5 players).

``random_playout`` checks the JSON round trip after every action; the invariants below check the
rules' bounds and that no view depends on hidden information.
"""

from __future__ import annotations

import json

import pytest

from engine.brianboru import DATA, BrianBoruGame
from engine.core import Event
from tests.conformance import random_playout

NAMES = ["Brian", "Mael", "Sitric", "Gormlaith", "Donnchad"]
GAMES = {3: 70, 4: 70, 5: 60}  # 200 games in all
HIDDEN_CHECK_EVERY = 13  # the view-independence check is the costly one


def scrubbed(game: BrianBoruGame, seat: int | None) -> BrianBoruGame:
    """The same game with everything ``seat`` may not see replaced by other values of the same size."""
    d = game.to_json()
    n = d["n"]
    for q in range(n):
        if q == seat:
            continue
        d["hand"][q] = [90 + i for i in range(len(d["hand"][q]))]
        d["pile"][q] = [80 + i for i in range(len(d["pile"][q]))]
        if d["choice"][q] is not None:
            d["choice"][q] = [70, 71]
    for key in ("aside", "discard", "viking_deck"):
        d[key] = [0] * len(d[key])
    d["marriage_stack"] = ["?"] * len(d["marriage_stack"])
    d["marriage_out"] = ["?"] * len(d["marriage_out"])
    d["rng"] = 12345
    p = d["pending"]
    if p is not None and p["kind"] != "keep" and p["seat"] != seat:
        p["options"] = []
    return BrianBoruGame.from_json(d)


def make_invariants(n: int):
    deal = DATA.deal[n]
    calls = [0]

    def check(game: BrianBoruGame) -> None:
        s = game.s
        calls[0] += 1
        for key in ("coins", "vp", "renown", "invaders", "church"):
            assert all(x >= 0 for x in s[key]), f"{key} below zero (B-23): {s[key]}"
        assert 1 <= min(s["track"]) and max(s["track"]) <= DATA.top_space
        above = [x for x in s["track"] if x > 1]
        assert len(above) == len(set(above)), "two discs share a marriage track space above 1"
        owner, viking = s["owner"], s["viking"]
        for t, o in enumerate(owner):
            assert -1 <= o < n
            assert not viking[t] or o >= 0, "a Viking marker must cover a disc"
            assert not s["monastery"][t] or o >= 0, "a monastery stands in a controlled town"
        if s["active"] >= 0:
            assert owner[s["active"]] == -1, "the active town holds no disc"
            assert s["marker"] == -1
        else:
            assert 0 <= s["marker"] < n or s["phase"] == "tricks"
        assert all(-1 <= o < n for o in s["claim_owner"])
        assert all(s["claim_up"][r] for r in range(8) if s["claim_owner"][r] >= 0)
        if s["phase"] == "tricks":
            played = {q for q, _ in s["trick"]}
            for q in range(n):
                assert len(s["hand"][q]) == deal - s["trick_no"] - (q in played), "hand sizes 8/6/5 (B-15, B-16)"
        if s["phase"] == "draft":
            assert s["trick_no"] == 0 and s["trick"] == []
        if s["phase"] == "upkeep":
            assert s["trick_no"] == deal - 1, "7/5/4 tricks (B-16)"
            assert all(h == [] for h in s["hand"])
        if game.is_over:
            assert s["round"] == (3 if n == 3 else 4), "3 or 4 rounds (B-10)"
            assert game.winners() and game.view()["final"]["winners"]
        if calls[0] % HIDDEN_CHECK_EVERY == 0 or game.is_over:
            for seat in [None, *range(n)]:
                v = game.view(seat)
                assert json.loads(json.dumps(v)) == v, "a view is plain JSON"
                assert v == scrubbed(game, seat).view(seat), f"view({seat}) depends on hidden information"
                if seat is None:
                    assert "you" not in v
                else:
                    assert v["seat"] == seat
                    assert not any({"hand", "draft", "choice"} & set(p) for p in v["players"])

    return check


@pytest.mark.slow  # a long seeded playout: skipped by `pytest -m "not slow"`, run in CI
@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_playouts_conform(n):
    for seed in range(GAMES[n]):
        game = random_playout(BrianBoruGame, NAMES[:n], seed=seed * 31 + n, invariants=make_invariants(n))
        assert game.is_over and game.s["round"] == (3 if n == 3 else 4)


def test_events_are_plain_json_and_public():
    game = BrianBoruGame.new(NAMES[:4], seed=3)
    from engine.core import Rng

    rng = Rng(5)
    while not game.is_over:
        seat = rng.choice(game.acting_seats())
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        for e in events:
            assert isinstance(e, Event)
            assert Event.from_json(json.loads(json.dumps(e.to_json()))) == e
            if e.kind == "kept":  # simultaneous draft: nobody learns which cards were kept
                assert e.data == {}


def test_same_seed_same_game():
    a = random_playout(BrianBoruGame, NAMES[:4], seed=99)
    b = random_playout(BrianBoruGame, NAMES[:4], seed=99)
    assert a.to_json() == b.to_json()
