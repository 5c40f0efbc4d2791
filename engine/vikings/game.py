"""The Vikings game: state, legal actions, apply (V-5 … V-49).

Phases, in the order a round visits them:

* ``bid`` (auction option, V-41) → ``remove`` (V-42) → ``lay`` (V-42) — only with ``auction``;
* ``buy`` (V-12 … V-18) ↔ ``place`` (V-19 … V-29; with ``special`` for V-46 and ``swap`` for V-49);
* ``sail`` — major scorings, per player in turn order (V-33 … V-35);
* ``over`` after the final scoring (V-37, V-38).

``apply`` validates completely before changing anything, so an illegal action leaves the state
exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.core import (
    Action,
    ActionSyntaxError,
    EngineError,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    NotYourTurnError,
    OptionSpec,
    Rng,
    WrongPhaseError,
    json_copy,
    msg,
)

from . import actions as A
from .data import (
    AUCTION,
    BUILDING_TILES,
    ISLAND_COUNTS,
    ISLAND_ROWS,
    KIND_ROW,
    KIND_WORD,
    KIND_WORDS,
    KINDS,
    OPTION_DEFAULTS,
    PER_KIND,
    ROUNDS,
    ROW_KIND,
    SAILING,
    SAILOR,
    SCORING_AFTER,
    SETUP,
    SHIP_ROW,
    SHIPS,
    SPECIAL_TILES,
    SPECIALS,
    START_TILE,
    START_TILES,
    cell_name,
)
from .homeland import EMPTY, Homeland
from .scoring import Purse, final_scoring, major_scoring, small_scoring
from .view import PendingTile, PlayerView, VikingsView, WheelSlot

WHEEL = 12


class _Quiet(list):
    """The events of a quiet step (``VikingsGame.step``): whatever is appended is dropped."""

    def append(self, _event: Any) -> None:
        """Drop the event: a quiet step's caller reads the state, never the events."""


_QUIET: list[Event] = _Quiet()

T = TypeVar("T")


def normalise_options(options: dict[str, Any] | None) -> dict[str, bool]:
    """Named table options (data.json ``options``); ``advanced`` switches on all three of V-40."""
    out = dict(OPTION_DEFAULTS)
    for key, value in (options or {}).items():
        key = key.replace("-", "_")
        if key == "advanced":
            if value:
                for k in ("auction", "single_sailor", "specials"):
                    out[k] = True
            continue
        if key not in out:
            raise ValueError(f"unknown Vikings option {key!r} (known: {', '.join(out)}, advanced)")
        out[key] = bool(value)
    return out


OPTIONS: tuple[OptionSpec, ...] = (  # the table options, in the order they are offered
    OptionSpec("basic", None, "V-40", msg("the basic game: no rule of the progress variant"), kind="preset", value=None,
               default=None),
    OptionSpec("advanced", "advanced", "V-40",
               msg("the whole progress variant: auction, single-sailor and specials"), kind="preset"),
    OptionSpec("auction", "auction", "V-40", msg("an auction for the start player each round")),
    OptionSpec("single-sailor", "single_sailor", "V-44", msg("a sailor moves exactly one viking")),
    OptionSpec("specials", "specials", "V-45", msg("special tiles for the dearest combo")),
    OptionSpec("strict-ships", "ships_any_order", "D-6",
               msg("strict ships: each ship next to one already placed"), value=False, default=True),
)


class VikingsGame(Game):
    INFO = GameInfo(
        id="vikings", title="Vikings", min_players=2, max_players=4,
        hidden_hands=False, simultaneous=False, options=OPTIONS,
        # the table in the Vikings notation; a homeland's copy and a sailor's trip, for the computer
        # players' valuations (all public information); ``step``, the unchecked apply of their simulations
        public=frozenset({"to_notation", "homeland", "sailor_under_way", "step"}),
    )
    GAME_ID = INFO.id
    MIN_PLAYERS = INFO.min_players
    MAX_PLAYERS = INFO.max_players

    # ------------------------------------------------------------------ creation

    def __init__(self) -> None:  # use new() or from_json()
        self._names: list[str] = []
        self.options: dict[str, bool] = dict(OPTION_DEFAULTS)
        self.rng = Rng(0)
        self.seed = 0
        self.round = 0
        self.phase = "setup"
        self.start_player = 0
        self.turn = 0
        self.purchases = 0
        self.stacks: list[list[str]] = []
        self.bag: list[str] = []
        self.wheel: list[list[str] | None] = [None] * WHEEL
        self.homelands: list[Homeland] = []
        self.gold: list[int] = []
        self.vp: list[int] = []
        self.pending: dict[str, Any] | None = None
        self.sail_queue: list[int] = []
        self.trip: dict[str, Any] | None = None  # the sailor trip under way (V-34)
        self.out_tiles: list[str] = []
        self.out_vikings: list[str] = []
        self._last: dict[str, Any] | None = None  # see the property ``last``
        self._last_step: tuple[int, Action] | None = None  # a quiet step's action, written out when read
        self.results: dict[str, Any] | None = None
        # progress variant
        self.drawn: list[str] = []  # auction: the 13 drawn vikings, sorted, not yet laid
        self.bids: dict[str, Any] | None = None
        self.special_stacks: list[list[str]] = [[], []]
        self.special_display: list[str | None] = []
        self.out_specials: list[str] = []
        self.removed: list[str] = []  # vikings removed by auction winners (V-42 [D-9])

    @classmethod
    def new(
        cls,
        names: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
        start_seat: int | None = None,
    ) -> VikingsGame:
        n = len(names)
        if not cls.MIN_PLAYERS <= n <= cls.MAX_PLAYERS:
            raise ValueError(f"Vikings is for {cls.MIN_PLAYERS} to {cls.MAX_PLAYERS} players, not {n}")
        g = cls()
        g._names = list(names)
        g.options = normalise_options(options)
        g.seed = seed
        g.rng = Rng(seed)
        # V-7: start player at random unless the host chooses
        g.start_player = g.rng.randbelow(n) if start_seat is None else start_seat
        # V-5: homeland, start tile, gold by player count, 10 VP [D-4]
        g.homelands = [Homeland(start_pending=True) for _ in range(n)]
        g.gold = [SETUP["gold"][str(n)]] * n
        g.vp = [SETUP["vp"]] * n
        g.out_tiles = [START_TILE] * (START_TILES - n)  # unused start tiles leave the game
        # V-6: 72 tiles into 6 face-down stacks of 12
        tiles = [t for t, k in ISLAND_COUNTS.items() for _ in range(k)]
        tiles += ["^" + s for s, v in SHIPS.items() for _ in range(v["count"])]
        g.rng.shuffle(tiles)
        size = SETUP["stack_size"]
        g.stacks = [tiles[i * size : (i + 1) * size] for i in range(ROUNDS)]
        # V-1: 78 vikings in the bag (shuffled: drawing from the end is drawing at random)
        g.bag = [k for k in KINDS for _ in range(PER_KIND)]
        g.rng.shuffle(g.bag)
        if g.options["specials"]:  # V-45: two face-down stacks of special tiles
            specials = [name for name, v in SPECIAL_TILES.items() for _ in range(v["count"])]
            g.rng.shuffle(specials)
            half = (len(specials) + 1) // 2
            g.special_stacks = [specials[:half], specials[half:]]
            g.special_display = [None] * SPECIALS["display"]
        g._begin_round([])
        return g

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def n(self) -> int:
        return len(self._names)

    @property
    def last(self) -> dict[str, Any] | None:
        """The last action (its seat, text and cells), as the state stores it. A quiet step keeps
        only its seat and action and this record is written out when it is read (issue 30)."""
        if self._last_step is not None:
            seat, action = self._last_step
            self._last = {"seat": seat, "action": action.text, "cells": _cells_of(action)}
            self._last_step = None
        return self._last

    @last.setter
    def last(self, value: dict[str, Any] | None) -> None:
        self._last = value
        self._last_step = None

    @property
    def _purchase(self) -> dict[str, Any]:
        """The combo being placed; the phases ``place``, ``special`` and ``swap`` always have one."""
        pend = self.pending  # _present written out: asked a few times a step (issue 30)
        if pend is None:
            raise RuntimeError("no purchase in phase state")  # an engine bug: phases keep these set
        return pend

    @property
    def _auction(self) -> dict[str, Any]:
        """The bids under way; the phase ``bid`` always has them (V-41)."""
        return _present(self.bids, "auction")

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.GAME_ID,
            "names": list(self._names),
            "options": dict(self.options),
            "seed": self.seed,
            "rng": self.rng.state,
            "round": self.round,
            "phase": self.phase,
            "start_player": self.start_player,
            "turn": self.turn,
            "purchases": self.purchases,
            "stacks": [list(s) for s in self.stacks],
            "bag": list(self.bag),
            "wheel": [list(c) if c else None for c in self.wheel],
            "homelands": [h.to_json() for h in self.homelands],
            "gold": list(self.gold),
            "vp": list(self.vp),
            "pending": dict(self.pending) if self.pending else None,
            "sail_queue": list(self.sail_queue),
            "trip": json_copy(self.trip),
            "out_tiles": list(self.out_tiles),
            "out_vikings": list(self.out_vikings),
            "last": json_copy(self.last),
            "results": json_copy(self.results),
            "drawn": list(self.drawn),
            "bids": json_copy(self.bids),
            "special_stacks": [list(s) for s in self.special_stacks],
            "special_display": list(self.special_display),
            "out_specials": list(self.out_specials),
            "removed": list(self.removed),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> VikingsGame:
        g = cls()
        g._names = list(d["names"])
        g.options = dict(d["options"])
        g.seed = d["seed"]
        g.rng = Rng(d["rng"])
        g.round = d["round"]
        g.phase = d["phase"]
        g.start_player = d["start_player"]
        g.turn = d["turn"]
        g.purchases = d["purchases"]
        g.stacks = [list(s) for s in d["stacks"]]
        g.bag = list(d["bag"])
        g.wheel = [list(c) if c else None for c in d["wheel"]]
        g.homelands = [Homeland.from_json(h) for h in d["homelands"]]
        g.gold = list(d["gold"])
        g.vp = list(d["vp"])
        g.pending = dict(d["pending"]) if d["pending"] else None
        g.sail_queue = list(d["sail_queue"])
        g.trip = json_copy(d["trip"])
        g.out_tiles = list(d["out_tiles"])
        g.out_vikings = list(d["out_vikings"])
        g.last = json_copy(d["last"])
        g.results = json_copy(d["results"])
        g.drawn = list(d["drawn"])
        g.bids = json_copy(d["bids"])
        g.special_stacks = [list(s) for s in d["special_stacks"]]
        g.special_display = list(d["special_display"])
        g.out_specials = list(d["out_specials"])
        g.removed = list(d["removed"])
        return g

    # ------------------------------------------------------------------ protocol

    def parse_action(self, text: str) -> Action:
        return A.parse_action(text)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        return list(_present(self.results, "results")["winners"])

    def acting_seats(self) -> list[int]:
        if self.phase == "over":
            return []
        return [self.turn]

    def seat_after(self, seat: int) -> int:
        """V-8: clockwise = join order."""
        return (seat + 1) % self.n

    def turn_order(self) -> list[int]:
        return [(self.start_player + i) % self.n for i in range(self.n)]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if seat is None:
            seat = self.turn
        if self.phase == "over" or seat != self.turn:
            return []
        phase = self.phase
        if phase == "buy":
            return self._buy_actions(seat)
        if phase == "place":
            return self._place_actions(seat)
        if phase == "sail":
            return self._sail_actions(seat)
        if phase == "bid":
            return self._bid_actions(seat)
        if phase == "remove":
            return [A.Remove(k) for k in sorted(set(self.drawn), key=KINDS.index)]
        if phase == "lay":
            return [A.Lay(k) for k in sorted(set(self.drawn), key=KINDS.index)]
        if phase == "special":
            specials: list[Action] = [A.TakeSpecial(s) for s in sorted(set(x for x in self.special_display if x))]
            return [*specials, A.TakeSpecial("none")]
        if phase == "swap":
            return [A.Swap(r, c) for r, c in self._building_cells(seat, self._purchase["building"])]
        return []

    def free_actions(self, seat: int) -> list[Action]:
        """Actions a seat may take at any time, outside its turn: VP → gold (V-16)."""
        if self.phase == "over":
            return []
        return [A.Exchange(k) for k in range(1, self.vp[seat] + 1)]

    def _buy_actions(self, seat: int) -> list[Action]:
        """V-13 … V-15: the affordable positions (gold + VP, V-16); position 0 only by V-14/V-15."""
        wheel = self.wheel
        buys = A.BUYS
        out: list[Action] = [buys[p] for p in range(1, min(self.gold[seat] + self.vp[seat], WHEEL - 1) + 1)
                             if wheel[p] is not None]
        if wheel[0] is not None and self._zero_allowed(seat):
            out.insert(0, buys[0])
        return out

    def _zero_allowed(self, seat: int) -> bool:
        wheel = self.wheel
        zero = wheel[0]
        if zero is None:  # only asked when position 0 holds one
            raise RuntimeError("no combo at position 0 in phase state")
        kind = zero[1]
        cheapest = 0  # the lowest price of the other combos
        for p in range(1, WHEEL):
            c = wheel[p]
            if c is None:
                continue
            if not cheapest:
                cheapest = p
            if c[1] == kind:  # not the last of its kind (V-14), so only a forced zero:
                return self.gold[seat] < cheapest  # V-15: gold (not VP) below every other price
        return True  # V-14: the last viking of its kind still on the wheel

    def _place_actions(self, seat: int) -> list[Action]:
        h = self.homelands[seat]
        pend = self._purchase
        out: list[Action] = []
        if not pend["placed"]:
            tile, viking = pend["tile"], pend["viking"]
            vrow = KIND_ROW.get(viking)
            places_at = A.places_at
            for cell in h.cells_for(tile, self.options["ships_any_order"]):
                on_tile, to_base = places_at(cell)
                out.append(on_tile)
                if cell[0] == vrow:  # V-26: may stand on it, or go to base
                    out.append(to_base)
        if h.start_pending:
            out += [A.Start(r) for r, _c in h.start_cells()]
        return out  # already in sort order: places by cell, then start cells

    # -- sailors (V-34, V-35, V-44, V-49 boat): a trip is a run of ``sail CELL`` steps

    def _sail_targets(self, seat: int) -> list[tuple[int, int]]:
        """Cells the next viking of the current trip (or of a new trip) may sail to."""
        return sail_targets(self.homelands[seat], self.trip)

    def _trip_single(self, boat: bool) -> bool:
        return self.options["single_sailor"] and not boat  # V-44: exactly one viking

    def _sail_actions(self, seat: int) -> list[Action]:
        return sail_actions(self.homelands[seat], self.trip, self.options["single_sailor"], self.round == ROUNDS)

    def _may_stop_trip(self, seat: int, targets: list[tuple[int, int]] | None = None) -> bool:
        """May the sailor under way stop now (``sail done``)? (:func:`may_stop_trip`)"""
        trip = _present(self.trip, "sailor trip")
        last = self.round == ROUNDS
        return may_stop_trip(trip, last, self._sail_targets(seat) if targets is None and last else targets)

    def _must_sail(self, seat: int) -> bool:
        """V-35: in the last major scoring, go on while a sailor can still move someone."""
        return self.round == ROUNDS and self.homelands[seat].can_sail()

    def _bid_actions(self, seat: int) -> list[Action]:
        high = self._auction["high"]
        purse = self.gold[seat] + self.vp[seat]
        return [A.Bid(b) for b in range(high + 1, purse + 1)] + [A.Pass()]

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        if isinstance(action, str):
            action = self.parse_action(action)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            if type(action) is A.Exchange:
                return self._apply_exchange(seat, action)
            raise ActionSyntaxError(str(action), msg("not an action of this game"))
        if not 0 <= seat < self.n:
            raise NotYourTurnError(action, msg("seat {seat} is not at this table", seat=seat))
        if self.phase == "over":
            raise WrongPhaseError(action, msg("the game is over"))
        if seat != self.turn:
            raise NotYourTurnError(action, msg("it is {name}'s turn, not {other}'s", name=self._names[self.turn],
                                                        other=self._names[seat]))
        if not self._is_legal(seat, action):
            raise self._why_illegal(seat, action)
        if type(action) is A.SailPlan:  # atomic: played on a copy first, refused naming the trip
            self.copy()._run_plan(seat, action, [])
        events: list[Event] = []
        self._last = {"seat": seat, "action": action.text, "cells": _cells_of(action)}  # ``last``
        self._last_step = None
        handler(self, seat, action, events)
        return events

    def step(self, seat: int, action: Action, quiet: bool = False) -> list[Event]:
        """:meth:`apply` without its checks, for the players' own simulations (issue 30): ``action``
        must be one of ``legal_actions(seat)`` as they stand (never a plan, never an exchange).
        The same change and events as :meth:`apply`; anything else is undefined (tests check both
        agree, ``tests/engine/test_fast_paths.py``). ``quiet``: the same change, the events
        dropped (``[]``) and the scorings' lines not written out, for the playouts that never
        read them."""
        if quiet:
            self._last_step = (seat, action)  # the record of ``last``, written out when read
            _HANDLERS[type(action)](self, seat, action, _QUIET)
            return []
        self._last = {"seat": seat, "action": action.text, "cells": _cells_of(action)}  # ``last``
        self._last_step = None
        events: list[Event] = []
        _HANDLERS[type(action)](self, seat, action, events)
        return events

    def _is_legal(self, seat: int, action: Action) -> bool:
        """Direct checks for the frequent actions; the rest by membership in the (short) list."""
        phase = self.phase
        if type(action) is A.Buy:
            return phase == "buy" and action in self._buy_actions(seat)
        if type(action) is A.Place:
            if phase != "place":
                return False
            pend = self._purchase
            if pend["placed"]:
                return False
            if action.to_base and KIND_ROW.get(pend["viking"]) != action.row:
                return False
            h = self.homelands[seat]
            if pend["tile"][0] == "^":
                return action.row == SHIP_ROW and action.col in h.ship_cells(self.options["ships_any_order"])
            return action.row != SHIP_ROW and h.island_fits(pend["tile"], action.row, action.col)
        if type(action) is A.SailEnd:
            return phase == "sail" and self.trip is None and not self._must_sail(seat)
        if type(action) is A.SailPlan:  # the kind of action is right; its trips are judged on a copy
            return phase == "sail"
        return action in self.legal_actions(seat)

    def is_legal(self, seat: int, action: Action | str) -> bool:
        """As :meth:`Game.is_legal`, and a plan (``sail plan …``, never in :meth:`legal_actions`)
        is legal when the whole of it may be played now."""
        try:
            act = self.parse_action(action) if isinstance(action, str) else action
        except ActionSyntaxError:
            return False
        if type(act) is not A.SailPlan:
            return act in self.legal_actions(seat)
        try:
            self.copy().apply(seat, act)
        except EngineError:
            return False
        return True

    def _apply_exchange(self, seat: int, action: A.Exchange) -> list[Event]:
        """V-16: any moment, 1 : 1, never below 0 VP."""
        if not 0 <= seat < self.n:
            raise NotYourTurnError(action, msg("seat {seat} is not at this table", seat=seat))
        if self.phase == "over":
            raise WrongPhaseError(action, msg("the game is over"))
        if action.amount > self.vp[seat]:
            raise IllegalActionError(action, msg("{name} has only {vp} VP", name=self._names[seat], vp=self.vp[seat]), "V-16")
        self.vp[seat] -= action.amount
        self.gold[seat] += action.amount
        return [Event("exchange", seat, {"vp": action.amount})]

    # -- why an action is illegal (for a clear message naming the rule)

    def _why_illegal(self, seat: int, action: Action) -> IllegalActionError:
        phase = self.phase
        if not isinstance(action, _PHASE_ACTIONS[phase]):
            return WrongPhaseError(action, _PHASE_VERB[phase])
        if isinstance(action, A.Buy):
            return self._why_not_buy(seat, action)
        if isinstance(action, A.Place):
            return self._why_not_place(seat, action)
        if isinstance(action, A.Start):
            h = self.homelands[seat]
            if not h.start_pending:
                return IllegalActionError(action, msg("the start tile is already placed"), "V-24")
            return IllegalActionError(action, msg("that cell is not free for the start tile"), "V-24")
        if isinstance(action, A.Sail):
            return self._why_not_sail(seat, action)
        if isinstance(action, A.SailEnd):
            if self.trip is not None:
                return IllegalActionError(
                    action,
                    msg("a sailor is under way: finish its trip first (sail CELL, or sail done where it may stop)"),
                    "V-34",
                )
            return IllegalActionError(
                action, msg("after round 6 sailors must be used while they can move a viking"), "V-35"
            )
        if isinstance(action, A.SailDone):
            if self.trip is None:
                return IllegalActionError(action, msg("no sailor is under way"), "V-34")
            if self.trip["mode"] == "all":
                kind = self.trip["kinds"][0]
                return IllegalActionError(
                    action, msg("all {kinds} that fit must sail (all of one kind)", kinds=KIND_WORDS[kind]), "V-34"
                )
            return IllegalActionError(
                action,
                msg("in the last major scoring a sailor carries as many vikings as its trip allows:"
                    " this one can still take another [D-12]"),
                "V-35",
            )
        if isinstance(action, A.Bid):
            if action.amount <= self._auction["high"]:
                return IllegalActionError(action, msg("a bid must be more than {high}", high=self._auction["high"]), "V-41")
            return IllegalActionError(action, msg("a bid cannot exceed your gold plus VP"), "V-41")
        if isinstance(action, (A.Remove, A.Lay)):
            return IllegalActionError(action, msg("no {kind} is among the drawn vikings", kind=KIND_WORD[action.kind]), "V-42")
        if isinstance(action, A.TakeSpecial):
            return IllegalActionError(action, msg("{name} is not on display", name=action.name), "V-46")
        if isinstance(action, A.Swap):
            return IllegalActionError(action, msg("that cell holds no middle tile with this building"), "V-49")
        return IllegalActionError(action, msg("not allowed now"))

    def _why_not_buy(self, seat: int, action: A.Buy) -> IllegalActionError:
        p = action.pos
        if self.wheel[p] is None:
            return IllegalActionError(action, msg("position {pos} is empty", pos=p), "V-13")
        if p == 0:
            return IllegalActionError(
                action,
                msg("position 0 may be bought only when its viking is the last of its kind on the wheel,"
                    " or when you cannot afford any other combo with your gold"),
                "V-14",
            )
        return IllegalActionError(
            action, msg("it costs {price} gold; you have {gold} gold and {vp} VP", price=p,
                        gold=self.gold[seat], vp=self.vp[seat]), "V-13"
        )

    def _why_not_place(self, seat: int, action: A.Place) -> IllegalActionError:
        pend = self._purchase
        h = self.homelands[seat]
        if pend["placed"]:
            return IllegalActionError(action, msg("the tile is placed; now place your start tile"), "V-24")
        tile, viking = pend["tile"], pend["viking"]
        cell = cell_name(action.row, action.col)
        if tile[0] == "^":
            if action.row != SHIP_ROW:
                return IllegalActionError(action, msg("ship tiles go in the ships row"), "V-20")
            allowed = ", ".join(f"^{c}" for c in h.ship_cells(self.options["ships_any_order"]))
            return IllegalActionError(action, msg("the next ship may not go to {cell} (it may go to {allowed})", cell=cell, allowed=allowed), "V-20")
        if action.row == SHIP_ROW:
            return IllegalActionError(action, msg("island tiles go in rows W, N, S, G, F"), "V-21")
        if action.to_base and KIND_ROW.get(viking) != action.row and h.island_fits(tile, action.row, action.col):
            return IllegalActionError(action, msg("the viking goes to the base anyway; write it without 'base'"), "V-27")
        if h.get(action.row, action.col) != EMPTY:
            return IllegalActionError(action, msg("{cell} is not empty", cell=cell), "V-21")
        if action.col == 1 and tile[0] != "L":
            return IllegalActionError(action, msg("column 1 touches the base, whose edge is sea: only a left end fits"), "V-22")
        if h.start_pending and action.col > 1:
            return IllegalActionError(action, msg("{cell} is not reachable; place your start tile first", cell=cell), "V-24")
        return IllegalActionError(
            action, msg("{tile} does not fit at {cell} (not reachable, or the edges do not match)", tile=tile,
                        cell=cell), "V-22"
        )

    def _why_not_sail(self, seat: int, action: A.Sail) -> IllegalActionError:
        h = self.homelands[seat]
        r, c = action.row, action.col
        if action.boat and self.trip is None and ("boat" not in h.specials or not self.options["single_sailor"]):
            return IllegalActionError(action, msg("you hold no boat (or boats are not needed without single-sailor)"), "V-49")
        if self.trip is None and h.base[SAILOR] <= 0:
            return IllegalActionError(action, msg("you have no sailor in your base"), "V-34")
        if r == SHIP_ROW or h.get(r, c) == EMPTY or h.has_viking(r, c):
            return IllegalActionError(action, msg("{cell} is not an empty island tile", cell=cell_name(r, c)), "V-34")
        if h.base[ROW_KIND[r]] <= 0:
            return IllegalActionError(action, msg("no {kind} waits in your base", kind=KIND_WORD[ROW_KIND[r]]), "V-34")
        if self.trip is not None and action.boat:
            return IllegalActionError(action, msg("a sailor is under way: write 'sail CELL' for its next viking"), "V-49")
        return IllegalActionError(
            action, msg("a sailor moves all vikings of one kind (as many as fit) or at most one of each kind"), "V-34"
        )

    # ------------------------------------------------------------------ handlers

    def _do_buy(self, seat: int, action: A.Buy, events: list[Event]) -> None:
        p = action.pos
        combo = self.wheel[p]
        if combo is None:  # legal: it holds one
            raise RuntimeError("no combo at the position bought in phase state")
        tile, viking = combo
        if p > self.gold[seat]:  # V-16: exchange the shortfall first
            short = p - self.gold[seat]
            self.vp[seat] -= short
            self.gold[seat] += short
            if events is not _QUIET:
                events.append(Event("exchange", seat, {"vp": short}))
        self.gold[seat] -= p  # V-13
        specials = self.options["specials"]  # V-46 asks whether this was the dearest combo
        most_expensive = specials and all(self.wheel[q] is None for q in range(p + 1, WHEEL))
        self.wheel[p] = None
        if events is not _QUIET:
            events.append(Event("bought", seat, {"pos": p, "price": p, "tile": tile, "viking": viking}))
        if self.wheel[0] is None:  # the wheel turns (_turn_wheel's own test, asked here first)
            self._turn_wheel(events)
        self.pending = {"tile": tile, "viking": viking, "placed": False, "pos": p}
        # V-46: the currently most expensive combo, not from position 0, lets the buyer take a special
        if specials and most_expensive and p != 0 and any(self.special_display):
            self.phase = "special"
            return
        self.phase = "place"  # _enter_place written out
        self._maybe_discard(seat, events)

    def _turn_wheel(self, events: list[Event]) -> None:
        """V-18: while position 0 is empty, the wheel turns until the lowest combo stands at 0."""
        if self.wheel[0] is not None:
            return
        for k in range(1, WHEEL):
            if self.wheel[k] is not None:
                self.wheel = self.wheel[k:] + [None] * k
                if events is not _QUIET:
                    events.append(Event("wheel", None, {"turned": k}))
                return

    def _enter_place(self, seat: int, events: list[Event]) -> None:
        self.phase = "place"
        self._maybe_discard(seat, events)

    def _maybe_discard(self, seat: int, events: list[Event]) -> None:
        """V-23: an island tile that fits nowhere leaves the game; its viking goes to the base.

        With the start tile still to place (V-24) every tile can still be placed after it.
        """
        pend = self._purchase
        h = self.homelands[seat]
        tile = pend["tile"]
        if pend["placed"] or h.start_pending or tile[0] == "^" or h.island_cells_for(tile):
            return
        self.out_tiles.append(pend["tile"])
        h.base[pend["viking"]] += 1
        if events is not _QUIET:
            events.append(Event("discarded", seat, {"tile": pend["tile"], "viking": pend["viking"]}))
        self._finish_purchase(seat, events)

    def _do_place(self, seat: int, action: A.Place, events: list[Event]) -> None:
        h = self.homelands[seat]
        pend = self._purchase
        tile, viking = pend["tile"], pend["viking"]
        on_tile = action.row != SHIP_ROW and KIND_ROW.get(viking) == action.row and not action.to_base
        h.set(action.row, action.col, tile + ("*" if on_tile else ""))
        if not on_tile:
            h.base[viking] += 1  # V-27
        pend["placed"] = True
        if events is not _QUIET:
            events.append(Event("placed", seat, {"tile": tile, "cell": cell_name(action.row, action.col),
                                                 "viking": viking, "on_tile": on_tile}))
        if self.options["specials"] and tile[0] == "M":
            self._swap_waiting_building(seat, action.row, action.col, events)
        if not h.start_pending:
            self._finish_purchase(seat, events)

    def _do_start(self, seat: int, action: A.Start, events: list[Event]) -> None:
        h = self.homelands[seat]
        h.set(action.row, 1, START_TILE)
        h.start_pending = False
        if events is not _QUIET:
            events.append(Event("start_tile", seat, {"cell": cell_name(action.row, 1)}))
        if self._purchase["placed"]:
            self._finish_purchase(seat, events)
        else:
            self._maybe_discard(seat, events)

    def _finish_purchase(self, seat: int, events: list[Event]) -> None:
        self.pending = None
        self.purchases += 1
        if self.purchases == WHEEL:
            self._end_of_buying(events)
        else:
            self.turn = (seat + 1) % len(self._names)  # seat_after (V-8)
            self.phase = "buy"

    # -- scoring

    def _end_of_buying(self, events: list[Event]) -> None:
        kind = SCORING_AFTER[self.round - 1]
        if kind == "small":  # V-32
            for seat in self.turn_order():
                purse = Purse(self.gold[seat], self.vp[seat])
                res = small_scoring(self.homelands[seat], purse, events is not _QUIET)  # quiet: no lines
                self.gold[seat], self.vp[seat] = purse.gold, purse.vp
                if events is not _QUIET:
                    events.append(Event("score", seat, {"scoring": "small", **res.to_json()}))
            self._end_of_round(events)
        else:  # V-33: per player, sailors first
            self.sail_queue = self.turn_order()
            self.phase = "sail"
            self._next_sailor(events)

    def _next_sailor(self, events: list[Event]) -> None:
        """Skip (and score) players with no possible sailor trip: they are not asked."""
        while self.sail_queue:
            seat = self.sail_queue[0]
            if self.homelands[seat].can_sail():
                self.turn = seat
                return
            self._score_major(seat, events)
        self._end_of_round(events)

    def _score_major(self, seat: int, events: list[Event]) -> None:
        self.sail_queue.pop(0)
        purse = Purse(self.gold[seat], self.vp[seat])
        res = major_scoring(self.homelands[seat], purse, events is not _QUIET)  # quiet: no lines
        self.gold[seat], self.vp[seat] = purse.gold, purse.vp
        if events is not _QUIET:
            events.append(Event("score", seat, {"scoring": "major", **res.to_json()}))

    def _do_sail(self, seat: int, action: A.Sail, events: list[Event]) -> None:
        h = self.homelands[seat]
        new = self.trip is None
        trip, ends = sail_move(h, self.trip, action, self.options["single_sailor"])
        if new:  # a new sailor (and boat) set out
            self.out_vikings.append(SAILOR)  # V-34: a used sailor leaves the game
            if action.boat:
                self.out_specials.append("boat")  # V-49: boat and sailor leave the game
            self.trip = trip
            if events is not _QUIET:
                events.append(Event("sailor", seat, {"boat": action.boat}))
        if events is not _QUIET:
            events.append(Event("sailed", seat, {"cell": cell_name(action.row, action.col), "kind": ROW_KIND[action.row]}))
        if ends:
            self._close_trip(seat, events)

    def _do_sail_done(self, seat: int, action: A.SailDone, events: list[Event]) -> None:
        self._close_trip(seat, events)

    def _close_trip(self, seat: int, events: list[Event]) -> None:
        self.trip = None
        if not self.homelands[seat].can_sail():
            self._score_major(seat, events)
            self._next_sailor(events)

    def _do_sail_end(self, seat: int, action: A.SailEnd, events: list[Event]) -> None:
        self._score_major(seat, events)
        self._next_sailor(events)

    def _do_plan(self, seat: int, action: A.SailPlan, events: list[Event]) -> None:
        self._run_plan(seat, action, events)

    def _run_plan(self, seat: int, plan: A.SailPlan, events: list[Event]) -> None:
        """Play a plan step by step (``apply`` does it on a copy first): each trip as its ``sail``
        moves and ``sail done`` where the trip did not end by itself, then ``sail end``. The first
        step the rules refuse raises, naming the sailor (1, 2, …), its cells and the rule."""
        if self.trip is not None:
            raise IllegalActionError(
                plan, msg("a sailor is under way: finish its trip first (sail CELL, or sail done where it may stop)"),
                "V-34")
        for n, trip in enumerate(plan.trips, 1):
            boat, cells = trip
            where = A.trip_text(trip)
            if self.phase != "sail" or self.turn != seat:  # the sailing ended after the trip before
                raise IllegalActionError(plan, msg(
                    "sailor {n} ({trip}): no sailor of yours can move a viking any more", n=n, trip=where), "V-34")
            for k, (r, c) in enumerate(cells):
                if k and self.trip is None:  # the trip ended by itself after the viking before
                    single = self._trip_single(boat)
                    reason = (msg("with single-sailor a sailor moves exactly one viking") if single
                              else msg("this sailor can carry no more vikings"))
                    raise IllegalActionError(plan, msg("sailor {n} ({trip}), {cell}: {reason}", n=n, trip=where,
                                                       cell=cell_name(r, c), reason=reason),
                                             "V-44" if single else "V-34")
                step = A.Sail(r, c, boat and not k)
                if not self._is_legal(seat, step):
                    why = self._why_illegal(seat, step)
                    raise IllegalActionError(plan, msg("sailor {n} ({trip}), {cell}: {reason}", n=n, trip=where,
                                                       cell=cell_name(r, c), reason=why.msg), why.rule)
                self._do_sail(seat, step, events)
            if self.trip is not None:  # the trip did not end by itself: this sailor stops here
                done = A.SailDone()
                if not self._is_legal(seat, done):
                    why = self._why_illegal(seat, done)
                    raise IllegalActionError(plan, msg("sailor {n} ({trip}): {reason}", n=n, trip=where,
                                                       reason=why.msg), why.rule)
                self._close_trip(seat, events)
        if plan.end and self.phase == "sail" and self.turn == seat:
            stop = A.SailEnd()
            if not self._is_legal(seat, stop):
                why = self._why_illegal(seat, stop)
                raise IllegalActionError(plan, msg("the plan stops too early: {reason}", reason=why.msg), why.rule)
            self._do_sail_end(seat, stop, events)

    def _end_of_round(self, events: list[Event]) -> None:
        if self.round == ROUNDS:
            self._final(events)
            return
        # V-12: the start player marker passes to the left, unless the auction decides it [D-8]
        if not self.options["auction"] or AUCTION["start_player_passes_left"]:
            self.start_player = self.seat_after(self.start_player)
            if events is not _QUIET:
                events.append(Event("start_player", self.start_player, {}))
        self._begin_round(events)

    def _final(self, events: list[Event]) -> None:
        purses = [Purse(g, v) for g, v in zip(self.gold, self.vp)]
        results = final_scoring(self.homelands, purses)
        for seat, res in enumerate(results):
            if events is not _QUIET:
                events.append(Event("score", seat, {"scoring": "final", **res.to_json()}))
        self.gold = [p.gold for p in purses]
        self.vp = [p.vp for p in purses]
        # V-38: most VP, then most gold, then shared
        best = max(zip(self.vp, self.gold))
        winners = [s for s in range(self.n) if (self.vp[s], self.gold[s]) == best]
        self.results = {
            "winners": winners,
            "lines": [[m.to_json() for m in res.messages] for res in results],  # structured (issue 16)
            "vp": list(self.vp),
            "gold": list(self.gold),
        }
        self.phase = "over"
        self.sail_queue = []
        if events is not _QUIET:
            events.append(Event("game_over", None, {"winners": winners, "vp": list(self.vp), "gold": list(self.gold)}))

    # -- rounds

    def _begin_round(self, events: list[Event]) -> None:
        self.round += 1
        self.purchases = 0
        self.turn = self.start_player
        if self.options["specials"]:
            self._refill_specials(events)
        count = AUCTION["vikings_drawn"] if self.options["auction"] else WHEEL
        drawn = [self.bag.pop() for _ in range(count)]
        drawn.sort(key=KINDS.index)  # V-11 [D-5]
        if self.options["auction"]:
            # V-42: the round's stack stays face down through the auction and the removal; the
            # tiles are laid out only after the start player has removed a viking (_do_remove)
            self.wheel = [None] * WHEEL
            self.drawn = drawn
            self.bids = {"high": 0, "leader": None, "active": self.turn_order(), "order": self.turn_order()}
            self.phase = "bid"
            self.turn = self.start_player
        else:
            self.wheel = [[t, k] for t, k in zip(self._lay_out_tiles(), drawn)]
            self.phase = "buy"
        if events is not _QUIET:
            events.append(Event("round", None, {"round": self.round, "start_player": self.start_player}))

    def _lay_out_tiles(self) -> list[str]:
        """V-9, V-10: the next stack's tiles, islands from position 0 up, ships from 11 down."""
        stack = self.stacks.pop(0)
        tiles: list[str] = [""] * WHEEL
        low, high = 0, WHEEL - 1
        for t in stack:
            if t[0] == "^":
                tiles[high] = t
                high -= 1
            else:
                tiles[low] = t
                low += 1
        return tiles

    def _refill_specials(self, events: list[Event]) -> None:
        """V-45: fill empty display spaces from the two stacks so that 4 lie face up."""
        for i, s in enumerate(self.special_display):
            if s is None:
                stack = next((st for st in self.special_stacks if st), None)
                if stack is None:
                    break
                self.special_display[i] = stack.pop()
        if events is not _QUIET:
            events.append(Event("specials", None, {"display": list(self.special_display)}))

    # -- auction (V-41 … V-43)

    def _do_bid(self, seat: int, action: A.Bid, events: list[Event]) -> None:
        self._auction["high"] = action.amount
        self._auction["leader"] = seat
        if events is not _QUIET:
            events.append(Event("bid", seat, {"amount": action.amount}))
        self._next_bidder(seat, events)

    def _do_pass(self, seat: int, action: A.Pass, events: list[Event]) -> None:
        b = self._auction
        # the start player acts first: nobody has bid or dropped out before their opening move
        opening = seat == self.start_player and b["leader"] is None and len(b["active"]) == len(b["order"])
        # V-41 [D-11]: a start player who opens by passing has dropped out like any other passer;
        # the other reading takes the opening pass as "bid nothing" and asks them again
        if not opening or AUCTION["opening_pass_drops_out"]:
            b["active"].remove(seat)
        if events is not _QUIET:
            events.append(Event("pass", seat, {}))
        self._next_bidder(seat, events)

    def _next_bidder(self, seat: int, events: list[Event]) -> None:
        b = self._auction
        active = b["active"]
        if b["leader"] is not None and active == [b["leader"]]:
            self._auction_won(b["leader"], b["high"], events)
            return
        if not active or (b["leader"] is None and active == [self.start_player] and seat != self.start_player):
            # nobody bid: the start player stays, free (V-41 [D-8])
            if events is not _QUIET:
                events.append(Event("auction", self.start_player, {"price": 0, "nobody": True}))
            self._after_auction(events)
            return
        order = b["order"]
        i = order.index(seat)
        for step in range(1, len(order) + 1):
            nxt = order[(i + step) % len(order)]
            if nxt in active and nxt != b["leader"]:
                self.turn = nxt
                return
        self._auction_won(b["leader"], b["high"], events)

    def _auction_won(self, seat: int, price: int, events: list[Event]) -> None:
        if price > self.gold[seat]:  # VP exchanged 1 : 1 to cover the bid (V-41)
            short = price - self.gold[seat]
            self.vp[seat] -= short
            self.gold[seat] += short
            if events is not _QUIET:
                events.append(Event("exchange", seat, {"vp": short}))
        self.gold[seat] -= price
        self.start_player = seat
        if events is not _QUIET:
            events.append(Event("auction", seat, {"price": price, "nobody": False}))
        self._after_auction(events)

    def _after_auction(self, events: list[Event]) -> None:
        self.bids = None
        self.turn = self.start_player
        self.phase = "remove"

    def _do_remove(self, seat: int, action: A.Remove, events: list[Event]) -> None:
        self.drawn.remove(action.kind)
        self.removed.append(action.kind)
        if AUCTION["removed_viking_leaves_game"]:  # [D-9]
            self.out_vikings.append(action.kind)
        else:
            self.bag.insert(self.rng.randbelow(len(self.bag) + 1), action.kind)
        lay_out = all(c is None for c in self.wheel)  # V-42: now the start player lays out the tiles
        if events is not _QUIET:
            events.append(Event("removed", seat, {"kind": action.kind, "tiles_laid_out": lay_out}))
        if lay_out:
            self.wheel = [[t, ""] for t in self._lay_out_tiles()]  # vikings follow, kind by kind
        self.phase = "lay"

    def _do_lay(self, seat: int, action: A.Lay, events: list[Event]) -> None:
        """V-42: all vikings of the kind on the highest free positions, going down."""
        count = self.drawn.count(action.kind)
        self.drawn = [k for k in self.drawn if k != action.kind]
        placed = 0
        for p in range(WHEEL - 1, -1, -1):
            if placed == count:
                break
            combo = _present(self.wheel[p], "laid-out tile")  # V-42: every position has a tile now
            if combo[1] == "":
                combo[1] = action.kind
                placed += 1
        if events is not _QUIET:
            events.append(Event("laid", seat, {"kind": action.kind, "count": count}))
        if self.drawn:
            self.turn = self.seat_after(seat)
            return
        self.phase = "buy"
        self.turn = self.start_player

    # -- special tiles (V-45 … V-49)

    def _do_special(self, seat: int, action: A.TakeSpecial, events: list[Event]) -> None:
        h = self.homelands[seat]
        if action.name != "none":
            i = self.special_display.index(action.name)
            self.special_display[i] = None  # stays empty until the next round (V-45)
            if events is not _QUIET:
                events.append(Event("special", seat, {"name": action.name}))
            if action.name == "gold5":  # V-49: +5 gold, the tile leaves the game
                self.gold[seat] += SPECIAL_TILES["gold5"]["gold"]
                self.out_specials.append("gold5")
            else:
                h.specials.append(action.name)
            if action.name in BUILDING_TILES:  # V-49: swap at once for a middle tile with its building
                cells = self._building_cells(seat, action.name)
                if len(cells) > 1:
                    self._purchase["building"] = action.name
                    self.phase = "swap"
                    return
                if cells:
                    self._swap(seat, action.name, *cells[0], events)
                # no such tile: it waits beside the homeland
        self._enter_place(seat, events)

    def _building_cells(self, seat: int, name: str) -> list[tuple[int, int]]:
        tile = "M" + name[1]
        return [(r, c) for r, c, t in self.homelands[seat].island_cells() if t.rstrip("*") == tile]

    def _do_swap(self, seat: int, action: A.Swap, events: list[Event]) -> None:
        name = self._purchase.pop("building")
        self._swap(seat, name, action.row, action.col, events)
        self._enter_place(seat, events)

    def _swap(self, seat: int, name: str, row: int, col: int, events: list[Event]) -> None:
        h = self.homelands[seat]
        old = h.get(row, col)
        star = "*" if old.endswith("*") else ""
        h.set(row, col, name + star)  # a viking on it stays, now on the special tile
        h.specials.remove(name)
        self.out_tiles.append(old.rstrip("*"))
        if events is not _QUIET:
            events.append(Event("swapped", seat, {"name": name, "cell": cell_name(row, col), "tile": old.rstrip("*")}))

    def _swap_waiting_building(self, seat: int, row: int, col: int, events: list[Event]) -> None:
        """V-49: a waiting building tile is swapped, at once, for the next such tile placed."""
        h = self.homelands[seat]
        tile = h.get(row, col).rstrip("*")
        name = "X" + tile[1]
        if name in h.specials:
            self._swap(seat, name, row, col, events)

    # ------------------------------------------------------------------ views

    def homeland(self, seat: int) -> Homeland:
        """A copy of ``seat``'s homeland (public: V-20 … V-31), for valuations that would otherwise
        rebuild it from a view; changing it changes nothing in the game."""
        return self.homelands[seat].copy()

    def sailor_under_way(self, seat: int) -> bool:
        """Whether ``seat``'s sailor is on a trip that its next action continues (V-34)."""
        return self.phase == "sail" and self.turn == seat and self.trip is not None

    def threatened(self, seat: int) -> list[str]:
        return [cell_name(r, c) for r, c in self.homelands[seat].threatened_cells()]

    def _wheel_view(self) -> list[WheelSlot | None]:
        """The offer as everyone sees it. V-42: while players bid and the start player removes a
        viking, the round's tiles are still face down, so no position shows anything."""
        if self.phase in ("bid", "remove"):
            return [None] * WHEEL
        return [{"tile": c[0], "viking": c[1] or None, "price": p} if c else None for p, c in enumerate(self.wheel)]

    def view(self, seat: int | None = None) -> VikingsView:
        """What a seat sees: no stack contents, no bag order (V-6, V-1)."""
        players: list[PlayerView] = []
        for s in range(self.n):
            h = self.homelands[s]
            players.append(
                {
                    "seat": s,
                    "name": self._names[s],
                    "gold": self.gold[s],
                    "vp": self.vp[s],
                    "rows": [list(r) for r in h.rows],
                    "base": dict(h.base),
                    "threatened": self.threatened(s),
                    "defended": h.defended_ships(),
                    "start_tile_pending": h.start_pending,
                    "specials": list(h.specials),
                }
            )
        pending: PendingTile | None = None
        if self.pending:
            pending = {
                "seat": self.turn,
                "tile": self.pending["tile"],
                "viking": self.pending["viking"],
                "placed": self.pending["placed"],
                "start_tile": self.homelands[self.turn].start_pending,
            }
        v: VikingsView = {
            "game": self.GAME_ID,
            "options": dict(self.options),
            "round": self.round,
            "scorings": [*SCORING_AFTER[:-1], "final"],
            "phase": self.phase,
            "active": None if self.phase == "over" else self.turn,
            "start_player": self.start_player,
            "wheel": self._wheel_view(),
            "pending": pending,
            "players": players,
            "stacks_left": len(self.stacks),
            "bag": len(self.bag),
            "last": json_copy(self.last),
            "final": json_copy(self.results),
            "seat": seat,
            "trip": json_copy(self.trip),
            "out": {"tiles": list(self.out_tiles), "vikings": list(self.out_vikings)},  # public
        }
        if self.options["specials"]:
            v["specials_display"] = list(self.special_display)
            v["specials_stacks"] = [len(s) for s in self.special_stacks]
        if self.options["auction"]:
            v["auction"] = {
                "drawn": list(self.drawn),
                "bids": json_copy(self.bids),
                "removed": list(self.removed),
            }
        return v

    # ------------------------------------------------------------------ accounting (tests, invariants)

    def viking_count(self) -> int:
        """V-1: bag + wheel + drawn-not-laid + pending + homelands + out of game = 78."""
        wheel = sum(1 for c in self.wheel if c and c[1])
        pending = 1 if self.pending and not self.pending["placed"] else 0
        homes = sum(h.vikings_total() for h in self.homelands)
        return len(self.bag) + wheel + len(self.drawn) + pending + homes + len(self.out_vikings)

    def tile_count(self) -> int:
        """V-2: stacks + wheel + pending + homelands (start tile included) + out of game = 76."""
        stacks = sum(len(s) for s in self.stacks)
        wheel = sum(1 for c in self.wheel if c)
        pending = 1 if self.pending and not self.pending["placed"] else 0
        homes = 0
        for h in self.homelands:
            homes += sum(1 for row in h.rows for t in row if t != EMPTY and t[0] != "X")
            homes += 1 if h.start_pending else 0
        return stacks + wheel + pending + homes + len(self.out_tiles)

    def to_notation(self) -> str:
        from .notation import table_from_game

        return table_from_game(self)


# -- sailors on a homeland alone (V-34, V-35, V-44, V-49): the game's rules, also for the players'
# own look-ahead, which plays a trip out on a copy of one homeland instead of a copy of the game


def sail_targets(h: Homeland, trip: dict[str, Any] | None) -> list[tuple[int, int]]:
    """Cells the next viking of ``trip`` (or of a new trip, ``None``) may sail to, sorted: the
    empty island tiles of the rows whose kind may go now and waits in the base (V-34)."""
    base = h.base
    rows = h.rows
    mode: str | None = None
    moved: list[str] = []  # the kinds this trip has moved
    if trip is not None:
        mode, moved = trip["mode"], trip["kinds"]
    out = []
    for row in ISLAND_ROWS:  # top row first, each left to right: already in sort order
        kind = ROW_KIND[row]  # never a sailor
        if base[kind] <= 0:
            continue
        if mode == "all":  # all of one kind: only that kind
            if kind != moved[0]:
                continue
        elif mode == "each":  # one of each kind: kinds not yet moved
            if kind in moved:
                continue
        # no trip, or one viking moved: the same kind again (all) or another kind (each)
        col = 0
        for t in rows[row]:
            col += 1
            if t != EMPTY and t[-1] != "*":
                out.append((row, col))
    return out


def may_stop_trip(trip: dict[str, Any], last_round: bool, targets: list[tuple[int, int]] | None) -> bool:
    """May the sailor under way stop now (``sail done``)?

    V-34: all of one kind goes on until every viking of that kind that fits has sailed; one of
    each kind may stop early. V-35 [D-12]: in the last major scoring a trip may not stop while
    it could carry one more viking (one of every kind left that has an empty tile, or all that
    fit); the trip ends by itself when nothing more fits. ``targets``: :func:`sail_targets`.
    """
    if trip["mode"] == "all":
        return False
    if last_round and SAILING["last_major_trips_full"]:  # [D-12]
        return not targets
    return True


def sail_actions(h: Homeland, trip: dict[str, Any] | None, single_sailor: bool, last_round: bool) -> list[Action]:
    """The legal sailing actions of the homeland's owner (its turn in the phase ``sail``)."""
    out: list[Action] = []
    if trip is None:
        if h.base[SAILOR] > 0:
            cells = sail_targets(h, None)
            out += [A.sail(r, c) for r, c in cells]
            if single_sailor and "boat" in h.specials:
                out += [A.sail(r, c, True) for r, c in cells]
        if not (last_round and h.can_sail()):  # V-35: in the last major scoring, sail while one can
            out.append(A.SAIL_END)
    else:
        targets = sail_targets(h, trip)
        out += [A.sail(r, c) for r, c in targets]  # the same sailor goes on
        if may_stop_trip(trip, last_round, targets):
            out.append(A.SAIL_DONE)
    return out


def sail_move(h: Homeland, trip: dict[str, Any] | None, action: A.Sail,
              single_sailor: bool) -> tuple[dict[str, Any], bool]:
    """Play a legal ``sail CELL`` on the homeland (V-34): a new sailor (and boat, V-49) leaves the
    base when no ``trip`` is under way. Returns the trip (``trip`` itself, changed, or the new one)
    and whether it ends by itself (V-44 single sailor, or nothing more fits). Unchecked: the
    caller knows the action is legal (the game's ``apply`` has checked it)."""
    kind = ROW_KIND[action.row]
    if trip is None:
        h.base[SAILOR] -= 1
        if action.boat:
            h.specials.remove("boat")
        trip = {"kinds": [], "mode": None, "boat": action.boat}
    if trip["kinds"]:
        trip["mode"] = "all" if kind == trip["kinds"][0] else "each"
    trip["kinds"].append(kind)
    h.base[kind] -= 1
    h.add_viking(action.row, action.col)
    ends = (single_sailor and not trip["boat"]) or not sail_targets(h, trip)  # V-44: exactly one viking
    return trip, ends


def _present(state: T | None, what: str) -> T:
    """``state`` where the phase guarantees it is there (a typed narrowing, never bad input)."""
    if state is None:
        raise RuntimeError(f"no {what} in phase state")  # an engine bug: phases keep these set
    return state


def _cells_of(action: Action) -> list[str]:
    kind = type(action)
    if kind is A.Buy:  # the most frequent: no cell
        return []
    if kind is A.Place or kind is A.Sail:
        return [cell_name(action.row, action.col)]  # type: ignore[attr-defined]
    if isinstance(action, A.SailPlan):
        return [cell_name(r, c) for _boat, cells in action.trips for r, c in cells]
    if isinstance(action, (A.Place, A.Swap, A.Sail)):
        return [cell_name(action.row, action.col)]
    if isinstance(action, A.Start):
        return [cell_name(action.row, 1)]
    return []


_PHASE_ACTIONS: dict[str, tuple[type[Action], ...]] = {  # the kinds of action each phase takes
    "buy": (A.Buy,),
    "place": (A.Place, A.Start),
    "sail": (A.Sail, A.SailDone, A.SailEnd, A.SailPlan),
    "bid": (A.Bid, A.Pass),
    "remove": (A.Remove,),
    "lay": (A.Lay,),
    "special": (A.TakeSpecial,),
    "swap": (A.Swap,),
}

_PHASE_VERB = {  # what a WrongPhaseError says the phase wants
    "buy": msg("now is the time to buy a combo (buy P)"),
    "place": msg("now is the time to place the bought tile (place CELL / start CELL)"),
    "sail": msg("now is the time to use sailors (sail CELL / sail done / sail end / sail plan …)"),
    "bid": msg("now is the time to bid for the start player (bid N / pass)"),
    "remove": msg("now is the time to remove one drawn viking (remove KIND)"),
    "lay": msg("now is the time to lay out a kind of viking (lay KIND)"),
    "special": msg("now is the time to take a special tile or not (special NAME / special none)"),
    "swap": msg("now is the time to choose the middle tile the building tile replaces (swap CELL)"),
}

# Each handler takes its own action class (the key), hence ``Any`` for the action.
_HANDLERS: dict[type[Action], Callable[[VikingsGame, int, Any, list[Event]], None]] = {
    A.Buy: VikingsGame._do_buy,
    A.Place: VikingsGame._do_place,
    A.Start: VikingsGame._do_start,
    A.Sail: VikingsGame._do_sail,
    A.SailDone: VikingsGame._do_sail_done,
    A.SailEnd: VikingsGame._do_sail_end,
    A.SailPlan: VikingsGame._do_plan,
    A.Bid: VikingsGame._do_bid,
    A.Pass: VikingsGame._do_pass,
    A.Remove: VikingsGame._do_remove,
    A.Lay: VikingsGame._do_lay,
    A.TakeSpecial: VikingsGame._do_special,
    A.Swap: VikingsGame._do_swap,
}
