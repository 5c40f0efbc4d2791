"""The SQLite backend (aiosqlite, WAL): one file, one machine; the default.

Writes are serialised on one connection; reads use a second connection (WAL lets them run while
a write waits), so a table whose commit waits for a lock never holds up other tables' reads. A
write that cannot get the database within ``busy_timeout`` seconds (counting the wait behind this
process's other writes) fails with :class:`StorageUnavailable`, as does any other failure of the
database (read-only, disk full, I/O); the transaction is rolled back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.analyses import SQLITE_STEP
from bot.storage.base import Storage
from bot.storage.records import StorageConflict, StorageError, StorageUnavailable
from bot.storage.rows import Row

log = logging.getLogger(__name__)

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
    # 2: where a match is played (a Discord thread link), for profiles and history (issue 17)
    ("ALTER TABLE matches ADD COLUMN link TEXT",),
    # 3: small key-value facts of the deployment, e.g. the hash of the slash commands last synced (issue 24)
    ("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",),
    # 4: who asked for a rematch of a finished match, and the match that rematch became (issue 25)
    (
        """CREATE TABLE rematch_votes (
            match INTEGER NOT NULL REFERENCES matches(id),
            voter TEXT NOT NULL,
            name TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (match, voter)
        )""",
        """CREATE TABLE rematches (
            match INTEGER PRIMARY KEY REFERENCES matches(id),
            rematch INTEGER NOT NULL REFERENCES matches(id),
            at REAL NOT NULL
        )""",
    ),
    # 5: when a match started (the first turn's clock) and each person's settings, e.g. when to be
    # pinged (issue 25)
    ("ALTER TABLE matches ADD COLUMN started REAL",
     "CREATE TABLE player_settings (user_id TEXT PRIMARY KEY, pings TEXT NOT NULL, ping_hours INTEGER, "
     "updated REAL NOT NULL)"),
    # 6: the analysis jobs of finished games (issue 31: bot.storage.analyses)
    SQLITE_STEP,
]


class _SqliteTx:
    def __init__(self, store: SqliteStorage) -> None:
        self._store = store

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self._store._conn.execute(sql, params)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._store._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            await self._store._conn.executemany(sql, rows)


class SqliteStorage(Storage):
    """One SQLite file. Use :meth:`Storage.open` (or :meth:`connect`)."""

    MIGRATIONS = MIGRATIONS

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection, path: Path,
                 busy_timeout: float) -> None:
        self._conn = conn
        self._reader = reader
        self.path = path
        self.busy_timeout = busy_timeout
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @classmethod
    async def connect(
        cls,
        path: str | Path,
        *,
        migrations: Sequence[Sequence[str]] = MIGRATIONS,
        synchronous: str = "FULL",
        busy_timeout: float = 5.0,
    ) -> SqliteStorage:
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
        """Close both connections once the write and the read in progress are done; bounded by
        ``busy_timeout`` (a task stuck holding a lock meets a closed connection instead): a
        shutdown must never hang on the database."""
        held = []
        for lock in (self._lock, self._read_lock):
            try:
                async with asyncio.timeout(self.busy_timeout):
                    await lock.acquire()
                held.append(lock)
            except TimeoutError:
                log.warning("closing %s: a task still holds its lock after %s s", self.path, self.busy_timeout)
        try:
            for conn in (self._conn, self._reader):
                try:
                    async with asyncio.timeout(self.busy_timeout):
                        await conn.close()
                except TimeoutError:
                    log.warning("closing %s: the connection did not close within %s s", self.path, self.busy_timeout)
                    conn.stop()  # aiosqlite's thread ends after the statement it is running
        finally:
            for lock in held:
                lock.release()

    async def journal_mode(self) -> str:
        rows = await self._fetchall("PRAGMA journal_mode")
        return str(rows[0][0])

    def _unavailable(self, e: sqlite3.Error, *, writing: bool) -> StorageError:
        if isinstance(e, sqlite3.IntegrityError):
            return StorageConflict(f"{self.path}: {e}")
        what = "write to" if writing else "read from"
        return StorageUnavailable(f"could not {what} the database {self.path}: {e}", writing=writing)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[_SqliteTx]:
        try:
            async with asyncio.timeout(self.busy_timeout):
                await self._lock.acquire()
        except TimeoutError:
            raise StorageUnavailable(
                f"could not write to the database {self.path}: busy for more than {self.busy_timeout} s",
                writing=True) from None
        try:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise self._unavailable(e, writing=True) from e
            except BaseException:  # cancelled while BEGIN ran in aiosqlite's thread: end what it began
                with contextlib.suppress(sqlite3.Error):
                    await self._conn.execute("ROLLBACK")
                raise
            try:
                yield _SqliteTx(self)
                await self._conn.execute("COMMIT")
            except BaseException as e:
                try:
                    await self._conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # SQLite already rolled back (e.g. after SQLITE_FULL) or COMMIT failed
                if isinstance(e, sqlite3.Error):
                    raise self._unavailable(e, writing=True) from e
                raise
        finally:
            self._lock.release()

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._read_lock:
            try:
                async with self._reader.execute(sql, params) as cur:
                    return list(await cur.fetchall())
            except sqlite3.Error as e:
                raise self._unavailable(e, writing=False) from e
