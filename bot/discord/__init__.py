"""meadhall on Discord: the transport over :class:`bot.host.service.HostService` (issue 13).

Modules, each importing only those listed before it (no import circle; this package's
``__init__`` imports nothing). The transport-neutral widgets stay in :mod:`bot.games.widgets`, since
the service, the offline table and the adapters use them too::

    policy      which message a reply goes to: edit the live one or post (no discord import)
    permissions the permissions and scopes the bot needs (one list: README, ``meadhall invite``)
    refusals    never silent when Discord refuses a post (permissions named to the actor)
    components  persistent buttons and selects (discord.py DynamicItems) built from bot.games.widgets
    cog         the slash commands and how a service Reply becomes Discord messages
    app         MeadhallBot (setup, computer players, reminders) and run_bot
"""
