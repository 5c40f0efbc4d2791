"""Slow games live (issue 24): a running game's thread is kept usable.

Discord archives a thread after ``auto_archive_duration`` minutes without activity (threads.mdx
"Active & Archived Threads": "Threads automatically archive after a period of inactivity"). In an
archived thread people can use no command or button ("Users cannot edit messages, add reactions,
use application commands, or join archived threads") and the bot may not edit its messages
(opcodes-and-status-codes.mdx: 50083 "Tried to perform an operation on an archived thread, such
as editing a message"). So, for a table that is not finished:

* :data:`ARCHIVE_MINUTES` is the longest ``auto_archive_duration`` Discord offers (7 days; the
  schema's ``ThreadAutoArchiveDuration``: 60, 1440, 4320, 10080) for the threads games open in;
* when Discord archives a game's thread (``THREAD_UPDATE``, threads.mdx "Gateway Events"), the bot
  un-archives it (``PATCH /channels/{thread}`` with ``archived: false``, which "only requires the
  current user has already been added to the thread": the bot opened it, threads.mdx "Editing &
  Deleting Threads") — :meth:`ThreadKeeper.thread_updated`;
* a thread a moderator **locked** is left alone ("Threads that have locked set to true can only be
  unarchived by a user with the MANAGE_THREADS permission"; meadhall does not ask for it, and a
  lock is a moderator's decision even when it has it) and logged once;
* at start-up the threads of unfinished tables that archived while the bot was away are
  un-archived (:meth:`ThreadKeeper.at_start`: GUILD_CREATE lists active threads only, so a table
  whose thread is not cached is fetched);
* an edit refused with 50083 is retried once after un-archiving: :func:`unarchived` wraps any
  call that touches a message in a thread.

A **finished** game's thread (issue 25) is archived as the last step of the game's end
(:func:`archive`; ``PATCH /channels/{thread}`` with ``archived: true``, allowed to the thread's
creator, threads.mdx "Editing & Deleting Threads"): "guilds are capped at a certain number of
active threads" ("Active & Archived Threads"). Its messages stay readable (public archived threads
are listed by ``/channels/{id}/threads/archived/public``, "Enumerating threads"); only new posts,
edits and commands stop. It is not locked ("Locked Threads": a moderator's act, and one only
``MANAGE_THREADS`` undoes). The keep-alive above never brings it back: ``is_open`` is false for a finished
table, and :meth:`ThreadKeeper.at_start` looks only at unfinished tables.

API::

    ARCHIVE_MINUTES                                   # 10080: open game threads with this
    await unarchive(where) -> bool                    # PATCH archived=false (False: locked, or not a thread)
    await unarchived(where, call)                     # call(); on 50083 un-archive and call() once more
    keeper = ThreadKeeper(client, is_open, gone=None) # is_open(key) -> awaitable bool: an unfinished table;
                                                      # gone(key): its place was deleted meanwhile (issue 29)
    await keeper.thread_updated(payload)              # from on_raw_thread_update
    await keeper.at_start(keys) -> int                # threads of unfinished tables brought back
    await archive(client, thread_id) -> bool          # a finished game's thread: archived, not locked
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal, Protocol, TypeVar

import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

# openapi.json ThreadAutoArchiveDuration: 60, 1440, 4320, 10080 minutes; 10080 = 7 days, the longest
ARCHIVE_MINUTES: Literal[10080] = 10080
THREAD_ARCHIVED = 50083  # opcodes-and-status-codes.mdx "JSON Error Codes"
THREAD_LOCKED = 160005
UNKNOWN_CHANNEL = 10003


def _metadata(data: Any) -> dict[str, Any]:
    meta = data.get("thread_metadata") if isinstance(data, dict) else None
    return meta if isinstance(meta, dict) else {}


async def unarchive(where: Any) -> bool:
    """Un-archive the thread ``where`` (a :class:`discord.Thread`, or anything with ``id`` and the
    client's ``_state``, e.g. a ``PartialMessageable``). ``False`` when it is locked (a moderator's
    act: left alone), not a thread or not ours to change (403); other HTTP errors propagate."""
    if isinstance(where, discord.Thread):
        if where.locked:
            return False
        try:
            await where.edit(archived=False)
        except discord.Forbidden:
            return False
        except discord.HTTPException as e:
            if e.code in (THREAD_ARCHIVED, THREAD_LOCKED):
                return False  # locked meanwhile (Discord says 50083 for a locked archived thread)
            raise
        return True
    state = getattr(where, "_state", None)
    channel_id = getattr(where, "id", None)
    if state is None or channel_id is None:
        return False
    try:
        data = await state.http.get_channel(channel_id)
        meta = _metadata(data)
        if not meta:
            return False  # not a thread
        if not meta.get("archived"):
            return True
        if meta.get("locked"):
            return False
        await state.http.edit_channel(channel_id, archived=False)
    except discord.Forbidden:
        return False
    except discord.HTTPException as e:
        if e.code in (THREAD_ARCHIVED, THREAD_LOCKED):
            return False
        raise
    return True


async def unarchived(where: Any, call: Callable[[], Awaitable[T]]) -> T:
    """``await call()``; when Discord refuses it because the thread ``where`` is archived (400 /
    50083, e.g. editing the live message of a game whose thread archived), un-archive the thread
    and call once more. A locked thread's refusal propagates unchanged."""
    try:
        return await call()
    except discord.HTTPException as e:
        if e.code != THREAD_ARCHIVED or not await unarchive(where):
            raise
        log.info("thread %s was archived: un-archived it and tried again", getattr(where, "id", "?"))
    return await call()


class Channels(Protocol):
    """Where :func:`archive` looks a thread up (a :class:`discord.Client`, the Cog's bot)."""

    def get_channel(self, id: int, /) -> Any: ...

    def fetch_channel(self, channel_id: int, /) -> Awaitable[Any]: ...


async def archive(client: Channels, thread_id: int) -> bool:
    """Archive the thread ``thread_id`` of a game that ended (not locked: still readable). ``False``
    when it is no thread (a game played in a channel), already archived, or Discord refused
    (logged: the thread then archives by itself after its inactivity)."""
    channel = client.get_channel(thread_id)
    try:
        if channel is None:
            channel = await client.fetch_channel(thread_id)
        if not isinstance(channel, discord.Thread) or channel.archived:
            return False
        await channel.edit(archived=True)
    except discord.HTTPException as e:
        log.warning("archiving the thread %s of a finished game failed: %s", thread_id, e)
        return False
    log.info("archived the thread %s of a finished game", thread_id)
    return True


class ThreadKeeper:
    """Keeps the threads of unfinished tables active (see the module's docstring).

    ``is_open(key)`` says whether the table keyed by a thread's id (as a string) is unfinished."""

    def __init__(self, client: discord.Client, is_open: Callable[[str], Awaitable[bool]],
                 gone: Callable[[str], Awaitable[object]] | None = None) -> None:
        self.client = client
        self.is_open = is_open
        self.gone = gone  # issue 29: told of a table's channel or thread deleted while the bot was away
        self.revived: list[int] = []  # threads brought back (tests; a count for the logs)
        self._told_locked: set[int] = set()

    def _locked(self, thread_id: int) -> None:
        if thread_id not in self._told_locked:
            self._told_locked.add(thread_id)
            log.warning("the thread %s of an unfinished game was locked by a moderator: left locked", thread_id)

    async def thread_updated(self, payload: discord.RawThreadUpdateEvent) -> bool:
        """A THREAD_UPDATE: an archived thread of an unfinished table is un-archived, unless locked."""
        meta = _metadata(payload.data)
        if not meta.get("archived"):
            return False
        return await self._revive(payload.thread_id, locked=bool(meta.get("locked")))

    async def _revive(self, thread_id: int, *, locked: bool) -> bool:
        try:
            if not await self.is_open(str(thread_id)):
                return False
        except Exception:
            log.exception("looking up the table of thread %s failed", thread_id)
            return False
        if locked:
            self._locked(thread_id)
            return False
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except discord.HTTPException as e:
            if isinstance(e, discord.Forbidden) or e.code in (THREAD_ARCHIVED, THREAD_LOCKED):
                self._locked(thread_id)  # locked meanwhile, or not ours to change
            else:
                log.warning("un-archiving the thread %s failed: %s", thread_id, e)
            return False
        self.revived.append(thread_id)
        log.info("un-archived the thread %s of an unfinished game", thread_id)
        return True

    async def at_start(self, keys: Iterable[str]) -> int:
        """After a (re)start: the threads among ``keys`` (unfinished tables' channels) that archived
        while the bot was away are un-archived. A key whose channel is cached is active (GUILD_CREATE
        carries active threads only); any other is fetched."""
        revived = 0
        for key in keys:
            if not key.isdigit():
                continue
            if self.client.get_channel(int(key)) is not None:
                continue
            try:
                channel = await self.client.fetch_channel(int(key))
            except discord.HTTPException as e:
                if isinstance(e, discord.NotFound) and e.code == UNKNOWN_CHANNEL and self.gone is not None:
                    await self.gone(key)  # deleted while the bot was away (issue 29)
                    continue
                log.warning("looking at the channel %s of an unfinished table failed: %s", key, e)
                continue
            if isinstance(channel, discord.Thread) and channel.archived:
                revived += await self._revive(channel.id, locked=channel.locked)
        return revived
