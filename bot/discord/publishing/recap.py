"""Issue 25: a finished game's animated recap, posted in its thread right after the result
(:meth:`bot.discord.publishing.posting.Publisher.publish` calls :func:`post_recap` when the plan is
final, before the parent channel's line)."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.discord.publishing.messages import MAX_CONTENT, escape_names
from bot.discord.threads import unarchived
from bot.host.service import HostService, Reply

log = logging.getLogger("bot.discord.cog")  # one logger for the Cog, whichever module says it


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
        log.warning("the recap of game %s was not drawn: %s", reply.match_id, recap.private)
        return
    data, filename = recap.file.data, recap.file.filename
    content = escape_names("\n".join(recap.public), recap.names)[:MAX_CONTENT]
    try:  # a fresh File per try: a sent one has been read
        await unarchived(target, lambda: target.send(content, file=discord.File(io.BytesIO(data), filename=filename),
                                                     allowed_mentions=discord.AllowedMentions.none()))
    except discord.HTTPException:
        log.warning("the recap of game %s could not be posted", reply.match_id, exc_info=True)
