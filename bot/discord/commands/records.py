"""The group ``/records`` (issue 17): ``leaderboard``, ``profile``, ``history``, answered in public
in the asker's language; ``replay`` (issue 25, :mod:`bot.discord.replaying`) privately; ``recap`` (issue 25): a
finished game of this server as an animated picture; ``analysis`` (issue 31): its analysis, privately."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.components import MAX_CHOICES
from bot.discord.languages import T
from bot.discord.replaying import Replaying
from bot.i18n import N_


class RecordsCommands(Replaying):
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

    @records_group.command(name="replay", description=T(N_("Step through a finished game of this server, privately")))
    @app_commands.describe(match_id=T(N_("The game's number, as /records history lists it; recent games are offered")))
    @app_commands.rename(match_id="id")
    async def replay(self, interaction: discord.Interaction, match_id: app_commands.Range[int, 1, None]) -> None:
        await self.replay_open(interaction, match_id)

    @replay.autocomplete("match_id")
    async def replay_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """This server's recent finished games (issue 13: every option offers its choices)."""
        if interaction.guild_id is None:
            return []
        ended = await self.svc.history(guild=str(interaction.guild_id), limit=50)
        out = []
        for record in ended:
            adapter = self.svc.games.get(record.game)
            label = f"{record.id}: {adapter.title if adapter else record.game} — {', '.join(record.names)}"
            if record.status == "finished" and (current.strip() in str(record.id) or
                                                current.strip().lower() in label.lower()):
                out.append(app_commands.Choice(name=label[:100], value=record.id))
        return out[:MAX_CHOICES]

    @records_group.command(name="recap", description=T(N_("A finished game of this server as an animated picture")))
    @app_commands.describe(game_id=T(N_("The game's number (/records history lists them)")))
    @app_commands.rename(game_id="id")
    async def recap(self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1, 1_000_000_000]) -> None:
        if await self.guild_only(interaction):
            await self.run(interaction, lambda: self.svc.animated_recap(game_id, guild=str(interaction.guild_id)),
                           widgets=False, personal=True)

    @recap.autocomplete("game_id")
    async def recap_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self.finished_choices(interaction, current)

    @records_group.command(name="analysis",
                           description=T(N_("A finished game's analysis: where each person lost VP, privately")))
    @app_commands.describe(game_id=T(N_("The game's number (/records history lists them)")))
    @app_commands.rename(game_id="id")
    async def analysis(self, interaction: discord.Interaction,
                       game_id: app_commands.Range[int, 1, 1_000_000_000]) -> None:
        """Issue 31: the analysis of a finished game of this server, to the asker alone (made now,
        at low priority, when it was not made yet: the answer is deferred meanwhile)."""
        if await self.guild_only(interaction):
            await self.run(interaction, lambda: self.svc.analysis(game_id, guild=str(interaction.guild_id)),
                           private=True, widgets=False)

    @analysis.autocomplete("game_id")
    async def analysis_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await self.finished_choices(interaction, current)

    async def finished_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """This server's finished games, newest first, whose number starts with what is typed."""
        ended = await self.svc.history(guild=str(interaction.guild_id), limit=100)
        out = []
        for rec in ended:
            if rec.status == "finished" and str(rec.id).startswith(str(current).strip()):
                adapter = self.svc.games.get(rec.game)
                label = f"{rec.id}: {adapter.title if adapter else rec.game} — {', '.join(rec.names)}"
                out.append(app_commands.Choice(name=label[:100], value=rec.id))
        return out[:25]
