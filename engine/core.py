"""What every meadhall game engine shares: seeded RNG, errors, events, the game protocol.

Both engines (``engine.vikings``, ``engine.brianboru``) follow the same shape so that the host,
the computer players and the conformance tests treat them alike:

* a game is a state object whose whole content serialises to plain JSON (RNG state included);
* actions are small frozen values with a text form that round-trips (``parse_action(str(a)) == a``);
* ``acting_seats()`` names who owes a decision now (several seats at once for simultaneous
  decisions), ``legal_actions(seat)`` lists that seat's choices sorted and deterministic;
* ``apply(seat, action)`` validates first and raises an :class:`EngineError` subclass without
  changing anything, or mutates the state and returns the :class:`Event` list of what happened;
* ``view(seat)`` is the JSON-able picture a seat may see (``None`` = a spectator).

Nothing here does I/O, imports discord/PIL/asyncio, or reads the clock.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


class Rng:
    """A small deterministic RNG (splitmix64) whose whole state is one integer.

    Python's ``random.Random`` state is a 625-int tuple whose algorithm could change between
    versions; this one is tiny, JSON-able and identical everywhere, so a stored game replays
    the same on any machine.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = int(seed) & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def fork(self) -> Rng:
        """An independent stream derived from this one (advances this one by one step)."""
        return Rng(self.next64())


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True)
class Msg:
    """A sentence an engine says, as data: an English message id and its parameters (issue 16).

    The engines never build a finished sentence for a person: refusal reasons and scoring lines
    are ``Msg`` values, translated at the edge by the host (``bot.i18n.tr_msg``). ``str(msg)`` is
    the English text, ``id.format(**params)``; a parameter may be a nested ``Msg`` (a word that is
    translated too, e.g. a viking kind) or a plain value (a number, a cell, a player's name, a
    quoted input), which is never translated. A plural message also has ``plural`` and ``n``
    (``n`` is a format field too), like ``ngettext``. Build them with :func:`msg` / :func:`msgn`
    and literal ids, so Babel can extract them into the host's catalog.

    >>> m = msg("no {kind} waits in your base", kind=msg("fisher"))
    >>> str(m), Msg.from_json(m.to_json()) == m
    ('no fisher waits in your base', True)
    >>> str(msgn("{n} scout", "{n} scouts", 2))
    '2 scouts'
    """

    id: str
    params: dict[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None

    def __str__(self) -> str:
        return self.translate(_english, _english_n)

    def translate(self, tr: Callable[..., str], ntr: Callable[..., str]) -> str:
        """This message through a translator pair shaped like ``gettext``'s, which also fill in
        the fields: ``tr(id, **params)`` and ``ntr(id, plural, n, **params)`` (the host's
        ``bot.i18n._``/``ngettext``, a picture's ``tr``/``ntr``). Nested messages go first."""
        params = {k: _param_text(v, tr, ntr) for k, v in self.params.items()}
        if self.plural is not None and self.n is not None:
            return ntr(self.id, self.plural, self.n, **params)
        return tr(self.id, **params)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: ``{"msg": id, "params": {...}}`` (plus ``plural`` and ``n``); nested too."""
        out: dict[str, Any] = {"msg": self.id,
                               "params": {k: _param_json(v) for k, v in self.params.items()}}
        if self.plural is not None:
            out["plural"] = self.plural
            out["n"] = self.n
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Msg:
        return cls(d["msg"], {k: _param_from_json(v) for k, v in d.get("params", {}).items()},
                   d.get("plural"), d.get("n"))


def _english(message: str, /, **fields: Any) -> str:
    return message.format(**fields) if fields else message


def _english_n(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    return (singular if n == 1 else plural).format(n=n, **fields)


def _param_text(v: Any, tr: Callable[..., str], ntr: Callable[..., str]) -> Any:
    if isinstance(v, Msg):
        return v.translate(tr, ntr)
    if isinstance(v, (list, tuple)):
        return ", ".join(str(_param_text(x, tr, ntr)) for x in v)
    return v


def _param_json(v: Any) -> Any:
    if isinstance(v, Msg):
        return v.to_json()
    if isinstance(v, (list, tuple)):
        return [_param_json(x) for x in v]
    return v


def _param_from_json(v: Any) -> Any:
    if isinstance(v, dict) and "msg" in v:
        return Msg.from_json(v)
    if isinstance(v, list):
        return [_param_from_json(x) for x in v]
    return v


def msg(message: str, /, **params: Any) -> Msg:
    """Mark an engine sentence for translation (Babel keyword ``msg``); ``message`` is a literal."""
    return Msg(message, params)


def msgn(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A plural-aware engine sentence (Babel keyword ``msgn:1,2``); ``{n}`` is the count."""
    return Msg(singular, params, plural, n)


SCORE_LINE = "{what}: {amount}"
"""The message id of every scoring line (:func:`score_line`)."""


def score_line(what: Msg, amount: Msg, *, gold: int = 0, vp: int = 0) -> Msg:
    """A scoring line: what scored and how much, ``"{what}: {amount}"`` (``3 unthreatened nobles
    × 2 VP: +6 VP``). ``gold``/``vp`` are the signed change it made, so a picture can show a short
    amount or add up lines without reading the words."""
    return msg("{what}: {amount}", what=what, amount=amount, gold=gold, vp=vp)


def as_msg(m: Msg | dict[str, Any] | str) -> Msg:
    """A message from either form; a plain string (an older stored line) becomes a bare id."""
    if isinstance(m, Msg):
        return m
    if isinstance(m, dict):
        return Msg.from_json(m)
    return Msg(str(m))


def msg_text(m: Msg | dict[str, Any] | str) -> str:
    """The English text of a message in either form (a ``Msg``, its JSON, or a plain string)."""
    if isinstance(m, dict):
        m = Msg.from_json(m)
    return str(m)


# --------------------------------------------------------------------------- errors


class EngineError(Exception):
    """Base of every error an engine raises for bad input. The state is unchanged."""


QUOTE_LIMIT = 100
"""The most characters of a player's input that an error message quotes back (issue 11)."""


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)`` of at most about ``limit`` characters: longer input is cut and ends in ``…``.

    >>> quote("buy 2"), quote("x" * 500) == repr("x" * 100 + "…")
    ("'buy 2'", True)
    """
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _as_msg(reason: Msg | str) -> Msg:
    return reason if isinstance(reason, Msg) else Msg(str(reason))


class ActionSyntaxError(EngineError, ValueError):
    """The text is not an action of this game at all (malformed).

    ``msg`` is the structured reason (translate it in the host), ``reason`` its English text.
    The message quotes at most :data:`QUOTE_LIMIT` characters of the input; ``text`` keeps it whole.
    """

    def __init__(self, text: str, reason: Msg | str) -> None:
        self.text = text
        self.msg = _as_msg(reason)
        self.reason = str(self.msg)
        super().__init__(f"cannot read {quote(text)} as an action: {self.reason}")


class IllegalActionError(EngineError):
    """A well-formed action that the rules forbid now. ``rule`` names the rule (e.g. ``V-14``).

    ``msg`` is the structured reason (translate it in the host), ``reason`` its English text.
    """

    def __init__(self, action: object, reason: Msg | str, rule: str | None = None) -> None:
        self.action = str(action)
        self.msg = _as_msg(reason)
        self.reason = str(self.msg)
        self.rule = rule
        where = f" ({rule})" if rule else ""
        super().__init__(f"{quote(self.action)} is not allowed: {self.reason}{where}")


class NotYourTurnError(IllegalActionError):
    """The seat does not owe a decision now."""


class WrongPhaseError(IllegalActionError):
    """The kind of action does not belong to the current phase of the game."""


class NotationError(EngineError, ValueError):
    """A position written in a game's notation could not be read; names line and column (1-based)."""

    def __init__(self, line: int, column: int, message: str) -> None:
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"line {line}, column {column}: {message}")


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for narration and for marking the last move.

    ``kind`` is a short word (``bought``, ``placed``, ``wheel``, ``score`` …), ``seat`` the seat
    it concerns (or ``None``), ``data`` plain JSON values.
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": self.data}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        return cls(d["kind"], d.get("seat"), dict(d.get("data", {})))


# --------------------------------------------------------------------------- protocol


class Action(ABC):
    """A decision with a text form. Subclasses are frozen dataclasses; ``str(a)`` is the text."""

    @property
    @abstractmethod
    def text(self) -> str: ...

    def sort_key(self) -> tuple:
        """Key that orders a game's actions deterministically (override for a natural order)."""
        return (type(self).__name__, self.text)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        return self.text


class Game(ABC):
    """The protocol the host, the computer players and the conformance tests use."""

    GAME_ID: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]

    @classmethod
    @abstractmethod
    def new(
        cls,
        names: Sequence[str],
        seed: int,
        options: dict[str, Any] | None = None,
        start_seat: int | None = None,
    ) -> Game: ...

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Game: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    @property
    @abstractmethod
    def names(self) -> list[str]: ...

    @abstractmethod
    def acting_seats(self) -> list[int]:
        """Seats that owe a decision now, ascending. Empty when the game is over."""

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Sorted legal actions of ``seat`` (default: the first acting seat)."""

    def free_actions(self, seat: int) -> list[Action]:
        """Actions a seat may take at any time, outside its turn (none by default)."""
        return []

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read an action's text form; raises :class:`ActionSyntaxError`."""

    @abstractmethod
    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Validate and apply; raises an :class:`EngineError` and changes nothing if illegal."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats once the game is over (several on a shared win)."""

    @abstractmethod
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see, as JSON-able data (``None`` = spectator)."""

    # -- conveniences shared by all games

    def copy(self) -> Game:
        return type(self).from_json(self.to_json())

    def is_legal(self, seat: int, action: Action | str) -> bool:
        try:
            act = self.parse_action(action) if isinstance(action, str) else action
        except ActionSyntaxError:
            return False
        return act in self.legal_actions(seat)


MAX_NUMBER_DIGITS = 6
"""The longest whole number any action or notation field takes (positions, amounts, cards)."""


def whole_number(word: str, max_digits: int = MAX_NUMBER_DIGITS) -> int | None:
    """``word`` as a whole number ``>= 0`` when it is 1 … ``max_digits`` ASCII digits, else ``None``.

    ``str.isdigit`` also accepts ``²`` or ``١``, on which ``int()`` raises or which no player
    means; parsers call this and raise their own :class:`ActionSyntaxError` on ``None``.

    >>> whole_number("12"), whole_number("²"), whole_number("١"), whole_number("9" * 5000)
    (12, None, None, None)
    """
    if not 0 < len(word) <= max_digits or not (word.isascii() and word.isdigit()):
        return None
    return int(word)


def json_copy(x: Any) -> Any:
    """A copy of plain JSON data (dicts, lists, scalars) sharing no mutable part with ``x``."""
    if isinstance(x, dict):
        return {k: json_copy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [json_copy(v) for v in x]
    return x


def first(items: Iterable[T]) -> T | None:
    for x in items:
        return x
    return None
