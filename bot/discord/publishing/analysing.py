"""Issue 31: a finished game's analysis, posted in its thread after the recap.

:func:`bot.discord.publishing.recap.schedule_recap`'s task calls :func:`post_analysis` once the recap
is posted (when the service analyses finished games, ``svc.analyse_finished``): the job is queued in
the database with the thread as its channel, one message says "Analysing the game… 0 %" and is
edited as the work goes (every :data:`STEP` of it, not to spend the channel's rate limit), then
becomes the analysis itself: its lines and its picture, one message, no pings. The job is marked
posted before that last edit, so with several processes it is posted once.

:func:`resume_analyses` (at the bot's start) picks up the jobs a stopped process left: queued,
running with a lease run out, or done but not posted, in the channels this process can see.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord.publishing.messages import MAX_CONTENT, escape_names
from bot.discord.threads import unarchived
from bot.games import table_language
from bot.host.service import HostService, Reply
from bot.i18n import _, current_language, use_language
from bot.storage import AnalysisJob, StorageError

log = logging.getLogger("bot.discord.cog")

STEP = 0.2  # the progress message is edited every 20 % of the work


def progress_text(done: float) -> str:
    return _("Analysing the game… {percent} %", percent=round(100 * done))


async def post_analysis(svc: HostService, target: Any, match_id: int) -> None:
    """Queue the analysis of the finished game ``match_id`` for ``target`` (its thread), run it and post
    it there. Failures are logged: the game is over either way."""
    try:
        job = await svc.request_analysis(match_id, channel=str(target.id))
    except StorageError:
        log.warning("the analysis of game %s was not queued", match_id, exc_info=True)
        return
    await run_and_post(svc, target, job)


async def run_and_post(svc: HostService, target: Any, job: AnalysisJob) -> None:
    record = await svc.storage.get_match(job.match)
    lang = (table_language(record.options) if record is not None else None) or current_language()
    with use_language(lang):
        try:
            await _run_and_post(svc, target, job)
        except Exception:  # refused by Discord, the bot closing meanwhile, a failed analysis
            log.warning("the analysis of game %s could not be posted", job.match, exc_info=True)


async def _run_and_post(svc: HostService, target: Any, job: AnalysisJob) -> None:
    none = discord.AllowedMentions.none()
    message: Any = None
    if job.message is not None and job.message.isdigit():
        message = target.get_partial_message(int(job.message))
    if job.state in ("queued", "running"):
        if message is None:
            message = await unarchived(target, lambda: target.send(progress_text(job.progress), allowed_mentions=none))
            await svc.storage.set_analysis_message(job.match, str(message.id))
        shown = [job.progress]

        async def progress(_match: int, done: float) -> None:
            if done - shown[0] >= STEP and done < 1:
                shown[0] = done
                await unarchived(target, lambda: message.edit(content=progress_text(done)))

        reply = await svc.run_analysis(job.match, progress=progress)
        if reply is None:  # another process runs it (it posts it), or it failed (logged)
            found = await svc.storage.get_analysis(job.match)
            if found is None or found.state != "failed":
                return
            await unarchived(target, lambda: message.edit(content=_("The analysis of game {id} could not be made.",
                                                                   id=job.match)))
            return
    else:
        reply = await svc.analysis_reply(job.match)
    if not await svc.storage.analysis_posted(job.match, now=svc.clock()):
        return  # posted already (another process)
    await _show(target, message, reply)


async def _show(target: Any, message: Any, reply: Reply) -> None:
    content = escape_names("\n".join(reply.public), reply.names)[:MAX_CONTENT]
    files = [discord.File(io.BytesIO(reply.image.data), filename=reply.image.filename)] if reply.image else []
    if message is None:
        await unarchived(target, lambda: target.send(content, files=files, allowed_mentions=discord.AllowedMentions.none()))
    else:
        await unarchived(target, lambda: message.edit(content=content, attachments=files))


async def resume_analyses(svc: HostService, client: Any) -> None:
    """The analyses a stopped process left unposted, in the channels this process sees."""
    for job in await svc.storage.unposted_analyses():
        if job.channel is None or not job.channel.isdigit():
            continue
        target = client.get_channel(int(job.channel))
        if target is None:
            continue  # another process's guild (shards), or gone
        await run_and_post(svc, target, job)
