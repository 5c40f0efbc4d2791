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
import json
import logging
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.discord.client import TableBot
from bot.discord.components import (
    build_view,
    choose_view,
    free_widgets,
    private_choices,
    rematch_view,
    trip_widgets,
)
from bot.discord.languages import asker_language, language_for, said_to
from bot.discord.publishing.deferring import ALREADY_ANSWERED, defer_privately, settled, thinking
from bot.discord.publishing.first import AnswerFirst
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
from bot.discord.publishing.quiet import defer_pings, quiet_users
from bot.discord.publishing.recap import archive_after_recap, schedule_recap
from bot.discord.refusals import gone, passing, token_dead, token_lost
from bot.discord.threads import ARCHIVE_MINUTES, unarchived
from bot.games import table_language
from bot.games.widgets import widgets_for
from bot.host.replies import Attachment
from bot.host.seats import bot_level
from bot.host.service import Reply
from bot.i18n import _, use_language

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it

LIVE_META = "live-message:"  # + table key: the message policy's state of a table (storage meta)
# issue 29: a turn's ping (the only message that notifies that turn) and a game's result line in its
# channel, refused in passing (a 5xx or 429 after discord.py's own retries), are sent again after
# PING_RETRY s, PING_TRIES times in all
PING_TRIES, PING_RETRY = 3, 1.0


async def patiently(send: Callable[[], Any]) -> Any:
    """``await send()``, again after a passing refusal (opcodes-and-status-codes.mdx: 502 "Wait a
    bit and retry"); the last refusal is raised."""
    for _attempt in range(PING_TRIES - 1):
        try:
            return await send()
        except discord.HTTPException as error:
            if not passing(error):
                raise
            await asyncio.sleep(PING_RETRY)
    return await send()


class Publisher(AnswerFirst, commands.Cog):
    """The Cog's state and how a reply is published (see the module's docstring). A Cog class, so
    that each group of commands (``bot.discord.commands``) is one over it; the bot adds one Cog,
    :class:`bot.discord.cog.MeadhallCog`, composed of them."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.policy = MessagePolicy()
        self.parents: dict[str, str] = {}  # a game's thread → the channel it was opened in
        self._publishing: dict[str, asyncio.Lock] = {}
        self._scoring: dict[str, dict[str, Any]] = {}  # a table's scoring message still collecting seats
        self._recalled: set[str] = set()  # tables whose message policy state was read from the database
        AnswerFirst.__init__(self)

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
        was not already the one to act) and strip the former one's controls.

        Answer first (issue 24): the interaction gets its initial response before any other REST
        call of the move: the clicked message edited (the live message's new content, "Done." on a
        private message, its controls stripped) or the new turn message itself, else a defer; when
        another move is being published at this table the interaction is deferred before waiting
        for it. A dead or used token (``token_dead``) is no refusal: the move is published through
        the channel's routes."""
        answer = _Answer(None if interaction is None or gone(interaction) else interaction,
                         thinking=deferred or interaction is not None and thinking(interaction))
        lock = self._publish_lock(key)
        if answer.open and lock.locked():
            await answer.defer()  # another move of this table is being published: answer now, then wait
        async with lock:
            scorings = await self.scorings(key, reply)
            image = reply.image
            picture = hashlib.sha256(image.data).hexdigest() if image is not None else None
            group = await self.message_group(key, reply)
            later = await quiet_users(self.svc, reply)  # issue 25: who is not pinged now (user → hours, or None)
            await self.recall(key)
            plan = self.policy.plan(key, reply, picture=picture, group=group, quiet=later)
            view, complete = ((rematch_view(reply.match_id, reply.status), True) if plan.final  # issue 25
                              else await self.components(key, reply))
            prompts = [(p.user, f"{mention(p.user, p.name)}: "
                                f"{escape_names(await self.prompt_text(key, reply, p), reply.names)}")
                       for p in reply.prompts]
            tail = [line for _user, line in prompts]
            if not complete:
                tail.append(_("Not every choice fits on buttons here: type the move with its slash command."))
            narration = [escape_names(line, reply.names) for line in plan.lines]  # names are people's input
            content = "\n".join(fit_lines(narration, tail)) or _("Done.")

            def pictures() -> list[discord.File]:  # a fresh File per send: a sent one has been read
                return ([discord.File(io.BytesIO(image.data), filename=image.filename)]
                        if plan.attach and image is not None else [])

            def edit_kw() -> dict[str, Any]:
                kw: dict[str, Any] = {"content": content, "view": view, "allowed_mentions": discord.AllowedMentions.none()}
                files = pictures()
                if files:
                    kw["attachments"] = files
                return kw

            def post_kw() -> dict[str, Any]:
                kw: dict[str, Any] = {"content": content, "allowed_mentions": allowed_for(plan.ping)}
                if welcome is not None:  # the game's first message: how it is played here
                    kw["embed"] = self.welcome_embed(welcome, "\n".join(tail),
                                                     in_thread=isinstance(target, discord.Thread))
                files = pictures()
                if files:
                    kw["files"] = files
                if view is not None:
                    kw["view"] = view
                return kw

            in_place = answer.interaction is not None and answer.interaction.channel_id == getattr(target, "id", None)
            message_id: int | None = None
            async with self.in_flight.sending():  # other REST calls wait until this answer has reached Discord
                if answer.interaction is not None:
                    self.unanswered.discard(answer.interaction)  # answered now, by the plan
                    await settled(answer.interaction)  # a defer for another table's REST call in flight
                    answer.thinking = answer.thinking or thinking(answer.interaction)  # deferred meanwhile
                if answer.open:
                    message_id = await answer.first(plan, edit_kw, post_kw, new_first=in_place and not scorings)
            await self.post_scorings(key, target, reply, scorings)
            if plan.edit is not None and message_id is None:
                live_id = plan.edit.message_id
                try:  # issue 24: an edit in a thread that archived meanwhile un-archives it and tries again
                    await unarchived(target, lambda: target.get_partial_message(live_id).edit(**edit_kw()))
                    message_id = live_id
                except discord.NotFound:  # the live message was deleted: post a new one
                    plan = Plan(None, None, [p.user for p in reply.prompts if p.user not in later], plan.lines,
                                image is not None, False, unping=self.policy.pings(key),
                                quiet=[p.user for p in reply.prompts if p.user in later])
            if plan.edit is None:
                if plan.strip is not None and plan.strip.controls and plan.strip.message_id != answer.stripped:
                    stripped = plan.strip.message_id
                    with suppress(discord.HTTPException):
                        await unarchived(target, lambda: target.get_partial_message(stripped).edit(view=None))
                if message_id is None:
                    message_id = await answer.follow_up(post_kw) if in_place else None
                if message_id is None:  # a computer player's move, a deferred answer's, a new thread's
                    message_id = (await target.send(**post_kw())).id
            ping = await self.ping(key, target, plan, prompts, message_id)
            self.policy.done(key, plan, reply, message_id, int(key) if key.isdigit() else 0,
                             controls=view is not None, picture=picture, group=group, ping=ping)
            await self.remember(key)
        if await defer_pings(self.svc, key, plan, later):
            self.bot.wake_reminders()
        line: str | None = None  # the result line in the parent channel (its jump URL)
        if plan.final:
            schedule_recap(self.svc, key, target, reply)  # issue 25: the animated recap, drawn in a task
            line = await self.tell_parent(key, reply)
        if answer.interaction is not None:
            asker = asker_language(answer.interaction)
            with use_language(asker):  # what the actor alone sees
                await answer.finish(reply, asker)
        if plan.final:  # issue 25: the thread archived LAST, after the recap (a post would un-archive it)
            archive_after_recap(self.bot, key, final=message_id if view is not None else None, line=line)

    async def recall(self, key: str) -> None:
        """Once per table and process: the message policy's state of ``key`` as the last process
        left it in the database (the live message, its pings, the last picture), so that a restart
        neither splits a turn over two messages nor leaves a ping behind."""
        if key in self._recalled:
            return
        try:
            stored = await self.svc.storage.get_meta(LIVE_META + key)
        except Exception:
            log.warning("reading the live message of table %s failed", key, exc_info=True)
            return
        self._recalled.add(key)
        if stored is not None:
            self.policy.restore(key, json.loads(stored))

    async def remember(self, key: str) -> None:
        """The message policy's state of ``key`` into the database (a finished table's is removed).
        A database that cannot write loses only this: the next reply after a restart posts anew."""
        self._recalled.add(key)
        state = self.policy.state(key)
        try:
            if state is not None:
                await self.svc.storage.set_meta(LIVE_META + key, json.dumps(state, sort_keys=True))
            else:
                await self.svc.storage.delete_meta(LIVE_META + key)
        except Exception:
            log.warning("keeping the live message of table %s failed", key, exc_info=True)

    async def ping(self, key: str, target: Any, plan: Plan, prompts: list[tuple[str, str]], live: int | None) -> int | None:
        """Issue 24, every turn notifies its player: Discord notifies nobody of an edit, so people
        who became players to act in an edit of the live message get one short message that pings
        them (their prompts, as the live message words them, and a link to it); earlier pings whose
        people no longer act are deleted. Returns the new ping's id. The prompts are public words,
        so the ping tells nothing the live message does not."""
        for old in plan.unping:
            with suppress(discord.HTTPException):
                await target.get_partial_message(old).delete()
        if not plan.notify or plan.edit is None or live is None:
            return None
        lines = [line for user, line in prompts if user in plan.notify]
        lines.append(target.get_partial_message(live).jump_url)
        try:
            sent = await patiently(lambda: target.send("\n".join(fit_lines(lines[:-1], lines[-1:])),
                                                       allowed_mentions=allowed_for(plan.notify)))
        except discord.HTTPException as error:  # the live message shows the turn all the same
            log.warning("pinging %s in channel %s failed: %s", plan.notify, key, error)
            return None
        return int(sent.id)

    async def scorings(self, key: str, reply: Reply) -> list[_Scoring]:
        """Every scoring in the reply (an adapter's ``scoring_events``: Vikings' small, major and
        final scorings), each to be one message of its own (:meth:`post_scorings`); their lines leave
        the reply's narration and the scoring picture its image. Nothing is sent here."""
        adapter = self.svc.games.get(reply.game) if reply.game else None
        kinds = set(adapter.scoring_events) if adapter is not None else set()
        events = [e for e in reply.events if e.kind in kinds]
        if adapter is None or not events:
            return []
        table = await self.svc.table(key)
        game = table.game if table is not None and table.game is not None else await self.svc.replay(reply.match_id)
        groups: list[list[Any]] = []
        for e in events:  # one message per scoring; the final standings join the final scoring
            label = e.data.get("scoring")
            if groups and (label is None or groups[-1][0].data.get("scoring") == label):
                groups[-1].append(e)
            else:
                groups.append([e])
        picture = None
        if reply.image is not None and adapter.scoring_pictured(game, reply.events):
            picture, reply.image = reply.image, None  # the scoring picture goes with the scoring's message
        out: list[_Scoring] = []
        for index, group in enumerate(groups):
            lines = adapter.narrate(game, group)
            for line in lines:
                if line in reply.public:
                    reply.public.remove(line)
            out.append(_Scoring([escape_names(line, reply.names) for line in lines], group[0].data.get("scoring"),
                                {e.seat for e in group if e.kind == group[0].kind},
                                picture if index == len(groups) - 1 else None))
        return out

    async def post_scorings(self, key: str, target: Any, reply: Reply, scorings: list[_Scoring]) -> None:
        """The scorings of :meth:`scorings`, one message each, with its breakdown per player, for
        everybody (issue 13). No controls, nobody pinged."""
        quiet = discord.AllowedMentions.none()
        for scoring in scorings:
            lines, label, seats, picture = scoring.lines, scoring.label, scoring.seats, scoring.picture

            def files(picture: Attachment | None = picture) -> list[discord.File]:
                # a fresh File per attempt: one already sent has been read to its end
                return [discord.File(io.BytesIO(picture.data), filename=picture.filename)] if picture else []

            open_ = self._scoring.get(key)
            # a scoring reached seat by seat (Vikings' major scoring: each player after their
            # sailors) stays one message, edited, until a seat scores again
            if (open_ is not None and open_["match"] == reply.match_id and open_["label"] == label
                    and not open_["seats"] & seats):
                open_["lines"] += lines
                open_["seats"] |= seats
                text = "\n".join(fit_lines(open_["lines"][:-1], open_["lines"][-1:]))

                async def edit_scoring(message: int = open_["message"], text: str = text,
                                       fresh: Callable[[], list[discord.File]] = files) -> Any:
                    # a fresh picture each try: a discord.File is read once (issue 24)
                    attached = fresh()
                    extra: dict[str, Any] = {"attachments": attached} if attached else {}
                    return await target.get_partial_message(message).edit(content=text, allowed_mentions=quiet,
                                                                          **extra)

                with suppress(discord.HTTPException):
                    await unarchived(target, edit_scoring)
                    continue
            sent = None
            chunks = split_content(lines)
            for i, chunk in enumerate(chunks):
                extra = {"files": files()} if picture and i == len(chunks) - 1 else {}
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
                async with self.responding(interaction):  # issue 29: never deferred by another task meanwhile
                    deferred = deferred or thinking(interaction)
                    here = not (deferred or gone(interaction))
                    if here:
                        await interaction.response.send_message(line, allowed_mentions=quiet)
                opening: discord.Message = (await interaction.original_response() if here
                                            else await sendable(channel).send(line, allowed_mentions=quiet))
                thread = None
                table = await self.svc.table(key)
                names = table.record.names if table is not None else []
                title = table.adapter.title if table is not None else (reply.game or "meadhall")
                try:
                    thread = await opening.create_thread(name=thread_name(title, names), auto_archive_duration=ARCHIVE_MINUTES)
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

    async def tell_parent(self, key: str, reply: Reply) -> str | None:
        """At the end of a game played in a thread: one line with the result in its channel.
        Returns the line's jump URL (None: no line)."""
        parent = self.parents.pop(key, None)
        if parent is None and key.isdigit():
            thread = self.bot.get_channel(int(key))
            if thread is None:
                with suppress(discord.HTTPException):
                    thread = await self.bot.fetch_channel(int(key))
            if isinstance(thread, discord.Thread):
                parent = str(thread.parent_id)
        if parent is None or not reply.public:
            return None
        title = self.svc.games.get(reply.game).title if reply.game and self.svc.games.get(reply.game) else ""
        line = _("{game} in <#{thread}>: {result}", game=title, thread=key,
                 result=escape_names(reply.public[-1], reply.names))
        target = self.bot.get_channel(int(parent)) or self.bot.get_partial_messageable(int(parent))
        with suppress(discord.HTTPException):
            kw: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
            if (rematch := rematch_view(reply.match_id, reply.status)) is not None:
                kw["view"] = rematch  # issue 25: a Rematch button no archiving of the thread takes away
            sent = await patiently(lambda: sendable(target).send(line[:MAX_CONTENT], **kw))
            return str(sent.jump_url)
        return None

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


@dataclass(slots=True)
class _Scoring:
    """One scoring's message to post: its lines, the scoring's label and seats, its picture."""

    lines: list[str]
    label: Any
    seats: set[int]
    picture: Attachment | None


class _Answer:
    """The interaction of a published move and how it was answered (issue 24: answer first).
    ``interaction`` None: nothing to answer (a computer player's move) or its token is gone; then
    every step takes the channel's routes."""

    def __init__(self, interaction: discord.Interaction | None, *, thinking: bool) -> None:
        self.interaction = interaction
        self.thinking = thinking  # answered by an ephemeral "thinking…" defer: "Done." completes it
        self.stripped: int | None = None  # the clicked message whose controls the answer removed

    @property
    def open(self) -> bool:
        return self.interaction is not None and not self.interaction.response.is_done()

    def lost(self, error: discord.HTTPException) -> None:
        if not token_dead(error):
            raise error
        assert self.interaction is not None
        if error.code == ALREADY_ANSWERED and thinking(self.interaction):
            self.thinking = True  # answered meanwhile by a private defer: "Done." completes it
            return
        token_lost(self.interaction, error)
        self.interaction = None

    async def defer(self) -> None:
        """Answer before knowing the plan: a private "thinking…", completed by "Done." at the end."""
        assert self.interaction is not None
        try:
            await defer_privately(self.interaction)
            self.thinking = True
        except discord.HTTPException as error:
            self.lost(error)

    async def first(self, plan: Plan, edit_kw: Any, post_kw: Any, *, new_first: bool) -> int | None:
        """The initial response, by the plan: returns the live message's id when the answer edited
        it or was the new live message itself (``new_first``: nothing must come before it)."""
        interaction = self.interaction
        assert interaction is not None
        source = interaction.message
        try:
            if interaction.type == discord.InteractionType.component and source is not None:
                if plan.edit is not None and source.id == plan.edit.message_id:
                    await interaction.response.edit_message(**edit_kw())
                    return plan.edit.message_id
                if (plan.edit is None and new_first and not plan.final and plan.strip is not None
                        and plan.strip.message_id == source.id):
                    # the new turn message is the answer itself (it needs no channel permission);
                    # the clicked message loses its controls afterwards
                    await interaction.response.send_message(**post_kw())
                    return await self._original()
                if source.flags.ephemeral:  # a private choice is made
                    await interaction.response.edit_message(content=_("Done."), view=None, attachments=[])
                else:  # the clicked message's decision is made: its controls go
                    await interaction.response.edit_message(view=None)
                    self.stripped = source.id
                return None
            if plan.edit is None and new_first:
                await interaction.response.send_message(**post_kw())
                return await self._original()
        except discord.HTTPException as error:
            self.lost(error)
            return None
        await self.defer()
        return None

    async def _original(self) -> int | None:
        assert self.interaction is not None
        try:
            return (await self.interaction.original_response()).id
        except discord.HTTPException as error:
            self.lost(error)
            return None

    async def follow_up(self, post_kw: Any) -> int | None:
        """The new turn message as a follow-up of the answered interaction (not after a private
        defer: then it is a channel post); None: post it in the channel."""
        if self.interaction is None or self.thinking:
            return None
        try:
            return int((await self.interaction.followup.send(wait=True, **post_kw())).id)
        except discord.HTTPException as error:
            self.lost(error)  # its webhook is gone: a channel post instead
            return None

    async def finish(self, reply: Reply, asker: str | None) -> None:
        """The end of a published move for whoever made it: "Done" after a private defer, and the
        reply's lines for them alone (in their language)."""
        interaction = self.interaction
        assert interaction is not None
        try:
            if self.thinking:
                await interaction.edit_original_response(content=_("Done."))
            if reply.private:  # a success may carry lines for the actor alone
                for chunk in split_content(said_to(reply.private, asker)):
                    await interaction.followup.send(chunk, ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            self.lost(error)  # nothing more reaches the actor: the table's messages show the move
