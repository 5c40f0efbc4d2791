"""Answer first (issue 24): every interaction gets its initial response before any other REST call
of the bot goes out — receiving-and-responding.mdx, "Interaction Callback": the user waits, 3 s at
most, for it. :class:`AnswerFirst`, a base of the Cog (:class:`~bot.discord.publishing.posting.Publisher`),
wraps discord.py's ``HTTPClient.request``: before each call it defers privately the commands and
clicks still waiting for their answer (:meth:`AnswerFirst.answer_waiting`), waits for answers still
on the wire (:class:`~bot.discord.publishing.deferring.InFlight`) and for autocompletes being
worked out (:meth:`AnswerFirst.completed`). Interaction callbacks and follow-ups go through
discord.py's webhook adapter, not through this wrapper."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import AsyncIterator
from typing import Any

import discord

from bot.discord.publishing.deferring import InFlight, defer_privately, settled
from bot.discord.refusals import gone, token_dead, token_lost

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it

AUTOCOMPLETE_WINDOW = 3.0  # seconds Discord waits for an autocomplete's choices
AUTOCOMPLETE_POLL = 0.005  # how often a REST call waiting for an autocomplete's choices looks again
AUTOCOMPLETE_PATIENCE = 1.0  # seconds a REST call waits for autocompletes in all, however many come

_ANSWERING_FIRST: weakref.WeakSet[Any] = weakref.WeakSet()  # HTTP clients whose requests answer first


class AnswerFirst:
    """The interactions other REST calls wait for, and the wrapper that makes them wait."""

    bot: Any  # the Cog's bot (bot.discord.client.TableBot)

    def __init__(self) -> None:
        # interactions being handled and not answered yet: deferred before any other REST call
        self.unanswered: set[discord.Interaction] = set()
        # autocompletes read and not answered yet: other REST calls wait for their choices (completed)
        self.completing: set[discord.Interaction] = set()
        self.in_flight = InFlight()  # initial responses on the way: other REST calls wait for them

    async def cog_load(self) -> None:
        """Every REST call of the bot (discord.py's HTTPClient) first answers the interactions
        still waiting for an answer."""
        http = self.bot.http
        if http in _ANSWERING_FIRST:
            return
        request = http.request

        async def answer_first(route: Any, **kwargs: Any) -> Any:
            # each autocomplete is waited for once, and only for AUTOCOMPLETE_PATIENCE in all: people
            # typing in a busy server (one autocomplete a keystroke) never hold a call back for long
            waited: set[discord.Interaction] = set()
            patience = time.monotonic() + AUTOCOMPLETE_PATIENCE
            while self.unanswered or self.in_flight.others() or (
                    self.completing - waited and time.monotonic() < patience):
                await self.answer_waiting()
                await self.in_flight.wait()  # an answer on the wire reaches Discord before this call
                fresh = self.completing - waited
                waited |= fresh
                await self.completed(fresh, until=patience)
            return await request(route, **kwargs)

        http.request = answer_first
        _ANSWERING_FIRST.add(http)

    def arrived(self, interaction: discord.Interaction) -> None:
        """An interaction was read from the gateway (the bot's ``dispatch``, before any handler
        runs): from now on every other REST call of the bot waits for its answer — a command is
        deferred by the next one (:meth:`answer_waiting`) unless answered first, an autocomplete
        (which cannot be deferred) is waited for (:meth:`completed`). A click joins when its move
        is run (``Answering.run``): some clicks are answered by editing a private message, which a
        defer made by another task would forbid."""
        if interaction.type == discord.InteractionType.application_command:
            self.unanswered.add(interaction)
        elif interaction.type == discord.InteractionType.autocomplete:
            now = time.time()
            self.completing = {a for a in self.completing if not _answered(a, now)}  # kept small
            self.completing.add(interaction)

    @contextlib.asynccontextmanager
    async def responding(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """Around a handler's own initial response to ``interaction``, and the choice between it and
        a follow-up (``response.is_done()``, :func:`~bot.discord.publishing.deferring.thinking`),
        made inside. Issue 29: the interaction leaves :attr:`unanswered` before anything is awaited,
        so no other task's REST call defers it while the answer is on the wire (a second initial
        response: Discord refuses one of them, 40060, and the player may be left with "thinking…");
        a defer another task already has on the wire is waited for (then follow it up); and the
        bot's other REST calls wait until the answer has reached Discord (:class:`InFlight`)."""
        async with self.in_flight.sending():
            self.unanswered.discard(interaction)
            await settled(interaction)
            yield

    async def completed(self, autocompletes: set[discord.Interaction], *, until: float) -> None:
        """Wait until these autocompletes are answered, or their 3 s are over (a failed one is
        never answered), or ``until`` (``time.monotonic()``). Their choices are computed from
        storage, without REST calls of ours, so nothing here waits for itself."""
        pending = set(autocompletes)
        while pending and time.monotonic() < until:
            now = time.time()
            for waiting in list(pending):
                if _answered(waiting, now):
                    pending.discard(waiting)
                    self.completing.discard(waiting)
            if pending:
                await asyncio.sleep(AUTOCOMPLETE_POLL)

    async def answer_waiting(self) -> None:
        """Answer first, for the others: before the bot's REST calls for a move (a person's or a
        computer player's), every interaction still waiting for its service call (another table's
        lock, a slow move) is deferred privately; its move is then published through the channel
        when its reply comes."""
        while self.unanswered:  # also those that arrive while the first are deferred
            waiting = self.unanswered.pop()
            if waiting.response.is_done() or gone(waiting):
                continue
            try:
                async with self.in_flight.sending():
                    await defer_privately(waiting)
            except discord.HTTPException as error:
                if not token_dead(error):
                    log.warning("deferring interaction %s failed: %s", waiting.id, error)
                    continue
                token_lost(waiting, error)


def _answered(autocomplete: discord.Interaction, now: float) -> bool:
    """Whether an autocomplete needs no more waiting for: answered, its token gone, or its 3 s over."""
    arrived = discord.utils.snowflake_time(autocomplete.id).timestamp()
    return autocomplete.response.is_done() or gone(autocomplete) or now - arrived > AUTOCOMPLETE_WINDOW
