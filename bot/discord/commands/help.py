"""Learning: ``/rules`` (rule numbers and topics offered; ``/rules sailors`` finds V-34) and
``/help`` (an embed grouped by purpose)."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.discord.components import MAX_CHOICES
from bot.discord.languages import T, asker_language
from bot.discord.publishing.answering import Answering
from bot.i18n import N_, SOURCE_LANGUAGE, _, use_language
from bot.i18n.rulebook import RULEBOOKS, rule_texts, search


class HelpCommands(Answering):
    @app_commands.command(name=T(N_("rules")),
                          description=T(N_("A summary of the rules, or one rule by number or topic")))
    @app_commands.describe(topic=T(N_("A rule number (V-14) or a topic (sailors); matching rules are offered")))
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        channel, _user = self.where(interaction)
        await self.run(interaction, lambda: self.svc.rules(channel, topic or None), private=True)

    @rules.autocomplete("topic")
    async def rules_topics(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Rule numbers and topics of this table's game (or the default game): ``sailors`` → V-34 first."""
        table = await self.svc.table(str(interaction.channel_id))
        book = RULEBOOKS.get(table.record.game if table else (self.svc.games.default or ""))
        if book is None:
            return []
        lang = asker_language(interaction) or SOURCE_LANGUAGE  # issue 16: labels and search in the asker's
        texts = rule_texts(*book, lang)
        needle = current.strip()
        by_number = [k for k in texts if needle.upper().replace(" ", "") in k]
        keys = by_number if not needle or re.fullmatch(r"[A-Za-z]?-?\d+", needle) else [
            *search(*book, needle, lang), *by_number]
        return [app_commands.Choice(name=f"{k}: {texts[k]}"[:100], value=k) for k in dict.fromkeys(keys)][:MAX_CHOICES]

    @app_commands.command(name=T(N_("help")), description=T(N_("What you can do here")))
    async def help(self, interaction: discord.Interaction) -> None:
        """An embed grouped by purpose (issue 13), privately."""
        with use_language(asker_language(interaction)):
            async with self.responding(interaction):  # issue 29: never deferred by another task meanwhile
                if not interaction.response.is_done():
                    await interaction.response.send_message(embed=self.help_embed(), ephemeral=True)
                    return
            await interaction.followup.send(embed=self.help_embed(), ephemeral=True)  # deferred meanwhile

    def help_embed(self) -> discord.Embed:
        games = ", ".join(a.title for a in self.svc.games)
        embed = discord.Embed(title=_("meadhall: board games at this table"),
                              description=_("Games here: {games}.", games=games))
        embed.add_field(name=_("Open a table"), inline=False, value=_(
            "/join (choose the game) takes a seat; /leave gives it up before the start; /table addbot seats a "
            "computer player; /start begins, with table options offered as you type. Each game gets its own thread."))
        embed.add_field(name=_("Play"), inline=False, value=_(
            "The player to act is pinged in the game's thread; the buttons and menus are on their turn's message, "
            "which changes as they decide. /hand shows your own cards and choices privately. Typing works too: "
            "/buy, /place, /sail, /exchange, or /move for any other move (your legal moves are offered)."))
        embed.add_field(name=_("Look"), inline=False, value=_(
            "/board shows the table (private: from your seat, only to you); /table status says who must act; "
            "/table export posts the game's log."))
        embed.add_field(name=_("Learn"), inline=False, value=_(
            "/rules gives a summary, one rule by number (V-14) or by topic (sailors); /help shows this. "
            "/hint tells you privately what the strongest computer player would do in your place, on a table "
            "started with the option hints."))
        embed.add_field(name=_("End"), inline=False, value=_(
            "/table abandon: the table's creator or an admin ends the game; other players vote."))
        embed.add_field(name=_("Mend"), inline=False, value=_(
            "/table undo takes back your last move (whoever moved since agrees by running it too); "
            "/table replace gives a seat nobody plays any more to a computer player or to you, by a vote.")
            + " " + _("/table resume reopens, in a new thread, a game whose thread or channel was deleted."))  # issue 29
        embed.add_field(name=_("Pings"), inline=False, value=_(
            "/table settings pings: chooses when your turn pings you: every turn, only after some hours "
            "without a move, or only by reminders (for you only, on every table)."))
        embed.add_field(name=_("Records"), inline=False, value=_(
            "/records leaderboard ranks the players of a game (this server or all); /records profile shows a "
            "player's games, wins and rating; /records history lists the finished games with their threads.")
            + " " + _("/records recap shows a finished game again as an animated picture."))  # issue 25
        embed.add_field(name=_("Replays"), inline=False, value=_(
            "/records replay ID steps through a finished game of this server, only for you: First, Back, Next, "
            "Last and a jump to a round; every hand and the order of the stacks are shown, since the game is over."))
        return embed
