"""The group ``/table``: this table's players, computer players, status, your own settings (issue
25: pings), abandon, export, undo and take-over (issue 13: few top-level commands; managing the table is one group), and the "Agree to
undo" / "Refuse" buttons."""

from __future__ import annotations

from contextlib import suppress

import discord
from discord import app_commands

from bot.discord.components import MAX_CHOICES
from bot.discord.languages import T, asker_language
from bot.discord.publishing.answering import Answering
from bot.host.seats import DEFAULT_LEVEL, add_bot, level_line
from bot.i18n import N_, _, use_language
from engine.players import ALIASES, LEVELS

GROUPED = ("addbot", "abandon", "status", "settings", "export", "resume")  # under /table


def level_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The computer levels matching what is typed (issue 30), each named by its line — how it plays,
    how long it thinks — in the asker's client language; an old name typed (heuristic, search)
    offers its new level."""
    needle = current.strip().lower()
    with use_language(asker_language(interaction)):
        return [app_commands.Choice(name=level_line(level)[:100], value=level) for level in LEVELS
                if needle in level or any(needle and needle in old and new == level for old, new in ALIASES.items())]


class TableCommands(Answering):
    # issue 13: few top-level commands; managing the table is one group
    table_group = app_commands.Group(
        name=T(N_("table")), description=T(N_("This table: who plays, computer players, abandon, the log")),
        guild_only=True)

    @table_group.command(name=T(N_("addbot")),
                         description=T(N_("Seat a computer player at this table before the start")))
    @app_commands.describe(level=T(N_("How well it plays: random, easy, normal or hard")))
    async def addbot(self, interaction: discord.Interaction, level: str = DEFAULT_LEVEL) -> None:
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
        return level_choices(interaction, current)

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
            guild = str(interaction.guild_id)  # issue 29: where there is no table, the paused ones
            await self.run(interaction, lambda: self.svc.status_here(channel, guild), widgets=False)

    @table_group.command(name=T(N_("resume")), description=T(N_(
        "Reopen here a paused game whose thread or channel was deleted")))
    async def resume(self, interaction: discord.Interaction) -> None:
        """Issue 29 (bot.host.lifecycle): the paused table goes on from this channel, in a new
        thread when threads are on; its picture is posted and whoever must act is pinged."""
        if await self.guild_only(interaction):
            channel, _user = self.where(interaction)
            guild = str(interaction.guild_id)
            await self.run(interaction, lambda: self.svc.resume_here(channel, guild), game=True, opening=True)

    @table_group.command(name="settings", description=T(N_(
        "Your own settings (for you only): when you are pinged for your turn")))
    @app_commands.describe(pings=T(N_("When your turn pings you; leave it out to see your setting")),
                           hours=T(N_("With only after N hours: how many hours (1 to 168)")))
    @app_commands.choices(pings=[app_commands.Choice(name=T(N_("every turn")), value="every"),
                                 app_commands.Choice(name=T(N_("only after N hours")), value="after"),
                                 app_commands.Choice(name=T(N_("reminders only")), value="reminders")])
    async def settings(self, interaction: discord.Interaction, pings: str | None = None,
                       hours: int | None = None) -> None:
        """Issue 25: a person's ping setting (bot.host.pings), stored for them on every table; the
        answer is theirs alone."""
        if await self.guild_only(interaction):
            user = str(interaction.user.id)
            await self.run(interaction, lambda: self.svc.settings(user, pings, hours), private=True)

    @settings.autocomplete("hours")
    async def settings_hours(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """Common waits offered (any whole number of hours from 1 to 168 may be typed)."""
        typed = current.strip()
        if typed and not typed.isdigit():
            return []
        offered = [1, 2, 4, 6, 8, 12, 24, 48, 72, 168]
        if typed and 1 <= int(typed) <= 168 and int(typed) not in offered:
            offered.insert(0, int(typed))
        return [app_commands.Choice(name=str(h), value=h) for h in offered if str(h).startswith(typed)][:MAX_CHOICES]

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
        words = [app_commands.Choice(name=w, value=w) for w in ("me", "yes") if needle in w]
        return [*level_choices(interaction, current), *words][:MAX_CHOICES]
