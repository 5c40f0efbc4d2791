"""Replays on Discord (issue 25): ``/records replay ID`` answers privately with the first position of
a finished game of this server, and First / Back / Next / Last buttons and a jump to a round step
through its log; each press edits that private message in place (the interaction's response).

The custom ids hold the replay's whole state, so the buttons work after a restart of the bot (they
are discord.py ``DynamicItem`` s, registered once beside :data:`bot.discord.components.DYNAMIC_ITEMS`)::

    mh:replay:{match}:{step}:first|back|next|last   a button; {step}: the position the message shows
    mh:replay-round:{match}:{step}                  the jump to a round: each option's value is the
                                                    first step of its round

Every press asks the host again (:meth:`bot.host.service.HostService.replay_position`), which checks
the game (this server's, finished, still there) each time; a custom id that does not read as one of
these is refused with a sentence, never ignored.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, Self

import discord
from discord import ui

from bot.discord.languages import asker_language, said_to
from bot.discord.publishing.answering import Answering
from bot.discord.publishing.deferring import defer_privately, settled
from bot.discord.publishing.messages import MAX_CONTENT, escape_names
from bot.discord.refusals import token_dead
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import ReplayPosition, Reply
from bot.host.service import refused
from bot.i18n import _, use_language

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it

MOVES = ("first", "back", "next", "last")
BUTTON_TEMPLATE = re.compile(r"mh:replay:(?P<rest>.*)")
ROUND_TEMPLATE = re.compile(r"mh:replay-round:(?P<rest>.*)")
BUTTON_STATE = re.compile(r"(?P<match>[0-9]{1,18}):(?P<step>[0-9]{1,9}):(?P<move>first|back|next|last)")
ROUND_STATE = re.compile(r"(?P<match>[0-9]{1,18}):(?P<step>[0-9]{1,9})")
STEP_VALUE = re.compile(r"[0-9]{1,9}")


def button_id(match: int, step: int, move: str) -> str:
    return f"mh:replay:{match}:{step}:{move}"


def round_id(match: int, step: int) -> str:
    return f"mh:replay-round:{match}:{step}"


def target(step: int, move: str) -> tuple[int, bool]:
    """The position a button leads to from ``step``: ``(step, last)`` (``last``: the end, however far)."""
    if move == "first":
        return 0, False
    if move == "back":
        return max(step - 1, 0), False
    if move == "next":
        return step + 1, False
    return step, True


class ReplayHandler(Protocol):
    """What the items need of the bot's ``component_handler`` (the Cog)."""

    async def replay_press(self, interaction: discord.Interaction, match: int | None, step: int,
                           last: bool = False) -> None: ...


def _handler(interaction: discord.Interaction) -> ReplayHandler:
    return interaction.client.component_handler  # type: ignore[attr-defined]


class ReplayButton(ui.DynamicItem[ui.Button], template=BUTTON_TEMPLATE):
    """First, Back, Next or Last; the position it starts from and the move are in its custom id."""

    def __init__(self, rest: str, *, label: str = "", disabled: bool = False,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, button: ui.Button | None = None) -> None:
        self.rest = rest
        super().__init__(button or ui.Button(label=label, style=style, disabled=disabled, custom_id=f"mh:replay:{rest}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(match["rest"], button=item if isinstance(item, ui.Button) else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        state = BUTTON_STATE.fullmatch(self.rest)
        if state is None:
            await _handler(interaction).replay_press(interaction, None, 0)
            return
        step, last = target(int(state["step"]), state["move"])
        await _handler(interaction).replay_press(interaction, int(state["match"]), step, last)


class ReplayRounds(ui.DynamicItem[ui.Select], template=ROUND_TEMPLATE):
    """The jump to a round: the chosen option's value is that round's first step."""

    def __init__(self, rest: str, *, options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 select: ui.Select | None = None) -> None:
        self.rest = rest
        super().__init__(select or ui.Select(custom_id=f"mh:replay-round:{rest}", placeholder=placeholder[:150],
                                             options=options or []))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(match["rest"], select=item if isinstance(item, ui.Select) else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        state = ROUND_STATE.fullmatch(self.rest)
        values = self.item.values if isinstance(self.item, ui.Select) else []
        if state is None or len(values) != 1 or not STEP_VALUE.fullmatch(values[0]):
            await _handler(interaction).replay_press(interaction, None, 0)
            return
        await _handler(interaction).replay_press(interaction, int(state["match"]), int(values[0]))


REPLAY_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (ReplayButton, ReplayRounds)


def replay_view(match: int, where: ReplayPosition) -> ui.View:
    """The controls under a replayed position: First, Back, Next, Last (those that lead nowhere
    disabled) and, for a game with rounds, the jump to a round (at most 25, Discord's limit)."""
    view = ui.View(timeout=None)
    labels = {"first": _("⏮ First"), "back": _("◀ Back"), "next": _("Next ▶"), "last": _("Last ⏭")}
    for move in MOVES:
        stuck = where.step == 0 if move in ("first", "back") else where.step >= where.steps
        style = discord.ButtonStyle.primary if move == "next" else discord.ButtonStyle.secondary
        view.add_item(ReplayButton(f"{match}:{where.step}:{move}", label=labels[move], disabled=stuck, style=style))
    if where.rounds:
        options = [discord.SelectOption(label=_("Round {round}", round=r), value=str(step),
                                        description=_("from step {step}", step=step))
                   for r, step in where.rounds[:25]]
        placeholder = _("Jump to a round (now: round {round})", round=where.round) if where.round >= 1 else _(
            "Jump to a round")
        view.add_item(ReplayRounds(f"{match}:{where.step}", options=options, placeholder=placeholder))
    return view


def content(reply: Reply, limit: int = MAX_CONTENT) -> str:
    """The reply's lines as one message (a replay is one message, edited in place), names escaped.
    Over Discord's limit the longest lines are shortened first (with an ellipsis), so that every line
    (the step, each narrated event, each hidden thing) keeps its beginning."""
    lines = [escape_names(line, reply.names) for line in reply.private]
    while (over := len("\n".join(lines)) - limit) > 0:
        longest = max(range(len(lines)), key=lambda i: len(lines[i]))
        keep = max(60, len(lines[longest]) - over - 1)
        if keep >= len(lines[longest]) - 1:
            break  # every line is short already: cut the end below
        lines[longest] = lines[longest][:keep] + "…"
    text = "\n".join(lines)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _files(reply: Reply) -> list[discord.File]:
    return [discord.File(io.BytesIO(reply.image.data), filename=reply.image.filename)] if reply.image else []


class Replaying(Answering):
    """The Cog's replay answers: the command's first position and each press's new one."""

    async def replay_open(self, interaction: discord.Interaction, match_id: int) -> None:
        """``/records replay ID``: the first position, privately, with its controls."""
        if not await self.guild_only(interaction):
            return
        guild = str(interaction.guild_id)
        await self._replay(interaction, lambda: self.svc.replay_position(match_id, guild=guild), press=False)

    async def replay_press(self, interaction: discord.Interaction, match: int | None, step: int,
                           last: bool = False) -> None:
        """A replay button or the round jump: the position it leads to, edited into its message."""
        if match is None or interaction.guild_id is None:
            with use_language(asker_language(interaction)):
                reply = refused(Refusal(RefusalCode.REPLAY_BAD_BUTTON))
            await self._replay(interaction, _answered(reply), press=True)
            return
        guild = str(interaction.guild_id)
        await self._replay(interaction, lambda: self.svc.replay_position(match, step, last=last, guild=guild),
                           press=True)

    async def _replay(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Reply]], *,
                      press: bool) -> None:
        """Answer with ``call``'s reply within Discord's 3 s (deferring when it is slow: a press with a
        silent "edit later", the command with a private "thinking…"), in the asker's language.

        A position goes into the message: the command's new private message, or the pressed one,
        edited (the interaction's response: no channel permission is needed, the message is the
        presser's alone). A refusal is a private message of its own; the pressed replay stays."""
        asker = asker_language(interaction)
        with use_language(asker):
            try:
                reply = await self._within_budget(interaction, call, press=press)
                await settled(interaction)  # a private defer made meanwhile for another table's REST call
                if not reply.ok:
                    text = escape_names("\n".join(said_to(reply.private, asker)), reply.names)
                    await self.say_privately(interaction, text or _("That did not work."),
                                             deferred=interaction.response.is_done())
                    return
                assert reply.match_id is not None and reply.position is not None
                view = replay_view(reply.match_id, reply.position)
                if not press:
                    await self.say_privately(interaction, content(reply), deferred=interaction.response.is_done(),
                                             files=_files(reply), view=view)
                elif not interaction.response.is_done():
                    await interaction.response.edit_message(content=content(reply), attachments=_files(reply),
                                                            view=view)
                else:  # deferred ("edit later"): the original response is the pressed message
                    await interaction.edit_original_response(content=content(reply), attachments=_files(reply),
                                                             view=view)
            except discord.HTTPException as error:
                if not token_dead(error):
                    log.warning("answering a replay of user %s failed: %s", interaction.user.id, error)
            except Exception:
                log.exception("answering a replay failed")
                await self.fail(interaction)
            finally:
                self.unanswered.discard(interaction)

    async def _within_budget(self, interaction: discord.Interaction, call: Callable[[], Awaitable[Reply]], *,
                             press: bool) -> Reply:
        started = time.time()
        task = asyncio.ensure_future(call())
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.answer_budget(interaction, started))
        except TimeoutError:
            if not interaction.response.is_done():
                if press:
                    await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE: the message is edited later
                else:
                    await defer_privately(interaction)
            return await task


def _answered(reply: Reply) -> Callable[[], Awaitable[Reply]]:
    async def call() -> Reply:
        return reply

    return call
