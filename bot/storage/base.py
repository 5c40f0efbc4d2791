"""Durable storage of meadhall tables behind one interface, with two backends: SQLite (aiosqlite,
WAL; the default, one machine) and PostgreSQL (asyncpg; many processes and machines). Versioned
migrations per backend; the same tables and guarantees on both.

Tables and schema versions: :mod:`bot.storage.rows`.

API (all coroutines unless noted; every write is one transaction)::

    store = await Storage.open(database)     # a path, "sqlite:///path" or "postgresql://…";
                                             # migrates; also ``async with``
    await store.close()
    await store.schema_version() -> int
    await store.create_lobby(channel=, game=, creator=, seats=, now=, guild=None) -> MatchRecord
    await store.update_lobby(match_id, seats=, creator=, game=, now=)
    await store.start_match(match_id, game=, options=, seed=, start_seat=, seats=, snapshot=, now=,
                            timers=()) -> None
    await store.commit_action(match_id, expected_version=, seat=, action=, snapshot=, status=,
                              now=, timers=None) -> int          # raises StaleVersionError
    await store.set_votes(match_id, votes, now=)
    await store.update_running(match_id, seats=, options=, now=)   # take-over, host records
    await store.close_match(match_id, status, now=)               # abandoned/finished; drops timers
    await store.move_match(match_id, channel, now=)               # an open match changes channel
    await store.get_match(match_id) -> MatchRecord | None
    await store.open_match(channel) -> MatchRecord | None          # lobby or active
    await store.unfinished_matches(snapshots=True) -> list[MatchRecord]
    await store.all_matches() -> list[MatchRecord]                # every match, by id
    await store.history(channel=None, guild=None, limit=20) -> list[MatchRecord]  # newest first
    await store.last_match(channel) -> MatchRecord | None
    await store.finished_matches(game=None, guild=None, snapshots=True) -> list[MatchRecord]  # as they ended
    await store.set_link(match_id, link)                          # where it is played (thread URL)
    await store.player_settings(users) -> dict[str, PlayerSettings]   # schema 5; absent: never chose
    await store.set_player_settings(PlayerSettings(user, pings, ping_hours), now=)
    await store.all_player_settings() -> list[PlayerSettings]
    await store.get_meta(key) -> str | None                        # the meta table (schema 3)
    await store.set_meta(key, value)
    await store.delete_meta(key)
    await store.all_meta() -> dict[str, str]
    await store.actions(match_id) -> list[LoggedAction]
    await store.add_rematch_vote(match_id, user, name, now=) -> bool   # False: had voted (schema 4)
    await store.rematch_votes(match_id) -> list[tuple[str, str]]       # (user, name) as they voted
    await store.rematch_of(match_id) -> int | None                     # the match its rematch became
    await store.create_rematch(match_id, channel=, guild=, game=, creator=, seats=, options=, seed=,
                               start_seat=, snapshot=, now=, timers=()) -> MatchRecord   # active, claimed
    await store.timers(match_id=None) -> list[Timer]
    await store.take_due_timers(now, kind=None, guilds=None) -> list[Timer]   # removes, returns them
    await store.add_timers(match_id, timers)
    await store.take_timer(timer_id) -> bool                       # remove one (a moot deadline)
    await store.next_timer_due() -> float | None
    await store.import_match(record, actions, timers)             # migrate-db: copy one match as is
    await store.all_rematches() -> Rematches                      # migrate-db: every vote and link
    await store.import_rematches(rematches)                       # ... copied once all matches are
    rebuild(game_cls, match, actions) -> Game                     # plain function: replay the log
    effective_actions(actions) -> list[LoggedAction]              # the log without undone moves

``timers`` arguments are sequences of :class:`NewTimer`; in ``start_match``/``commit_action`` they
replace every timer of the match in the same transaction (``None`` leaves them alone), except the
``ping`` timers a transport set (:data:`KEPT_TIMERS`), which only the end of the match drops.

Failures: :class:`StorageUnavailable` (the database cannot be reached, read or written just now:
read-only, disk full, locked past the busy timeout, connection lost; rolled back),
:class:`StorageConflict` (a constraint refused the write), :class:`StaleVersionError` (another
writer committed first). Many processes may share one PostgreSQL database: ``commit_action`` is
a compare-and-set on the version (exactly one of two writers at the same version succeeds) and
``take_due_timers`` hands each timer to exactly one caller.
"""


from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from bot.storage.analyses import AnalysisQueries
from bot.storage.records import (
    PING_CHOICES,
    LoggedAction,
    MatchRecord,
    NewTimer,
    PlayerSettings,
    Rematches,
    Seat,
    StaleVersionError,
    StorageConflict,
    StorageError,
    Timer,
)
from bot.storage.rows import Row, Tx
from bot.storage.rows import dumps as _dumps
from bot.storage.rows import match_record as _match
from bot.storage.rows import seats_json as _seats_json
from bot.storage.rows import timer_record as _timer

# timers a transport sets for itself (issue 25: a ping deferred by the person's setting): a new
# action's timers replace the host's own, not these; a finished or closed match drops them too
KEPT_TIMERS = ("ping",)

_MATCH_COLUMNS = (
    "id, guild, channel, game, options, seed, start_seat, status, creator, seats, votes, version, "
    "snapshot, created, updated, link, started"
)


Opener = Callable[..., Awaitable["Storage"]]
_opener: Opener | None = None


def set_opener(opener: Opener) -> None:
    """Install what :meth:`Storage.open` calls (:mod:`bot.storage.factory` does, on import)."""
    global _opener
    _opener = opener


class Storage(AnalysisQueries, ABC):
    """One open database; :meth:`open` picks the backend. Backends provide :meth:`_tx` (one
    transaction), :meth:`_fetchall` (a read outside any write) and their migrations; every query
    below is shared."""

    path: Any  # what names the database in messages (a Path, or the URL without password)
    MIGRATIONS: Sequence[Sequence[str]] = ()

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, database: str | Path, **options: Any) -> Storage:
        """Open the database (a path, ``sqlite:///…`` or ``postgresql://…``) and migrate it.

        Options are the backend's (SQLite: ``migrations``, ``synchronous``, ``busy_timeout``;
        PostgreSQL: ``migrations``, ``busy_timeout``, ``pool_size``). The backend is chosen by
        :func:`bot.storage.factory.open_storage`, installed when :mod:`bot.storage` is imported
        (this interface imports no backend).
        """
        if _opener is None:
            raise StorageError("no storage backend is installed: import bot.storage")
        return await _opener(database, **options)

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (each backend its own)."""

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    def _tx(self) -> AbstractAsyncContextManager[Tx]:
        """One transaction: committed on success, rolled back (and raised as
        :class:`StorageUnavailable`) on any database error."""

    @abstractmethod
    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read outside any write transaction (SQLite: its own connection)."""

    async def _migrate(self, migrations: Sequence[Sequence[str]]) -> None:
        async with self._tx() as db:
            await self._lock_for_migration(db)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            rows = await db.fetchall("SELECT version FROM schema_version")
            if not rows:
                await db.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            else:
                current = rows[0][0]
            if current > len(migrations):
                raise StorageError(
                    f"{self.path}: schema version {current} is newer than this meadhall knows "
                    f"({len(migrations)}); refusing to touch it"
                )
            for step in migrations[current:]:
                for statement in step:
                    await db.execute(statement)
            await db.execute("UPDATE schema_version SET version = ?", (len(migrations),))

    async def _lock_for_migration(self, db: Tx) -> None:
        """Make concurrent openers migrate one after the other (SQLite's write lock already does)."""
        return None  # a hook: PostgreSQL takes an advisory lock here

    async def schema_version(self) -> int:
        rows = await self._fetchall("SELECT version FROM schema_version")
        return int(rows[0][0])

    # ------------------------------------------------------------------ matches

    async def create_lobby(
        self, *, channel: str, game: str, creator: str, seats: Sequence[Seat], now: float,
        guild: str | None = None,
    ) -> MatchRecord:
        async with self._tx() as db:
            rows = await db.fetchall(
                "INSERT INTO matches (guild, channel, game, status, creator, seats, created, updated) "
                f"VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING {_MATCH_COLUMNS}",
                (guild, channel, game, creator, _seats_json(seats), float(now), float(now)),
            )
            return _match(rows[0])

    async def update_lobby(
        self, match_id: int, *, seats: Sequence[Seat], creator: str, game: str, now: float
    ) -> None:
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE matches SET seats = ?, creator = ?, game = ?, updated = ? "
                "WHERE id = ? AND status = 'lobby' RETURNING id",
                (_seats_json(seats), creator, game, float(now), match_id),
            )
            if len(rows) != 1:
                raise StorageError(f"match {match_id} is not a lobby")

    async def start_match(
        self, match_id: int, *, game: str, options: dict[str, Any], seed: int, start_seat: int | None,
        seats: Sequence[Seat], snapshot: dict[str, Any], now: float, timers: Sequence[NewTimer] = (),
    ) -> None:
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE matches SET status = 'active', game = ?, options = ?, seed = ?, start_seat = ?, "
                "seats = ?, version = 0, snapshot = ?, votes = '[]', updated = ?, started = ? "
                "WHERE id = ? AND status = 'lobby' RETURNING id",
                (game, _dumps(options), seed, start_seat, _seats_json(seats), _dumps(snapshot), float(now),
                 float(now), match_id),
            )
            if len(rows) != 1:
                raise StorageError(f"match {match_id} is not a lobby")
            await self._replace_timers(db, match_id, timers)

    async def commit_action(
        self, match_id: int, *, expected_version: int, seat: int, action: str,
        snapshot: dict[str, Any], status: str, now: float, timers: Sequence[NewTimer] | None = None,
    ) -> int:
        """Append one action, store the new snapshot and version (and timers) atomically.

        Returns the new version. Raises :class:`StaleVersionError` (writing nothing) when the
        stored version is not ``expected_version`` or the match is not active. The version check
        and the update are one statement, so of two processes committing at the same version
        exactly one succeeds.
        """
        if status not in ("active", "finished"):
            raise ValueError(f"an action leaves a match active or finished, not {status!r}")
        new_version = expected_version + 1
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE matches SET version = ?, snapshot = ?, status = ?, updated = ? "
                "WHERE id = ? AND version = ? AND status = 'active' RETURNING id",
                (new_version, _dumps(snapshot), status, float(now), match_id, expected_version),
            )
            if len(rows) != 1:
                found = await db.fetchall("SELECT version FROM matches WHERE id = ?", (match_id,))
                raise StaleVersionError(match_id, expected_version, found[0][0] if found else None)
            await db.execute(
                "INSERT INTO actions (match, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (match_id, new_version, seat, action, float(now)),
            )
            if status == "finished":
                await self._replace_timers(db, match_id, ())
            elif timers is not None:
                await self._replace_timers(db, match_id, timers, keep=KEPT_TIMERS)
        return new_version

    async def update_running(
        self, match_id: int, *, seats: Sequence[Seat], options: dict[str, Any], now: float
    ) -> None:
        """A running match's seats (a seat taken over, issue 17) and options (the host's record of
        missed deadlines, take-overs and pending votes); the version, log and names stay."""
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE matches SET seats = ?, options = ?, updated = ? WHERE id = ? AND status = 'active' "
                "RETURNING id",
                (_seats_json(seats), _dumps(options), float(now), match_id),
            )
            if len(rows) != 1:
                raise StorageError(f"match {match_id} is not running")

    async def set_votes(self, match_id: int, votes: Sequence[str], *, now: float) -> None:
        async with self._tx() as db:
            await db.execute(
                "UPDATE matches SET votes = ?, updated = ? WHERE id = ?",
                (_dumps(list(votes)), float(now), match_id),
            )

    async def close_match(self, match_id: int, status: str, *, now: float) -> None:
        """End a lobby or active match as ``abandoned`` (or ``finished``); its timers go."""
        if status not in ("abandoned", "finished"):
            raise ValueError(f"cannot close a match as {status!r}")
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE matches SET status = ?, updated = ? WHERE id = ? AND status IN ('lobby', 'active') "
                "RETURNING id",
                (status, float(now), match_id),
            )
            if len(rows) != 1:
                raise StorageError(f"match {match_id} is not open")
            await self._replace_timers(db, match_id, ())

    async def move_match(self, match_id: int, channel: str, *, now: float) -> None:
        """An open match continues in another ``channel`` (e.g. the Discord thread opened for it);
        raises :class:`StorageError` if it is not open, :class:`StorageConflict` if ``channel``
        already has an open match."""
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE matches SET channel = ?, updated = ? WHERE id = ? AND status IN ('lobby', 'active') "
                "RETURNING id",
                (channel, float(now), match_id),
            )
            if len(rows) != 1:
                raise StorageError(f"match {match_id} is not open")

    async def get_match(self, match_id: int) -> MatchRecord | None:
        if not 0 < match_id < 2**63:  # typed ids (/export ID): none beyond a 64-bit key exists
            return None
        rows = await self._fetchall(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return _match(rows[0]) if rows else None

    async def open_match(self, channel: str) -> MatchRecord | None:
        rows = await self._fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel = ? AND status IN ('lobby', 'active')",
            (channel,),
        )
        return _match(rows[0]) if rows else None

    async def unfinished_matches(self, *, snapshots: bool = True) -> list[MatchRecord]:
        """Lobbies and running matches by id; ``snapshots=False`` leaves every ``snapshot`` None
        (much less to read and parse when only the list is needed)."""
        columns = _MATCH_COLUMNS if snapshots else _MATCH_COLUMNS.replace("snapshot,", "NULL,")
        rows = await self._fetchall(
            f"SELECT {columns} FROM matches WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [_match(r) for r in rows]

    async def all_matches(self) -> list[MatchRecord]:
        rows = await self._fetchall(f"SELECT {_MATCH_COLUMNS} FROM matches ORDER BY id")
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

    async def finished_matches(self, *, game: str | None = None, guild: str | None = None,
                               snapshots: bool = True) -> list[MatchRecord]:
        """Finished matches (never abandoned ones) in the order they ended (``updated``, then id),
        optionally of one game and/or guild: what the ratings are computed from. ``snapshots=False``
        leaves every ``snapshot`` None (a final snapshot never changes: callers may cache)."""
        where = ["status = 'finished'"]
        params: list[Any] = []
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if guild is not None:
            where.append("guild = ?")
            params.append(guild)
        columns = _MATCH_COLUMNS if snapshots else _MATCH_COLUMNS.replace("snapshot,", "NULL,")
        rows = await self._fetchall(
            f"SELECT {columns} FROM matches WHERE {' AND '.join(where)} ORDER BY updated, id", params
        )
        return [_match(r) for r in rows]

    async def set_link(self, match_id: int, link: str | None) -> None:
        """Record where the match is played (e.g. its Discord thread's URL); ``None`` clears it."""
        async with self._tx() as db:
            rows = await db.fetchall("UPDATE matches SET link = ? WHERE id = ? RETURNING id", (link, match_id))
            if len(rows) != 1:
                raise StorageError(f"there is no match {match_id}")

    async def get_meta(self, key: str) -> str | None:
        """The ``meta`` value of ``key`` (None: never set)."""
        rows = await self._fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Set the ``meta`` value of ``key`` (an upsert; SQLite ≥ 3.24 and PostgreSQL alike)."""
        async with self._tx() as db:
            await db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    async def all_meta(self) -> dict[str, str]:
        """Every ``meta`` value by key (``migrate-db`` copies them)."""
        return {str(k): str(v) for k, v in await self._fetchall("SELECT key, value FROM meta ORDER BY key")}

    async def delete_meta(self, key: str) -> None:
        """Remove the ``meta`` value of ``key`` (none: nothing happens)."""
        async with self._tx() as db:
            await db.execute("DELETE FROM meta WHERE key = ?", (key,))

    async def player_settings(self, users: Iterable[str]) -> dict[str, PlayerSettings]:
        """The stored settings of these users (schema 4); a user who never chose is absent."""
        wanted = sorted(set(users))
        if not wanted:
            return {}
        rows = await self._fetchall(
            f"SELECT user_id, pings, ping_hours FROM player_settings WHERE user_id IN ({', '.join('?' * len(wanted))})",
            wanted)
        return {r[0]: PlayerSettings(r[0], r[1], r[2]) for r in rows}

    async def set_player_settings(self, settings: PlayerSettings, *, now: float) -> None:
        """Store a person's settings (an upsert); ``pings`` must be one of :data:`PING_CHOICES`, with
        ``ping_hours`` (a positive whole number) exactly when it is ``"after"``."""
        if settings.pings not in PING_CHOICES:
            raise ValueError(f"pings must be one of {PING_CHOICES}, not {settings.pings!r}")
        if (settings.pings == "after") != (settings.ping_hours is not None) or (
                settings.ping_hours is not None and settings.ping_hours < 1):
            raise ValueError(f"ping_hours {settings.ping_hours!r} does not fit pings {settings.pings!r}")
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO player_settings (user_id, pings, ping_hours, updated) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings, ping_hours = excluded.ping_hours, "
                "updated = excluded.updated",
                (settings.user, settings.pings, settings.ping_hours, float(now)))

    async def all_player_settings(self) -> list[PlayerSettings]:
        """Every stored person's settings, by user (``migrate-db`` copies them)."""
        rows = await self._fetchall("SELECT user_id, pings, ping_hours FROM player_settings ORDER BY user_id")
        return [PlayerSettings(r[0], r[1], r[2]) for r in rows]

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

    async def add_rematch_vote(self, match_id: int, user: str, name: str, *, now: float) -> bool:
        """``user`` (seen as ``name``) asks for a rematch of ``match_id`` (issue 25); ``False``,
        writing nothing, when they already had."""
        async with self._tx() as db:
            rows = await db.fetchall("INSERT INTO rematch_votes (match, voter, name, at) VALUES (?, ?, ?, ?) "
                                     "ON CONFLICT (match, voter) DO NOTHING RETURNING voter",
                                     (match_id, user, name, float(now)))
        return bool(rows)

    async def rematch_votes(self, match_id: int) -> list[tuple[str, str]]:
        """``(user, name)`` of everyone who asked for a rematch of ``match_id``, in the order they asked."""
        rows = await self._fetchall("SELECT voter, name FROM rematch_votes WHERE match = ? ORDER BY at, voter",
                                    (match_id,))
        return [(str(r[0]), str(r[1])) for r in rows]

    async def rematch_of(self, match_id: int) -> int | None:
        """The match the rematch of ``match_id`` became (None: not started)."""
        rows = await self._fetchall("SELECT rematch FROM rematches WHERE match = ?", (match_id,))
        return int(rows[0][0]) if rows else None

    async def create_rematch(
        self, match_id: int, *, channel: str, guild: str | None, game: str, creator: str, seats: Sequence[Seat],
        options: dict[str, Any], seed: int, start_seat: int | None, snapshot: dict[str, Any], now: float,
        timers: Sequence[NewTimer] = (),
    ) -> MatchRecord:
        """The rematch of ``match_id``, started (version 0) in ``channel``, and the claim that it is
        that match's rematch: one transaction, so a rematch starts once. Raises
        :class:`StorageConflict`, writing nothing, when ``channel`` has an open match or the rematch
        of ``match_id`` already exists."""
        async with self._tx() as db:
            rows = await db.fetchall(
                "INSERT INTO matches (guild, channel, game, options, seed, start_seat, status, creator, seats, "
                f"version, snapshot, created, updated) VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, 0, ?, ?, ?) "
                f"RETURNING {_MATCH_COLUMNS}",
                (guild, channel, game, _dumps(options), seed, start_seat, creator, _seats_json(seats),
                 _dumps(snapshot), float(now), float(now)))
            record = _match(rows[0])
            claimed = await db.fetchall("INSERT INTO rematches (match, rematch, at) VALUES (?, ?, ?) "
                                        "ON CONFLICT (match) DO NOTHING RETURNING rematch",
                                        (match_id, record.id, float(now)))
            if not claimed:
                raise StorageConflict(f"match {match_id} has its rematch already")
            await self._replace_timers(db, record.id, timers)
        return record

    async def import_match(
        self, record: MatchRecord, actions: Sequence[LoggedAction], timers: Sequence[Timer]
    ) -> None:
        """Copy one match as it is (same id, log and timers) into this database (``migrate-db``)."""
        async with self._tx() as db:
            await db.execute(
                f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, record.guild, record.channel, record.game, _dumps(record.options), record.seed,
                 record.start_seat, record.status, record.creator, _seats_json(record.seats),
                 _dumps(record.votes), record.version,
                 None if record.snapshot is None else _dumps(record.snapshot),
                 float(record.created), float(record.updated), record.link,
                 None if record.started is None else float(record.started)),
            )
            await db.executemany(
                "INSERT INTO actions (match, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                [(a.match, a.seq, a.seat, a.action, float(a.at)) for a in actions],
            )
            await db.executemany(
                "INSERT INTO timers (id, match, kind, due, payload) VALUES (?, ?, ?, ?, ?)",
                [(t.id, t.match, t.kind, float(t.due), _dumps(t.payload)) for t in timers],
            )
            await self._after_import(db)

    async def all_rematches(self) -> Rematches:
        """Every rematch vote and every started rematch's link (``migrate-db`` copies them)."""
        votes = await self._fetchall("SELECT match, voter, name, at FROM rematch_votes ORDER BY match, at, voter")
        links = await self._fetchall("SELECT match, rematch, at FROM rematches ORDER BY match")
        return Rematches([(int(m), str(v), str(n), float(a)) for m, v, n, a in votes],
                         [(int(m), int(r), float(a)) for m, r, a in links])

    async def import_rematches(self, rematches: Rematches) -> None:
        """Copy rematch votes and links as they are (``migrate-db``), after every match they name."""
        async with self._tx() as db:
            await db.executemany("INSERT INTO rematch_votes (match, voter, name, at) VALUES (?, ?, ?, ?)",
                                 rematches.votes)
            await db.executemany("INSERT INTO rematches (match, rematch, at) VALUES (?, ?, ?)", rematches.links)

    async def _after_import(self, db: Tx) -> None:
        """Move id sequences past imported ids (PostgreSQL); SQLite's AUTOINCREMENT follows by itself."""
        return None  # a hook: PostgreSQL moves its sequences here

    # ------------------------------------------------------------------ timers

    async def _replace_timers(self, db: Tx, match_id: int, timers: Sequence[NewTimer],
                              keep: Sequence[str] = ()) -> None:
        """Every timer of the match becomes ``timers``, except those of the ``keep`` kinds."""
        if keep:
            await db.execute(f"DELETE FROM timers WHERE match = ? AND kind NOT IN ({', '.join('?' * len(keep))})",
                             (match_id, *keep))
        else:
            await db.execute("DELETE FROM timers WHERE match = ?", (match_id,))
        await self._insert_timers(db, match_id, timers)

    @staticmethod
    async def _insert_timers(db: Tx, match_id: int, timers: Sequence[NewTimer]) -> None:
        if timers:
            await db.executemany(
                "INSERT INTO timers (match, kind, due, payload) VALUES (?, ?, ?, ?)",
                [(match_id, t.kind, float(t.due), _dumps(t.payload)) for t in timers],
            )

    async def add_timers(self, match_id: int, timers: Sequence[NewTimer]) -> None:
        async with self._tx() as db:
            await self._insert_timers(db, match_id, timers)

    async def take_timer(self, timer_id: int) -> bool:
        """Remove one timer; ``True`` when this caller removed it (another process may have)."""
        async with self._tx() as db:
            rows = await db.fetchall("DELETE FROM timers WHERE id = ? RETURNING id", (timer_id,))
        return bool(rows)

    async def timers(self, match_id: int | None = None) -> list[Timer]:
        if match_id is None:
            rows = await self._fetchall("SELECT id, match, kind, due, payload FROM timers ORDER BY due, id")
        else:
            rows = await self._fetchall(
                "SELECT id, match, kind, due, payload FROM timers WHERE match = ? ORDER BY due, id", (match_id,)
            )
        return [_timer(r) for r in rows]

    async def take_due_timers(
        self, now: float, kind: str | None = None, guilds: Callable[[str | None], bool] | None = None
    ) -> list[Timer]:
        """Remove and return the timers due at ``now`` (``due <= now``), earliest first; with
        ``guilds``, only timers of matches whose guild it accepts (a shard's own).

        One statement deletes and returns them, so when several processes take timers at once
        each timer goes to exactly one of them.
        """
        def due(table: str) -> str:
            return f"{table}.due <= ?" + ("" if kind is None else f" AND {table}.kind = ?")

        where = due("timers")
        params: list[Any] = [float(now)] + ([] if kind is None else [kind])
        async with self._tx() as db:
            if guilds is not None:
                rows = await db.fetchall(
                    "SELECT timers.id, matches.guild FROM timers JOIN matches ON matches.id = timers.match "
                    f"WHERE {where}", params)
                ids = [row[0] for row in rows if guilds(row[1])]
                if not ids:
                    return []
                where += f" AND timers.id IN ({', '.join('?' * len(ids))})"
                params += ids
            rows = await db.fetchall(f"DELETE FROM timers WHERE {where} RETURNING id, match, kind, due, payload",
                                     params)
        return sorted((_timer(r) for r in rows), key=lambda t: (t.due, t.id))

    async def next_timer_due(self) -> float | None:
        rows = await self._fetchall("SELECT MIN(due) FROM timers")
        due = rows[0][0]
        return None if due is None else float(due)
