"""The analysis jobs of finished games (issue 31), queued in the database: schema 6's ``analyses``.

One row per finished match whose analysis was asked for: ``state`` (``queued`` → ``running`` →
``done`` → ``posted``, or ``failed``), ``channel`` (where the transport posts it when done, e.g. the
game's thread; ``NULL``: asked privately, posted nowhere), ``message`` (the transport's progress
message, edited as the work goes and finally into the analysis), ``progress`` (0 … 1), ``result``
(the review's JSON, :meth:`engine.players.review.Review.to_json`), ``worker`` and ``lease`` (who
runs it, until when: a worker that dies leaves a lease that runs out, and the job is claimed
again), ``requested``/``updated``.

**Run once.** :meth:`claim_analysis` is one ``UPDATE … WHERE state … RETURNING``: on SQLite the
write lock serialises claimers, on PostgreSQL the row lock makes a second claimer re-read the row
(read committed) and find it taken, so of several processes exactly one gets a job. Every later
write of a job names its worker and refuses when the job is no longer that worker's.
A restart finds the queued and the unfinished jobs in the table.

API (a mixin of :class:`bot.storage.base.Storage`)::

    await store.queue_analysis(match_id, channel=None, now=) -> AnalysisJob   # once; again: the job as it is
    await store.claim_analysis(worker, now=, lease=, match_id=None) -> AnalysisJob | None
    await store.analysis_progress(match_id, worker, progress, now=, lease=) -> bool   # False: not yours
    await store.finish_analysis(match_id, worker, result, now=) -> bool
    await store.fail_analysis(match_id, worker, now=) -> bool
    await store.set_analysis_message(match_id, message)
    await store.analysis_posted(match_id, now=) -> bool          # done → posted, once
    await store.get_analysis(match_id) -> AnalysisJob | None
    await store.unposted_analyses() -> list[AnalysisJob]          # with a channel, not yet posted
    await store.all_analyses() -> list[AnalysisJob]               # migrate-db: every job …
    await store.import_analysis(job)                              # … copied as it is
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from bot.storage.records import StorageError
from bot.storage.rows import Row, Tx

ANALYSIS_STATES = ("queued", "running", "done", "posted", "failed")

SQLITE_STEP = (
    """CREATE TABLE analyses (
        match INTEGER PRIMARY KEY REFERENCES matches(id),
        state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'posted', 'failed')),
        channel TEXT,
        message TEXT,
        progress REAL NOT NULL DEFAULT 0,
        result TEXT,
        worker TEXT,
        lease REAL,
        requested REAL NOT NULL,
        updated REAL NOT NULL
    )""",
    "CREATE INDEX analyses_state ON analyses(state, requested)",
)
POSTGRES_STEP = (
    """CREATE TABLE analyses (
        match BIGINT PRIMARY KEY REFERENCES matches(id),
        state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'posted', 'failed')),
        channel TEXT,
        message TEXT,
        progress DOUBLE PRECISION NOT NULL DEFAULT 0,
        result TEXT,
        worker TEXT,
        lease DOUBLE PRECISION,
        requested DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX analyses_state ON analyses(state, requested)",
)

_COLUMNS = "match, state, channel, message, progress, result, worker, lease, requested, updated"


@dataclass(frozen=True)
class AnalysisJob:
    match: int
    state: str
    channel: str | None
    message: str | None
    progress: float
    result: dict[str, Any] | None
    worker: str | None
    lease: float | None
    requested: float
    updated: float


def _job(row: Row) -> AnalysisJob:
    (match, state, channel, message, progress, result, worker, lease, requested, updated) = row
    return AnalysisJob(int(match), state, channel, message, float(progress),
                       None if result is None else json.loads(result), worker,
                       None if lease is None else float(lease), float(requested), float(updated))


class AnalysisQueries:
    """The analysis jobs' queries, shared by both backends (see the module)."""

    @abstractmethod
    def _tx(self) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def queue_analysis(self, match_id: int, *, channel: str | None = None, now: float) -> AnalysisJob:
        """Queue the analysis of finished match ``match_id`` (once: asked again, the job as it is;
        a ``channel`` given later is kept when the job had none, so a private request does not stop
        the thread's post). Raises :class:`StorageError` when the match is not finished."""
        async with self._tx() as db:
            found = await db.fetchall("SELECT status FROM matches WHERE id = ?", (match_id,))
            if not found or found[0][0] != "finished":
                raise StorageError(f"match {match_id} is not finished")
            await db.execute(
                "INSERT INTO analyses (match, state, channel, requested, updated) VALUES (?, 'queued', ?, ?, ?) "
                "ON CONFLICT (match) DO NOTHING", (match_id, channel, float(now), float(now)))
            if channel is not None:
                await db.execute("UPDATE analyses SET channel = ? WHERE match = ? AND channel IS NULL",
                                 (channel, match_id))
            rows = await db.fetchall(f"SELECT {_COLUMNS} FROM analyses WHERE match = ?", (match_id,))
            return _job(rows[0])

    async def claim_analysis(self, worker: str, *, now: float, lease: float,
                             match_id: int | None = None) -> AnalysisJob | None:
        """Take the oldest queued job (or ``match_id``'s), or one whose worker's lease ran out, for
        ``worker`` until ``now + lease``; ``None`` when there is none (or another took it first)."""
        free = "(state = 'queued' OR (state = 'running' AND lease < ?))"
        pick = f"SELECT match FROM analyses WHERE {free}" + (" AND match = ?" if match_id is not None else "") + \
            " ORDER BY requested, match LIMIT 1"
        params: list[Any] = [float(now)] + ([match_id] if match_id is not None else [])
        async with self._tx() as db:
            rows = await db.fetchall(
                f"UPDATE analyses SET state = 'running', worker = ?, lease = ?, updated = ? "
                f"WHERE match = ({pick}) AND {free} RETURNING {_COLUMNS}",
                (worker, float(now + lease), float(now), *params, float(now)))
        return _job(rows[0]) if rows else None

    async def analysis_progress(self, match_id: int, worker: str, progress: float, *, now: float,
                                lease: float) -> bool:
        """Record ``progress`` (0 … 1) and renew the lease; ``False`` when the job is not ``worker``'s."""
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE analyses SET progress = ?, lease = ?, updated = ? "
                "WHERE match = ? AND worker = ? AND state = 'running' RETURNING match",
                (max(0.0, min(1.0, float(progress))), float(now + lease), float(now), match_id, worker))
        return bool(rows)

    async def finish_analysis(self, match_id: int, worker: str, result: dict[str, Any], *, now: float) -> bool:
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE analyses SET state = 'done', progress = 1, result = ?, lease = NULL, updated = ? "
                "WHERE match = ? AND worker = ? AND state = 'running' RETURNING match",
                (json.dumps(result, separators=(",", ":")), float(now), match_id, worker))
        return bool(rows)

    async def fail_analysis(self, match_id: int, worker: str, *, now: float) -> bool:
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE analyses SET state = 'failed', lease = NULL, updated = ? "
                "WHERE match = ? AND worker = ? AND state = 'running' RETURNING match",
                (float(now), match_id, worker))
        return bool(rows)

    async def set_analysis_message(self, match_id: int, message: str | None) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE analyses SET message = ? WHERE match = ?", (message, match_id))

    async def analysis_posted(self, match_id: int, *, now: float) -> bool:
        """``done`` → ``posted``; ``False`` when it was not done (or another process posted it)."""
        async with self._tx() as db:
            rows = await db.fetchall(
                "UPDATE analyses SET state = 'posted', updated = ? WHERE match = ? AND state = 'done' RETURNING match",
                (float(now), match_id))
        return bool(rows)

    async def get_analysis(self, match_id: int) -> AnalysisJob | None:
        if not 0 < match_id < 2**63:
            return None
        rows = await self._fetchall(f"SELECT {_COLUMNS} FROM analyses WHERE match = ?", (match_id,))
        return _job(rows[0]) if rows else None

    async def unposted_analyses(self) -> list[AnalysisJob]:
        """Jobs with a channel to post in that are not posted yet (nor failed), oldest first."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM analyses WHERE channel IS NOT NULL AND state IN ('queued', 'running', 'done') "
            "ORDER BY requested, match")
        return [_job(r) for r in rows]

    async def all_analyses(self) -> list[AnalysisJob]:
        rows = await self._fetchall(f"SELECT {_COLUMNS} FROM analyses ORDER BY match")
        return [_job(r) for r in rows]

    async def import_analysis(self, job: AnalysisJob) -> None:
        """``migrate-db``: one job as it is (a running one's worker and lease too: its lease runs out)."""
        async with self._tx() as db:
            await db.execute(
                f"INSERT INTO analyses ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (job.match, job.state, job.channel, job.message, job.progress,
                 None if job.result is None else json.dumps(job.result, separators=(",", ":")), job.worker,
                 job.lease, job.requested, job.updated))
