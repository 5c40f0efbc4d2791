"""Posting a move's reply into the table's messages (issue 13): :class:`Publisher`, the base of the
Cog.

:meth:`Publisher.publish` follows the message policy (:mod:`bot.discord.publishing.policy`): the
table's live message is edited while the same player keeps deciding (a click is answered by
editing the clicked message), a new message is posted — pinging only the new player to act — when
that changes, the former one's controls are stripped, a picture is attached only when it changed,
and each scoring is a message of its own (:meth:`Publisher.post_scorings`). ``/start`` opens a
public thread for the game from its line in the channel and moves the table there
(:meth:`Publisher.open_game`); the channel gets the result at the end
(:meth:`Publisher.tell_parent`). :meth:`Publisher.components` are the acting seat's widgets plus
its free actions and sailor trips (:mod:`bot.discord.components`), or one button that gives each
presser their own choices privately. :meth:`Publisher.post` publishes a computer player's move
exactly like a person's."""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from contextlib import suppress
from typing import Any

import discord
from discord.ext import commands

from bot.discord.client import TableBot
from bot.discord.components import build_view, choose_view, free_widgets, private_choices, trip_widgets
from bot.discord.languages import asker_language, language_for, said_to
from bot.discord.publishing.messages import (
    MAX_CONTENT,
    allowed_for,
    escape_names,
    mention,
    sendable,
    split_content,
    thread_name,
)
from bot.discord.publishing.policy import MessagePolicy, Plan, fit_lines
from bot.games import table_language
from bot.games.widgets import widgets_for
from bot.host.seats import bot_level
from bot.host.service import Reply
from bot.i18n import _, use_language

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it


class Publisher(commands.Cog):
    """The Cog's state and how a reply is published (see the module's docstring). A Cog class, so
    that each group of commands (``bot.discord.commands``) is one over it; the bot adds one Cog,
    :class:`bot.discord.cog.MeadhallCog`, composed of them."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.policy = MessagePolicy()
        self.parents: dict[str, str] = {}  # a game's thread → the channel it was opened in
        self._publishing: dict[str, asyncio.Lock] = {}
        self._scoring: dict[str, dict[str, Any]] = {}  # a table's scoring message still collecting seats

    @property
    def svc(self):
        return self.bot.service

    async def table_language(self, channel: str, interaction: discord.Interaction | None = None) -> str | None:
        """The language of a table's public messages (issue 16): the one it was started in, else
        (a lobby, an older table) the server's preferred locale when we have it, else the default."""
        table = await self.svc.table(channel)
        stored = table_language(table.record.options) if table is not None else None
        if stored is not None:
            return stored
        return language_for(interaction.guild_locale) if interaction is not None else None

    async def post(self, target: discord.abc.Messageable, channel: str, reply: Reply) -> None:
        """A reply nobody asked for by an interaction (a computer player's move), published exactly
        as a person's move is."""
        await self.publish(channel, target, reply)

    def _publish_lock(self, key: str) -> asyncio.Lock:
        return self._publishing.setdefault(key, asyncio.Lock())

    async def publish(
        self, key: str, target: Any, reply: Reply, *, interaction: discord.Interaction | None = None,
        deferred: bool = False, welcome: str | None = None,
    ) -> None:
        """A move's reply into the table's messages (the policy of bot.discord.publishing.policy): edit the
        live message while the same player keeps deciding, else post a new one (pinging only who
        was not already the one to act) and strip the former one's controls. The interaction is
        answered by the edit of the clicked message, or a short private "Done"."""
        async with self._publish_lock(key):
            await self.post_scorings(key, target, reply)
            image = reply.image
            picture = hashlib.sha256(image.data).hexdigest() if image is not None else None
            group = await self.message_group(key, reply)
            plan = self.policy.plan(key, reply, picture=picture, group=group)
            view, complete = (None, True) if plan.final else await self.components(key, reply)
            tail = [f"{mention(p.user, p.name)}: {escape_names(await self.prompt_text(key, reply, p), reply.names)}"
                    for p in reply.prompts]
            if not complete:
                tail.append(_("Not every choice fits on buttons here: type the move with its slash command."))
            narration = [escape_names(line, reply.names) for line in plan.lines]  # names are people's input
            content = "\n".join(fit_lines(narration, tail)) or _("Done.")
            files = ([discord.File(io.BytesIO(image.data), filename=image.filename)]
                     if plan.attach and image is not None else [])
            source = interaction.message if interaction is not None else None
            answered = interaction is None or deferred or interaction.response.is_done()
            message_id: int | None = None
            if plan.edit is not None:
                kw: dict[str, Any] = {"content": content, "view": view,
                                      "allowed_mentions": discord.AllowedMentions.none()}
                if files:
                    kw["attachments"] = files
                try:
                    if interaction is not None and not answered and source is not None \
                            and source.id == plan.edit.message_id:
                        await interaction.response.edit_message(**kw)
                        answered = True
                    else:
                        await target.get_partial_message(plan.edit.message_id).edit(**kw)
                    message_id = plan.edit.message_id
                except discord.NotFound:  # the live message was deleted: post a new one
                    plan = Plan(None, None, [p.user for p in reply.prompts], plan.lines, image is not None, False)
                    files = [discord.File(io.BytesIO(image.data), filename=image.filename)] if image else []
            if plan.edit is None:
                if plan.strip is not None and plan.strip.controls:
                    if interaction is not None and not answered and source is not None \
                            and source.id == plan.strip.message_id:
                        await interaction.response.edit_message(view=None)
                        answered = True
                    else:
                        with suppress(discord.HTTPException):
                            await target.get_partial_message(plan.strip.message_id).edit(view=None)
                kw = {"content": content, "allowed_mentions": allowed_for(plan.ping)}
                if welcome is not None:  # the game's first message: how it is played here
                    kw["embed"] = self.welcome_embed(welcome, "\n".join(tail), in_thread=isinstance(target, discord.Thread))
                if files:
                    kw["files"] = files
                if view is not None:
                    kw["view"] = view
                # a person's move rides on their interaction (it needs no channel permission and
                # cannot be lost to one); a computer player's, a deferred answer's or a new
                # thread's message is a channel post
                in_place = interaction is not None and not deferred and interaction.channel_id == getattr(
                    target, "id", None)
                if (interaction is not None and in_place and not answered
                        and interaction.type == discord.InteractionType.application_command):
                    await interaction.response.send_message(**kw)
                    message_id = (await interaction.original_response()).id
                    answered = True
                elif interaction is not None and in_place:  # (in_place implies the interaction)
                    if not answered and source is not None:  # the clicked message's decision is made
                        if source.flags.ephemeral:
                            await interaction.response.edit_message(content=_("Done."), view=None, attachments=[])
                        else:
                            await interaction.response.edit_message(view=None)
                        answered = True
                    elif not answered:
                        await interaction.response.defer()
                        answered = True
                    message_id = (await interaction.followup.send(wait=True, **kw)).id
                else:
                    message_id = (await target.send(**kw)).id
            self.policy.done(key, plan, reply, message_id, int(key) if key.isdigit() else 0,
                             controls=view is not None, picture=picture, group=group)
        if plan.final:
            await self.tell_parent(key, reply)
        if interaction is None:
            return
        asker = asker_language(interaction)
        with use_language(asker):  # what the actor alone sees
            await self._answer_actor(interaction, reply, source, answered=answered, deferred=deferred, asker=asker)

    async def _answer_actor(self, interaction: discord.Interaction, reply: Reply, source: Any, *, answered: bool,
                            deferred: bool, asker: str | None) -> None:
        """The end of a published move for whoever made it: "Done" where Discord needs an answer,
        and the reply's lines for them alone (in their language)."""
        if not answered:
            if source is not None and source.flags.ephemeral:
                await interaction.response.edit_message(content=_("Done."), view=None, attachments=[])
            elif source is not None:
                await interaction.response.edit_message(view=None)  # an older message: its decision is made
            else:
                await interaction.response.send_message(_("Done."), ephemeral=True)
        elif deferred:
            await interaction.edit_original_response(content=_("Done."))
        if reply.private:  # a success may carry lines for the actor alone
            for chunk in split_content(said_to(reply.private, asker)):
                await interaction.followup.send(chunk, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    async def post_scorings(self, key: str, target: Any, reply: Reply) -> None:
        """Every scoring in the reply (an adapter's ``scoring_events``: Vikings' small, major and
        final scorings) as one message of its own, with its breakdown per player, for everybody
        (issue 13); its lines leave the reply's narration. No controls, nobody pinged."""
        adapter = self.svc.games.get(reply.game) if reply.game else None
        kinds = set(adapter.scoring_events) if adapter is not None else set()
        events = [e for e in reply.events if e.kind in kinds]
        if adapter is None or not events:
            return
        table = await self.svc.table(key)
        game = table.game if table is not None and table.game is not None else await self.svc.replay(reply.match_id)
        groups: list[list[Any]] = []
        for e in events:  # one message per scoring; the final standings join the final scoring
            label = e.data.get("scoring")
            if groups and (label is None or groups[-1][0].data.get("scoring") == label):
                groups[-1].append(e)
            else:
                groups.append([e])
        quiet = discord.AllowedMentions.none()
        picture = None
        if reply.image is not None and adapter.scoring_pictured(game, reply.events):
            picture, reply.image = reply.image, None  # the scoring picture goes with the scoring's message
        for index, group in enumerate(groups):
            last = index == len(groups) - 1
            files = ([discord.File(io.BytesIO(picture.data), filename=picture.filename)]
                     if last and picture is not None else [])
            lines = adapter.narrate(game, group)
            for line in lines:
                if line in reply.public:
                    reply.public.remove(line)
            lines = [escape_names(line, reply.names) for line in lines]
            label = group[0].data.get("scoring")
            seats = {e.seat for e in group if e.kind == group[0].kind}
            open_ = self._scoring.get(key)
            # a scoring reached seat by seat (Vikings' major scoring: each player after their
            # sailors) stays one message, edited, until a seat scores again
            if (open_ is not None and open_["match"] == reply.match_id and open_["label"] == label
                    and not open_["seats"] & seats):
                open_["lines"] += lines
                open_["seats"] |= seats
                text = "\n".join(fit_lines(open_["lines"][:-1], open_["lines"][-1:]))
                extra: dict[str, Any] = {"attachments": files} if files else {}
                with suppress(discord.HTTPException):
                    await target.get_partial_message(open_["message"]).edit(content=text, allowed_mentions=quiet,
                                                                            **extra)
                    continue
            sent = None
            chunks = split_content(lines)
            for i, chunk in enumerate(chunks):
                extra = {"files": files} if files and i == len(chunks) - 1 else {}
                sent = await target.send(chunk, allowed_mentions=quiet, **extra)
            if sent is not None:
                self._scoring[key] = {"match": reply.match_id, "label": label, "seats": seats, "lines": list(lines),
                                      "message": sent.id}

    async def message_group(self, key: str, reply: Reply) -> str | None:
        """The adapter's ``message_group(game)`` while the table is at the reply's version."""
        table = await self.svc.table(key)
        if table is None or table.game is None or table.record.version != reply.version:
            return None
        return table.adapter.message_group(table.game)

    async def prompt_text(self, key: str, reply: Reply, prompt: Any) -> str:
        """The prompt as the adapter words it for buttons (``button_prompt(game, seat)``: what to
        decide, never a command to type, issue 13) while the table is at the reply's version; else
        the service's text."""
        table = await self.svc.table(key)
        if table is None or table.game is None or table.record.version != reply.version:
            return prompt.text
        worded = table.adapter.button_prompt(table.game, prompt.seat)
        return prompt.text if worded is None else worded

    async def open_game(self, interaction: discord.Interaction, reply: Reply, *, deferred: bool) -> str:
        """The start: with threads on (``config.threads``) and the permission, one line in the
        channel, a public thread opened from it (named after the game and players), the table
        moved to the thread and the game's first message posted there. Without the permission
        the game runs in the channel and says so once. Returns the table's key. In the language
        the table was just started in (issue 16)."""
        with use_language(await self.table_language(str(interaction.channel_id), interaction)):
            return await self._open_game(interaction, reply, deferred=deferred)

    async def _open_game(self, interaction: discord.Interaction, reply: Reply, *, deferred: bool) -> str:
        key = str(interaction.channel_id)
        channel = interaction.channel
        if self.bot.threads and not isinstance(channel, discord.Thread) and reply.public:
            perms = interaction.app_permissions
            if perms.create_public_threads and perms.send_messages_in_threads:
                below = _("The game is played in the thread below.")
                first = escape_names(reply.public[0], reply.names)
                line = f"{first} {below}"
                quiet = discord.AllowedMentions.none()
                if deferred:
                    opening = await sendable(channel).send(line, allowed_mentions=quiet)
                else:
                    await interaction.response.send_message(line, allowed_mentions=quiet)
                    opening = await interaction.original_response()
                thread = None
                table = await self.svc.table(key)
                names = table.record.names if table is not None else []
                title = table.adapter.title if table is not None else (reply.game or "meadhall")
                try:
                    thread = await opening.create_thread(name=thread_name(title, names), auto_archive_duration=1440)
                except discord.HTTPException as e:
                    log.warning("opening a thread in channel %s failed: %s", key, e)
                if thread is not None and await self.svc.move(key, str(thread.id)):
                    self.parents[str(thread.id)] = key
                    if reply.match_id is not None:  # issue 17: profile and history link to the thread
                        try:
                            await self.svc.storage.set_link(reply.match_id, thread.jump_url)
                        except Exception:
                            log.exception("recording the link of game %s failed", reply.match_id)
                    await self.publish(str(thread.id), thread, reply, interaction=interaction, deferred=deferred,
                                       welcome=title)
                    return str(thread.id)
                with suppress(discord.HTTPException):
                    await opening.edit(content=first)
            reply.public.append(_("I may not open threads in this channel, so the game is played here."))
        table = await self.svc.table(key)
        await self.publish(key, channel, reply, interaction=interaction, deferred=deferred,
                           welcome=table.adapter.title if table is not None else None)
        return key

    async def tell_parent(self, key: str, reply: Reply) -> None:
        """At the end of a game played in a thread: one line with the result in its channel."""
        parent = self.parents.pop(key, None)
        if parent is None and key.isdigit():
            thread = self.bot.get_channel(int(key))
            if thread is None:
                with suppress(discord.HTTPException):
                    thread = await self.bot.fetch_channel(int(key))
            if isinstance(thread, discord.Thread):
                parent = str(thread.parent_id)
        if parent is None or not reply.public:
            return
        title = self.svc.games.get(reply.game).title if reply.game and self.svc.games.get(reply.game) else ""
        line = _("{game} in <#{thread}>: {result}", game=title, thread=key,
                 result=escape_names(reply.public[-1], reply.names))
        target = self.bot.get_channel(int(parent)) or self.bot.get_partial_messageable(int(parent))
        with suppress(discord.HTTPException):
            await sendable(target).send(line[:MAX_CONTENT], allowed_mentions=discord.AllowedMentions.none())

    async def components(self, channel: str, reply: Reply) -> tuple[discord.ui.View | None, bool]:
        """Buttons/selects for the decision the reply prompts for (at the reply's version)."""
        if not reply.prompts or reply.match_id is None or reply.version is None:
            return None, True
        table = await self.svc.table(channel)
        if (table is None or table.game is None or table.record.id != reply.match_id
                or table.record.version != reply.version):
            return None, True  # the table moved on meanwhile: a newer message shows its decision
        seats = [p.seat for p in reply.prompts if not bot_level(p.user)]
        if not seats:
            return None, True  # only computer players decide: they need no buttons
        if len(reply.prompts) > 1 or any(private_choices(table.adapter, table.game, s) for s in seats):
            # several seats decide at once, or the choices show hidden cards: each player gets
            # their own choices privately from one public button
            return choose_view(reply.match_id, reply.version), True
        widgets = [*widgets_for(table.adapter, table.game, seats[0]), *trip_widgets(table.adapter, table.game, seats[0]),
                   *free_widgets(table.adapter, table.game, seats[0])]
        return build_view(reply.match_id, reply.version, widgets)

    def welcome_embed(self, title: str, first: str, *, in_thread: bool) -> discord.Embed:
        """At the start: how this game is played here (issue 13)."""
        embed = discord.Embed(title=_("How {game} is played here", game=title))
        where = _("Everything happens in this thread.") if in_thread else _("Everything happens in this channel.")
        embed.add_field(name=_("Where"), inline=False, value=where + " " + _(
            "The player to act is pinged; their turn's message carries the buttons and menus and changes as they "
            "decide; a new message comes when the turn passes."))
        embed.add_field(name=_("First"), inline=False, value=first[:1024] or "-")
        embed.add_field(name=_("Help"), inline=False, value=_(
            "/hand shows your own cards and choices privately; /rules explains a rule by number or topic "
            "(e.g. /rules V-14); /help lists everything."))
        return embed
