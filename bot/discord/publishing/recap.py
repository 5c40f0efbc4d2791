"""Issue 25: a finished game's animated recap, posted in its thread right after the result (and,
issue 31, the game's analysis after it: :mod:`bot.discord.publishing.analysing`).

:meth:`bot.discord.publishing.posting.Publisher.publish` calls :func:`schedule_recap` when its plan
is final: drawing a whole game takes seconds (docs/performance-render.md), so it runs in a task of
its own (the pictures in the CPU pool's worker) and the move's answer and the parent channel's
line do not wait for it. Whatever closes the thread after the game (archiving) first awaits
:func:`recap_posted` for it, so that the recap is the thread's last message."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot.discord.components import line_view
from bot.discord.publishing.messages import MAX_CONTENT, escape_names
from bot.discord.threads import Channels, archive, unarchived
from bot.host.service import HostService, Reply

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it

_PENDING: dict[str, asyncio.Task[None]] = {}  # channel → its recap being drawn and posted (kept referenced)
_CLOSING: dict[str, asyncio.Task[None]] = {}  # thread → its archiving, after the recap (kept referenced)


def schedule_recap(svc: HostService, key: str, target: Any, reply: Reply) -> None:
    """Draw and post the recap of the game ``reply`` ended in ``key`` (``target``), in a task."""
    if reply.match_id is None or reply.status != "finished" or not any(e.kind == "game_over" for e in reply.events):
        return  # not a game's end (an abandoned game has no recap)
    task = asyncio.create_task(_after_game(svc, target, reply), name=f"meadhall-recap-{key}")
    _PENDING[key] = task
    task.add_done_callback(lambda t: _PENDING.pop(key, None) if _PENDING.get(key) is t else None)


async def _after_game(svc: HostService, target: Any, reply: Reply) -> None:
    """The recap, then (issue 31) the game's analysis when the service makes them: both before the
    thread is archived (:func:`recap_posted` waits for this task)."""
    await post_recap(svc, target, reply)
    if svc.analyse_finished and reply.match_id is not None:
        from bot.discord.publishing.analysing import post_analysis

        await post_analysis(svc, target, reply.match_id)


async def recap_posted(key: str | None = None) -> None:
    """Wait until the recap of channel ``key`` (``None``: every one) is posted or given up."""
    tasks = [t for k, t in list(_PENDING.items()) if key is None or k == key]
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)


def archive_after_recap(client: Channels, key: str, *, final: int | None = None, line: str | None = None) -> None:
    """Archive the thread ``key`` of a game that ended (finished or abandoned) once its recap, if
    one is being drawn, is posted: the archive comes LAST, since a post would un-archive the thread
    (issue 25, :func:`bot.discord.threads.archive`). In a task, like the recap.

    Nobody can press a button in an archived thread (threads.mdx), so first the Rematch button of
    the thread's ``final`` message becomes a link to the result ``line`` in the channel, whose
    Rematch button keeps working (:func:`point_to_line`)."""
    if not key.isdigit():
        return  # a game played in a channel: nothing to archive

    async def close() -> None:
        await recap_posted(key)
        if final is not None and line is not None:
            await point_to_line(client, int(key), final, line)
        await archive(client, int(key))

    task = asyncio.create_task(close(), name=f"meadhall-archive-{key}")
    _CLOSING[key] = task
    task.add_done_callback(lambda t: _CLOSING.pop(key, None) if _CLOSING.get(key) is t else None)


async def point_to_line(client: Channels, thread_id: int, final: int, line: str) -> None:
    """The Rematch button of the thread's ``final`` message becomes a link button to the result
    ``line`` in the channel (a link needs no interaction, so it works in the archived thread).
    Refused: logged, and the button stays (it works until the thread is archived)."""
    try:
        thread = client.get_channel(thread_id) or await client.fetch_channel(thread_id)
        await unarchived(thread, lambda: thread.get_partial_message(final).edit(view=line_view(line)))
    except discord.HTTPException as e:
        log.warning("pointing the result of thread %s to its channel's line failed: %s", thread_id, e)


async def thread_closed(key: str | None = None) -> None:
    """Wait until the recap of ``key`` (``None``: every one) is posted and its thread archived."""
    await recap_posted(key)
    tasks = [t for k, t in list(_CLOSING.items()) if key is None or k == key]
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)


async def post_recap(svc: HostService, target: Any, reply: Reply) -> None:
    """The recap of the game ``reply`` ended (a move with ``game_over``; an abandoned game has none),
    sent to ``target``. A recap that cannot be drawn or sent is logged and left out: the game is
    over either way."""
    if reply.match_id is None or reply.status != "finished" or not any(e.kind == "game_over" for e in reply.events):
        return
    try:
        recap = await svc.animated_recap(reply.match_id)
    except Exception:
        log.exception("the recap of game %s was not drawn", reply.match_id)
        return
    if not recap.ok or recap.file is None:
        log.info("game %s has no recap: %s", reply.match_id, recap.private)  # e.g. pictures off
        return
    data, filename = recap.file.data, recap.file.filename
    content = escape_names("\n".join(recap.public), recap.names)[:MAX_CONTENT]
    try:  # a fresh File per try: a sent one has been read
        await unarchived(target, lambda: target.send(content, file=discord.File(io.BytesIO(data), filename=filename),
                                                     allowed_mentions=discord.AllowedMentions.none()))
    except Exception:  # refused by Discord, or the bot closing meanwhile
        log.warning("the recap of game %s could not be posted", reply.match_id, exc_info=True)
