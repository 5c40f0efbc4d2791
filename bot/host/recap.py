"""The animated recap of a finished game (issue 25): its log replayed into one animated picture,
drawn off the event loop (:class:`bot.processes.cpu.CpuPool`).

Only a finished game has one: every frame is a public picture, but a running game's recap would
tell its future from its log; an unknown game, another server's and an unfinished one are refused
alike ("There is no finished game 12."), so a stranger learns nothing of them.
"""

from __future__ import annotations

import logging

from bot.games import table_language
from bot.host.guard import host_call
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Attachment, Reply
from bot.host.tables import HostBase
from bot.i18n import _, current_language, use_language
from bot.processes.cpu import CpuPool
from bot.storage import effective_actions

log = logging.getLogger("bot.host.service")  # one logger for the host, whichever module says it


class RecapMixin(HostBase):
    """``animated_recap``: the finished game's recap as an animated WebP (``Reply.file``)."""

    @host_call()
    async def animated_recap(self, match_id: int, *, guild: str | None = None, channel: str | None = None) -> Reply:
        """The animated recap of finished match ``match_id``: ``file`` the animated WebP (at most
        8 MB), ``public[0]`` one line saying what it is. ``guild``/``channel``: where it is asked;
        a game of another server (and not of this channel) is refused as unknown. Drawn in the
        table's language, in a worker process when the host has a CPU pool."""
        record = await self.storage.get_match(match_id)
        here = record is not None and (guild is None and channel is None or record.guild == guild and guild is not None
                                       or record.channel == channel and channel is not None)
        if record is None or not here or record.status != "finished" or record.snapshot is None:
            raise Refusal(RefusalCode.NO_FINISHED_GAME, id=match_id)
        adapter = self.games.get(record.game)
        if adapter is None:
            raise Refusal(RefusalCode.NO_FINISHED_GAME, id=match_id)
        if not self.images:  # pictures are off on this host (tests, a text-only deployment)
            raise Refusal(RefusalCode.NO_RECAP, id=match_id)
        from renderer.recap import (
            NoFrames,  # Pillow only where pictures are drawn: the host core stays without it
        )

        moves = [(a.seat, a.action) for a in effective_actions(await self.storage.actions(record.id))]
        setup = (list(record.names), record.seed, dict(record.options), record.start_seat)
        name = f"meadhall-{record.game}-{record.id}-recap"
        with use_language(table_language(record.options) or current_language()):  # the table's language, as its pictures spoke
            try:
                recap = await (self.cpu or CpuPool(0)).recap(adapter, setup, moves, name=name)
            except NoFrames:
                raise Refusal(RefusalCode.NO_RECAP, id=match_id) from None
            line = _("The whole game {id} in {frames} pictures ({seconds} s).", id=record.id, frames=recap.frames,
                     seconds=round(sum(recap.durations) / 1000))
        return Reply(public=[line], file=Attachment(recap.data, recap.filename), names=list(record.names),
                     match_id=record.id, game=record.game, status=record.status, version=record.version)
