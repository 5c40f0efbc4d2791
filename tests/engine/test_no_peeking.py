"""No peeking (issue 30, item 5): no level's choice depends on what its seat cannot see.

For seeded decisions of both games, of many kinds, every hidden card and tile is replaced by another
deal consistent with the seat's view — Vikings: the face-down stacks, the bag and the special
stacks (V-1, V-2, V-45); Brian Boru: the other hands and draft piles, the cards set aside, the
Viking deck and the marriage stack (B-7, B-13, B-14), the seat's draft memory honoured — and every
level, seeded alike, must choose the same action in both games.
"""

from __future__ import annotations

import pytest

from engine.brianboru import BrianBoruGame
from engine.core import Game, Rng
from engine.players import LEVELS, heuristic_player, make_player
from engine.players.base import Player, RandomPlayer
from engine.players.bbdeal import deal
from engine.vikings import VikingsGame
from engine.vikings.determinize import determinize

EVERY = ("random", "easy", "normal", "hard", "montecarlo")
SMALL = {"budget": 0.01, "wall_limit": None}  # a fixed amount of work: the same choice from the same seed


def player(game_id: str, level: str, seed: int) -> Player:
    return make_player(game_id, level, seed, **(SMALL if level in ("hard", "montecarlo") else {}))


def decisions(game_id: str, seed: int, every: int) -> list[tuple[Game, int]]:
    """Copies of a seeded game (heuristic and random seats) at every ``every``-th decision."""
    if game_id == "vikings":
        g: Game = VikingsGame.new(["a", "b", "c", "d"], seed=seed, options={"advanced": seed % 2 == 1})
    else:
        g = BrianBoruGame.new(["a", "b", "c", "d"], seed=seed)
    ps: list[Player] = [heuristic_player(game_id, seed + q) if q % 2 else RandomPlayer(seed + q) for q in range(4)]
    out = []
    k = 0
    while not g.is_over:
        s = g.acting_seats()[0]
        legal = g.legal_actions(s)
        if len(legal) > 1 and k % every == 0:
            out.append((g.copy(), s))
        k += 1
        g.apply(s, ps[s].choose(g.view(s), legal))
    return out


def hidden(game_id: str, g: Game, seat: int) -> object:
    """What the seat cannot see."""
    if game_id == "vikings":
        v: VikingsGame = g  # type: ignore[assignment]
        return (v.stacks, v.bag, v.special_stacks)
    s = g.s  # type: ignore[attr-defined]
    return ([h for q, h in enumerate(s["hand"]) if q != seat], [p for q, p in enumerate(s["pile"]) if q != seat],
            s["aside"], s["viking_deck"], s["marriage_stack"])


def test_the_levels_are_the_ones_checked():
    assert set(LEVELS) <= set(EVERY)


@pytest.mark.parametrize("game_id", ["vikings", "brian-boru"])
def test_no_level_peeks_at_hidden_cards_or_tiles_V1_V2_B14(game_id):
    rng = Rng(30)
    kinds: set[str] = set()
    changed = 0
    points = decisions(game_id, 3, 9) + decisions(game_id, 4, 9)
    for i, (g, seat) in enumerate(points):
        view = g.view(seat)
        other = determinize(view, rng) if game_id == "vikings" else deal(view, rng)
        assert other.view(seat) == view  # the seat cannot tell the two games apart
        changed += hidden(game_id, other, seat) != hidden(game_id, g, seat)
        kinds.add(view["phase"] if game_id == "vikings" else view["pending"]["kind"])
        for level in EVERY:
            here = player(game_id, level, 100 + i).choose(view, g.legal_actions(seat))
            there = player(game_id, level, 100 + i).choose(other.view(seat), other.legal_actions(seat))
            assert str(here) == str(there), (level, view["round"], kinds)
    assert changed >= len(points) * 3 // 4  # the hidden parts really were dealt again
    if game_id == "vikings":
        assert {"buy", "place", "sail"} <= kinds
    else:
        assert {"keep", "active", "lead", "play", "option", "extra"} <= kinds
