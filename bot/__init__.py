"""meadhall's bot: the host of whole games in chat, on Discord or at a terminal (issue 23: one folder
per concern, no import circle, no module over 600 lines — ``tests/test_layout.py``).

::

    host/        the service and everything it decides: lobby, play, turns and deadlines, undo,
                 seats and computer players, records and ratings, reminders, export
    games/       the adapter protocol (its __init__), widgets, the registry, one adapter per game
    storage/     the interface, its records, the two backends, the factory, migrate-db
    i18n/        translation (its __init__), catalogs tooling, the rulebook, quoting input;
                 locale/ and rules/
    discord/     the app, the Cog's commands by group, publishing, components, languages,
                 permissions, refusals
    offline/     the offline table
    processes/   running several processes: shards, the cluster, the CPU pool
    demos/       seeded games for people to look at: the sample pictures, ``meadhall demo``
    cli.py       ``meadhall``: play, run, arena, demo, invite, migrate-db, cluster
    config.py    the configuration file and environment
"""
