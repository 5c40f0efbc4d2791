"""The Rematch button (issue 25) on a finished game's result: in the game's thread and on the
result line in the channel (:func:`bot.discord.components.rematch_view`, custom id
``mh:{match}:rematch``, so it works after a restart; the votes are stored by the host).

A press by one of the game's people is answered **publicly and calmly**, pinging nobody: "alice
wants a rematch — waiting for bob, carol." (the table's language). A second press by the same
person, a press by someone who did not play, and a press after the rematch started (with a link
to its thread) are answered privately, in the presser's language, and change nothing. The press
that completes the votes opens the rematch the way ``/start`` opens a game: a line in the
channel the game was opened from, a new thread from it (named after the game and players), the
new game's first message there pinging whoever acts first; computer players then move. Without
threads (or the permission to open them) the rematch is played in that channel, unless it has a
table already: then the press is refused privately (docs/decisions.md).
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from typing import Any

import discord

from bot.discord.client import TableBot
from bot.discord.languages import asker_language, language_for, said_to
from bot.discord.publishing.answering import Answering
from bot.discord.publishing.deferring import thinking
from bot.discord.publishing.messages import escape_names, sendable, thread_name
from bot.discord.refusals import token_dead, token_lost
from bot.discord.threads import ARCHIVE_MINUTES
from bot.games import table_language
from bot.host.rematch import WAITING
from bot.host.service import Reply
from bot.i18n import _, use_language

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it


def channel_link(channel: str) -> str:
    """Where a table is, as Discord shows it (a link to the channel or thread)."""
    return f"<#{channel}>" if channel.isdigit() else channel


class RematchCommands(Answering):
    def __init__(self, bot: TableBot) -> None:
        super().__init__(bot)
        self._rematches: dict[int, asyncio.Lock] = {}  # one press at a time per finished match

    async def rematch_pressed(self, interaction: discord.Interaction, match: int) -> None:
        """A press of the Rematch button of finished match ``match`` (see the module's docstring)."""
        self.unanswered.add(interaction)  # answer first (issue 24): deferred by other REST calls meanwhile
        try:
            with use_language(language_for(interaction.locale)):  # what only the presser sees
                async with self._rematches.setdefault(match, asyncio.Lock()):
                    await self._rematch_pressed(interaction, match)
        except Exception:
            log.exception("the rematch of match %s failed", match)
            await self.fail(interaction)
        finally:
            self.unanswered.discard(interaction)

    async def _rematch_pressed(self, interaction: discord.Interaction, match: int) -> None:
        if not await self.guild_only(interaction):
            return
        guild = str(interaction.guild_id)
        vote = await self.svc.rematch_vote(match, str(interaction.user.id), interaction.user.display_name,
                                           guild=guild, place=channel_link)
        if not vote.ok:
            await self._rematch_refused(interaction, vote)
            return
        said = escape_names("\n".join(vote.public), vote.names)
        posted = await self._answer_publicly(interaction, said)
        if vote.code == WAITING:
            return
        record = await self.svc.storage.get_match(match)
        if record is None:
            return
        channel = interaction.channel
        parent = channel.parent_id if isinstance(channel, discord.Thread) else interaction.channel_id
        assert parent is not None
        with use_language(table_language(record.options)):
            key, reply = await self._open_rematch(interaction, match, int(parent), record.game, record.names)
        if not reply.ok:
            await self._rematch_refused(interaction, reply)
            return
        self.bot.wake_reminders()
        self.bot.schedule_bots(key)
        if key != str(interaction.channel_id):  # pressed elsewhere: say where it is played
            with use_language(table_language(record.options)), suppress(discord.HTTPException):
                text = "\n".join([said, _("The rematch is played in {place}.", place=channel_link(key))])
                if posted is not None:
                    await posted.edit(content=text)
                else:
                    await interaction.edit_original_response(content=text)

    async def _answer_publicly(self, interaction: discord.Interaction, text: str) -> discord.Message | None:
        """The press's public answer, pinging nobody: the interaction's response (None returned),
        else — the token gone, or deferred privately for another table's REST call meanwhile
        (issue 24) — a message in the channel (returned)."""
        quiet = discord.AllowedMentions.none()
        async with self.responding(interaction):  # answered now (issue 29: nobody defers it meanwhile)
            deferred = interaction.response.is_done()
            if not deferred:
                try:
                    await interaction.response.send_message(text, allowed_mentions=quiet)
                    return None
                except discord.HTTPException as error:
                    if not token_dead(error):
                        raise
                    token_lost(interaction, error)
        if deferred and thinking(interaction):
            with suppress(discord.HTTPException):
                await interaction.edit_original_response(content=_("Done: see the channel."))
        return await sendable(interaction.channel).send(text, allowed_mentions=quiet)

    async def _rematch_refused(self, interaction: discord.Interaction, reply: Reply) -> None:
        asker = asker_language(interaction)
        with use_language(asker):
            text = escape_names("\n".join(said_to(reply.private, asker)), reply.names) or _("That did not work.")
            with suppress(discord.HTTPException):
                await self.say_privately(interaction, text, deferred=interaction.response.is_done())

    async def _open_rematch(self, interaction: discord.Interaction, match: int, parent: int, game: str,
                            names: list[str]) -> tuple[str, Reply]:
        """Like ``/start`` (:meth:`Publisher.open_game`): a line in the channel ``parent``, a thread
        from it, the rematch started there and its first message posted; without threads, the
        channel itself. Returns the table's key and the start's reply."""
        adapter = self.svc.games.get(game)
        title = adapter.title if adapter is not None else game
        target: Any = sendable(self.bot.get_channel(parent) or self.bot.get_partial_messageable(parent))
        perms = interaction.app_permissions
        thread: discord.Thread | None = None
        opening = None
        if self.bot.threads and perms.create_public_threads and perms.send_messages_in_threads:
            line = _("Rematch: {game}, {players}. The game is played in the thread below.", game=title,
                     players=", ".join(names))
            opening = await target.send(escape_names(line, names), allowed_mentions=discord.AllowedMentions.none())
            try:
                thread = await opening.create_thread(name=thread_name(title, names),
                                                     auto_archive_duration=ARCHIVE_MINUTES)
            except discord.HTTPException as e:
                log.warning("opening a rematch thread in channel %s failed: %s", parent, e)
                with suppress(discord.HTTPException):
                    await opening.delete()  # no thread below it: the rematch is played in the channel
                opening = None
        key = str(thread.id) if thread is not None else str(parent)
        reply = await self.svc.rematch_start(match, key, guild=str(interaction.guild_id), place=channel_link)
        if not reply.ok:
            if opening is not None:
                with suppress(discord.HTTPException):
                    await opening.edit(content=_("Rematch: {game} could not start.", game=title))
            return key, reply
        if thread is not None:
            self.parents[key] = str(parent)
            if reply.match_id is not None:  # profile and history link to the thread (issue 17)
                try:
                    await self.svc.storage.set_link(reply.match_id, thread.jump_url)
                except Exception:
                    log.exception("recording the link of game %s failed", reply.match_id)
        await self.publish(key, thread if thread is not None else target, reply, welcome=title)
        return key, reply
