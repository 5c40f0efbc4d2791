"""``meadhall migrate-db``: copy every match (lobby, running, finished, abandoned) with its seats,
action log and timers, every rematch vote and link, every person's settings and the ``meta`` values
(e.g. each table's live message), from one database to another (SQLite ↔
PostgreSQL), keeping ids, then verify each game in the target by replaying its log: the replay must equal the stored snapshot.

API::

    report = await migrate(source, target, registry, progress=None)   # raises StorageError
    report.matches, report.actions, report.timers, report.rematch_votes, report.rematches,
    report.settings, report.analyses, report.meta, report.verified, report.summary()

The target must hold no match yet (a fresh database, or one just created by ``Storage.open``);
the copy of one match is one transaction, so an interrupted run leaves whole matches only, and
rerunning it into a fresh target starts clean.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.games import GameRegistry
from bot.storage.base import Storage
from bot.storage.records import StorageError, rebuild


@dataclass
class MigrationReport:
    matches: int = 0
    actions: int = 0
    timers: int = 0
    rematch_votes: int = 0  # votes for a rematch not started yet, or that started one (schema 4)
    rematches: int = 0  # finished matches whose rematch started (so none starts twice)
    settings: int = 0  # people's settings copied (schema 5)
    analyses: int = 0  # analysis jobs of finished games copied (schema 6, issue 31)
    meta: int = 0  # meta values copied (the command-sync hash, each table's live message)
    verified: int = 0
    unverifiable: list[int] = field(default_factory=list)  # ids of matches of unknown games

    def summary(self) -> str:
        text = (f"copied {self.matches} matches, {self.actions} actions, {self.timers} timers, "
                f"{self.rematch_votes} rematch votes, {self.rematches} rematches, "
                f"{self.settings} people's settings, {self.analyses} analyses, {self.meta} meta values; {self.verified} games verified by replay")
        if self.unverifiable:
            text += f"; not verified (game not installed): {', '.join(map(str, self.unverifiable))}"
        return text


async def migrate(
    source: str | Path, target: str | Path, registry: GameRegistry,
    progress: Callable[[str], object] | None = None,
) -> MigrationReport:
    report = MigrationReport()
    async with await Storage.open(source) as src, await Storage.open(target) as dst:
        if getattr(src, "path", None) == getattr(dst, "path", None):
            raise StorageError("--from and --to name the same database")
        if await dst.all_matches():
            raise StorageError(f"{dst.path} already holds matches; migrate into an empty database")
        for record in await src.all_matches():
            actions = await src.actions(record.id)
            timers = await src.timers(record.id)
            if len(actions) != record.version:
                raise StorageError(f"{src.path}: match {record.id} has version {record.version} but "
                                   f"{len(actions)} logged actions")
            await dst.import_match(record, actions, timers)
            report.matches += 1
            report.actions += len(actions)
            report.timers += len(timers)
        rematches = await src.all_rematches()  # issue 25: after the matches they name
        await dst.import_rematches(rematches)
        report.rematch_votes, report.rematches = len(rematches.votes), len(rematches.links)
        for key, value in (await src.all_meta()).items():  # e.g. live messages: a turn goes on in its message
            await dst.set_meta(key, value)
            report.meta += 1
        for settings in await src.all_player_settings():  # schema 4: people's own settings (issue 25)
            await dst.set_player_settings(settings, now=time.time())
            report.settings += 1
        for job in await src.all_analyses():  # schema 6: the analyses made or queued (issue 31)
            await dst.import_analysis(job)
            report.analyses += 1
        for record in await dst.all_matches():
            if record.snapshot is None:
                continue  # a lobby: nothing to replay
            adapter = registry.get(record.game)
            if adapter is None:
                report.unverifiable.append(record.id)
                continue
            copied = await dst.actions(record.id)
            if rebuild(adapter.game_cls, record, copied).to_json() != record.snapshot:
                raise StorageError(f"match {record.id}: replaying its log in {dst.path} does not give its "
                                   "stored snapshot")
            report.verified += 1
            if progress is not None and report.verified % 1000 == 0:
                progress(f"{report.verified} games verified")
        if len(await dst.all_matches()) != report.matches or len(await dst.timers()) != report.timers:
            raise StorageError(f"{dst.path}: the copy does not hold every match and timer")
    return report
