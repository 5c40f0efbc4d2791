"""The action log of a game (``export``), the history list and a replay from the log."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.host.guard import host_call
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Attachment, Reply
from bot.host.tables import HostBase
from bot.i18n import _
from bot.storage import MatchRecord, rebuild
from engine.core import Game


class ExportMixin(HostBase):
    """Logs out: ``export``, ``history``, ``replay``."""

    async def history(
        self, channel: str | None = None, guild: str | None = None, limit: int = 20
    ) -> list[MatchRecord]:
        return await self.storage.history(channel=channel, guild=guild, limit=limit)

    async def replay(self, match_id: int) -> Game:
        record = await self.storage.get_match(match_id)
        if record is None:
            raise KeyError(match_id)
        return rebuild(self.games[record.game].game_cls, record, await self.storage.actions(match_id))

    @host_call()
    async def export(self, channel: str, match_id: int | None = None, *, guild: str | None = None) -> Reply:
        """The action log of the channel's current (or last, or given) game as a text file.

        While the game runs (or is only abandoned mid-way — it could be a "finished" one only
        once it is over) the file holds only what every player may see: no seed (from it and
        the log anyone rebuilds every hand and the future stacks), hidden decisions written as
        hidden (the adapter's ``public_action``). Once the game is over the whole log is given,
        seed included. The reply is meant for whoever asked (``private``).
        """
        if match_id is None:
            record = await self.storage.open_match(channel) or await self.storage.last_match(channel)
        else:
            record = await self.storage.get_match(match_id)
            same_server = guild is not None and record is not None and record.guild == guild
            if record is not None and record.channel != channel and not (
                    record.status == "finished" and same_server):  # /history's exports (issue 17)
                record = None
        if record is None:
            raise Refusal(RefusalCode.NO_GAME_TO_EXPORT)
        if record.snapshot is None:
            raise Refusal(RefusalCode.NOT_STARTED)
        adapter = self.games.get(record.game)
        whole = record.status == "finished"
        shown = (lambda text: text) if whole or adapter is None else adapter.public_action
        lines = [
            "# meadhall action log",
            f"# game: {record.game}",
            f"# match: {record.id}  status: {record.status}  moves: {record.version}",
            f"# options: {json.dumps(record.options, sort_keys=True)}",
            (f"# seed: {record.seed}" if whole else "# seed: hidden until the game is over")
            + f"  start seat: {'drawn' if record.start_seat is None else record.start_seat}",
        ]
        if not whole:
            lines.append("# hidden decisions are shown as hidden until the game is over")
        lines += [f"# seat {i}: {s.name}" for i, s in enumerate(record.seats)]
        for a in await self.storage.actions(record.id):
            stamp = datetime.fromtimestamp(a.at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            lines.append(f"{a.seq}\t{a.seat}\t{record.seats[a.seat].name}\t{shown(a.action)}\t{stamp}")
        notation = None
        if adapter is not None:
            notation = adapter.notation(adapter.game_cls.from_json(record.snapshot))  # public by contract
        if notation:
            lines += ["", "# notation", notation]
        data = ("\n".join(lines) + "\n").encode("utf-8")
        return Reply(file=Attachment(data, f"meadhall-{record.game}-{record.id}.txt"),
                     private=[_("The action log of game {id}.", id=record.id)], match_id=record.id,
                     game=record.game, status=record.status, version=record.version)

