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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_LIMITS: dict[int, int] = {}  # Rng.randbelow's rejection limit by n (small n only)


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
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias).

        ``next64`` written out, and the rejection limit remembered by ``n`` (issue 30: the
        playouts draw a few times a step); the same numbers as ``next64`` draws."""
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("randbelow needs n > 0")
            limit = (1 << 64) - ((1 << 64) % n)
            if n <= 4096:
                _LIMITS[n] = limit
        while True:
            z = self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates shuffle in place: ``j = randbelow(i + 1)`` for ``i`` from the end, with
        ``randbelow`` written out (issue 30; the same draws, the same order)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS.get(n)
            if limit is None:
                limit = (1 << 64) - ((1 << 64) % n)
            while True:
                z = state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                x = z ^ (z >> 31)
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

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
    t = type(v)
    if t is int or t is str:  # the most frequent: a number or a name (issue 30)
        return v
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

    def sort_key(self) -> tuple[Any, ...]:
        """Key that orders a game's actions deterministically (override for a natural order)."""
        return (type(self).__name__, self.text)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        return self.text


# --------------------------------------------------------------------------- metadata

OPTION_KINDS = ("flag", "preset")
"""What an option word is: ``flag`` switches one engine option (``strict-ships``), ``preset`` names
several at once or none (``advanced``, ``basic``)."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option a game offers, as data (issue 18): the word a person types, the engine
    option it sets, the rule or [D-n] decision it implements and a short help.

    ``key`` is the engine's option key (``None`` for a preset that sets nothing, like ``basic``),
    ``value`` what the word sets it to, ``default`` the key's value when the word is not given.
    """

    word: str
    key: str | None
    rule: str
    help: Msg
    kind: str = "flag"
    value: Any = True
    default: Any = False

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option kind is one of {OPTION_KINDS}, not {self.kind!r}")

    @property
    def sets(self) -> dict[str, Any]:
        """The engine options this word sets (``{}`` for ``basic``)."""
        return {} if self.key is None else {self.key: self.value}


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the host needs to know about a game before it holds one, as data (issue 18).

    ``hidden_hands``: a seat holds information the others must not see (it gets private choices
    and pictures); ``simultaneous``: several seats may owe a decision at once; ``options``: the
    table options, in the order they are offered. ``public`` names the members of the game class,
    beyond :class:`Game`'s, that code outside the engine may use (``tests/engine/test_contract.py``).
    """

    id: str
    title: str
    min_players: int
    max_players: int
    hidden_hands: bool
    simultaneous: bool
    options: tuple[OptionSpec, ...] = ()
    public: frozenset[str] = frozenset()

    @property
    def option_words(self) -> tuple[str, ...]:
        return tuple(o.word for o in self.options)

    def option(self, word: str) -> OptionSpec | None:
        """The option a typed word names (case and a trailing comma ignored), or ``None``."""
        key = word.lower().strip(",")
        return next((o for o in self.options if o.word == key), None)

    def options_from_words(self, words: Sequence[str]) -> dict[str, Any]:
        """The engine options the typed ``words`` set, in order; raises ``KeyError(word)`` for a
        word that is no option of this game.

        >>> from engine.vikings import VikingsGame
        >>> VikingsGame.INFO.options_from_words(["Auction,", "strict-ships"])
        {'auction': True, 'ships_any_order': False}
        """
        out: dict[str, Any] = {}
        for w in words:
            spec = self.option(w)
            if spec is None:
                raise KeyError(w)
            out.update(spec.sets)
        return out


class Game(ABC):
    """The protocol the host, the computer players and the conformance tests use.

    A short game (``>>>`` lines are run by ``tests/engine/test_contract.py``):

    >>> from engine.vikings import VikingsGame
    >>> g = VikingsGame.new(["Astrid", "Bjorn"], seed=1)
    >>> g.INFO.id, g.INFO.option_words[:3], g.acting_seats()
    ('vikings', ('basic', 'advanced', 'auction'), [1])
    >>> [str(a) for a in g.legal_actions(1)][:3]
    ['buy 0', 'buy 1', 'buy 2']
    >>> [e.kind for e in g.apply(1, "buy 2")]
    ['bought']
    >>> v = g.view(None)
    >>> v["seat"], v["phase"], v["players"][1]["gold"]
    (None, 'place', 28)
    >>> g.apply(0, "buy 3")
    Traceback (most recent call last):
    ...
    engine.core.NotYourTurnError: 'buy 3' is not allowed: it is Bjorn's turn, not Astrid's
    """

    INFO: ClassVar[GameInfo]
    """The game's metadata (id, seats, hidden hands, simultaneous decisions, table options)."""
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
    ) -> Self: ...

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Self: ...

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
        """Read an action's text form.

        Raises :class:`ActionSyntaxError` when the text is no action of this game at all (an
        unknown word, a missing or malformed argument). It never looks at the position: a
        well-formed action of another phase parses, and :meth:`apply` refuses it.
        """

    @abstractmethod
    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Validate ``action`` (or its text) for ``seat``, apply it and return the events.

        On a refusal nothing changes and the error says why (the same mistake raises the same
        class in every engine; ``tests/engine/test_contract.py`` checks the table):

        * :class:`ActionSyntaxError` — text that is no action of this game (as :meth:`parse_action`);
        * :class:`NotYourTurnError` — a seat that is not at the table;
        * :class:`WrongPhaseError` — any action once the game is over;
        * :class:`NotYourTurnError` — a seat that owes no decision now (another seat's turn);
        * :class:`WrongPhaseError` — a well-formed action of a kind the current phase does not take;
        * :class:`IllegalActionError` — the right kind of action, against a rule; ``.rule`` names it.

        The first that applies, in this order (``docs/engine-api.md``). A free action
        (:meth:`free_actions`) skips the turn check.

        ``NotYourTurnError`` and ``WrongPhaseError`` are ``IllegalActionError`` subclasses.
        """

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats once the game is over (several on a shared win)."""

    @abstractmethod
    def view(self, seat: int | None = None) -> Mapping[str, Any]:
        """What ``seat`` may see, as JSON-able data (``None`` = spectator): the game's declared
        view type (a ``TypedDict``, e.g. ``engine.vikings.view.VikingsView``). Its ``"seat"`` is
        the viewing seat (``None`` for a spectator) in every game."""

    # -- conveniences shared by all games

    def copy(self) -> Self:
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


class SharedList(list):  # type: ignore[type-arg]
    """A list a game's live view shares between calls while what it shows is unchanged (issue 30:
    ``BrianBoruGame.live_view``): read it, never change it. Being the same object, a reader may
    remember what it derived from it, as an attribute set on it (a plain list takes none)."""


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
