"""What the storage keeps and hands out, the same for every backend: the records of a match
(:class:`MatchRecord`, :class:`Seat`, :class:`LoggedAction`, timers), the failures
(:class:`StorageError` and its kinds), how a database setting names a backend
(:func:`parse_database`), and how a match's log is read (:func:`effective_actions`, :func:`rebuild`).
The interface itself is :class:`bot.storage.base.Storage`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import engine_options
from engine.core import Game

STATUSES = ("lobby", "active", "finished", "abandoned")
OPEN_STATUSES = ("lobby", "active")


def parse_database(database: str | Path) -> tuple[str, str | Path]:
    """``("sqlite", Path)`` or ``("postgresql", url)`` for a database setting.

    ``sqlite:///relative/path``, ``sqlite:////absolute/path`` (as SQLAlchemy spells them) and plain
    paths are SQLite; ``postgresql://…`` and ``postgres://…`` are PostgreSQL.
    """
    if isinstance(database, Path):
        return "sqlite", database
    if database.startswith(("postgresql://", "postgres://")):
        return "postgresql", database
    if database.startswith("sqlite://"):
        rest = database.removeprefix("sqlite://")
        if not rest.startswith("/") or rest == "/":
            raise StorageError(f"{database!r}: write the database as sqlite:///relative/path or sqlite:////absolute/path")
        return "sqlite", Path(rest[1:])
    if "://" in database:
        raise StorageError(f"{database!r}: the database must be a path, sqlite:///path or postgresql://…")
    return "sqlite", Path(database)


class StorageError(Exception):
    """The database cannot be used (e.g. it was written by a newer meadhall)."""


class StorageUnavailable(StorageError):
    """The database could not be read or written just now (read-only, full disk, locked past the busy
    timeout, I/O error); the transaction was rolled back, so nothing changed. ``writing`` tells whether
    a write failed. The message names the database."""

    def __init__(self, message: str, *, writing: bool) -> None:
        self.writing = writing
        super().__init__(message)


class StorageConflict(StorageError):
    """A write the database's constraints refuse (a second open table in a channel, a change to the
    append-only log); nothing was written."""


class StaleVersionError(StorageError):
    """``commit_action`` found another version than the caller expected; nothing was written."""

    def __init__(self, match_id: int, expected: int, found: int | None) -> None:
        self.match_id = match_id
        self.expected = expected
        self.found = found
        super().__init__(f"match {match_id}: expected version {expected}, found {found}")


@dataclass(frozen=True, slots=True)
class Seat:
    user: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"user": self.user, "name": self.name}


@dataclass(slots=True)
class MatchRecord:
    id: int
    guild: str | None
    channel: str
    game: str
    options: dict[str, Any]
    seed: int
    start_seat: int | None
    status: str
    creator: str
    seats: list[Seat]
    votes: list[str]
    version: int
    snapshot: dict[str, Any] | None
    created: float
    updated: float
    link: str | None = None  # where the game was played (a Discord thread's link), schema 2
    started: float | None = None  # when the game started (its first turn's clock), schema 5; None before

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user == user:
                return i
        return None


@dataclass(frozen=True, slots=True)
class LoggedAction:
    match: int
    seq: int
    seat: int
    action: str
    at: float


@dataclass(frozen=True, slots=True)
class NewTimer:
    kind: str
    due: float
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Timer:
    id: int
    match: int
    kind: str
    due: float
    payload: dict[str, Any]


PING_CHOICES = ("every", "after", "reminders")  # issue 25: when a person is pinged for their turn


@dataclass(frozen=True, slots=True)
class PlayerSettings:
    """A person's own settings (schema 5, ``player_settings``): ``pings`` is ``"every"`` (every
    turn, the default), ``"after"`` (only if they have not acted ``ping_hours`` hours after their
    turn began) or ``"reminders"`` (only the reminders ping them)."""

    user: str
    pings: str = "every"
    ping_hours: int | None = None


@dataclass(frozen=True, slots=True)
class Rematches:
    """Every rematch vote ``(match, voter, name, at)`` and every started rematch ``(match, rematch,
    at)`` of a database (schema 4), as ``migrate-db`` copies them."""

    votes: list[tuple[int, str, str, float]]
    links: list[tuple[int, int, float]]


UNDO_PREFIX = "#undo"  # a logged "#undo N" takes back the N actions before it still in force (issue 17)


def undo_count(action: str) -> int | None:
    """How many actions a logged entry takes back (``None``: it is a move)."""
    if not action.startswith(UNDO_PREFIX):
        return None
    rest = action.removeprefix(UNDO_PREFIX).strip()
    return int(rest) if rest else 1


def effective_actions(actions: Iterable[LoggedAction]) -> list[LoggedAction]:
    """The moves in force: the log with every ``#undo`` entry and the moves it took back left out.
    The log itself stays append-only; this is how it is read."""
    out: list[LoggedAction] = []
    for logged in actions:
        k = undo_count(logged.action)
        if k is None:
            out.append(logged)
        else:
            del out[len(out) - k:]
    return out


def rebuild(game_cls: type[Game], match: MatchRecord, actions: Iterable[LoggedAction]) -> Game:
    """Replay a match from its initial state (seed, names, options, start seat) and its log
    (honouring ``#undo`` entries: the moves in force are replayed from the start)."""
    game = game_cls.new(match.names, seed=match.seed, options=engine_options(match.options),
                        start_seat=match.start_seat)
    logged_all = list(actions)
    for expected_seq, logged in enumerate(logged_all, start=1):
        if logged.seq != expected_seq:
            raise StorageError(f"match {match.id}: action log has a gap before seq {logged.seq}")
    for logged in effective_actions(logged_all):
        game.apply(logged.seat, logged.action)
    return game
