"""``meadhall``: the offline table by default, the Discord bot when a token is configured.

    meadhall                      # Discord bot if a token is configured, else the offline table
    meadhall play [--db PATH] [--out DIR] [--as NAME] [--bots N --level L]
    meadhall run [--sync-global] [--sync-commands] [--shard-count N --shard-ids 0,1]   # the Discord bot
    meadhall cluster --processes P [--shard-count N] [--sync-global]   # P processes over all shards
    meadhall invite [--application-id ID]   # the URL that adds the bot with exactly its permissions
    meadhall demo --game vikings|brian-boru --out DIR [--seed N] [--players N]
    meadhall arena --game vikings|brian-boru --players normal,easy,random,… --games N --seed S
    meadhall arena --ladder vikings|brian-boru --games N --seed S [--budget B]   # the levels, rated
    meadhall migrate-db --from sqlite:///meadhall.db --to postgresql://…   # copy every game, verify
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.config import ConfigError, load_config


def _level(name: str) -> str:
    """``--level``: a computer level (an old name gives its new one, issue 30)."""
    from engine.players import canonical_level

    try:
        return canonical_level(name.strip().lower())
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="meadhall", description="Vikings and Brian Boru at your table.")
    ap.add_argument("--config", type=Path, default=None, help="a TOML file like config.example.toml")
    sub = ap.add_subparsers(dest="cmd")
    play = sub.add_parser("play", help="the offline table in this terminal")
    play.add_argument("--db", type=Path, default=None, help="SQLite file (default: from config, meadhall.db)")
    play.add_argument("--out", type=Path, default=Path("out"), help="folder for the table images")
    play.add_argument("--as", dest="user", default=None,
                      help="who plain lines speak for (default: whoever must act, a hot seat)")
    play.add_argument("--bots", type=int, default=0, help="computer players to seat when starting")
    play.add_argument("--level", type=_level, default="normal",
                      help="their level: random, easy, normal (default) or hard (heuristic and search, the old "
                           "names, stay accepted)")
    play.add_argument("--no-images", action="store_true", help="do not draw the table images")
    play.add_argument("--lang", default=None,
                      help="the table's language (en, or a catalog in bot/i18n/locale: pl, fi, cs, es, de); "
                           "default: [host] language of the config")
    run = sub.add_parser("run", help="the Discord bot")
    run.add_argument("--sync-global", action="store_true",
                     help="sync slash commands globally (slow to spread) when they changed since the last sync")
    run.add_argument("--sync-commands", action="store_true",
                     help="sync the slash commands even when unchanged since the last sync (kept in the database)")
    invite = sub.add_parser("invite", help="print the URL that adds the bot to a server")
    invite.add_argument("--application-id", type=int, default=None,
                        help="the bot's application id (default: [discord] application_id of the config)")
    run.add_argument("--shard-count", type=int, default=None, help="Discord shards in all (with --shard-ids)")
    run.add_argument("--shard-ids", default=None, help="the shards this process serves, e.g. 0,1 (default: all)")
    run.add_argument("--login-at", type=float, default=None,
                     help="unix time the cluster's IDENTIFYs start from (set by meadhall cluster)")
    run.add_argument("--max-concurrency", type=int, default=1, help="Discord's max_concurrency (with --login-at)")
    cluster = sub.add_parser("cluster", help="several bot processes over all shards, one database")
    cluster.add_argument("--processes", type=int, required=True, help="bot processes to run")
    cluster.add_argument("--shard-count", type=int, default=None,
                         help="shards in all (default: Discord's recommendation, at least --processes)")
    cluster.add_argument("--sync-global", action="store_true",
                         help="sync slash commands globally, once (process 0 at its first start)")
    demo = sub.add_parser("demo", help="play a seeded game to the end and write its images")
    demo.add_argument("--game", choices=["vikings", "brian-boru"], default="vikings")
    demo.add_argument("--out", type=Path, required=True)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--players", type=int, default=None)
    demo.add_argument("--options", nargs="*", default=[], help="Vikings: advanced, auction, specials …")
    sub.add_parser("arena", help="computer players against each other", add_help=False)
    migrate = sub.add_parser("migrate-db", help="copy every table, seat, action and timer to another database")
    migrate.add_argument("--from", dest="source", required=True, help="a path, sqlite:///path or postgresql://…")
    migrate.add_argument("--to", dest="target", required=True, help="an empty (or new) database, same spellings")
    return ap


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "arena":
        from engine.players.arena import main as arena_main

        return arena_main(argv[1:])
    args = _parser().parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"meadhall: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=config.log_level_number, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.i18n import available_languages, set_language

    lang = getattr(args, "lang", None) or config.language
    if lang not in available_languages():
        print(f"meadhall: no messages in the language {lang!r}; there are: {', '.join(available_languages())}",
              file=sys.stderr)
        return 2
    set_language(lang)
    cmd = args.cmd
    if cmd is None:
        cmd = "run" if config.token else "play"
        if cmd == "play":
            print("No Discord token configured (MEADHALL_TOKEN): starting the offline table.")
            args = _parser().parse_args(["play"])
    if cmd == "play":
        return asyncio.run(_play(args, config))
    if cmd == "run":
        if not config.token:
            print("meadhall run: no token; set MEADHALL_TOKEN or [discord] token in the config", file=sys.stderr)
            return 2
        shards = None
        if args.shard_count is not None or args.shard_ids is not None:
            from bot.processes.shards import Shards

            if args.shard_count is None:
                print("meadhall run: --shard-ids needs --shard-count", file=sys.stderr)
                return 2
            try:
                shards = Shards.parse(args.shard_count, args.shard_ids)
            except ValueError as e:
                print(f"meadhall run: {e}", file=sys.stderr)
                return 2
        from bot.discord.app import run_bot
        from bot.discord.login import LoginPlan

        login = None if args.login_at is None else LoginPlan(args.login_at, args.max_concurrency)
        return asyncio.run(run_bot(config, sync_global=args.sync_global, shards=shards, login=login,
                                   force_sync=args.sync_commands))
    if cmd == "invite":
        return _invite(args.application_id or config.application_id)
    if cmd == "cluster":
        from bot.processes.cluster import Cluster, login_commands

        if not config.token:
            print("meadhall cluster: no token; set MEADHALL_TOKEN or [discord] token in the config", file=sys.stderr)
            return 2
        try:
            commands = login_commands(str(args.config) if args.config else None, config.token, args.processes,
                                      shard_count=args.shard_count, sync_global=args.sync_global)
        except (ValueError, OSError) as e:
            print(f"meadhall cluster: {e}", file=sys.stderr)
            return 2
        return Cluster(commands).run()
    if cmd == "demo":
        return asyncio.run(_demo(args))
    if cmd == "migrate-db":
        return asyncio.run(_migrate_db(args))
    return 2


async def _migrate_db(args: argparse.Namespace) -> int:
    from bot.games.registry import default_registry
    from bot.storage import StorageError
    from bot.storage.migrate import migrate

    try:
        report = await migrate(args.source, args.target, default_registry(), progress=print)
    except StorageError as e:
        print(f"meadhall migrate-db: {e}", file=sys.stderr)
        return 1
    print(report.summary())
    return 0


async def _play(args: argparse.Namespace, config) -> int:
    from bot.games.registry import default_registry
    from bot.host.service import HostService
    from bot.offline.table import OfflineTable, run_lines
    from bot.storage import Storage, StorageError

    db = args.db or config.database
    try:
        storage = await Storage.open(db, **({"busy_timeout": config.busy_timeout} if args.db else
                                            config.storage_options))
    except StorageError as e:
        print(f"meadhall: {e}", file=sys.stderr)
        return 2
    try:
        service = HostService(storage, default_registry(), images=not args.no_images,
                              reminder_delay=config.reminder_delay, reminder_limit=config.reminder_limit,
                              deadline_takeover=config.deadline_takeover)
        restored = await service.load()
        bots = None
        if args.bots:
            from bot.host.seats import OfflineBots

            bots = OfflineBots(args.bots, args.level)
        table = OfflineTable(service, args.out, user=args.user, bots=bots)
        from bot.i18n import _, ngettext

        print(_("meadhall offline table — database {db}, images in {out}/", db=db, out=args.out))
        if restored:
            print(ngettext("{n} unfinished table restored.", "{n} unfinished tables restored.", restored))
        print(_("Write commands as chat lines: 'alice: /join', 'bob: /join', 'alice: /start vikings'. "
                "Then plain lines speak for whoever must act: type the number of a listed choice "
                "(or a move such as '/buy 3'). '/help' lists commands, '/quit' leaves."))
        if sys.stdin.isatty():
            async def lines():
                while not table.finished:
                    try:
                        yield await asyncio.to_thread(input, f"{await table.prompt_name()}> ")
                    except EOFError:
                        return
            async for line in lines():
                for out in await table.handle(line):
                    print(out)
        else:
            await run_lines(table, sys.stdin, print)
    finally:
        await storage.close()
    return 0


async def _demo(args: argparse.Namespace) -> int:
    if args.game == "vikings":
        from bot.demos.vikings import demo_vikings

        paths = await demo_vikings(args.out, seed=args.seed, players=args.players or 4, options=args.options)
    else:
        from bot.demos.brianboru import demo_brianboru

        paths = await demo_brianboru(args.out, seed=args.seed, players=args.players or 4)
    print(f"{len(paths)} images written to {args.out}/")
    return 0



def _invite(application_id: int | None) -> int:
    """Print the invite URL with exactly the permissions of bot.discord.permissions.NEEDED."""
    from bot.discord.permissions import NEEDED, SCOPES, display_name, invite_url

    if application_id is None:
        print("meadhall invite: no application id; pass --application-id ID or set [discord] application_id",
              file=sys.stderr)
        return 2
    try:
        url = invite_url(application_id)
    except ValueError as e:
        print(f"meadhall invite: {e}", file=sys.stderr)
        return 2
    print(url)
    print(f"scopes: {' '.join(SCOPES)}; permissions: {', '.join(display_name(n) for n, _ in NEEDED)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
