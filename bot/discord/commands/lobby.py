"""Opening a table: ``/join``, ``/leave``, ``/start`` (games and table options offered as they are
typed; ``language:`` the table's language)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.components import MAX_CHOICES
from bot.discord.languages import T
from bot.discord.publishing.answering import Answering
from bot.games import HOST_OPTION_WORDS, language_name, table_languages
from bot.i18n import N_


class LobbyCommands(Answering):
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
        """The game's table options (an adapter's ``option_words``), then the host's (``manual``,
        ``hints`` of issue 25), completing the last word typed."""
        table = await self.svc.table(str(interaction.channel_id))
        game_id = getattr(interaction.namespace, "game", None) or (table.record.game if table else None)
        adapter = self.svc.games.get(game_id or self.svc.games.default or "")
        words = [*(adapter.option_words if adapter is not None else ()), *HOST_OPTION_WORDS]
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
