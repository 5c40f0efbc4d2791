"""``/hint`` (issue 25): the hard computer level's advice for your own decision, privately.

Only on a table started with the option ``hints``; the service (``bot.host.hints``) refuses
everything else. The answer is ephemeral, in the asker's language; the search runs off the event
loop, and :meth:`~bot.discord.publishing.answering.Answering.run` defers the interaction privately
when it is not done within Discord's window."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.languages import T
from bot.discord.publishing.answering import Answering
from bot.i18n import N_


class HintCommands(Answering):
    @app_commands.command(name=T(N_("hint")), description=T(N_(
        "What the strongest computer player would do in your place, privately (tables with hints)")))
    async def hint(self, interaction: discord.Interaction) -> None:
        if await self.guild_only(interaction):
            channel, user = self.where(interaction)
            await self.run(interaction, lambda: self.svc.hint(channel, user), private=True, widgets=False)
