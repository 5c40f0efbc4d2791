"""Looking at the table: ``/board`` (never with controls) and ``/hand`` (what only you may see, and
your choices, privately)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.languages import T
from bot.discord.publishing.answering import Answering
from bot.i18n import N_, _


class LookingCommands(Answering):
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
