"""``step`` (the unchecked apply of the players' simulations, issue 30) agrees with ``apply``.

Seeded random games of both engines are played three times side by side, with ``apply``, with
``step`` and with a quiet ``step`` (no events), on legal actions only: after every action the events
(but for the quiet step's) and the whole state (``to_json``, RNG included) must be the same. And
Brian Boru's ``live_view`` shows what ``view`` shows.
"""

from __future__ import annotations

import pytest

from engine.brianboru import BrianBoruGame
from engine.core import Game, Rng
from engine.vikings import VikingsGame

CASES = [(VikingsGame, 4, None), (VikingsGame, 2, {"advanced": True}), (VikingsGame, 3, {"ships_any_order": False}),
         (BrianBoruGame, 4, None), (BrianBoruGame, 3, None), (BrianBoruGame, 5, None)]


@pytest.mark.parametrize(("cls", "n", "options"), CASES, ids=lambda x: getattr(x, "__name__", str(x)))
def test_step_changes_the_state_as_apply_does(cls: type[Game], n: int, options) -> None:
    for seed in range(3):
        checked = cls.new(["A", "B", "C", "D", "E"][:n], seed=seed, options=options)
        fast = checked.copy()
        quiet = checked.copy()
        chooser = Rng(seed)
        while not checked.is_over:
            s = checked.acting_seats()[0]
            legal = checked.legal_actions(s)
            assert fast.legal_actions(s) == legal
            assert quiet.legal_actions(s) == legal
            a = legal[chooser.randbelow(len(legal))]
            assert [e.to_json() for e in fast.step(s, a)] == [e.to_json() for e in checked.apply(s, a)]
            assert quiet.step(s, a, quiet=True) == []  # type: ignore[attr-defined]
            assert fast.to_json() == checked.to_json()
            assert quiet.to_json() == checked.to_json()
        assert fast.is_over and quiet.is_over


@pytest.mark.parametrize("n", [3, 4, 5])
def test_live_view_is_the_view_at_every_step(n: int) -> None:
    """``BrianBoruGame.live_view`` (issue 30): for every seat and a spectator, at every step of
    heuristic games, the same content as ``view``; its shared parts are the same objects while
    unchanged, and a new object once they change."""
    from engine.core import SharedList
    from engine.players.brianboru import BrianBoruHeuristic

    for seed in range(2):
        g = BrianBoruGame.new(["A", "B", "C", "D", "E"][:n], seed=seed)
        players = [BrianBoruHeuristic(seed * 10 + s) for s in range(n)]
        before = g.live_view(None)
        while not g.is_over:
            for seat in [None, *range(n)]:
                live = g.live_view(seat)
                assert live == g.view(seat)
                assert type(live["towns"]) is SharedList and type(live["claims"]) is SharedList
            now = g.live_view(None)
            assert (now["towns"] is before["towns"]) == (now["towns"] == before["towns"])
            assert (now["claims"] is before["claims"]) == (now["claims"] == before["claims"])
            before = now
            s = g.acting_seats()[0]
            legal = g.legal_actions(s)
            g.step(s, legal[0] if len(legal) == 1 else players[s].choose(g.live_view(s), legal))
        assert g.live_view(0) == g.view(0)


def test_the_heuristic_chooses_alike_from_live_views() -> None:
    """The Brian Boru heuristic's scores from ``live_view`` are those from ``view``, step by step."""
    from engine.players.brianboru import BrianBoruHeuristic

    for seed in range(3):
        g = BrianBoruGame.new(["A", "B", "C", "D"], seed=100 + seed)
        live_players = [BrianBoruHeuristic(s) for s in range(4)]
        view_players = [BrianBoruHeuristic(s) for s in range(4)]
        while not g.is_over:
            s = g.acting_seats()[0]
            legal = g.legal_actions(s)
            if len(legal) > 1:
                live_players[s].remember(g.live_view(s))
                view_players[s].remember(g.view(s))
                scores = live_players[s].score_actions(g.live_view(s), legal)
                assert scores == view_players[s].score_actions(g.view(s), legal)
                a = legal[scores.index(max(scores))]
            else:
                a = legal[0]
            g.step(s, a)


def test_keep_actions_in_text_order_without_sorting_the_pairs_B14() -> None:
    """Brian Boru's draft offers every pair of the pile sorted by text (B-14); ``legal_actions``
    builds them in that order directly: the same list as sorting the pairs, for random piles."""
    from engine.brianboru.data import DATA as D
    from engine.brianboru.game import _keep_actions

    rng = Rng(30)
    for size in range(2, 14):
        for _ in range(40):
            cards = list(D.card_values)
            rng.shuffle(cards)
            g = BrianBoruGame.new(["A", "B", "C", "D"], seed=size)
            assert g.s["pending"]["kind"] in ("keep", "town")
            g.s["pending"] = {"kind": "keep", "seats": [0, 1, 2, 3], "rule": "B-14"}
            g.s["pile"][0] = cards[:size]
            legal = g.legal_actions(0)
            assert legal == _keep_actions(cards[:size])
            assert [a.text for a in legal] == sorted(a.text for a in legal)


def _reference_randbelow(state: int, n: int) -> tuple[int, int]:
    """splitmix64 and rejection sampling as at 12896ee: (number, new state)."""
    mask = (1 << 64) - 1
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        x = z ^ (z >> 31)
        if x < limit:
            return x % n, state


def test_rng_draws_and_shuffles_as_before() -> None:
    """``Rng.randbelow`` and ``shuffle`` written out (issue 30) draw the numbers they drew: stored
    games and seeds replay."""
    source = Rng(2026)
    for n in [1, 2, 3, 7, 12, 78, 4096, 4097, 10**9, (1 << 63) + 5, (1 << 64) - 1]:
        for _ in range(200):
            state = source.next64()
            r = Rng(state)
            assert (r.randbelow(n), r.state) == _reference_randbelow(state, n)
    for size in [0, 1, 2, 5, 72, 78, 5000]:
        state = source.next64()
        items = list(range(size))
        r = Rng(state)
        r.shuffle(items)
        expected = list(range(size))
        for i in range(size - 1, 0, -1):
            j, state = _reference_randbelow(state, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected and r.state == state
    with pytest.raises(ValueError):
        Rng(1).randbelow(0)
