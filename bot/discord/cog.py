"""The one Cog of meadhall's slash commands, and how a service ``Reply`` becomes Discord messages.

Commands (issue 13: 13 top-level, servers only): ``/join``, ``/leave``, ``/start`` (games and
table options completed), ``/board`` (never with controls), ``/rules`` (rule numbers and topics
completed; ``/rules sailors`` finds V-34), ``/help`` (an embed grouped by purpose), ``/hand`` (what
only you may see, and your choices, privately), the Vikings verbs ``/buy /place /sail /exchange``
(:data:`OWN_COMMAND_VERBS`, each with one ``choice`` option whose autocomplete offers the legal
actions of the user's seat), ``/move`` for every other move (all legal moves offered), and the
group ``/table`` (``status``, ``abandon``, ``export``, ``addbot``).

Answering: the service call runs at once; if it has not finished after ``bot.defer_after``
seconds the interaction is deferred *ephemerally*. Refusals are always ephemeral. A move's reply
goes through :meth:`MeadhallCog.publish` and the message policy (bot.discord.publishing.policy): the table's
live message is edited while the same player keeps deciding (a click is answered by editing the
clicked message), a new message is posted — pinging only the new player to act — when that
changes, the former one's controls are stripped, a picture is attached only when it changed, and
each scoring is a message of its own. ``/start`` opens a public thread for the game from its line
in the channel and moves the table there (:meth:`MeadhallCog.open_game`); the channel gets the
result at the end (:meth:`MeadhallCog.tell_parent`). Components (bot.discord.components) are the
acting seat's widgets plus its free actions (Vikings: exchange VP for gold), or — when several
seats decide at once or the adapter's ``private_choices(game, seat)`` says the choices show hidden
cards — one button that gives each presser their own choices in an ephemeral message (a choice
there is sent as ``act(..., scoped=True)``: the service takes it, under the table's lock, when
only other seats moved since and it is still legal). Players' names are escaped (markdown,
mentions) in every message (:func:`escape_names` with ``Reply.names``); ``/table export`` answers
the asker only. An adapter's
``confirm(game, seat, action)`` question is asked privately before a picked action commits.
Computer players get no components; the bot lets them move in a task
(``MeadhallBot.schedule_bots``) and :meth:`MeadhallCog.post` publishes their moves like anyone's.

Languages (issue 16): a table's public messages — narration, prompts, buttons and selects,
pictures, scorings, the thread's opening line and the channel's result line — speak the table's
language (``/start language:`` or the word ``lang:xx``, stored with the table; default the
server's preferred locale when we have it). Whatever only the asker sees — refusals, ephemeral
answers, ``/hand``, ``/help``, ``/rules``, autocomplete labels — and ``/records`` speak the asker's
client language (``interaction.locale``); a refusal made in the table's language is said again in
the asker's (``bot.i18n.say_in``).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import io
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.discord.components import build_view, choose_view, confirm_view, undo_view
from bot.discord.publishing.policy import MessagePolicy, Plan, fit_lines
from bot.discord.refusals import reason
from bot.games import GameAdapter, GameRegistry, language_name, table_language, table_languages
from bot.games.widgets import Widget, label_of, widgets_for
from bot.host.seats import add_bot, bot_level
from bot.host.service import HOST_COMMANDS, Reply, Table
from bot.host.undo import UNDO_WAITING
from bot.i18n import N_, SOURCE_LANGUAGE, _, available_languages, say_in, set_task_language, use_language
from bot.i18n.rulebook import RULEBOOKS, rule_texts, search
from engine.players import LEVELS

if TYPE_CHECKING:
    from bot.discord.app import MeadhallBot
    from engine.core import Game

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
MAX_CHOICES = 25
CHOICE_OPTION = "choice"
TRANSPORT_COMMANDS = ("hand", "addbot", "table", "move")  # this transport's words beyond HOST_COMMANDS
# issue 13: these game verbs keep a command of their own; every other move is /move (autocompleted)
OWN_COMMAND_VERBS = ("buy", "place", "sail", "exchange")
MOVE_COMMAND = "move"
GROUPED = ("addbot", "abandon", "status", "export")  # under /table


# --------------------------------------------------------------------------- translation


def T(msgid: str, /, **fmt: Any) -> locale_str:
    """A command string for discord.py's Translator: English text now, ``msgid`` for catalogs.

    Mark literals with ``N_`` where they are written (``T(N_("Show the board"))``) so that
    ``python -m bot.i18n extract`` finds them.
    """
    return locale_str(msgid.format(**fmt) if fmt else msgid, msgid=msgid, fmt=fmt)


def language_for(locale: discord.Locale | str | None) -> str | None:
    """The catalog language for a Discord locale (``"pt-BR"`` → ``pt_BR`` or ``pt``), or None
    for the source language and for languages without a catalog."""
    if locale is None:
        return None
    code = str(locale.value if isinstance(locale, discord.Locale) else locale).replace("-", "_")
    known = set(available_languages())
    for candidate in (code, code.split("_")[0]):
        if candidate == SOURCE_LANGUAGE:
            return None
        if candidate in known:
            return candidate
    return None


def asker_language(interaction: discord.Interaction) -> str | None:
    """The language of what only the asker sees (issue 16): their client's, ``interaction.locale``."""
    return language_for(interaction.locale)


def said_to(lines: Iterable[str], lang: str | None) -> list[str]:
    """A reply's lines for one person: each said again in ``lang`` where it can be (``bot.i18n.say_in``)."""
    return [say_in(line, lang) for line in lines]


class MeadhallTranslator(app_commands.Translator):
    """Command names, descriptions and choices through ``bot.i18n`` (gettext catalogs)."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = language_for(locale)
        if lang is None:
            return None
        msgid = string.extras.get("msgid")
        if msgid is None:  # not marked with T(): a move command's own word stays as players type it
            return None
        with use_language(lang):
            text = _(msgid, **string.extras.get("fmt", {}))
        return text if text != string.message else None


# --------------------------------------------------------------------------- replies → messages


def escape_name(name: str) -> str:
    """A display name as Discord must show it: no markdown (no heading, spoiler, bold…), no
    mention (``<@id>``, ``@everyone``) — it reads as typed, and pings nobody."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def escape_names(text: str, names: Iterable[str]) -> str:
    """``text`` with every occurrence of a player's name escaped (:func:`escape_name`).

    The service's lines are plain text with people's names in them (``Reply.names``); only the
    names are people's input, so only they are escaped, in one pass (longest name first, so
    that one name inside another is not escaped twice)."""
    risky = sorted({n for n in names if n and escape_name(n) != n}, key=len, reverse=True)
    if not risky:
        return text
    return re.sub("|".join(map(re.escape, risky)), lambda m: escape_name(m.group(0)), text)


def sendable(channel: object) -> discord.abc.Messageable:
    """``channel`` as a place to post: an interaction's or a table's channel always is one (a text
    channel, a thread); anything else (a category, a forum) fails here instead of at ``send``."""
    if not isinstance(channel, discord.abc.Messageable):
        raise TypeError(f"cannot post to a {type(channel).__name__}")
    return channel


def mention(user: str, name: str) -> str:
    return f"<@{user}>" if user.isdigit() else f"@{escape_name(name)}"


def prompt_lines(reply: Reply) -> list[str]:
    """``<@player>: what to decide`` for each prompt, names in the text escaped."""
    return [f"{mention(p.user, p.name)}: {escape_names(p.text, reply.names)}" for p in reply.prompts]


def split_content(lines: Iterable[str], limit: int = MAX_CONTENT) -> list[str]:
    """Lines joined into as few messages of at most ``limit`` characters as they need."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        while len(line) > limit:  # a single overlong line is cut
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > limit:
            chunks.append(current)
            joined = line
        current = joined
    if current:
        chunks.append(current)
    return chunks


def allowed_for(users: Sequence[str]) -> discord.AllowedMentions:
    """Ping exactly these users (no @everyone, no roles)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(int(u)) for u in users if u.isdigit()],
    )


def files_of(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in (reply.image, reply.file) if a is not None]


def private_choices(adapter: GameAdapter, game: Any, seat: int) -> bool:
    """The adapter's ``private_choices(game, seat)``: its choices show hidden information."""
    return bool(adapter.private_choices(game, seat))


def verb_commands(games: GameRegistry) -> dict[str, list[GameAdapter]]:
    """Command word → the adapters that have it, in registration order (host words excluded):
    only :data:`OWN_COMMAND_VERBS` get a command; the other verbs are moves of ``/move``."""
    out: dict[str, list[GameAdapter]] = {}
    for adapter in games:
        for word in adapter.verbs:
            if word in HOST_COMMANDS or word in TRANSPORT_COMMANDS:
                log.warning("game %s: verb %r collides with a host command and gets no slash command",
                            adapter.game_cls.GAME_ID, word)
                continue
            if word not in OWN_COMMAND_VERBS:
                continue
            out.setdefault(word, []).append(adapter)
    return out


@functools.cache
def _probe(cls: type[Game]) -> Game:
    """A throwaway new game of ``cls`` (its parser may depend on the instance)."""
    return cls.new([f"p{i}" for i in range(cls.MIN_PLAYERS)], seed=0)


def takes_argument(word: str, adapters: Sequence[GameAdapter]) -> bool:
    """Whether ``/word`` needs an argument: not when its bare action verb is a whole action in
    every game that has it (e.g. ``pass``), judged by the engine's own parser on a new game."""
    for adapter in adapters:
        try:
            game_cls: type[Game] = adapter.game_cls
            _probe(game_cls).parse_action(adapter.verbs[word])
        except Exception:
            return True
    return False


# --------------------------------------------------------------------------- the cog


def free_widgets(adapter: GameAdapter, game: Any, seat: int) -> list[Widget]:
    """The game's free actions for ``seat`` (Vikings: exchange VP for gold, V-16) as one select
    with the amount, beside the decision's own controls (issue 13)."""
    actions = list(game.free_actions(seat))
    if not actions:
        return []
    options = [(label_of(adapter, game, a), str(a)) for a in actions][:MAX_CHOICES]
    placeholder = adapter.free_actions_placeholder
    return [Widget("select", options, placeholder=_(placeholder) if placeholder else _("At any time"))]


TRIP_PREFIX = "trip "  # a sailor's whole trip (the adapter's ``trips``), not an engine action


def trip_widgets(adapter: GameAdapter, game: Any, seat: int) -> list[Widget]:
    """The sailor dialog's first step (issue 13): the kinds of trip, each with where it sends the
    vikings, as one select; picking one asks to confirm privately."""
    plans = adapter.trips(game, seat)
    if not plans:
        return []
    return [Widget("select", [(label, key) for key, label, _actions in plans][:MAX_CHOICES],
                   placeholder=_("A sailor's whole trip (V-34): pick one, then confirm"), template=TRIP_PREFIX + "{0}")]


def thread_name(title: str, names: Sequence[str]) -> str:
    """A game's thread: "Vikings: alice, bob" (Discord allows 100 characters)."""
    return f"{title}: {', '.join(names)}"[:100]


class MeadhallCog(commands.Cog, name="meadhall"):
    def __init__(self, bot: MeadhallBot) -> None:
        self.bot = bot
        self.policy = MessagePolicy()
        self.parents: dict[str, str] = {}  # a game's thread → the channel it was opened in
        self._publishing: dict[str, asyncio.Lock] = {}
        self._scoring: dict[str, dict[str, Any]] = {}  # a table's scoring message still collecting seats
        for word, adapters in verb_commands(bot.service.games).items():
            self.__cog_app_commands__.append(self._verb_command(word, adapters))
        for command in self.__cog_app_commands__:  # issue 13: offered in servers only, never in DMs
            command.guild_only = True
            command.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                                      private_channel=False)

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

    # ------------------------------------------------------------------ answering

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
        asker = asker_language(interaction)
        key = str(interaction.channel_id)
        lang = asker if private or personal else await self.table_language(key, interaction)
        with use_language(lang):
            reply: Reply | None = None
            try:
                task = asyncio.ensure_future(call())
                try:
                    reply = await asyncio.wait_for(asyncio.shield(task), self.bot.defer_after)
                    deferred = False
                except TimeoutError:
                    await interaction.response.defer(ephemeral=True, thinking=True)
                    deferred = True
                    reply = await task
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

    async def refused(
        self, interaction: discord.Interaction, channel: str, reply: Reply, error: discord.HTTPException
    ) -> None:
        """Discord refused to post ``reply`` (issue 12, never silent): log once per table, let the
        computer players wait for a person, and tell the actor privately what happened and where the
        table stands (the move, if it was one, is committed and stays so)."""
        committed = reply.ok and reply.version is not None
        self.bot.watch.refused(channel, reply.match_id, error, "a reply" if not committed else "a move's post")
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
        if extra:
            try:
                await self.say_privately(interaction, "\n".join(extra), deferred=True)
            except discord.HTTPException as error:
                log.warning("could not tell %s privately in channel %s: %s", interaction.user.id, channel, error)

    async def fail(self, interaction: discord.Interaction) -> None:
        text = _("Something went wrong on my side while answering. Use /status to see where the game stands.")
        with suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)

    async def say_privately(
        self, interaction: discord.Interaction, text: str, *, deferred: bool = False,
        files: Sequence[discord.File] = (), view: discord.ui.View | None = None,
    ) -> None:
        """An ephemeral answer (also after an ephemeral defer). Never pings anybody."""
        chunks = split_content([text]) or [_("Done.")]
        quiet = discord.AllowedMentions.none()
        for i, chunk in enumerate(chunks):
            extra: dict[str, Any] = {}
            if i == len(chunks) - 1:
                if files:
                    extra["files"] = list(files)
                if view is not None:
                    extra["view"] = view
            if i == 0 and not deferred and not interaction.response.is_done():
                await interaction.response.send_message(chunk, ephemeral=True, allowed_mentions=quiet, **extra)
            else:
                await interaction.followup.send(chunk, ephemeral=True, allowed_mentions=quiet, **extra)

    async def deliver(
        self, interaction: discord.Interaction, reply: Reply, *, deferred: bool, private: bool, widgets: bool,
    ) -> None:
        asker = asker_language(interaction)
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
        for i, kw in enumerate(await self.public_messages(str(interaction.channel_id), reply, widgets=widgets)):
            if deferred:
                await sendable(interaction.channel).send(**kw)
            elif i == 0:
                await interaction.response.send_message(**kw)
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

    async def post(self, target: discord.abc.Messageable, channel: str, reply: Reply) -> None:
        """A reply nobody asked for by an interaction (a computer player's move), published exactly
        as a person's move is."""
        await self.publish(channel, target, reply)

    # ------------------------------------------------------------------ the game's messages

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

    # ------------------------------------------------------------------ components

    async def component_error(self, interaction: discord.Interaction, message: str) -> None:
        asker = asker_language(interaction)
        set_task_language(asker)
        await self.say_privately(interaction, say_in(message, asker))

    async def _stale(self, interaction: discord.Interaction) -> None:
        await self.say_privately(interaction, _(
            "This message belongs to a game that has ended or been replaced; it takes no more moves."))

    async def component_action(self, interaction: discord.Interaction, match: int, version: int, text: str, *,
                               confirmed: bool = False) -> None:
        # issue 16: what only the presser sees here (a question before a buy that spends VP, a
        # sailor's trip, "the table has changed") in their client's language; ``run`` sets the
        # table's for the move itself
        with use_language(language_for(interaction.locale)):
            await self._component_action(interaction, match, version, text, confirmed=confirmed)

    async def _component_action(self, interaction: discord.Interaction, match: int, version: int, text: str, *,
                                confirmed: bool = False) -> None:
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        table = await self.svc.table(channel)
        if table is None or table.record.id != match:
            await self._stale(interaction)
            return
        if text.startswith(TRIP_PREFIX):
            await self.trip(interaction, table, user, version, text, confirmed=confirmed)
            return
        if not confirmed and await self.ask_first(interaction, table, user, version, text):
            return
        message = interaction.message
        # a choice on the player's own (ephemeral) message is scoped to their seat: the service
        # takes it, under the table's lock, when only other seats moved since (a draft)
        scoped = message is not None and message.flags.ephemeral
        await self.run(interaction, lambda: self.svc.act(channel, user, text, version=version, scoped=scoped),
                       game=True)

    async def trip(self, interaction: discord.Interaction, table: Table, user: str, version: int, text: str, *,
                   confirmed: bool) -> None:
        """The sailor dialog (issue 13, V-34): a whole trip picked from the adapter's ``trips``,
        shown privately with where the vikings go, and made on "yes" as its sail moves in a row."""
        key = text.removeprefix(TRIP_PREFIX)
        seat = table.record.seat_of(user)
        game = table.game
        plans = table.adapter.trips(game, seat) if game is not None and seat is not None else []
        plan = next((p for p in plans if p[0] == key), None)
        if plan is None or version != table.record.version:
            await self.say_privately(interaction, _(
                "The table has changed since that message. Please choose again from the latest one."))
            return
        if not confirmed:
            view = confirm_view(table.record.id, version, text, _("Send the sailor"))
            await self.say_privately(interaction, _("This sailor's trip: {plan}. Send the sailor?", plan=plan[1]),
                                     view=view)
            return
        channel = str(interaction.channel_id)

        async def sail_all() -> Reply:
            done: list[Reply] = []
            at = version
            for action in plan[2]:
                reply = await self.svc.act(channel, user, action, version=at)
                if not reply.ok:
                    if not done:
                        return reply
                    done[-1].private += reply.private
                    break
                done.append(reply)
                at = reply.version if reply.version is not None else at
            last = done[-1]
            last.public = [line for r in done for line in r.public]
            last.events = [e for r in done for e in r.events]
            return last

        await self.run(interaction, sail_all, game=True)

    async def ask_first(self, interaction: discord.Interaction, table: Table, user: str, version: int,
                        text: str) -> bool:
        """The adapter's ``confirm(game, seat, action)`` question (a buy that spends VP,
        issue 13): asked privately with a "yes" button instead of acting. True if asked."""
        seat = table.record.seat_of(user)
        game = table.game
        if game is None or seat is None or version != table.record.version:
            return False
        try:
            action = game.parse_action(text)
        except Exception:
            return False  # the service explains what is wrong with it
        if seat not in game.acting_seats() or not game.is_legal(seat, text):
            return False
        question = table.adapter.confirm(game, seat, action)
        if not question:
            return False
        view = confirm_view(table.record.id, version, text)
        if view is None:
            return False
        await self.say_privately(interaction, question, view=view)
        return True

    async def choose(self, interaction: discord.Interaction, match: int, version: int) -> None:
        """Show the presser their own choices (ephemeral) when several seats decide at once."""
        with use_language(language_for(interaction.locale)):  # issue 16: a private answer
            await self._choose(interaction, match, version)

    async def _choose(self, interaction: discord.Interaction, match: int, version: int) -> None:
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        table = await self.svc.table(channel)
        if table is None or table.game is None or table.record.id != match:
            await self._stale(interaction)
            return
        seat = table.record.seat_of(user)
        if seat is None:
            await self.say_privately(interaction, _("You are not a player at this table."))
            return
        if table.record.version != version and seat not in table.game.acting_seats():
            await self.say_privately(interaction, _(
                "The table has changed since that message. Please choose again from the latest one."))
            return
        # an acting seat gets its choices as they are now, even from an older message
        if seat not in table.game.acting_seats():
            await self.say_privately(interaction, _("You have nothing to decide now."))
            return
        await self.show_private(interaction, table, table.game, seat, must_act=True)

    # ------------------------------------------------------------------ helpers for commands

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

    # ------------------------------------------------------------------ host commands

    # issue 13: few top-level commands; managing the table is one group
    table_group = app_commands.Group(
        name=T(N_("table")), description=T(N_("This table: who plays, computer players, abandon, the log")),
        guild_only=True)

    @app_commands.command(name=T(N_("join")), description=T(N_("Take a seat at this channel's table")))
    @app_commands.describe(game=T(N_("The game a new table plays")))
    async def join(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            await self.run(interaction, lambda: self.svc.join(
                channel, user, interaction.user.display_name, guild=str(interaction.guild_id), game=game))

    @join.autocomplete("game")
    async def join_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.game_choices(current)

    @app_commands.command(name=T(N_("leave")), description=T(N_("Leave this channel's table before it starts")))
    async def leave(self, interaction: discord.Interaction) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            await self.run(interaction, lambda: self.svc.leave(channel, user))

    @table_group.command(name=T(N_("addbot")),
                         description=T(N_("Seat a computer player at this table before the start")))
    @app_commands.describe(level=T(N_("How well it plays: random, heuristic or search")))
    async def addbot(self, interaction: discord.Interaction, level: str = "heuristic") -> None:
        if not await self.guild_only(interaction):
            return
        channel, user = self.where(interaction)
        table = await self.svc.table(channel)
        if table is None:
            await self.say_privately(interaction, _("There is no table in this channel. Use /join to open one."))
            return
        if table.record.seat_of(user) is None:
            await self.say_privately(interaction, _("Only a player at this table can seat a computer player."))
            return
        await self.run(interaction, lambda: add_bot(self.svc, channel, level.strip().lower(),
                                                    guild=str(interaction.guild_id)))

    @addbot.autocomplete("level")
    async def addbot_level(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        needle = current.strip().lower()
        return [app_commands.Choice(name=level, value=level) for level in LEVELS if needle in level]

    @app_commands.command(name=T(N_("start")), description=T(N_("Start the game at this channel's table")))
    @app_commands.describe(game=T(N_("Which game to play (default: the table's); games are offered")),
                           options=T(N_("Table options of the game, separated by spaces; offered as you type")),
                           language=T(N_("The table's language for everybody (default: the server's)")))
    @app_commands.choices(language=[app_commands.Choice(name=language_name(code), value=code)
                                    for code in table_languages()])
    async def start(self, interaction: discord.Interaction, game: str | None = None, options: str | None = None,
                    language: str | None = None) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            words = (options or "").replace(",", " ").split()
            if language is not None:  # issue 16: the same as the option word lang:xx
                words.append(f"lang:{language}")
            await self.run(interaction, lambda: self.svc.start(channel, user, game, words), game=True, opening=True)

    @start.autocomplete("game")
    async def start_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.game_choices(current)

    @start.autocomplete("options")
    async def start_options(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The game's table options (an adapter's ``option_words``), completing the last word typed."""
        table = await self.svc.table(str(interaction.channel_id))
        game_id = getattr(interaction.namespace, "game", None) or (table.record.game if table else None)
        adapter = self.svc.games.get(game_id or self.svc.games.default or "")
        words = list(adapter.option_words) if adapter is not None else []
        parts = current.replace(",", " ").split()
        finished = not parts or current.endswith((" ", ","))
        chosen, partial = (parts, "") if finished else (parts[:-1], parts[-1].lower())
        out = []
        for word in words:
            if word in chosen or not word.startswith(partial):
                continue
            value = " ".join([*chosen, word])[:100]
            out.append(app_commands.Choice(name=value, value=value))
        return out[:MAX_CHOICES]

    @table_group.command(name=T(N_("abandon")),
                         description=T(N_("End this channel's game (creator or admin), or vote to end it")))
    async def abandon(self, interaction: discord.Interaction) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            perms = interaction.permissions
            admin = perms.administrator or perms.manage_guild
            await self.run(interaction, lambda: self.svc.abandon(channel, user, is_admin=admin), ending=True)

    @table_group.command(name=T(N_("status")), description=T(N_("Who plays here and who must act")))
    async def status(self, interaction: discord.Interaction) -> None:
        if await self.guild_only(interaction):
            channel, _user = self.where(interaction)
            await self.run(interaction, lambda: self.svc.status(channel), widgets=False)

    @app_commands.command(name=T(N_("board")), description=T(N_("Show the table as an image")))
    @app_commands.describe(private=T(N_("Only you see it, from your seat")),
                           player=T(N_("Draw this player's homeland large (Vikings); the players are offered")))
    async def board(self, interaction: discord.Interaction, private: bool = False, player: str | None = None) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            # never controls: they live on the turn's message only, so none go stale here
            await self.run(interaction, lambda: self.svc.board(channel, user, private=private, player=player),
                           private=private, widgets=False)

    @board.autocomplete("player")
    async def board_players(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.player_choices(interaction, current)

    async def player_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The players at this table (issue 13: every option offers its choices)."""
        table = await self.svc.table(str(interaction.channel_id))
        needle = current.strip().lower()
        names = table.record.names if table is not None else []
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names if needle in n.lower()][:MAX_CHOICES]

    @app_commands.command(name=T(N_("hand")),
                          description=T(N_("What only you may see (your cards) and your choices, privately")))
    async def hand(self, interaction: discord.Interaction) -> None:
        if not await self.guild_only(interaction):
            return
        channel, user = self.where(interaction)
        table = await self.svc.table(channel)
        if table is None or table.game is None:
            await self.say_privately(interaction, _("There is no game running here."))
            return
        seat = table.record.seat_of(user)
        if seat is None:
            await self.say_privately(interaction, _("You are not a player at this table."))
            return
        await self.show_private(interaction, table, table.game, seat, must_act=seat in table.game.acting_seats())

    @app_commands.command(name=T(N_("rules")),
                          description=T(N_("A summary of the rules, or one rule by number or topic")))
    @app_commands.describe(topic=T(N_("A rule number (V-14) or a topic (sailors); matching rules are offered")))
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        channel, _user = self.where(interaction)
        await self.run(interaction, lambda: self.svc.rules(channel, topic or None), private=True)

    @rules.autocomplete("topic")
    async def rules_topics(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Rule numbers and topics of this table's game (or the default game): ``sailors`` → V-34 first."""
        table = await self.svc.table(str(interaction.channel_id))
        book = RULEBOOKS.get(table.record.game if table else (self.svc.games.default or ""))
        if book is None:
            return []
        lang = asker_language(interaction) or SOURCE_LANGUAGE  # issue 16: labels and search in the asker's
        texts = rule_texts(*book, lang)
        needle = current.strip()
        by_number = [k for k in texts if needle.upper().replace(" ", "") in k]
        keys = by_number if not needle or re.fullmatch(r"[A-Za-z]?-?\d+", needle) else [
            *search(*book, needle, lang), *by_number]
        return [app_commands.Choice(name=f"{k}: {texts[k]}"[:100], value=k) for k in dict.fromkeys(keys)][:MAX_CHOICES]

    @app_commands.command(name=T(N_("help")), description=T(N_("What you can do here")))
    async def help(self, interaction: discord.Interaction) -> None:
        """An embed grouped by purpose (issue 13), privately."""
        with use_language(asker_language(interaction)):
            await interaction.response.send_message(embed=self.help_embed(), ephemeral=True)

    def help_embed(self) -> discord.Embed:
        games = ", ".join(a.title for a in self.svc.games)
        embed = discord.Embed(title=_("meadhall: board games at this table"),
                              description=_("Games here: {games}.", games=games))
        embed.add_field(name=_("Open a table"), inline=False, value=_(
            "/join (choose the game) takes a seat; /leave gives it up before the start; /table addbot seats a "
            "computer player; /start begins, with table options offered as you type. Each game gets its own thread."))
        embed.add_field(name=_("Play"), inline=False, value=_(
            "The player to act is pinged in the game's thread; the buttons and menus are on their turn's message, "
            "which changes as they decide. /hand shows your own cards and choices privately. Typing works too: "
            "/buy, /place, /sail, /exchange, or /move for any other move (your legal moves are offered)."))
        embed.add_field(name=_("Look"), inline=False, value=_(
            "/board shows the table (private: from your seat, only to you); /table status says who must act; "
            "/table export posts the game's log."))
        embed.add_field(name=_("Learn"), inline=False, value=_(
            "/rules gives a summary, one rule by number (V-14) or by topic (sailors); /help shows this."))
        embed.add_field(name=_("End"), inline=False, value=_(
            "/table abandon: the table's creator or an admin ends the game; other players vote."))
        embed.add_field(name=_("Mend"), inline=False, value=_(
            "/table undo takes back your last move (whoever moved since agrees by running it too); "
            "/table replace gives a seat nobody plays any more to a computer player or to you, by a vote."))
        embed.add_field(name=_("Records"), inline=False, value=_(
            "/records leaderboard ranks the players of a game (this server or all); /records profile shows a "
            "player's games, wins and rating; /records history lists the finished games with their threads."))
        return embed

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

    @table_group.command(name=T(N_("export")), description=T(N_("The game's action log as a file, for you only")))
    async def export(self, interaction: discord.Interaction) -> None:
        if await self.guild_only(interaction):
            channel, _user = self.where(interaction)
            await self.run(interaction, lambda: self.svc.export(channel), private=True)  # to the asker only

    @table_group.command(name="undo", description=T(N_(
        "Take back your last move; whoever moved since agrees by running undo too")))
    async def undo(self, interaction: discord.Interaction) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            # a request that needs agreement is its own message, pinging who must agree, with the
            # "Agree to undo" / "Refuse" buttons (bot.discord.components.UndoButton)
            await self.run(interaction, lambda: self.svc.command(
                channel, user, "undo", name=interaction.user.display_name, guild=str(interaction.guild_id)),
                game=True)

    async def undo_answer(self, interaction: discord.Interaction, match: int, version: int, agree: bool) -> None:
        """A press of "Agree to undo" / "Refuse" (issue 17): the service judges who may answer and
        whether the request still stands at ``version``; a refusal answers privately. When the
        request is settled (undone or refused) its message loses its buttons."""
        channel, user = str(interaction.channel_id), str(interaction.user.id)
        table = await self.svc.table(channel)
        if table is None or table.record.id != match:
            await self._stale(interaction)
            return
        reply = await self.run(interaction, lambda: self.svc.undo(channel, user, agree, version=version), game=True)
        if reply is not None and reply.ok and reply.code == "undo_declined" and interaction.message is not None:
            with suppress(discord.HTTPException):
                await interaction.message.edit(view=None)

    @table_group.command(name="replace", description=T(N_(
        "Give a seat no longer played to a computer player or to you; the table votes")))
    @app_commands.describe(player=T(N_("The seat to give away; the players are offered")),
                           by=T(N_("A computer level, me (you take the seat), or yes to vote for the request")))
    async def replace(self, interaction: discord.Interaction, player: str, by: str) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            line = " ".join(["replace", *player.split(), *by.split()])
            await self.run(interaction, lambda: self.svc.command(
                channel, user, line, name=interaction.user.display_name, guild=str(interaction.guild_id)),
                game=True)

    @replace.autocomplete("player")
    async def replace_players(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.player_choices(interaction, current)

    @replace.autocomplete("by")
    async def replace_by(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        needle = current.strip().lower()
        return [app_commands.Choice(name=w, value=w) for w in (*LEVELS, "me", "yes") if needle in w][:MAX_CHOICES]

    # ------------------------------------------------------------------ records (issue 17)

    records_group = app_commands.Group(
        name="records", description=T(N_("Ratings, profiles and the finished games of this server")),
        guild_only=True)

    @records_group.command(name="leaderboard", description=T(N_("The best rated players of a game")))
    @app_commands.describe(game=T(N_("Which game (default: the first); games are offered")),
                           scope=T(N_("This server or all servers")))
    @app_commands.choices(scope=[app_commands.Choice(name=T(N_("this server")), value="server"),
                                 app_commands.Choice(name=T(N_("all servers")), value="all")])
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None,
                          scope: str | None = None) -> None:
        if await self.guild_only(interaction):
            await self.run(interaction, lambda: self.svc.leaderboard(game, scope, guild=str(interaction.guild_id)),
                           widgets=False, personal=True)

    @leaderboard.autocomplete("game")
    async def leaderboard_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.game_choices(current)

    @records_group.command(name="profile", description=T(N_("A player's games, wins, rating and recent games")))
    @app_commands.describe(member=T(N_("Whose profile (default: yours)")))
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        if await self.guild_only(interaction):
            who = str((member or interaction.user).id)
            await self.run(interaction, lambda: self.svc.profile(who, guild=str(interaction.guild_id)),
                           widgets=False, personal=True)

    @records_group.command(name="history", description=T(N_("The finished games of this server")))
    async def history(self, interaction: discord.Interaction) -> None:
        if await self.guild_only(interaction):
            await self.run(interaction, lambda: self.svc.game_history(guild=str(interaction.guild_id)),
                           widgets=False, personal=True)

    # ------------------------------------------------------------------ game moves

    async def move(self, interaction: discord.Interaction, word: str, choice: str | None) -> None:
        if not await self.guild_only(interaction):
            return
        channel, user = self.where(interaction)
        args = (choice or "").split()
        table = await self.svc.table(channel)
        adapters = [table.adapter] if table is not None else list(self.svc.games)
        verb = next((a.verbs[word] for a in adapters if word in a.verbs), word)
        if args and args[0].lower() == verb.lower():
            args = args[1:]  # an autocomplete value is the whole action text
        line = " ".join([word, *args])
        await self.run(interaction, lambda: self.svc.command(
            channel, user, line, name=interaction.user.display_name, guild=str(interaction.guild_id)), game=True)

    async def move_choices(
        self, interaction: discord.Interaction, word: str | None, current: str
    ) -> list[app_commands.Choice[str]]:
        """The legal actions of the user's seat for this verb, or any (``word`` None; value: the
        action text)."""
        try:
            channel, user = self.where(interaction)
            table = await self.svc.table(channel)
            if table is None or table.game is None:
                return []
            verb = table.adapter.verbs.get(word) if word is not None else None
            seat = table.record.seat_of(user)
            if (word is not None and verb is None) or seat is None:
                return []
            game = table.game
            actions = list(game.legal_actions(seat))
            actions += [a for a in game.free_actions(seat) if a not in actions]
            needle = current.strip().lower()
            out: list[app_commands.Choice[str]] = []
            lang = language_for(interaction.locale)
            with use_language(lang):
                for action in actions:
                    text = str(action)
                    if verb is not None and text.split()[0].lower() != verb.lower() or len(text) > 100:
                        continue
                    label = label_of(table.adapter, game, action)
                    if needle and needle not in text.lower() and needle not in label.lower():
                        continue
                    out.append(app_commands.Choice(name=label, value=text))
                    if len(out) == MAX_CHOICES:
                        break
            return out
        except Exception:
            log.exception("autocomplete for /%s failed", word)
            return []

    @app_commands.command(name=T(N_("move")),
                          description=T(N_("Make any move of your game; your legal moves are offered as you type")))
    @app_commands.describe(choice=T(N_("Your move: pick one of the offered legal moves")))
    async def move_command(self, interaction: discord.Interaction, choice: str) -> None:
        if not await self.guild_only(interaction):
            return
        channel, user = self.where(interaction)
        await self.run(interaction, lambda: self.svc.act(channel, user, choice), game=True)

    @move_command.autocomplete("choice")
    async def move_command_choices(self, interaction: discord.Interaction, current: str
                                   ) -> list[app_commands.Choice[str]]:
        return await self.move_choices(interaction, None, current)

    def _verb_command(self, word: str, adapters: Sequence[GameAdapter]) -> app_commands.Command:
        titles = ", ".join(a.title for a in adapters)
        own = next((d for d in (a.describe_verb(word) for a in adapters) if d is not None), None)
        needs_choice = takes_argument(word, adapters)
        if needs_choice:
            async def callback(interaction: discord.Interaction, choice: str) -> None:
                await self.move(interaction, word, choice)

            callback = app_commands.describe(choice=T(N_("Your move; the legal ones are offered as you type")))(
                callback)
            description = T(N_("{games} move: {word} (pick one of the offered moves)"), games=titles, word=word)
        else:
            async def callback(interaction: discord.Interaction) -> None:  # type: ignore[misc]  # no choice here
                await self.move(interaction, word, None)

            description = T(N_("{games} move: {word}"), games=titles, word=word)
        if own:
            description = locale_str(own[:100])
        elif len(description.message) > 100:
            description = T(N_("Game move: {word}"), word=word)
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=locale_str(word), description=description, callback=callback)
        if needs_choice:
            @command.autocomplete(CHOICE_OPTION)
            async def offered(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
                return await self.move_choices(interaction, word, current)
        return command
