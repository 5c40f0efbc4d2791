"""The host's tables in memory and the pieces every reply is made of (:class:`HostBase`).

Every concern of :class:`bot.host.service.HostService` (lobby, play, looking, export, records,
text commands, reminders) is a mixin over this base: its state (storage, registry, clock,
the cache of open tables and one lock per channel) and the helpers they share.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.games import GameAdapter, GameRegistry, engine_options, host_options, language_name, table_language
from bot.host import turns
from bot.host.common import names_text
from bot.host.ratings import Records
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Attachment, Prompt, Reply, Table
from bot.host.turntimes import TurnClock
from bot.i18n import SOURCE_LANGUAGE, _, ngettext
from bot.processes.cpu import CpuPool
from bot.processes.shards import Shards
from bot.storage import MatchRecord, NewTimer, Storage, effective_actions
from engine.core import Event, Game

log = logging.getLogger("bot.host.service")  # one logger for the host, whichever module says it


class HostBase:
    """The state and shared helpers of :class:`bot.host.service.HostService`."""

    def __init__(
        self,
        storage: Storage,
        games: GameRegistry,
        *,
        clock: Callable[[], float] = time.time,
        reminder_delay: float | None = None,
        reminder_limit: int = 3,
        images: bool = True,
        seed_source: Callable[[], int] | None = None,
        cpu: CpuPool | None = None,
        shards: Shards | None = None,
        deadline_takeover: int = 3,
    ) -> None:
        self.storage = storage
        self.cpu = cpu  # pictures (and bot.host.seats' search players) in worker processes; None: a thread
        self.shards = shards  # serve only these shards' guilds (load, reminders); None: every guild
        self.games = games
        self.clock = clock
        self.reminder_delay = reminder_delay if reminder_delay and reminder_delay > 0 else None
        self.reminder_limit = reminder_limit
        self.deadline_takeover = max(1, deadline_takeover)  # missed deadlines before a take-over (issue 17)
        self.images = images
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._tables: dict[str, Table] = {}
        self._resumed: set[str] = set()  # channels of tables load() found, not used since
        self._generation: dict[str, int] = {}  # bumped at every change of a channel's cache entry
        self._locks: dict[str, asyncio.Lock] = {}
        self.records = Records(storage, games)  # ratings, profiles, history (issue 17)
        self.turn_clocks: dict[int, TurnClock] = {}  # finished matches' turn times (issue 25; they never change)

    # ------------------------------------------------------------------ tables in memory

    def _lock(self, channel: str) -> asyncio.Lock:
        return self._locks.setdefault(channel, asyncio.Lock())

    def _cache(self, channel: str, table: Table) -> None:
        self._tables[channel] = table
        self._generation[channel] = self._generation.get(channel, 0) + 1

    def _uncache(self, channel: str) -> None:
        self._tables.pop(channel, None)
        self._generation[channel] = self._generation.get(channel, 0) + 1

    def _table_from(self, record: MatchRecord) -> Table | None:
        adapter = self.games.get(record.game)
        if adapter is None:
            log.warning("match %s in channel %s: game %r is not registered", record.id, record.channel,
                        record.game)
            return None
        game = None
        if record.status == "active":
            assert record.snapshot is not None
            game = adapter.game_cls.from_json(record.snapshot)
        return Table(record, adapter, game)

    async def load(self) -> int:
        """Find every unfinished table this host serves; each comes back in the state of its last
        commit when it is first used (one read of its record and snapshot), so that thousands of
        tables resume in one light query (issue 15). Returns how many tables this host serves."""
        count = 0
        for record in await self.storage.unfinished_matches(snapshots=False):
            if self.shards is not None and not self.shards.owns(record.guild):
                continue  # another process serves that guild's shard
            if self.games.get(record.game) is None:
                log.warning("match %s in channel %s: game %r is not registered", record.id, record.channel,
                            record.game)
                continue
            if record.channel not in self._tables:
                self._resumed.add(record.channel)
            count += 1
        return count

    async def _open_table(self, channel: str) -> Table | None:
        """The channel's open table: from the cache, else read from the database and cached.

        Readers do not take the channel's lock, so a writer may commit (and cache a newer table,
        or drop a finished one) while this awaits the database: then the read may be older than
        the cache and is never stored over it (the cache never goes backwards); it is read again.
        """
        for _attempt in range(3):
            table = self._tables.get(channel)
            if table is not None:
                return table
            self._resumed.discard(channel)
            generation = self._generation.get(channel, 0)
            record = await self.storage.open_match(channel)
            if self._generation.get(channel, 0) != generation:
                continue  # a writer changed this channel meanwhile: our read may be older
            if record is None:
                return None
            table = self._table_from(record)
            if table is None:
                raise Refusal(RefusalCode.GAME_NOT_OFFERED, game=record.game)
            self._cache(channel, table)
            return table
        # writers keep changing this channel: answer from the newest read without caching it
        table = self._tables.get(channel)
        if table is not None:
            return table
        record = await self.storage.open_match(channel)
        return None if record is None else self._table_from(record)

    async def table(self, channel: str) -> Table | None:
        try:
            return await self._open_table(channel)
        except Refusal:
            return None

    async def _need_table(self, channel: str) -> Table:
        table = await self._open_table(channel)
        if table is None:
            raise Refusal(RefusalCode.NO_TABLE)
        return table

    async def _need_game(self, channel: str) -> tuple[Table, Game]:
        table = await self._need_table(channel)
        if table.game is None:
            raise Refusal(RefusalCode.NOT_STARTED)
        return table, table.game

    @staticmethod
    def _need_seat(table: Table, user: str) -> int:
        seat = table.record.seat_of(user)
        if seat is None:
            raise Refusal(RefusalCode.NOT_PLAYER)
        return seat

    # ------------------------------------------------------------------ pieces of replies

    def _prompts(self, table: Table) -> list[Prompt]:
        game = table.game
        if game is None:
            return []
        seats = table.record.seats
        return [Prompt(seats[s].user, s, seats[s].name, table.adapter.prompt(game, s))
                for s in game.acting_seats()]

    async def _image(self, table: Table, game: Game, version: int, seat: int | None = None, *,
                     events: Sequence[Event] | None = None, board: bool = False,
                     focus: int | None = None) -> Attachment | None:
        """The reply's picture: the adapter's ``picture`` (issue 14) draws the turn picture, the
        scoring picture, or with ``board`` the full table (the default draws ``render``)."""
        if not self.images:
            return None
        try:
            replay = None
            if events and table.adapter.needs_replay(game, events):
                rec = table.record
                moves = [(a.seat, a.action) for a in effective_actions(await self.storage.actions(rec.id))]
                replay = ((rec.names, rec.seed, engine_options(rec.options), rec.start_seat), moves)
            kwargs: dict[str, Any] = {"seat": seat, "board": board, "events": events or (), "replay": replay,
                      "focus": focus}
            if self.cpu is not None:  # a worker process: the event loop stays free (issue 15)
                data = await self.cpu.picture(table.adapter, game, **kwargs)
            else:
                data = await asyncio.to_thread(functools.partial(table.adapter.picture, game, **kwargs))
        except Exception:
            log.exception("rendering match %s version %s failed", table.record.id, version)
            return None
        if data is None:
            return None
        return Attachment(data, f"{table.record.game}-{table.record.id}-{version}.png")

    def _reminder_timers(self, table: Table, game: Game, version: int, now: float) -> list[NewTimer]:
        deadlines = turns.deadline_timers(self, table, game, version, now)  # issue 17
        if self.reminder_delay is None or game.is_over:
            return deadlines
        seats = table.record.seats
        return deadlines + [NewTimer("reminder", now + self.reminder_delay,
                         {"seat": s, "user": seats[s].user, "version": version, "count": 0})
                for s in game.acting_seats()]

    def _winner_lines(self, table: Table, game: Game) -> list[str]:
        winners = [table.record.seats[s].name for s in game.winners()]
        return [ngettext("Game over. The winner: {names}.", "Game over. The winners: {names}.",
                         len(winners), names=names_text(winners))]

    def _reply(self, table: Table, **kw: Any) -> Reply:
        rec = table.record
        kw.setdefault("names", list(rec.names))
        return Reply(match_id=rec.id, game=rec.game, status=rec.status, version=rec.version, **kw)


    @staticmethod
    def _describe_options(adapter: GameAdapter[Any], options: dict[str, Any]) -> str:
        text = adapter.describe_options(engine_options(options))
        if not host_options(options)["forced_moves"]:
            text += "; " + _("every decision asked, even with one choice")
        if host_options(options)["hints"]:  # issue 25
            text += "; " + _("hints allowed (/hint)")
        lang = table_language(options)
        if lang is not None and lang != SOURCE_LANGUAGE:  # issue 16 (an English table says nothing)
            text += "; " + _("language: {language}", language=language_name(lang))
        return text

