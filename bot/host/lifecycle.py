"""A server's life (issue 29): tables paused when their place goes, and resumed.

A table is **paused** when the thread or channel it is played in is deleted (``why: "deleted"``)
or the bot is removed from its server (``why: "removed"``). Nothing is lost: the match stays
``active`` with its log and seats; the pause is written durably in the match's host options,
``options["host"]["halt"] = {"why", "parent", "at"}`` (``parent``: the channel a deleted
thread was opened in, when known), so it survives a restart and ``meadhall migrate-db`` copies
it with the match. Pausing drops the match's timers (reminders, deadlines, deferred pings), so
nothing of the table fires while it is paused; a move (a person's, a computer player's, a
deadline's) at a paused table is refused ``paused``; reminders of a paused table are never
handed out.

Resuming clears the pause, re-arms the timers of whoever must act (a fresh reminder delay and
deadline: the pause was nobody's fault) and answers the current table picture with the prompts
that ping whoever must act.

API::

    halt_of(record) -> dict | None                        # the pause of a match, or None
    await svc.pause(channel, why, *, parent=None) -> bool # True: the table was paused now
    await svc.pause_guild(guild) -> list[str]             # the bot was removed: every table there
    await svc.resume(channel, *, to=None) -> Reply        # the paused table goes on (in ``to``)
    await svc.resume_here(channel, guild) -> Reply        # /table resume: a deleted place's table here
    await svc.resume_guild(guild) -> list[tuple[str, Reply]]  # invited back: removed-paused tables go on
    await svc.paused_tables(guild) -> list[MatchRecord]
    await svc.status_here(channel, guild) -> Reply        # /table status, listing paused tables too
"""

from __future__ import annotations

from typing import Any

from bot.games import HOST_KEY
from bot.host.common import names_text
from bot.host.guard import host_call
from bot.host.lobby import LobbyMixin
from bot.host.looking import LookingMixin
from bot.host.refusals import Refusal, RefusalCode
from bot.host.reminders import RemindersMixin
from bot.host.replies import Reminder, Reply
from bot.i18n import _, ngettext
from bot.storage import MatchRecord, StorageError

HALT = "halt"
DELETED, REMOVED = "deleted", "removed"


def halt_of(record: MatchRecord) -> dict[str, Any] | None:
    """The pause of a match (``{"why", "parent", "at"}``), or None when it is not paused."""
    halt = record.options.get(HOST_KEY, {}).get(HALT)
    return halt if isinstance(halt, dict) else None


class LifecycleMixin(RemindersMixin, LobbyMixin, LookingMixin):
    """Pause and resume (see the module's docstring)."""

    async def _set_halt(self, record: MatchRecord, halt: dict[str, Any] | None) -> None:
        host = dict(record.options.get(HOST_KEY, {}))
        if halt is None:
            host.pop(HALT, None)
        else:
            host[HALT] = halt
        options = {**record.options, HOST_KEY: host}
        now = self.clock()
        await self.storage.update_running(record.id, seats=record.seats, options=options, now=now)
        record.options, record.updated = options, now

    async def pause(self, channel: str, why: str, *, parent: str | None = None) -> bool:
        """Pause the running table of ``channel`` (its place was deleted, or the bot removed).
        A lobby whose place was deleted is closed as abandoned (no game to lose; its record stays).
        False when there is nothing to pause (no table, finished, already paused for that reason)."""
        async with self._lock(channel):
            table = await self.table(channel)
            if table is None:
                return False
            rec = table.record
            if table.game is None:
                if why == DELETED:
                    try:
                        await self.storage.close_match(rec.id, "abandoned", now=self.clock())
                    except StorageError:
                        return False
                    self._uncache(channel)
                return False
            halt = halt_of(rec)
            if halt is not None and (halt["why"] == why or why == REMOVED):
                return False  # a deleted place stays deleted when the bot is removed too
            await self._set_halt(rec, {"why": why, "parent": parent, "at": self.clock()})
            for timer in await self.storage.timers(rec.id):  # nothing of the table fires while paused
                await self.storage.take_timer(timer.id)
            return True

    async def pause_guild(self, guild: str) -> list[str]:
        """The bot was removed from ``guild``: every running table there is paused (its channels)."""
        paused = []
        for record in await self.storage.unfinished_matches(snapshots=False):
            if record.guild == guild and record.status == "active" and await self.pause(record.channel, REMOVED):
                paused.append(record.channel)
        return paused

    async def paused_tables(self, guild: str) -> list[MatchRecord]:
        return [r for r in await self.storage.unfinished_matches(snapshots=False)
                if r.guild == guild and r.status == "active" and halt_of(r) is not None]

    @host_call()
    async def resume(self, channel: str, *, to: str | None = None) -> Reply:
        """The paused table of ``channel`` goes on (in ``to`` when given: a new thread or channel):
        its timers are armed again and the reply shows the table and pings whoever must act."""
        async with self._lock(channel):
            table, game = await self._need_game(channel)
            rec = table.record
            if halt_of(rec) is None:
                raise Refusal(RefusalCode.NOTHING_PAUSED)
            await self._set_halt(rec, None)
            await self.storage.add_timers(rec.id, self._reminder_timers(table, game, rec.version, self.clock()))
        if to is not None and to != channel and not await self.move(channel, to):
            raise Refusal(RefusalCode.RESUME_TABLE_OPEN)
        return self._reply(table, public=[_("The game of {game} goes on.", game=table.adapter.title)],
                           prompts=self._prompts(table),
                           image=await self._image(table, game, rec.version, board=True))

    @host_call()
    async def resume_here(self, channel: str, guild: str) -> Reply:
        """``/table resume`` in ``channel``: the table of ``guild`` paused because its place was
        deleted goes on here — the one opened from this channel, else the one paused last."""
        if await self.table(channel) is not None:
            raise Refusal(RefusalCode.RESUME_TABLE_OPEN)
        paused = [r for r in await self.paused_tables(guild) if (halt_of(r) or {}).get("why") == DELETED]
        if not paused:
            raise Refusal(RefusalCode.NOTHING_PAUSED)
        paused.sort(key=lambda r: ((halt_of(r) or {}).get("parent") == channel, (halt_of(r) or {}).get("at", 0)))
        return await self.resume(paused[-1].channel, to=channel)

    async def resume_guild(self, guild: str) -> list[tuple[str, Reply]]:
        """The bot was invited back to ``guild``: the tables paused by its removal go on where
        they were (each reply to publish in its channel)."""
        out = []
        for record in await self.paused_tables(guild):
            if (halt_of(record) or {}).get("why") == REMOVED:
                reply = await self.resume(record.channel)
                if reply.ok:
                    out.append((record.channel, reply))
        return out

    async def halted(self, channel: str) -> bool:
        table = await self.table(channel)
        return table is not None and halt_of(table.record) is not None

    async def due_reminders(self, now: float | None = None) -> list[Reminder]:
        """Reminders of paused tables are never handed out (their timers were dropped; this also
        covers one taken while the pause was being written)."""
        return [r for r in await super().due_reminders(now) if not await self.halted(r.channel)]

    @host_call()
    async def status_here(self, channel: str, guild: str | None) -> Reply:
        """``/table status``: the table of ``channel``; where there is none, the paused tables of
        the server are listed too (issue 29: a table whose channel was deleted is found here)."""
        reply = await self.status(channel)
        if not reply.ok or reply.match_id is not None or guild is None:
            return reply
        paused = await self.paused_tables(guild)
        if paused:
            reply.public.append(ngettext(
                "{count} paused table of this server (its thread or channel was deleted, or I was removed): "
                "/table resume reopens it here.",
                "{count} paused tables of this server (their thread or channel was deleted, or I was removed): "
                "/table resume reopens one here.", len(paused), count=len(paused)))
            for r in paused:
                adapter = self.games.get(r.game)
                title = adapter.title if adapter is not None else r.game
                reply.public.append(ngettext("Game {id}: {game}, {players}, {count} move played.",
                                             "Game {id}: {game}, {players}, {count} moves played.", r.version,
                                             id=r.id, game=title, players=names_text(r.names), count=r.version))
                reply.names += list(r.names)
        return reply
