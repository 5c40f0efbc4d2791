"""Discord's login limits for meadhall's processes (issue 24): IDENTIFY spacing, fatal close codes,
``GET /gateway/bot``. No discord.py here (the cluster parent imports it without starting a bot).

* IDENTIFY: Discord lets ``max_concurrency`` sessions start per 5 s, one per bucket
  ``shard_id % max_concurrency``, buckets in order (Discord's gateway docs, "Sharding", "Max
  Concurrency"): shard ``s`` may start ``(s // max_concurrency) * 5`` s after the first.
  :func:`identify_at` gives each shard its time from one start time the cluster parent hands
  every process (``meadhall run --login-at T --max-concurrency C``), so processes started together
  never IDENTIFY in the same window (Discord would answer op 9 Invalid Session).
* Fatal close codes (opcodes-and-status-codes, "Gateway Close Event Codes", Reconnect false):
  4004, 4010, 4011, 4012, 4013, 4014. A process closed with one logs :func:`fatal_line` and exits
  :data:`FATAL_EXIT`; ``meadhall cluster`` does not start it again (a restart cannot help).

API::

    identify_at(login_at, shard_id, max_concurrency) -> float   # unix time to IDENTIFY shard_id
    fatal_line(code) -> str | None                              # None: not a fatal code
    FATAL_EXIT                                                  # a process's exit status after one
    fetch_gateway_bot(token) -> GatewayInfo                     # shards, max_concurrency, starts left
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass

IDENTIFY_WINDOW = 5.0  # s: Discord's max_concurrency is "identify requests allowed per 5 seconds"
IDENTIFY_SPACING = IDENTIFY_WINDOW + 0.5  # a margin for clocks and start-up between processes
FATAL_EXIT = 78  # EX_CONFIG (sysexits.h): a configuration only a person can fix

FATAL_CODES: dict[int, tuple[str, str]] = {
    4004: ("Authentication failed", "the token is wrong, or Discord reset it (after 1000 logins in a day): "
                                    "put the bot's current token in MEADHALL_TOKEN and start again"),
    4010: ("Invalid shard", "--shard-ids must be below --shard-count; check the cluster's or run's arguments"),
    4011: ("Sharding required", "the bot is in too many servers for this shard count: raise --shard-count, or "
                                "leave it out so that meadhall cluster takes Discord's recommendation"),
    4012: ("Invalid API version", "this discord.py speaks a gateway version Discord no longer serves: upgrade"),
    4013: ("Invalid intent(s)", "meadhall asked for intents Discord does not know: report it as a bug"),
    4014: ("Disallowed intent(s)", "enable the privileged intents meadhall asks for in the Developer Portal "
                                   "(Bot, Privileged Gateway Intents), or remove them from the configuration"),
}


def identify_at(login_at: float, shard_id: int, max_concurrency: int) -> float:
    """When ``shard_id`` may IDENTIFY: its bucket's turn after ``login_at``."""
    return login_at + (shard_id // max(1, max_concurrency)) * IDENTIFY_SPACING


def fatal_line(code: int) -> str | None:
    """One log line naming a fatal gateway close code and what to do; None for other codes."""
    if code not in FATAL_CODES:
        return None
    name, todo = FATAL_CODES[code]
    return f"Discord closed the gateway with {code} {name}: {todo}. This process stops and is not restarted."


@dataclass(frozen=True)
class GatewayInfo:
    shards: int
    max_concurrency: int
    remaining: int
    reset_after_ms: int


def fetch_gateway_bot(token: str, base: str | None = None, timeout: float = 10.0) -> GatewayInfo:
    """``GET /gateway/bot`` once (the cluster parent, before starting its processes)."""
    if base is None:
        import discord.http

        base = discord.http.Route.BASE  # tests point it at the fake Discord
    req = urllib.request.Request(f"{base}/gateway/bot", headers={
        "Authorization": f"Bot {token}", "User-Agent": "DiscordBot (meadhall, 1)"})
    with urllib.request.urlopen(req, timeout=timeout) as answer:  # noqa: S310  (an https URL of Discord's)
        data = json.loads(answer.read())
    limit = data.get("session_start_limit") or {}
    return GatewayInfo(int(data.get("shards") or 1), int(limit.get("max_concurrency") or 1),
                       int(limit.get("remaining", 1000)), int(limit.get("reset_after") or 0))
