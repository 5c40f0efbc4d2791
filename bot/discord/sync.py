"""Slash commands synced once per deployment (issue 24), not at every process start.

Discord caps the application command creates of a day (opcodes-and-status-codes.mdx "JSON Error
Codes": 30034 "Maximum number of daily application command creates has been reached (200)"), and
a bulk overwrite (``PUT /applications/{app}/[guilds/{guild}/]commands``, what discord.py's
``CommandTree.sync`` sends) counts against it. So the bot keeps, per scope (a guild, or global)
and application, a SHA-256 of the exact payload discord.py would send — the translated command
JSON (``command.get_translated_payload(tree, translator)``, or ``command.to_dict(tree)`` without
a translator) of ``tree.get_commands(guild=…)`` — in the database's ``meta`` table, and syncs only
when it differs (a new command, option, description or translation) or when forced
(``meadhall run --sync-commands``). The hash is written after Discord accepted the sync, so a
failed sync is tried again at the next start.

API::

    payload = await command_payload(tree, guild)          # what tree.sync(guild=guild) would send
    digest(payload) -> str
    synced = await sync_if_changed(tree, storage, guild=None, force=False)   # None: unchanged, skipped
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.storage import Storage

log = logging.getLogger(__name__)


async def command_payload(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """The JSON ``tree.sync(guild=guild)`` would send (discord.py 2.x ``CommandTree.sync``)."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await c.get_translated_payload(tree, translator) for c in commands]
    return [c.to_dict(tree) for c in commands]


def digest(payload: list[dict[str, Any]]) -> str:
    """A stable hash of a command payload (key order does not matter; command order does not either:
    Discord keys commands by name)."""
    ordered = sorted(payload, key=lambda c: (str(c.get("type", 1)), str(c.get("name", ""))))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def meta_key(application_id: int | None, guild: discord.abc.Snowflake | None) -> str:
    scope = "global" if guild is None else f"guild:{guild.id}"
    return f"commands:{application_id or 0}:{scope}"


async def sync_if_changed(
    tree: app_commands.CommandTree, storage: Storage, *, guild: discord.abc.Snowflake | None = None,
    force: bool = False,
) -> list[app_commands.AppCommand] | None:
    """Sync ``tree`` to ``guild`` (None: globally) when its payload's hash differs from the one
    stored for this application and scope, or ``force``; returns what Discord answered, or None when
    the commands were unchanged (nothing sent). A database that cannot be read or written does not
    stop the sync: then it syncs (as before issue 24) and logs why."""
    key = meta_key(tree.client.application_id, guild)
    wanted = digest(await command_payload(tree, guild))
    try:
        stored = await storage.get_meta(key)
    except Exception:
        log.exception("reading the commands' hash (%s) failed: syncing", key)
        stored = None
    if stored == wanted and not force:
        log.info("commands unchanged for %s: not synced", key)
        return None
    synced = await tree.sync(guild=guild)
    try:
        await storage.set_meta(key, wanted)
    except Exception:
        log.exception("storing the commands' hash (%s) failed: the next start syncs again", key)
    return synced
