"""The one Cog of meadhall's slash commands (:class:`MeadhallCog`), composed of one mixin per group.

Commands (issue 13: 13 top-level, servers only; issue 25 adds ``/hint``, the 15th): ``/join``, ``/leave``, ``/start`` (games and
table options completed), ``/board`` (never with controls), ``/rules`` (rule numbers and topics
completed; ``/rules sailors`` finds V-34), ``/help`` (an embed grouped by purpose), ``/hand`` (what
only you may see, and your choices, privately), the Vikings verbs ``/buy /place /sail /exchange``
(each with one ``choice`` option whose autocomplete offers the legal actions of the user's seat),
``/move`` for every other move (all legal moves offered), and the groups ``/table`` (``status``,
``abandon``, ``export``, ``addbot``, ``undo``, ``replace``) and ``/records``.

=====================================  ================================================================
``bot.discord.commands.table``         the ``/table`` group; the undo buttons' answers
``bot.discord.commands.lobby``         ``/join``, ``/leave``, ``/start``
``bot.discord.commands.looking``       ``/board``, ``/hand``
``bot.discord.commands.help``          ``/rules``, ``/help``
``bot.discord.commands.records``       the ``/records`` group
``bot.discord.replaying``              ``/records replay``'s answers and its persistent buttons (issue 25)
``bot.discord.commands.hint``          ``/hint`` (issue 25): the search's advice, privately
``bot.discord.commands.moves``         the verbs, ``/move``, and the moves made by components
``bot.discord.commands.rematch``       the Rematch button of a finished game (issue 25)
``bot.discord.publishing.answering``   ``run``: a service call answered (defer, refusals, languages)
``bot.discord.publishing.posting``     ``publish``: a move's reply into the table's messages
``bot.discord.publishing.policy``      which message a reply goes to (edit the live one or post)
``bot.discord.publishing.messages``    names escaped, mentions, splitting at 2,000 characters
``bot.discord.languages``              the Translator and a Discord locale as a catalog language
``bot.discord.client``                 what the Cog needs of its bot (:class:`TableBot`)
=====================================  ================================================================

discord.py collects a Cog's app commands from its classes in reverse method resolution order: the
mixins are listed last-registered first, so that the commands register in the order they always
had (the ``/table`` group, join, leave, start, board, hand, rules, help, the ``/records`` group,
hint, move), then the verb commands of the games.
"""

from __future__ import annotations

from discord import app_commands

from bot.discord.client import TableBot
from bot.discord.commands.help import HelpCommands
from bot.discord.commands.hint import HintCommands
from bot.discord.commands.lobby import LobbyCommands
from bot.discord.commands.looking import LookingCommands
from bot.discord.commands.moves import MovesCommands, verb_commands
from bot.discord.commands.records import RecordsCommands
from bot.discord.commands.rematch import RematchCommands
from bot.discord.commands.table import TableCommands


class MeadhallCog(RematchCommands, MovesCommands, HintCommands, RecordsCommands, HelpCommands, LookingCommands,
                  LobbyCommands, TableCommands, name="meadhall"):
    def __init__(self, bot: TableBot) -> None:
        super().__init__(bot)
        for word, adapters in verb_commands(bot.service.games).items():
            self.__cog_app_commands__.append(self._verb_command(word, adapters))
        for command in self.__cog_app_commands__:  # issue 13: offered in servers only, never in DMs
            command.guild_only = True
            command.allowed_contexts = app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                                      private_channel=False)
