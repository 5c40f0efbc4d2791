"""meadhall on Discord: the transport over :class:`bot.host.service.HostService` (issues 13, 23).

Modules, each importing only those listed before it (no import circle, type-only imports included;
this package's ``__init__`` imports nothing). The transport-neutral widgets stay in
:mod:`bot.games.widgets`, since the service, the offline table and the adapters use them too::

    permissions   the permissions and scopes the bot needs (one list: README, ``meadhall invite``)
    refusals      never silent when Discord refuses a post (permissions named to the actor)
    languages     the command Translator; a Discord locale as a catalog language
    components    persistent buttons and selects (discord.py DynamicItems) built from widgets
    client        what the Cog needs of its bot (a Protocol the app's MeadhallBot satisfies)
    publishing/   a reply → Discord messages: policy (which message: edit the live one or post),
                  messages (names escaped, mentions, splitting), posting (the table's messages,
                  threads, scorings), answering (an interaction answered: defer, refusals, languages)
    commands/     the slash commands by group: lobby, table, looking, help, records, moves
    cog           MeadhallCog: the command groups composed into the one Cog
    app           MeadhallBot (setup, computer players, reminders) and run_bot
"""
