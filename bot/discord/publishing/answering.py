"""Answering an interaction with a service call's reply (:class:`Answering`, over
:class:`~bot.discord.publishing.posting.Publisher`).

The service call runs at once; if it has not finished after ``bot.defer_after`` seconds the
interaction is deferred *ephemerally*. Refusals are always ephemeral. A move's reply goes to the
table's messages (:meth:`Publisher.publish`); any other reply is a message of its own
(:meth:`Answering.deliver`). Players' names are escaped (markdown, mentions) in every message.
When Discord refuses a post the actor is told privately, never silently (issue 12).

Languages (issue 16): a table's public messages speak the table's language; whatever only the asker
sees — refusals, ephemeral answers, ``/hand``, ``/help``, ``/rules``, autocomplete labels — and
``/records`` speak the asker's client language (``interaction.locale``); a refusal made in the
table's language is said again in the asker's (``bot.i18n.say_in``)."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from typing import Any

import discord
from discord import app_commands

from bot.discord.components import MAX_CHOICES, build_view, undo_view
from bot.discord.languages import asker_language, said_to
from bot.discord.publishing.deferring import defer_privately, settled, thinking
from bot.discord.publishing.messages import (
    allowed_for,
    escape_names,
    files_of,
    prompt_lines,
    sendable,
    split_content,
)
from bot.discord.publishing.posting import Publisher
from bot.discord.refusals import gone, reason, token_dead, token_lost
from bot.games.widgets import widgets_for
from bot.host.service import Reply, Table
from bot.host.undo import UNDO_WAITING
from bot.i18n import _, say_in, set_task_language, use_language
from engine.core import Game

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it


class Answering(Publisher):
    """Run a service call and answer the interaction (see the module's docstring); the helpers
    every command shares."""

    async def run(
        self, interaction: discord.Interaction, call: Callable[[], Awaitable[Reply]], *, private: bool = False,
        widgets: bool = True, game: bool = False, opening: bool = False, ending: bool = False,
        personal: bool = False,
    ) -> Reply | None:
        """Run one service call and answer the interaction with its reply (see module doc).

        ``game``: the reply is a move (or the start, ``opening``) and goes to the table's live
        message by the message policy (bot.discord.publishing.policy) instead of a new message; ``ending``:
        the reply may end the game (an abandon), and then closes its messages the same way.
        ``personal``: a public answer about the asker's request, not the table's (``/records``).

        Issue 16: a private or personal answer speaks the asker's language; a table's public
        messages its language (:meth:`table_language`); a refusal, and the lines of a public
        reply meant for the actor alone, are said again in the asker's language."""
        self.unanswered.add(interaction)  # deferred by any REST work of ours meanwhile (answer_waiting)
        try:
            return await self._run(interaction, call, time.time(), private=private, widgets=widgets, game=game,
                                   opening=opening, ending=ending, personal=personal)
        finally:
            self.unanswered.discard(interaction)

    async def _run(
        self, interaction: discord.Interaction, call: Callable[[], Awaitable[Reply]], started: float, *,
        private: bool, widgets: bool, game: bool, opening: bool, ending: bool, personal: bool,
    ) -> Reply | None:
        asker = asker_language(interaction)
        key = str(interaction.channel_id)
        lang = asker if private or personal else await self.table_language(key, interaction)
        with use_language(lang):
            reply: Reply | None = None
            try:
                task = asyncio.ensure_future(call())
                try:
                    reply = await asyncio.wait_for(asyncio.shield(task), self.answer_budget(interaction, started))
                except TimeoutError:
                    if not interaction.response.is_done():
                        try:
                            await defer_privately(interaction)
                        except discord.HTTPException as error:
                            if not token_dead(error):
                                raise
                            token_lost(interaction, error)  # too late: the move goes out through the channel
                    reply = await task
                await settled(interaction)  # a private defer made for another table's REST call, in flight
                deferred = thinking(interaction)
                ending = ending and reply.status == "abandoned"
                # an undo request or an answer that leaves the table as it is: a message of its own
                moved = reply.code not in UNDO_WAITING
                if reply.ok and not private and (game or ending) and moved and reply.match_id is not None:
                    if opening:
                        key = await self.open_game(interaction, reply, deferred=deferred)
                    else:
                        await self.publish(key, interaction.channel, reply, interaction=interaction,
                                           deferred=deferred)
                else:
                    await self.deliver(interaction, reply, deferred=deferred, private=private, widgets=widgets)
            except discord.HTTPException as error:
                if reply is None:  # the defer was refused: the call still runs to its end
                    try:
                        reply = await task
                    except Exception:
                        log.exception("answering /%s failed", getattr(interaction.command, "name", "component"))
                        with use_language(asker):
                            await self.fail(interaction)
                        return None
                # never silent (issue 12): Discord refused a post, the reply (a committed move?) stands
                with use_language(asker):
                    await self.refused(interaction, key, reply, error)
                if reply.ok and reply.version is not None:
                    self.bot.wake_reminders()
                return reply
            except Exception:
                log.exception("answering /%s failed", getattr(interaction.command, "name", "component"))
                with use_language(asker):
                    await self.fail(interaction)
                return None
            with use_language(asker):
                await self.after_answer(interaction, key, reply)
        if reply.ok and reply.version is not None:
            self.bot.wake_reminders()
            if reply.status == "active":
                self.bot.schedule_bots(key, lang)  # computer players answer later
        return reply

    def answer_budget(self, interaction: discord.Interaction, started: float) -> float:
        """Seconds left before the answer must be deferred: ``defer_after`` counted from the
        interaction's arrival (its snowflake's time, or when its handling started if earlier:
        receiving-and-responding.mdx, "you must send an initial response within 3 seconds of
        receiving the event"), not from when the service call started (issue 24)."""
        arrived = min(started, discord.utils.snowflake_time(interaction.id).timestamp())
        return max(0.0, self.bot.defer_after - (time.time() - arrived))

    async def refused(
        self, interaction: discord.Interaction, channel: str, reply: Reply, error: discord.HTTPException
    ) -> None:
        """Discord refused to post ``reply`` (issue 12, never silent): log once per table, let the
        computer players wait for a person, and tell the actor privately what happened and where the
        table stands (the move, if it was one, is committed and stays so)."""
        committed = reply.ok and reply.version is not None
        self.bot.watch.refused(channel, reply.match_id, error, "a reply" if not committed else "a move's post")
        if committed:  # a passing refusal (5xx, 429): the move's post is made again later (issue 29)
            self.bot.try_again_later(channel, error, reply, person=True)
        lines = [_("Discord refused to post this in the channel: {reason}.", reason=reason(error))]
        if committed:
            lines.append(_("Your move was made and is saved; nothing is lost."))
        lines += await self.standing(channel)
        try:
            await self.say_privately(interaction, "\n".join(lines), deferred=interaction.response.is_done())
        except discord.HTTPException as again:
            log.warning("could not tell %s privately either in channel %s: %s", interaction.user.id, channel, again)

    async def standing(self, channel: str) -> list[str]:
        """Where the table of ``channel`` stands, as /status says it (no pings: said privately)."""
        status = await self.svc.status(channel)
        if not status.ok or not (status.public or status.prompts):
            return []
        return [_("Where the table stands:"), *(escape_names(line, status.names) for line in status.public),
                *prompt_lines(status)]

    async def after_answer(self, interaction: discord.Interaction, channel: str, reply: Reply) -> None:
        """After an answer that reached Discord: a person acted here, so computer players waiting
        since Discord refused their post may move again (and the person hears of it); a missing
        permission is told once, privately, when the channel has a table (issue 12)."""
        extra: list[str] = []
        waiting, earlier = self.bot.watch.person_acted(channel)
        if earlier:
            extra.append(_("Earlier, Discord refused to post a computer player's move here: {reason}. "
                           "The move was made all the same.", reason=earlier))
            extra += await self.standing(channel)
        if waiting and not (reply.ok and reply.version is not None):
            self.bot.schedule_bots(channel)
        if reply.match_id is not None and interaction.guild_id is not None:
            names = self.bot.watch.missing_permissions(channel, interaction.app_permissions,
                                                       where="a table in this channel")
            told = self.bot.watch.to_tell(channel, names)
            if told:
                extra.append(_("I lack these permissions in this channel: {names}. Ask a server admin to grant "
                               "them (see the README), or moves may fail to show here.", names=", ".join(told)))
        if extra and not gone(interaction):
            try:
                await self.say_privately(interaction, "\n".join(extra), deferred=True)
            except discord.HTTPException as error:
                log.warning("could not tell %s privately in channel %s: %s", interaction.user.id, channel, error)

    async def fail(self, interaction: discord.Interaction) -> None:
        text = _("Something went wrong on my side while answering. Use /status to see where the game stands.")
        with suppress(discord.HTTPException):
            async with self.responding(interaction):
                if not interaction.response.is_done():
                    await interaction.response.send_message(text, ephemeral=True)
                    return
            await interaction.followup.send(text, ephemeral=True)

    async def say_privately(
        self, interaction: discord.Interaction, text: str, *, deferred: bool = False,
        files: Sequence[discord.File] = (), view: discord.ui.View | None = None,
    ) -> None:
        """An ephemeral answer (also after an ephemeral defer). Never pings anybody. A private defer
        another task's REST call made of this interaction (answer first) and still on the wire is
        waited for first: then this answer follows it up, never racing it as a second initial
        response (40060); nor does another task defer it while this answer is on the wire
        (:meth:`responding`, issue 29)."""
        await settled(interaction)
        chunks = split_content([text]) or [_("Done.")]
        quiet = discord.AllowedMentions.none()
        for i, chunk in enumerate(chunks):
            extra: dict[str, Any] = {"ephemeral": True, "allowed_mentions": quiet}
            if i == len(chunks) - 1:
                if files:
                    extra["files"] = list(files)
                if view is not None:
                    extra["view"] = view
            if i == 0 and not deferred:
                async with self.responding(interaction):
                    if not interaction.response.is_done():
                        await interaction.response.send_message(chunk, **extra)
                        continue
            await interaction.followup.send(chunk, **extra)

    async def edit_private(self, interaction: discord.Interaction, **kw: Any) -> None:
        """Update the clicked private message (the sailor dialog) as the interaction's response;
        when another task's REST call deferred it privately meanwhile (answer first), the update
        goes to that "thinking…" message instead (the clicked one can no longer be the response)."""
        async with self.responding(interaction):  # issue 29: never deferred by another task meanwhile
            if not interaction.response.is_done():
                await interaction.response.edit_message(**kw)
                return
        await interaction.edit_original_response(**kw)

    async def deliver(
        self, interaction: discord.Interaction, reply: Reply, *, deferred: bool, private: bool, widgets: bool,
    ) -> None:
        asker = asker_language(interaction)
        if gone(interaction):  # the token is gone (issue 24): what is public goes to the channel
            if reply.ok and not private:
                for kw in await self.public_messages(str(interaction.channel_id), reply, widgets=widgets):
                    await sendable(interaction.channel).send(**kw)
            return
        if not reply.ok:  # a refusal: the asker's language, whatever the table speaks
            with use_language(asker):
                await self.say_privately(interaction, escape_names("\n".join(said_to(reply.private, asker)),
                                                                   reply.names) or _("That did not work."),
                                         deferred=deferred)
            return
        if private:
            text = escape_names("\n".join([*reply.private, *reply.public]), reply.names)
            await self.say_privately(interaction, "\n".join([text, *prompt_lines(reply)]).strip("\n"),
                                     deferred=deferred, files=files_of(reply))
            return
        messages = await self.public_messages(str(interaction.channel_id), reply, widgets=widgets)
        for i, kw in enumerate(messages):
            if i == 0 and not deferred:
                async with self.responding(interaction):  # issue 29: never deferred by another task meanwhile
                    deferred = thinking(interaction)  # deferred meanwhile (answer_waiting)
                    if not deferred:
                        await interaction.response.send_message(**kw)
                        continue
            if deferred:
                await sendable(interaction.channel).send(**kw)
            else:
                await interaction.followup.send(**kw)
        with use_language(asker):  # what the asker alone sees
            if deferred:
                await interaction.edit_original_response(content=_("Done: see the channel."))
            if reply.private:  # a success may carry lines for the actor alone
                for chunk in split_content([escape_names(line, reply.names) for line in said_to(reply.private, asker)]):
                    await interaction.followup.send(chunk, ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())

    async def public_messages(self, channel: str, reply: Reply, *, widgets: bool = True) -> list[dict[str, Any]]:
        """A successful reply as keyword arguments of the messages to post: narration, the
        ``<@player>: what to decide`` lines, then the board PNG and the components on the last one."""
        view, complete = None, True
        if widgets:
            view, complete = await self.components(channel, reply)
        if reply.code == "undo_needs_agreement" and reply.match_id is not None and reply.version is not None:
            view = undo_view(reply.match_id, reply.version)  # issue 17: who must agree answers by button
        lines = [*(escape_names(line, reply.names) for line in reply.public), *prompt_lines(reply)]
        people = [u for u in reply.mentions if u.isdigit()] if reply.code in UNDO_WAITING else []
        if people:  # who must agree to an undo, or the asker told of a refusal: pinged here
            lines.append(" ".join(f"<@{u}>" for u in people))
        if not complete:
            lines.append(_("Not every choice fits on buttons here: type the move with its slash command."))
        chunks = split_content(lines) or [_("Done.")]
        allowed = allowed_for(reply.mentions)
        out: list[dict[str, Any]] = []
        for i, chunk in enumerate(chunks):
            kw: dict[str, Any] = {"content": chunk, "allowed_mentions": allowed}
            if i == len(chunks) - 1:
                files = files_of(reply)
                if files:
                    kw["files"] = files
                if view is not None:
                    kw["view"] = view
            out.append(kw)
        return out

    async def show_private(
        self, interaction: discord.Interaction, table: Table, game: Game, seat: int, *, must_act: bool
    ) -> None:
        """What only ``seat`` may see (adapter ``private_text``/``private_image``, else its seat's
        view) and, when it must decide, its own choices as components: one ephemeral message."""
        adapter, record = table.adapter, table.record
        lines = [adapter.prompt(game, seat)] if must_act else []
        lines.append(adapter.private_text(game, seat))
        view, complete = None, True
        if must_act:
            view, complete = build_view(record.id, record.version, widgets_for(adapter, game, seat))
        if not complete:
            lines.append(_("Not every choice fits on buttons here: type the move with its slash command."))
        files: list[discord.File] = []
        if self.svc.images:
            data = await asyncio.to_thread(adapter.private_image, game, seat)
            if data:
                files.append(discord.File(io.BytesIO(data), filename=f"hand-{record.id}-{record.version}.png"))
        text = escape_names("\n".join(line for line in lines if line), record.names)
        await self.say_privately(interaction, text, files=files, view=view)

    async def component_error(self, interaction: discord.Interaction, message: str) -> None:
        asker = asker_language(interaction)
        set_task_language(asker)
        await self.say_privately(interaction, say_in(message, asker))

    async def _stale(self, interaction: discord.Interaction) -> None:
        await self.say_privately(interaction, _(
            "This message belongs to a game that has ended or been replaced; it takes no more moves."))

    @staticmethod
    def where(interaction: discord.Interaction) -> tuple[str, str]:
        return str(interaction.channel_id), str(interaction.user.id)

    async def guild_only(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            await self.say_privately(interaction, _("Tables live in server channels; use me there."))
            return False
        return True

    def game_choices(self, current: str) -> list[app_commands.Choice[str]]:
        needle = current.strip().lower()
        return [app_commands.Choice(name=f"{a.title} ({a.game_cls.GAME_ID})"[:100], value=a.game_cls.GAME_ID)
                for a in self.svc.games
                if needle in a.game_cls.GAME_ID.lower() or needle in a.title.lower()][:MAX_CHOICES]

    async def player_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The players at this table (issue 13: every option offers its choices)."""
        table = await self.svc.table(str(interaction.channel_id))
        needle = current.strip().lower()
        names = table.record.names if table is not None else []
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names if needle in n.lower()][:MAX_CHOICES]
