"""``meadhall`` in another process, against a fake Discord running in the test process.

    FAKEDISCORD_URL=http://127.0.0.1:PORT python -m tests.fakediscord.remote run --shard-count 2 --shard-ids 0

runs :func:`bot.cli.main` with the given arguments unchanged (the real ``meadhall run``), after
pointing discord.py's REST base and gateway at the fake (what ``FakeDiscord.start`` does for bots
in its own process). For the tests it also

* sends the header ``X-Meadhall-Process: pid=… shards=…`` (the ``--shard-ids`` given) with every
  HTTP request of this process (REST and interaction webhooks: a default header of every aiohttp
  session), so the fake's recorded requests say which process sent them;
* sets the bot's wait for further guilds after READY to ``FAKEDISCORD_GUILD_READY`` seconds
  (0.1; discord.py waits 2 s) and, if ``FAKEDISCORD_BOT_PAUSE`` is set, the computer players'
  pause before a move (``MeadhallBot.bot_pause``, 1.5 s) to that many seconds.

Bounded: the process ends itself when its parent (the test's cluster) is gone or after
``FAKEDISCORD_LIFETIME`` seconds (300), so a test killed midway leaves no bot behind.

Nothing else of the bot is changed: configuration, database and shards come from the arguments
and the environment as in production (``meadhall cluster`` can start this module instead of
``bot.cli``, see tests/processes/test_shards_e2e.py).
"""

from __future__ import annotations

import os
import sys
import threading
import time

import aiohttp
import discord.gateway
import discord.http
import yarl

from bot import cli
from bot.discord.app import MeadhallBot

PROCESS_HEADER = "X-Meadhall-Process"


def _shard_ids(argv: list[str]) -> str:
    return argv[argv.index("--shard-ids") + 1] if "--shard-ids" in argv[:-1] else "all"


def point_at_fake(url: str, argv: list[str]) -> None:
    url = url.rstrip("/")
    discord.http.Route.BASE = f"{url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url.replace("http://", "ws://", 1) + "/gateway")
    tag = f"pid={os.getpid()} shards={_shard_ids(argv)}"
    init = aiohttp.ClientSession.__init__

    def tagged_init(self, *args, **kwargs):
        kwargs["headers"] = {**(kwargs.get("headers") or {}), PROCESS_HEADER: tag}
        init(self, *args, **kwargs)

    aiohttp.ClientSession.__init__ = tagged_init  # type: ignore[method-assign]
    setup_hook = MeadhallBot.setup_hook
    guild_ready = float(os.environ.get("FAKEDISCORD_GUILD_READY", "0.1"))
    pause = os.environ.get("FAKEDISCORD_BOT_PAUSE")

    async def quick_setup_hook(self):
        self._connection.guild_ready_timeout = guild_ready
        if pause is not None:
            self.bot_pause = float(pause)
        await setup_hook(self)

    MeadhallBot.setup_hook = quick_setup_hook  # type: ignore[method-assign]


def _watchdog(lifetime: float) -> None:
    parent, end = os.getppid(), time.monotonic() + lifetime

    def watch() -> None:
        while os.getppid() == parent and time.monotonic() < end:
            time.sleep(0.5)
        os._exit(3)

    threading.Thread(target=watch, name="fakediscord-remote-watchdog", daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    url = os.environ.get("FAKEDISCORD_URL")
    if not url or not url.startswith("http://127.0.0.1:"):
        print("tests.fakediscord.remote: set FAKEDISCORD_URL to the fake's http://127.0.0.1:PORT", file=sys.stderr)
        return 2
    _watchdog(float(os.environ.get("FAKEDISCORD_LIFETIME", "300")))
    point_at_fake(url, argv)
    return cli.main(argv)


if __name__ == "__main__":
    sys.exit(main())
