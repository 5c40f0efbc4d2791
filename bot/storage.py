"""Durable storage of meadhall tables: one SQLite file (aiosqlite, WAL), versioned migrations.

Tables (schema version 1):

* ``matches`` — one row per table ever opened in a channel: ``guild``, ``channel``, ``game`` id,
  ``options`` (JSON), ``seed``, ``start_seat`` (``NULL`` = drawn from the seed), ``status``
  (``lobby`` → ``active`` → ``finished`` | ``abandoned``; a lobby may also be ``abandoned``),
  ``creator``, ``seats`` (JSON ``[{"user", "name"}]``, seat 0 first), ``votes`` (JSON list of users
  who voted to abandon), ``version`` (number of applied actions), ``snapshot`` (the game's
  ``to_json()`` after the last action), ``created``/``updated`` (epoch seconds). At most one
  lobby-or-active match per channel (a partial unique index).
* ``actions`` — the append-only log (``match``, ``seq`` 1…version, ``seat``, ``action`` text,
  ``at``); triggers refuse UPDATE and DELETE.
* ``timers`` — durable timers (``match``, ``kind`` e.g. ``"reminder"``, ``due``, ``payload`` JSON).
* ``schema_version`` — one row: how many steps of :data:`MIGRATIONS` have been applied.

API (all coroutines unless noted; every write is one transaction)::

    store = await Storage.open(path)              # migrates, WAL; also ``async with``
    await store.close()
    await store.schema_version() -> int
    await store.create_lobby(channel=, game=, creator=, seats=, now=, guild=None) -> MatchRecord
    await store.update_lobby(match_id, seats=, creator=, game=, now=)
    await store.start_match(match_id, game=, options=, seed=, start_seat=, seats=, snapshot=, now=,
                            timers=()) -> None
    await store.commit_action(match_id, expected_version=, seat=, action=, snapshot=, status=,
                              now=, timers=None) -> int          # raises StaleVersionError
    await store.set_votes(match_id, votes, now=)
    await store.close_match(match_id, status, now=)               # abandoned/finished; drops timers
    await store.get_match(match_id) -> MatchRecord | None
    await store.open_match(channel) -> MatchRecord | None          # lobby or active
    await store.unfinished_matches() -> list[MatchRecord]
    await store.history(channel=None, guild=None, limit=20) -> list[MatchRecord]  # newest first
    await store.last_match(channel) -> MatchRecord | None
    await store.actions(match_id) -> list[LoggedAction]
    await store.timers(match_id=None) -> list[Timer]
    await store.take_due_timers(now, kind=None) -> list[Timer]   # removes and returns them
    await store.add_timers(match_id, timers)
    await store.next_timer_due() -> float | None
    rebuild(game_cls, match, actions) -> Game                     # plain function: replay the log

``timers`` arguments are sequences of :class:`NewTimer`; in ``start_match``/``commit_action`` they
replace every timer of the match in the same transaction (``None`` leaves them alone).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bot.games import engine_options
from engine.core import Game

STATUSES = ("lobby", "active", "finished", "abandoned")
OPEN_STATUSES = ("lobby", "active")

# Each step is a tuple of SQL statements; step i (0-based) brings the schema to version i + 1.
# Never edit a released step: append a new one.
MIGRATIONS: list[tuple[str, ...]] = [
    (
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild TEXT,
            channel TEXT NOT NULL,
            game TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            seed INTEGER NOT NULL DEFAULT 0,
            start_seat INTEGER,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            creator TEXT NOT NULL,
            seats TEXT NOT NULL DEFAULT '[]',
            votes TEXT NOT NULL DEFAULT '[]',
            version INTEGER NOT NULL DEFAULT 0,
            snapshot TEXT,
            created REAL NOT NULL,
            updated REAL NOT NULL
        )""",
        "CREATE UNIQUE INDEX matches_one_open_per_channel ON matches(channel) "
        "WHERE status IN ('lobby', 'active')",
        "CREATE INDEX matches_status ON matches(status)",
        "CREATE INDEX matches_channel ON matches(channel, id)",
        """CREATE TABLE actions (
            match INTEGER NOT NULL REFERENCES matches(id),
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (match, seq)
        )""",
        "CREATE TRIGGER actions_append_only_update BEFORE UPDATE ON actions "
        "BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END",
        "CREATE TRIGGER actions_append_only_delete BEFORE DELETE ON actions "
        "BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END",
        """CREATE TABLE timers (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            match INTEGER NOT NULL REFERENCES matches(id),
            kind TEXT NOT NULL,
            due REAL NOT NULL,
            payload TEXT NOT NULL DEFAULT '{}'
        )""",
        "CREATE INDEX timers_due ON timers(due)",
        "CREATE INDEX timers_match ON timers(match)",
    ),
]


class StorageError(Exception):
    """The database cannot be used (e.g. it was written by a newer meadhall)."""


class StorageUnavailable(StorageError):
    """The database could not be read or written just now (read-only, full disk, locked past the busy
    timeout, I/O error); the transaction was rolled back, so nothing changed. ``writing`` tells whether
    a write failed. The message names the database."""

    def __init__(self, message: str, *, writing: bool) -> None:
        self.writing = writing
        super().__init__(message)


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


_MATCH_COLUMNS = (
    "id, guild, channel, game, options, seed, start_seat, status, creator, seats, votes, version, "
    "snapshot, created, updated"
)


def _match(row: Sequence[Any]) -> MatchRecord:
    (mid, guild, channel, game, options, seed, start_seat, status, creator, seats, votes, version,
     snapshot, created, updated) = row
    return MatchRecord(
        id=mid, guild=guild, channel=channel, game=game, options=json.loads(options), seed=seed,
        start_seat=start_seat, status=status, creator=creator,
        seats=[Seat(s["user"], s["name"]) for s in json.loads(seats)], votes=json.loads(votes),
        version=version, snapshot=None if snapshot is None else json.loads(snapshot),
        created=created, updated=updated,
    )


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _seats_json(seats: Iterable[Seat]) -> str:
    return _dumps([s.to_json() for s in seats])


class Storage:
    """One open database. Use :meth:`open`.

    Writes are serialised on one connection; reads use a second connection (WAL lets them run while
    a write waits), so a table whose commit waits for a lock never holds up other tables' reads. A
    write that cannot get the database within ``busy_timeout`` seconds (counting the wait behind this
    process's other writes) fails with :class:`StorageUnavailable`, as does any other failure of the
    database (read-only, disk full, I/O); the transaction is rolled back.
    """

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection, path: Path,
                 busy_timeout: float) -> None:
        self._conn = conn
        self._reader = reader
        self.path = path
        self.busy_timeout = busy_timeout
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations: Sequence[Sequence[str]] = MIGRATIONS,
        synchronous: str = "FULL",
        busy_timeout: float = 5.0,
    ) -> Storage:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        ``synchronous``: SQLite's ``PRAGMA synchronous`` (``FULL`` survives power loss after a
        commit; ``NORMAL`` only survives a crash of the process). ``busy_timeout``: seconds a write
        waits for the database before it fails. A database that cannot be opened raises
        :class:`StorageError` naming ``path``.
        """
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        if not busy_timeout > 0:
            raise ValueError(f"busy_timeout must be a positive number of seconds, not {busy_timeout!r}")
        path = Path(path)
        conns: list[aiosqlite.Connection] = []
        try:
            for _ in range(2):
                conn = await aiosqlite.connect(path, isolation_level=None)
                conns.append(conn)
                await conn.execute("PRAGMA journal_mode=WAL")
                await conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
                await conn.execute("PRAGMA foreign_keys=ON")
                await conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
            store = cls(conns[0], conns[1], path, busy_timeout)
            await store._migrate(migrations)
        except BaseException as e:
            for conn in conns:
                await conn.close()
            if isinstance(e, sqlite3.Error):
                raise StorageError(f"cannot open the database {path}: {e}") from e
            raise
        return store

    async def close(self) -> None:
        async with self._lock, self._read_lock:
            await self._conn.close()
            await self._reader.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _unavailable(self, e: sqlite3.Error, *, writing: bool) -> StorageUnavailable:
        what = "write to" if writing else "read from"
        return StorageUnavailable(f"could not {what} the database {self.path}: {e}", writing=writing)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        try:
            await asyncio.wait_for(self._lock.acquire(), self.busy_timeout)
        except TimeoutError:
            raise StorageUnavailable(
                f"could not write to the database {self.path}: busy for more than {self.busy_timeout} s",
                writing=True) from None
        try:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise self._unavailable(e, writing=True) from e
            try:
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException as e:
                try:
                    await self._conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # SQLite already rolled back (e.g. after SQLITE_FULL) or COMMIT failed
                if isinstance(e, sqlite3.Error) and not isinstance(e, sqlite3.IntegrityError):
                    raise self._unavailable(e, writing=True) from e
                raise
        finally:
            self._lock.release()

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._read_lock:
            try:
                async with self._reader.execute(sql, params) as cur:
                    return list(await cur.fetchall())
            except sqlite3.Error as e:
                raise self._unavailable(e, writing=False) from e

    async def _migrate(self, migrations: Sequence[Sequence[str]]) -> None:
        async with self._tx() as db:
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            async with db.execute("SELECT version FROM schema_version") as cur:
                row = await cur.fetchone()
            if row is None:
                await db.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            else:
                current = row[0]
            if current > len(migrations):
                raise StorageError(
                    f"{self.path}: schema version {current} is newer than this meadhall knows "
                    f"({len(migrations)}); refusing to touch it"
                )
            for step in migrations[current:]:
                for statement in step:
                    await db.execute(statement)
            await db.execute("UPDATE schema_version SET version = ?", (len(migrations),))

    async def schema_version(self) -> int:
        rows = await self._fetchall("SELECT version FROM schema_version")
        return rows[0][0]

    async def journal_mode(self) -> str:
        rows = await self._fetchall("PRAGMA journal_mode")
        return rows[0][0]

    # ------------------------------------------------------------------ matches

    async def create_lobby(
        self, *, channel: str, game: str, creator: str, seats: Sequence[Seat], now: float,
        guild: str | None = None,
    ) -> MatchRecord:
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT INTO matches (guild, channel, game, status, creator, seats, created, updated) "
                "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (guild, channel, game, creator, _seats_json(seats), now, now),
            )
            mid = cur.lastrowid
            async with db.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (mid,)) as c:
                return _match(await c.fetchone())

    async def update_lobby(
        self, match_id: int, *, seats: Sequence[Seat], creator: str, game: str, now: float
    ) -> None:
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE matches SET seats = ?, creator = ?, game = ?, updated = ? "
                "WHERE id = ? AND status = 'lobby'",
                (_seats_json(seats), creator, game, now, match_id),
            )
            if cur.rowcount != 1:
                raise StorageError(f"match {match_id} is not a lobby")

    async def start_match(
        self, match_id: int, *, game: str, options: dict[str, Any], seed: int, start_seat: int | None,
        seats: Sequence[Seat], snapshot: dict[str, Any], now: float, timers: Sequence[NewTimer] = (),
    ) -> None:
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE matches SET status = 'active', game = ?, options = ?, seed = ?, start_seat = ?, "
                "seats = ?, version = 0, snapshot = ?, votes = '[]', updated = ? "
                "WHERE id = ? AND status = 'lobby'",
                (game, _dumps(options), seed, start_seat, _seats_json(seats), _dumps(snapshot), now,
                 match_id),
            )
            if cur.rowcount != 1:
                raise StorageError(f"match {match_id} is not a lobby")
            await self._replace_timers(db, match_id, timers)

    async def commit_action(
        self, match_id: int, *, expected_version: int, seat: int, action: str,
        snapshot: dict[str, Any], status: str, now: float, timers: Sequence[NewTimer] | None = None,
    ) -> int:
        """Append one action, store the new snapshot and version (and timers) atomically.

        Returns the new version. Raises :class:`StaleVersionError` (writing nothing) when the
        stored version is not ``expected_version`` or the match is not active.
        """
        if status not in ("active", "finished"):
            raise ValueError(f"an action leaves a match active or finished, not {status!r}")
        new_version = expected_version + 1
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE matches SET version = ?, snapshot = ?, status = ?, updated = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, _dumps(snapshot), status, now, match_id, expected_version),
            )
            if cur.rowcount != 1:
                async with db.execute("SELECT version FROM matches WHERE id = ?", (match_id,)) as c:
                    row = await c.fetchone()
                raise StaleVersionError(match_id, expected_version, None if row is None else row[0])
            await db.execute(
                "INSERT INTO actions (match, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (match_id, new_version, seat, action, now),
            )
            if status == "finished":
                await self._replace_timers(db, match_id, ())
            elif timers is not None:
                await self._replace_timers(db, match_id, timers)
        return new_version

    async def set_votes(self, match_id: int, votes: Sequence[str], *, now: float) -> None:
        async with self._tx() as db:
            await db.execute(
                "UPDATE matches SET votes = ?, updated = ? WHERE id = ?", (_dumps(list(votes)), now, match_id)
            )

    async def close_match(self, match_id: int, status: str, *, now: float) -> None:
        """End a lobby or active match as ``abandoned`` (or ``finished``); its timers go."""
        if status not in ("abandoned", "finished"):
            raise ValueError(f"cannot close a match as {status!r}")
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE matches SET status = ?, updated = ? WHERE id = ? AND status IN ('lobby', 'active')",
                (status, now, match_id),
            )
            if cur.rowcount != 1:
                raise StorageError(f"match {match_id} is not open")
            await self._replace_timers(db, match_id, ())

    async def get_match(self, match_id: int) -> MatchRecord | None:
        rows = await self._fetchall(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return _match(rows[0]) if rows else None

    async def open_match(self, channel: str) -> MatchRecord | None:
        rows = await self._fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel = ? AND status IN ('lobby', 'active')",
            (channel,),
        )
        return _match(rows[0]) if rows else None

    async def unfinished_matches(self) -> list[MatchRecord]:
        rows = await self._fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [_match(r) for r in rows]

    async def history(
        self, *, channel: str | None = None, guild: str | None = None, limit: int = 20
    ) -> list[MatchRecord]:
        """Finished and abandoned matches, newest first, optionally of one channel or guild."""
        where = ["status IN ('finished', 'abandoned')"]
        params: list[Any] = []
        if channel is not None:
            where.append("channel = ?")
            params.append(channel)
        if guild is not None:
            where.append("guild = ?")
            params.append(guild)
        params.append(limit)
        rows = await self._fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {' AND '.join(where)} ORDER BY id DESC LIMIT ?",
            params,
        )
        return [_match(r) for r in rows]

    async def last_match(self, channel: str) -> MatchRecord | None:
        rows = await self._fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel = ? ORDER BY id DESC LIMIT 1", (channel,)
        )
        return _match(rows[0]) if rows else None

    async def actions(self, match_id: int) -> list[LoggedAction]:
        rows = await self._fetchall(
            "SELECT match, seq, seat, action, at FROM actions WHERE match = ? ORDER BY seq", (match_id,)
        )
        return [LoggedAction(*r) for r in rows]

    # ------------------------------------------------------------------ timers

    async def _replace_timers(
        self, db: aiosqlite.Connection, match_id: int, timers: Sequence[NewTimer]
    ) -> None:
        await db.execute("DELETE FROM timers WHERE match = ?", (match_id,))
        await self._insert_timers(db, match_id, timers)

    @staticmethod
    async def _insert_timers(db: aiosqlite.Connection, match_id: int, timers: Sequence[NewTimer]) -> None:
        if timers:
            await db.executemany(
                "INSERT INTO timers (match, kind, due, payload) VALUES (?, ?, ?, ?)",
                [(match_id, t.kind, t.due, _dumps(t.payload)) for t in timers],
            )

    async def add_timers(self, match_id: int, timers: Sequence[NewTimer]) -> None:
        async with self._tx() as db:
            await self._insert_timers(db, match_id, timers)

    async def timers(self, match_id: int | None = None) -> list[Timer]:
        if match_id is None:
            rows = await self._fetchall("SELECT id, match, kind, due, payload FROM timers ORDER BY due, id")
        else:
            rows = await self._fetchall(
                "SELECT id, match, kind, due, payload FROM timers WHERE match = ? ORDER BY due, id", (match_id,)
            )
        return [Timer(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def take_due_timers(self, now: float, kind: str | None = None) -> list[Timer]:
        """Remove and return the timers due at ``now`` (``due <= now``), earliest first."""
        sql = "SELECT id, match, kind, due, payload FROM timers WHERE due <= ?"
        params: list[Any] = [now]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        async with self._tx() as db:
            async with db.execute(sql + " ORDER BY due, id", params) as cur:
                rows = list(await cur.fetchall())
            if rows:
                await db.executemany("DELETE FROM timers WHERE id = ?", [(r[0],) for r in rows])
        return [Timer(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def next_timer_due(self) -> float | None:
        rows = await self._fetchall("SELECT MIN(due) FROM timers")
        return rows[0][0]


def rebuild(game_cls: type[Game], match: MatchRecord, actions: Iterable[LoggedAction]) -> Game:
    """Replay a match from its initial state (seed, names, options, start seat) and its log."""
    game = game_cls.new(match.names, seed=match.seed, options=engine_options(match.options),
                        start_seat=match.start_seat)
    for expected_seq, logged in enumerate(actions, start=1):
        if logged.seq != expected_seq:
            raise StorageError(f"match {match.id}: action log has a gap before seq {logged.seq}")
        game.apply(logged.seat, logged.action)
    return game
