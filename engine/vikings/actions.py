"""Vikings actions: small frozen values with a text form that round-trips.

| text | meaning |
| --- | --- |
| ``buy 7`` | buy the combo at wheel position 7 (V-13) |
| ``place N3`` / ``place N3 base`` | place the bought tile; its viking on it (default) or to the base |
| ``start W1`` | place the start tile (V-24) |
| ``sail N2`` / ``sail boat N2`` | move one base viking with the current sailor (a new one if none is under way) |
| ``sail done`` / ``sail end`` | this sailor's trip is over / use no more sailors (V-34, V-35) |
| ``sail plan N2 S3 / boat G4 / end`` | the whole sailing at once: one trip per sailor, ``/`` between trips, a trip's cells in any order, ``boat`` first for a boat (V-49); a last ``end`` = then use no more sailors (V-33 … V-35) |
| ``exchange 3`` | VP → gold (V-16), any seat, any time |
| ``bid 4`` / ``pass`` | auction for the start player (V-41) |
| ``remove N`` | the auction winner removes a drawn viking (V-42); a kind also by name: ``remove noble`` |
| ``lay F`` | lay all vikings of a kind on the highest free positions (V-42); also ``lay fishers`` |
| ``special boat`` / ``special none`` | take a displayed special tile, or decline (V-46); by code or word (``market`` = ``Xd``) |
| ``swap M3`` | put a waiting building tile in place of the middle tile at that cell (V-49) |
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from engine.core import Action, ActionSyntaxError, msg, msgn, quote, whole_number

from .data import (
    KIND_NAME,
    KIND_PLURAL,
    KIND_WORD,
    KINDS,
    SPECIAL_TILES,
    SPECIAL_TYPED,
    cell_name,
    parse_cell,
)

# V-11: a kind by its letter, its name or its plural (English; ``lay fishers``, ``remove N``)
_KIND_BY_WORD = {**{k.lower(): k for k in KINDS}, **{w: k for k, w in KIND_NAME.items()},
                 **{w: k for k, w in KIND_PLURAL.items()}}
# V-45: a special tile by its code or its word (``special market`` = ``special Xd``)
_SPECIAL_BY_WORD = {**{n.lower(): n for n in SPECIAL_TILES}, **{w: n for n, w in SPECIAL_TYPED.items()}}


def _cell_text(cell: tuple[int, int]) -> str:
    return cell_name(*cell)


@dataclass(frozen=True, slots=True)
class Buy(Action):
    pos: int

    @property
    def text(self) -> str:
        return f"buy {self.pos}"

    def sort_key(self) -> tuple:
        return (0, self.pos)


@dataclass(frozen=True, slots=True)
class Place(Action):
    row: int
    col: int
    to_base: bool = False

    @property
    def text(self) -> str:
        text = _PLACE_TEXT.get(self)
        if text is None:
            text = _PLACE_TEXT[self] = f"place {cell_name(self.row, self.col)}" + (" base" if self.to_base else "")
        return text

    def sort_key(self) -> tuple:
        return (1, self.row, self.col, self.to_base)


@dataclass(frozen=True, slots=True)
class Start(Action):
    row: int

    @property
    def text(self) -> str:
        return f"start {cell_name(self.row, 1)}"

    def sort_key(self) -> tuple:
        return (2, self.row)


@dataclass(frozen=True, slots=True)
class Sail(Action):
    """Move one viking from the base to the empty tile ``cell`` with the current sailor (V-34).

    With no trip under way this uses a new sailor (and, with ``boat``, a boat: V-49)."""

    row: int
    col: int
    boat: bool = False

    @property
    def text(self) -> str:
        return "sail " + ("boat " if self.boat else "") + cell_name(self.row, self.col)

    def sort_key(self) -> tuple:
        return (3, self.boat, self.row, self.col)


@dataclass(frozen=True, slots=True)
class SailDone(Action):
    """This sailor's trip is over (V-34)."""

    @property
    def text(self) -> str:
        return "sail done"

    def sort_key(self) -> tuple:
        return (4,)


@dataclass(frozen=True, slots=True)
class SailEnd(Action):
    """Use no more sailors in this scoring (not allowed while V-35 forces them)."""

    @property
    def text(self) -> str:
        return "sail end"

    def sort_key(self) -> tuple:
        return (4, 1)


Trip = tuple[bool, tuple[tuple[int, int], ...]]
"""One sailor's trip of a :class:`SailPlan`: ``(boat, cells)``, the cells in board order (V-34)."""


def trip_text(trip: Trip) -> str:
    boat, cells = trip
    return " ".join((["boat"] if boat else []) + [cell_name(r, c) for r, c in cells])


@dataclass(frozen=True, slots=True)
class SailPlan(Action):
    """The whole sailing of a major scoring as one decision (the sailor dialog, V-33 … V-35):
    ``trips`` one per sailor, in order; ``end``: then use no more sailors (``sail end``).

    Applying it is atomic: it is played on a copy first and refused, naming the trip and the
    rule, if any of its steps would be."""

    trips: tuple[Trip, ...]
    end: bool = False

    @property
    def text(self) -> str:
        parts = [trip_text(t) for t in self.trips] + (["end"] if self.end else [])
        return "sail plan " + " / ".join(parts)

    def sort_key(self) -> tuple:
        return (4, 2, self.trips, self.end)


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    amount: int

    @property
    def text(self) -> str:
        return f"exchange {self.amount}"

    def sort_key(self) -> tuple:
        return (5, self.amount)


@dataclass(frozen=True, slots=True)
class Bid(Action):
    amount: int

    @property
    def text(self) -> str:
        return f"bid {self.amount}"

    def sort_key(self) -> tuple:
        return (6, self.amount)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    @property
    def text(self) -> str:
        return "pass"

    def sort_key(self) -> tuple:
        return (7,)


@dataclass(frozen=True, slots=True)
class Remove(Action):
    kind: str

    @property
    def text(self) -> str:
        return f"remove {self.kind}"

    def sort_key(self) -> tuple:
        return (8, KINDS.index(self.kind))


@dataclass(frozen=True, slots=True)
class Lay(Action):
    kind: str

    @property
    def text(self) -> str:
        return f"lay {self.kind}"

    def sort_key(self) -> tuple:
        return (9, KINDS.index(self.kind))


@dataclass(frozen=True, slots=True)
class TakeSpecial(Action):
    name: str  # a special tile name, or "none" to decline

    @property
    def text(self) -> str:
        return f"special {self.name}"

    def sort_key(self) -> tuple:
        return (10, self.name == "none", self.name)


@dataclass(frozen=True, slots=True)
class Swap(Action):
    row: int
    col: int

    @property
    def text(self) -> str:
        return f"swap {cell_name(self.row, self.col)}"

    def sort_key(self) -> tuple:
        return (11, self.row, self.col)


_PLACE_TEXT: dict[Place, str] = {}  # Place.text, written once per cell (issue 30)

# Shared instances for the frequent small actions (legal_actions builds many of them).
BUYS = tuple(Buy(p) for p in range(12))
@functools.cache
def place(row: int, col: int, to_base: bool = False) -> Place:
    """The shared ``Place`` for a cell (one instance each: legal_actions lists them often)."""
    return Place(row, col, to_base)


_PLACES_AT: dict[tuple[int, int], tuple[Place, Place]] = {}


def places_at(cell: tuple[int, int]) -> tuple[Place, Place]:
    """The shared ``place CELL`` and ``place CELL base`` for a ``(row, col)`` cell: looked up by
    the cell itself, the lists of legal places are built with one lookup a cell (issue 30)."""
    pair = _PLACES_AT.get(cell)
    if pair is None:
        pair = _PLACES_AT[cell] = (place(*cell), place(*cell, True))
    return pair


SAIL_DONE = SailDone()  # shared, as the sailing actions are listed at every sailing step
SAIL_END = SailEnd()
@functools.cache
def sail(row: int, col: int, boat: bool = False) -> Sail:
    """The shared ``Sail`` for a cell (as :func:`place`; the sailing actions are listed often)."""
    return Sail(row, col, boat)


def _cell(raw: str, word: str) -> tuple[int, int]:
    cell = parse_cell(word)
    if cell is None:
        raise ActionSyntaxError(raw, msg("{word} is not a cell (row ^ W N S G F and a column, like N3)", word=quote(word)))
    return cell


def _int(raw: str, word: str) -> int:
    """Only ASCII digits of sensible length: ``²``, ``١`` or 5,000 digits are malformed, not a crash."""
    n = whole_number(word)
    if n is None:
        if word.isascii() and word.isdigit():
            raise ActionSyntaxError(raw, msg("{word} is too large a number", word=quote(word)))
        raise ActionSyntaxError(raw, msg("{word} is not a whole number (digits 0-9)", word=quote(word)))
    return n


def _kind(raw: str, word: str) -> str:
    k = _KIND_BY_WORD.get(word.lower())
    if k is None:
        raise ActionSyntaxError(raw, msg("{word} is not a viking kind: {F} (F), {G} (G), {S} (S), {N} (N), {W} (W) "
                                         "or {B} (B)", word=quote(word), **KIND_WORD))
    return k


def _parse_plan(raw: str, args: list[str]) -> SailPlan:
    """``sail plan TRIP / TRIP … [/ end]``, a trip ``[boat] CELL …`` (``/`` may touch the words)."""
    segments = [seg.split() for seg in " ".join(args).split("/")]
    end = bool(segments) and [w.lower() for w in segments[-1]] == ["end"]
    if end:
        segments.pop()
    if not segments and not end or segments == [[]]:
        raise ActionSyntaxError(raw, msg("name each sailor's cells: 'sail plan N2 S3 / G4 G5 / end'"))
    trips: list[Trip] = []
    for n, words in enumerate(segments, 1):
        boat = bool(words) and words[0].lower() == "boat"
        cells = words[1:] if boat else words
        if not cells:
            raise ActionSyntaxError(raw, msg("sailor {n} of the plan carries nobody: name its cells", n=n))
        if any(w.lower() == "end" for w in cells):
            raise ActionSyntaxError(raw, msg("'end' comes last in a plan, after a '/'"))
        trips.append((boat, tuple(sorted(_cell(raw, w) for w in cells))))
    return SailPlan(tuple(trips), end)


def parse_action(text: str) -> Action:
    """Read an action's text form (case-insensitive keywords, cells like ``N3`` or ``^2``)."""
    raw = text
    words = text.strip().split()
    if not words:
        raise ActionSyntaxError(raw, msg("empty"))
    verb, args = words[0].lower().lstrip("/"), words[1:]

    def need(n: int) -> None:
        if len(args) != n:
            raise ActionSyntaxError(raw, msgn("{verb} takes {n} argument", "{verb} takes {n} arguments", n, verb=quote(verb)))

    if verb == "buy":
        need(1)
        pos = _int(raw, args[0])
        if pos > 11:
            raise ActionSyntaxError(raw, msg("wheel positions are 0 to 11"))
        return Buy(pos)
    if verb == "place":
        if len(args) == 2 and args[1].lower() == "base":
            r, c = _cell(raw, args[0])
            return Place(r, c, True)
        need(1)
        r, c = _cell(raw, args[0])
        return Place(r, c, False)
    if verb == "start":
        need(1)
        r, c = _cell(raw, args[0])
        if c != 1 or r == 0:
            raise ActionSyntaxError(raw, msg("the start tile goes in column 1 of an island row (W1 … F1)"))
        return Start(r)
    if verb == "sail":
        if args and args[0].lower() == "plan":
            return _parse_plan(raw, args[1:])
        if len(args) == 1 and args[0].lower() == "end":
            return SailEnd()
        if len(args) == 1 and args[0].lower() == "done":
            return SailDone()
        boat = bool(args) and args[0].lower() == "boat"
        cells_text = args[1:] if boat else args
        if not cells_text:
            raise ActionSyntaxError(raw, msg("name the cell a viking sails to (sail N3), or 'sail done' / 'sail end'"))
        if len(cells_text) > 1:
            raise ActionSyntaxError(raw, msg("one viking at a time: 'sail N2', then 'sail S3', then 'sail done'"))
        r, c = _cell(raw, cells_text[0])
        return Sail(r, c, boat)
    if verb == "exchange":
        need(1)
        n = _int(raw, args[0])
        if n < 1:
            raise ActionSyntaxError(raw, msg("exchange at least 1 VP"))
        return Exchange(n)
    if verb == "bid":
        need(1)
        n = _int(raw, args[0])
        if n < 1:
            raise ActionSyntaxError(raw, msg("a bid is at least 1 gold"))
        return Bid(n)
    if verb == "pass":
        need(0)
        return Pass()
    if verb == "remove":
        need(1)
        return Remove(_kind(raw, args[0]))
    if verb == "lay":
        need(1)
        return Lay(_kind(raw, args[0]))
    if verb == "special":
        need(1)
        name = args[0]
        if name.lower() == "none":
            return TakeSpecial("none")
        match = _SPECIAL_BY_WORD.get(name.lower())
        if match is None:
            raise ActionSyntaxError(raw, msg("{name} is not a special tile: {tiles} or none", name=quote(name),
                                             tiles=", ".join(SPECIAL_TYPED[n] for n in SPECIAL_TILES)))
        return TakeSpecial(match)
    if verb == "swap":
        need(1)
        r, c = _cell(raw, args[0])
        return Swap(r, c)
    raise ActionSyntaxError(raw, msg("unknown action {verb}", verb=quote(verb)))
