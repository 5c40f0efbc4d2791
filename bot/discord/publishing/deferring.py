"""An interaction deferred privately, once (issue 24: answer first): :func:`defer_privately`, and
what the other tasks answering it need to know (:func:`settled`, :func:`thinking`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord

_THINKING = "meadhall_thinking"
_DEFERRING = "meadhall_deferring"  # the future of a private defer in flight
ALREADY_ANSWERED = 40060  # opcodes-and-status-codes.mdx: "Interaction has already been acknowledged"


async def defer_privately(interaction: discord.Interaction) -> None:
    """Defer ``interaction`` with a private "thinking…" (remembered: :func:`thinking`). Another task
    deferring the same interaction meanwhile (:meth:`AnswerFirst.answer_waiting` for another table's
    REST call) is waited for, never raced: two initial responses would be refused 40060."""
    pending = interaction.extras.get(_DEFERRING)
    if pending is not None:
        await asyncio.shield(pending)
        return
    if interaction.response.is_done():
        return
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    interaction.extras[_DEFERRING] = done
    try:
        await interaction.response.defer(ephemeral=True, thinking=True)
        interaction.extras[_THINKING] = True
    finally:
        done.set_result(None)


async def settled(interaction: discord.Interaction) -> None:
    """Wait until a private defer of ``interaction`` made by another task has reached Discord, so
    that :func:`thinking` and ``response.is_done()`` tell the truth before the answer is chosen."""
    pending = interaction.extras.get(_DEFERRING)
    if pending is not None:
        await asyncio.shield(pending)


def thinking(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` was answered by :func:`defer_privately` (then "Done." completes it)."""
    return bool(interaction.extras.get(_THINKING))


class InFlight:
    """Initial responses on their way to Discord (issue 24: answer first). An interaction leaves
    :attr:`Publisher.unanswered` when its answer is chosen, but the answer (an edit carrying the
    board's picture) may still be on the wire while another table's task makes a REST call; that
    call, smaller, could reach Discord first. So the bot's other REST calls wait for the answers
    in flight (:meth:`wait`), as they defer the interactions not answered yet."""

    def __init__(self) -> None:
        self._sending: dict[asyncio.Future[None], asyncio.Task[Any] | None] = {}

    @contextlib.asynccontextmanager
    async def sending(self) -> AsyncIterator[None]:
        """Around an initial response (and choosing it): the other REST calls wait for its end."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sending[done] = asyncio.current_task()
        try:
            yield
        finally:
            del self._sending[done]
            done.set_result(None)

    def others(self) -> list[asyncio.Future[None]]:
        """The answers in flight of other tasks (a task never waits for its own)."""
        me = asyncio.current_task()
        return [f for f, task in self._sending.items() if task is not me]

    async def wait(self) -> None:
        while pending := self.others():
            await asyncio.wait(pending)
