"""One conformance check for every game engine (the OpenSpiel pattern).

``random_playout`` plays a seeded game choosing uniformly among ``legal_actions()`` of an
acting seat and, at every step, checks the JSON round trip and the game's own invariants
(a callable given by the game's test module). It returns the finished game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine.core import Game, Rng

Invariant = Callable[[Game], None]


def roundtrip_equal(game: Game) -> None:
    data = game.to_json()
    text = json.dumps(data)  # plain JSON only: raises on anything else
    again = type(game).from_json(json.loads(text)).to_json()
    assert again == data, "JSON round trip changed the state"


def random_playout(
    game_cls: type[Game],
    names: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    invariants: Invariant | None = None,
    max_steps: int = 20_000,
    check_every: int = 1,
    chooser_seed: int | None = None,
) -> Game:
    game = game_cls.new(names, seed=seed, options=options)
    chooser = Rng(seed * 7919 + 17 if chooser_seed is None else chooser_seed)
    steps = 0
    while not game.is_over:
        seats = game.acting_seats()
        assert seats, "game not over but nobody owes a decision"
        seat = chooser.choice(seats)
        actions = game.legal_actions(seat)
        assert actions, f"seat {seat} must act but has no legal action"
        assert actions == sorted(actions, key=str) or _is_sorted(actions), "legal_actions not sorted"
        for a in actions[:3]:
            assert game.parse_action(str(a)) == a, f"text form of {a!r} does not round-trip"
        action = chooser.choice(actions)
        game.apply(seat, action)
        steps += 1
        if steps % check_every == 0:
            roundtrip_equal(game)
            if invariants:
                invariants(game)
        assert steps < max_steps, "game did not end"
    roundtrip_equal(game)
    if invariants:
        invariants(game)
    assert game.acting_seats() == []
    assert game.winners(), "a finished game has at least one winner"
    return game


def _is_sorted(actions: list) -> bool:
    try:
        return actions == sorted(actions)
    except TypeError:
        return False
