"""A tiny take-away game implementing ``engine.core.Game``, and its host adapter, for host tests.

Rules of the toy: 2–4 players sit around a pile of stones whose size is drawn from the seed
(``pile`` option overrides it). In turn, a player takes 1…``max`` stones (``take N``); who takes
the last stone wins. The start player is drawn from the seed unless given. Any seat may
``taunt`` at any time (a free action, like Vikings' ``exchange``): it only counts taunts.
With the ``ready`` option every seat must first say ``ready`` — a simultaneous decision, so
several seats act at once until all have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.games import BaseAdapter, OptionError
from bot.i18n import _
from engine.core import (
    Action,
    ActionSyntaxError,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    NotYourTurnError,
    Rng,
    WrongPhaseError,
)


@dataclass(frozen=True)
class Take(Action):
    n: int

    @property
    def text(self) -> str:
        return f"take {self.n}"

    def sort_key(self) -> tuple:
        return (0, self.n)


@dataclass(frozen=True)
class Ready(Action):
    @property
    def text(self) -> str:
        return "ready"

    def sort_key(self) -> tuple:
        return (2, 0)


@dataclass(frozen=True)
class Taunt(Action):
    @property
    def text(self) -> str:
        return "taunt"

    def sort_key(self) -> tuple:
        return (1, 0)


class ToyGame(Game):
    INFO: ClassVar[GameInfo] = GameInfo(id="toy", title="Take-away", min_players=2, max_players=4,
                                        hidden_hands=False, simultaneous=True,  # the ready option
                                        public=frozenset({"pile", "turn"}))
    GAME_ID: ClassVar[str] = INFO.id
    MIN_PLAYERS: ClassVar[int] = INFO.min_players
    MAX_PLAYERS: ClassVar[int] = INFO.max_players

    def __init__(self, data: dict[str, Any]) -> None:
        self._d = data

    @classmethod
    def new(
        cls,
        names: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
        start_seat: int | None = None,
    ) -> ToyGame:
        options = dict(options or {})
        if not cls.MIN_PLAYERS <= len(names) <= cls.MAX_PLAYERS:
            raise ValueError(f"the toy needs 2–4 players, not {len(names)}")
        rng = Rng(seed)
        pile = int(options["pile"]) if "pile" in options else 9 + rng.randbelow(8)
        if pile < 1 or int(options.get("max", 3)) < 1:
            raise ValueError("pile and max must be at least 1")
        start = rng.randbelow(len(names)) if start_seat is None else start_seat
        return cls({
            "names": list(names), "pile": pile, "max": int(options.get("max", 3)), "turn": start,
            "rng": rng.state, "taunts": [0] * len(names), "winner": None, "start": start,
            "waiting": list(range(len(names))) if options.get("ready") else [],
        })

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToyGame:
        return cls({**data, "names": list(data["names"]), "taunts": list(data["taunts"]),
                    "waiting": list(data["waiting"])})

    def to_json(self) -> dict[str, Any]:
        return {**self._d, "names": list(self._d["names"]), "taunts": list(self._d["taunts"]),
                "waiting": list(self._d["waiting"])}

    @property
    def names(self) -> list[str]:
        return list(self._d["names"])

    @property
    def pile(self) -> int:
        return self._d["pile"]

    @property
    def turn(self) -> int:
        return self._d["turn"]

    def acting_seats(self) -> list[int]:
        if self._d["waiting"]:
            return list(self._d["waiting"])
        return [] if self.is_over else [self._d["turn"]]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if self._d["waiting"]:
            seat = self._d["waiting"][0] if seat is None else seat
            return [Ready()] if seat in self._d["waiting"] else []
        seat = self._d["turn"] if seat is None else seat
        if self.is_over or seat != self._d["turn"]:
            return []
        return [Take(n) for n in range(1, min(self._d["max"], self.pile) + 1)]

    def free_actions(self, seat: int) -> list[Action]:
        return [] if self.is_over else [Taunt()]

    def parse_action(self, text: str) -> Action:
        words = text.split()
        if words == ["taunt"]:
            return Taunt()
        if words == ["ready"]:
            return Ready()
        if len(words) == 2 and words[0] == "take":
            try:
                return Take(int(words[1]))
            except ValueError:
                raise ActionSyntaxError(text, "take needs a whole number") from None
        raise ActionSyntaxError(text, "expected 'take N' or 'taunt'")

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        act = self.parse_action(action) if isinstance(action, str) else action
        if self.is_over:
            raise IllegalActionError(act, "the game is over")
        if isinstance(act, Taunt):
            self._d["taunts"][seat] += 1
            return [Event("taunt", seat)]
        if self._d["waiting"] or isinstance(act, Ready):
            if not isinstance(act, Ready) or not self._d["waiting"]:
                raise WrongPhaseError(act, "everybody must say ready first" if self._d["waiting"]
                                      else "the game has begun")
            if seat not in self._d["waiting"]:
                raise NotYourTurnError(act, "you are ready already")
            self._d["waiting"].remove(seat)
            return [Event("ready", seat)]
        if seat != self._d["turn"]:
            raise NotYourTurnError(act, "it is not your turn")
        assert isinstance(act, Take)
        if not 1 <= act.n <= self._d["max"]:
            raise IllegalActionError(act, f"take between 1 and {self._d['max']} stones", rule="T-1")
        if act.n > self.pile:
            raise IllegalActionError(act, f"only {self.pile} stones are left", rule="T-2")
        self._d["pile"] -= act.n
        events = [Event("took", seat, {"n": act.n, "left": self.pile})]
        if self.pile == 0:
            self._d["winner"] = seat
            events.append(Event("won", seat))
        else:
            self._d["turn"] = (seat + 1) % len(self._d["names"])
        return events

    @property
    def is_over(self) -> bool:
        return self._d["winner"] is not None

    def winners(self) -> list[int]:
        return [] if self._d["winner"] is None else [self._d["winner"]]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {"game": "toy", "pile": self.pile, "turn": self.turn, "names": self.names,
                "taunts": list(self._d["taunts"]), "winner": self._d["winner"]}


class ToyAdapter(BaseAdapter):
    """Host knowledge of the toy: options ``pile=N`` and ``max=N``, narration, a fake image."""

    game_cls = ToyGame
    title = "Take-away"
    verbs = {"take": "take", "taunt": "taunt"}

    def __init__(self) -> None:
        self.renders = 0

    def parse_options(self, words: Sequence[str]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        for word in words:
            if word == "ready":
                options["ready"] = True
                continue
            key, sep, value = word.partition("=")
            if not sep or key not in ("pile", "max") or not value.isdigit() or int(value) < 1:
                raise OptionError(_("Unknown option {option}. Try pile=N or max=N.", option=word))
            options[key] = int(value)
        return options

    def narrate(self, game: Game, events: Sequence[Event]) -> list[str]:
        lines = []
        for e in events:
            name = game.names[e.seat] if e.seat is not None else "?"
            if e.kind == "took":
                lines.append(f"{name} takes {e.data['n']} ({e.data['left']} left)")
            elif e.kind == "ready":
                lines.append(f"{name} is ready")
            elif e.kind == "taunt":
                lines.append(f"{name} taunts the table")
            elif e.kind == "won":
                lines.append(f"{name} takes the last stone")
        return lines

    def prompt(self, game: Game, seat: int) -> str:
        assert isinstance(game, ToyGame)
        if game._d["waiting"]:
            return "say ready"
        return f"take 1–{min(game._d['max'], game.pile)} stones"

    def text(self, game: Game, seat: int | None = None) -> str:
        assert isinstance(game, ToyGame)
        return f"pile: {game.pile}"

    def render(self, game: Game, *, seat: int | None = None) -> bytes | None:
        assert isinstance(game, ToyGame)
        self.renders += 1
        return f"TOY pile={game.pile} turn={game.turn}".encode()

    def notation(self, game: Game) -> str | None:
        assert isinstance(game, ToyGame)
        return f"toy pile {game.pile}"

    def rules(self, topic: str | None) -> list[str]:
        if topic is None:
            return ["Take 1 to max stones in turn; who takes the last stone wins."]
        if topic.upper() == "T-1":
            return ["T-1: take between 1 and max stones."]
        raise KeyError(topic)
