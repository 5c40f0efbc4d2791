"""A server's life (issue 29): Discord's events translated into host calls (bot.host.lifecycle).

* **THREAD_DELETE** of a game's thread (threads.mdx "Gateway Events"; discord.py's
  ``on_raw_thread_delete``, also called for the cached threads of a deleted channel): the table
  is paused (nothing is lost; its timers, reminders and computer players stop) and, when the
  thread's channel still exists, one line there says so and that ``/table resume`` reopens it.
* **CHANNEL_DELETE** of a table's channel (gateway.mdx "List of Intents", GUILDS): the table is
  paused silently (no channel is left to tell); ``/table status`` anywhere in the server lists
  it and ``/table resume`` reopens it in the channel where it is run. The threads of games opened
  from it (those this process opened, and those discord.py had cached) are paused the same way.
* **GUILD_DELETE** without ``unavailable`` (discord.py's ``on_guild_remove``: the bot was
  removed): every running table of the server is paused; nothing is deleted. With
  ``unavailable: true`` (``on_guild_unavailable``) it is an outage and nothing happens: the
  tables wait as for any slow network.
* At start-up, a table of a server the bot is no longer in (READY lists it no more) is paused
  as removed; one whose thread or channel answers 404/10003 (deleted while the bot was away:
  the keep-alive's look at the threads, bot.discord.threads) is paused as deleted.
* **GUILD_CREATE** of a server the bot was not in (``on_guild_join``: invited back; also
  ``on_guild_available``, which covers an invitation while the bot was away): the tables
  paused by the removal go on where they were, each with its table picture and a ping for
  whoever must act; one whose place is gone meanwhile (``404``/10003) is paused as deleted.
* A member leaving is **not** an event here: meadhall asks for no privileged intent (GUILDS only,
  bot.discord.app), and GUILD_MEMBER_REMOVE needs GUILD_MEMBERS (gateway.mdx "Privileged
  Intents"). Their seat goes on through the reminders (at most ``reminder_limit``), the table's
  deadline (``deadline:``) and ``/replace`` (README: deadlines and take-over).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.discord.client import TableBot
from bot.discord.publishing.messages import sendable
from bot.games import table_language
from bot.host.lifecycle import DELETED, REMOVED, halt_of
from bot.i18n import _, use_language
from bot.storage import MatchRecord

log = logging.getLogger(__name__)
UNKNOWN_CHANNEL = 10003  # opcodes-and-status-codes.mdx "JSON Error Codes"


class LifeBot(TableBot, Protocol):
    """What the handlers need of the bot (:class:`bot.discord.app.MeadhallBot`; no import of it)."""

    cog: Any  # the MeadhallCog: its live-message policy and the threads it opened (parents)

    @property
    def guilds(self) -> Sequence[discord.Guild]: ...


class ServerLife:
    """The handlers of a server's life for ``bot`` (see the module's docstring)."""

    def __init__(self, bot: LifeBot) -> None:
        self.bot = bot
        # servers with tables paused by the bot's removal (read once, then kept): a server that
        # becomes available (every one at start-up) costs no database scan unless it has some
        self._removed_from: set[str] | None = None

    async def removed_from(self) -> set[str]:
        if self._removed_from is None:
            records = await self.bot.service.storage.unfinished_matches(snapshots=False)
            self._removed_from = {r.guild for r in records
                                  if r.guild and (halt_of(r) or {}).get("why") == REMOVED}
        return self._removed_from

    async def available(self, guild: discord.Guild) -> list[str]:
        """A server available (at start-up, after an outage): its tables go on if the bot's
        removal paused them (it was invited back while away)."""
        if str(guild.id) not in await self.removed_from():
            return []
        return await self.invited(guild)

    async def thread_deleted(self, payload: discord.RawThreadDeleteEvent) -> bool:
        key = str(payload.thread_id)
        parent = str(payload.parent_id) if payload.parent_id else None
        if not await self.bot.service.pause(key, DELETED, parent=parent):
            return False
        log.info("the thread %s of a running game was deleted: its table is paused", key)
        channel = self.bot.get_channel(payload.parent_id) if payload.parent_id else None
        if channel is None:
            return True  # the channel went too: paused silently (/table status lists it)
        table = await self.bot.service.table(key)
        title = table.adapter.title if table is not None else "?"
        with use_language(table_language(table.record.options) if table is not None else None):
            line = _("The thread of the game of {game} was deleted. The game is paused and nothing is lost: "
                     "/table resume reopens it in a new thread.", game=title)
        try:
            await sendable(channel).send(line, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as e:
            log.warning("telling channel %s that the thread %s was deleted failed: %s", parent, key, e)
        return True

    async def channel_deleted(self, channel: discord.abc.GuildChannel) -> list[str]:
        key = str(channel.id)
        keys = [key] + [t for t, p in (self.bot.cog.parents.items() if self.bot.cog else ()) if p == key]
        paused = [k for k in keys if await self.bot.service.pause(k, DELETED, parent=None)]
        if paused:
            log.info("channel %s was deleted: paused the tables of %s", key, paused)
        return paused

    async def at_start(self, records: list[MatchRecord]) -> list[MatchRecord]:
        """After a (re)start: a table of a server the bot is no longer in (removed while it was
        away: READY lists every server it is in, unavailable ones too) is paused; the running,
        unpaused tables are returned."""
        here = {str(g.id) for g in self.bot.guilds}
        out = []
        for record in records:
            if record.status == "active" and halt_of(record) is None and record.guild and \
                    record.guild.isdigit() and record.guild not in here:
                if await self.bot.service.pause(record.channel, REMOVED):
                    (await self.removed_from()).add(record.guild)
                    log.info("the server %s of table %s no longer has the bot: paused", record.guild, record.channel)
                continue
            if halt_of(record) is None:
                out.append(record)
        return out

    async def gone(self, key: str) -> bool:
        """At start-up the table's thread or channel answers 404/10003: deleted while the bot was
        away (no event reached it). Paused silently, as a deleted channel's table is."""
        paused = await self.bot.service.pause(key, DELETED, parent=None)
        if paused:
            log.info("the place %s of a running table was deleted while the bot was away: paused", key)
        return paused

    async def removed(self, guild: discord.Guild) -> list[str]:
        paused = await self.bot.service.pause_guild(str(guild.id))
        if paused:
            (await self.removed_from()).add(str(guild.id))
        log.info("removed from the server %s: paused %d tables", guild.id, len(paused))
        return paused

    async def invited(self, guild: discord.Guild) -> list[str]:
        """Invited (back) to ``guild``: the tables its removal paused go on, each told in its place."""
        resumed: list[str] = []
        (await self.removed_from()).discard(str(guild.id))
        for key, reply in await self.bot.service.resume_guild(str(guild.id)):
            target = self.bot.get_channel(int(key)) or self.bot.get_partial_messageable(int(key))
            table = await self.bot.service.table(key)
            try:
                with use_language(table_language(table.record.options) if table is not None else None):
                    if self.bot.cog is not None:
                        await self.bot.cog.recall(key)  # the live message as the last process left it
                        self.bot.cog.policy.renotify(key)  # a ping for whoever must act, after the pause
                        await self.bot.cog.post(sendable(target), key, reply)
                        self.bot.watch.posted(key)
            except discord.NotFound as e:
                if e.code == UNKNOWN_CHANNEL:  # deleted while the bot was away: paused as deleted
                    await self.bot.service.pause(key, DELETED, parent=None)
                    continue
                log.warning("the table of %s could not be told it goes on: %s", key, e)
            except discord.HTTPException as e:
                log.warning("the table of %s could not be told it goes on: %s", key, e)
            resumed.append(key)
            self.bot.watch.person_acted(key)  # a refusal while the bot was being removed no longer holds them
            self.bot.schedule_bots(key)
        if resumed:
            log.info("back in the server %s: %d tables go on", guild.id, len(resumed))
        return resumed
