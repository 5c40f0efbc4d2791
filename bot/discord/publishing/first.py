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
import logging
import time
import weakref
from typing import Any

import discord

from bot.discord.publishing.deferring import InFlight, defer_privately
from bot.discord.refusals import gone, token_dead, token_lost

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it

AUTOCOMPLETE_WINDOW = 3.0  # seconds Discord waits for an autocomplete's choices
AUTOCOMPLETE_POLL = 0.005  # how often a REST call waiting for an autocomplete's choices looks again

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
            while self.unanswered or self.completing or self.in_flight.others():
                await self.answer_waiting()
                await self.in_flight.wait()  # an answer on the wire reaches Discord before this call
                await self.completed()
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
            self.completing.add(interaction)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every command of the Cog waits for its answer from the moment it arrives."""
        if interaction.type == discord.InteractionType.application_command:
            self.unanswered.add(interaction)
        return True

    async def completed(self) -> None:
        """Wait until the autocompletes read so far are answered, or their 3 s are over (a failed
        one is never answered). Their choices are computed from storage, without REST calls of
        ours, so nothing here waits for itself."""
        while self.completing:
            now = time.time()
            for waiting in list(self.completing):
                arrived = discord.utils.snowflake_time(waiting.id).timestamp()
                if waiting.response.is_done() or gone(waiting) or now - arrived > AUTOCOMPLETE_WINDOW:
                    self.completing.discard(waiting)
            if self.completing:
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
