"""Moves: the Vikings verbs ``/buy /place /sail /exchange`` (:data:`OWN_COMMAND_VERBS`, each with
one ``choice`` option whose autocomplete offers the legal actions of the user's seat), ``/move`` for
every other move, and the moves made by pressing a component (a button or select of
:mod:`bot.discord.components`: asked to confirm first when the adapter has a question, the sailor
dialog that sends a whole sailing as one move, a seat's own choices when several seats decide at
once)."""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.discord.components import (
    MAX_CHOICES,
    PLAN_OPEN,
    TRIP_PREFIX,
    confirm_view,
    plan_state,
    plan_view,
    read_plan_state,
)
from bot.discord.languages import T, language_for
from bot.discord.publishing.answering import Answering
from bot.discord.publishing.messages import escape_names
from bot.games import GameAdapter, GameRegistry
from bot.games.widgets import label_of
from bot.host.service import HOST_COMMANDS, Table
from bot.i18n import N_, _, use_language
from engine.core import Game

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it


CHOICE_OPTION = "choice"


TRANSPORT_COMMANDS = ("hand", "addbot", "table", "move")  # this transport's words beyond HOST_COMMANDS


# issue 13: these game verbs keep a command of their own; every other move is /move (autocompleted)
OWN_COMMAND_VERBS = ("buy", "place", "sail", "exchange")


MOVE_COMMAND = "move"


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


class MovesCommands(Answering):
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

    async def component_action(self, interaction: discord.Interaction, match: int, version: int, text: str, *,
                               confirmed: bool = False) -> None:
        # issue 16: what only the presser sees here (a question before a buy that spends VP, a
        # sailor's trip, "the table has changed") in their client's language; ``run`` sets the
        # table's for the move itself
        self.unanswered.add(interaction)  # waiting for its answer from now on (issue 24: answer first)
        try:
            with use_language(language_for(interaction.locale)):
                await self._component_action(interaction, match, version, text, confirmed=confirmed)
        finally:
            self.unanswered.discard(interaction)

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
        """"Plan all sailors" on the table's message: the sailor dialog opens, privately."""
        if text != PLAN_OPEN:
            await self.say_privately(interaction, _(
                "The table has changed since that message. Please choose again from the latest one."))
            return
        await self._plan_dialog(interaction, table, user, version, [], False, opening=True)

    async def plan_step(self, interaction: discord.Interaction, match: int, version: int, op: str, state: str,
                        values: Sequence[str]) -> None:
        """A control of the sailor dialog (V-33 … V-35): add the next sailor's trip (``t``), toggle
        the boat (``b``), remove the last trip (``u``), send the whole plan as one move (``s``) or
        cancel (``x``). The dialog's state comes from the custom id; an outdated dialog changes
        nothing."""
        self.unanswered.add(interaction)
        try:
            with use_language(language_for(interaction.locale)):
                await self._plan_step(interaction, match, version, op, state, values)
        finally:
            self.unanswered.discard(interaction)

    async def _plan_step(self, interaction: discord.Interaction, match: int, version: int, op: str, state: str,
                         values: Sequence[str]) -> None:
        channel, user = self.where(interaction)
        table = await self.svc.table(channel)
        if table is None or table.game is None or table.record.id != match:
            await self._stale(interaction)
            return
        if op == "x":
            await self.edit_private(interaction, content=_("The sailing plan is cancelled; nothing was sent."),
                                    view=None, attachments=[])
            return
        try:
            steps, extra = read_plan_state(state)
        except ValueError:
            await self.component_error(interaction, _("That choice does not make a move; please choose again."))
            return
        if op == "t":
            steps, extra = [*steps, (extra, list(values))], False
            try:
                read_plan_state(plan_state(steps, extra))  # only values a dialog can carry on
            except ValueError:
                await self.component_error(interaction, _("That choice does not make a move; please choose again."))
                return
        elif op == "b":
            extra = not extra
        elif op == "u" and steps:
            steps = steps[:-1]
        if op == "s":
            await self._send_plan(interaction, table, user, version, steps)
            return
        await self._plan_dialog(interaction, table, user, version, steps, extra, opening=False)

    async def _send_plan(self, interaction: discord.Interaction, table: Table, user: str, version: int,
                         steps: Sequence[tuple[bool, Sequence[str]]]) -> None:
        """"Send the plan": the whole sailing as one move (``sail plan … / end``) through the host
        service; a plan the rules refuse is refused privately and changes nothing (the engine plays
        it on a copy first)."""
        seat = table.record.seat_of(user)
        if seat is None:
            await self.say_privately(interaction, _("You are not a player at this table."))
            return
        if version != table.record.version:
            await self.say_privately(interaction, _(
                "The table has changed since that message. Please choose again from the latest one."))
            return
        dialog = table.adapter.plan_dialog(table.game, seat, steps, False)
        if dialog is None:
            await self.say_privately(interaction, _("You have nothing to decide now."))
            return
        channel = str(interaction.channel_id)
        await self.run(interaction, lambda: self.svc.act(channel, user, dialog.action, version=version), game=True)

    async def _plan_dialog(self, interaction: discord.Interaction, table: Table, user: str, version: int,
                           steps: Sequence[tuple[bool, Sequence[str]]], extra: bool, *, opening: bool) -> None:
        """Show the dialog for ``steps``: a new private message, or the dialog edited in place."""
        seat = table.record.seat_of(user)
        game = table.game
        if seat is None:
            await self.say_privately(interaction, _("You are not a player at this table."))
            return
        dialog = None
        if game is not None and version == table.record.version:  # the picture is drawn off the loop
            dialog = await asyncio.to_thread(table.adapter.plan_dialog, game, seat, steps, extra,
                                             picture=self.svc.images)
        if dialog is None:
            await self.say_privately(interaction, _(
                "The table has changed since that message. Please choose again from the latest one."))
            return
        record = table.record
        view = plan_view(record.id, version, steps, extra, dialog)
        text = dialog.text
        if view is None:
            text += "\n" + _("This plan is too long for the dialog; type it instead: /sail {plan}",
                              plan=dialog.action.removeprefix("sail "))
        files = [discord.File(io.BytesIO(dialog.picture), filename=f"sailing-{record.id}-{version}.png")
                 ] if dialog.picture else []
        text = escape_names(text, record.names)
        if opening:
            await self.say_privately(interaction, text, files=files, view=view)
            return
        await self.edit_private(interaction, content=text, view=view, attachments=files)

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
