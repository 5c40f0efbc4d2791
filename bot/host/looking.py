"""Looking at a table: status, board and rules."""

from __future__ import annotations

from bot.host import turns, turntimes, undo
from bot.host.common import names_text, votes_needed
from bot.host.guard import host_call
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply, Table
from bot.host.tables import HostBase
from bot.i18n import _, ngettext
from bot.i18n.text import quote


class LookingMixin(HostBase):
    """What people may read of a table (public views only, or a seat's own)."""

    @host_call()
    async def status(self, channel: str) -> Reply:
        table = await self._open_table(channel)
        if table is None:
            last = await self.storage.last_match(channel)
            lines = [_("There is no table in this channel. Use /join to open one.")]
            names: list[str] = []
            if last is not None and last.status == "finished" and last.snapshot is not None:
                adapter = self.games.get(last.game)
                if adapter is not None:
                    game = adapter.game_cls.from_json(last.snapshot)
                    winners = [last.seats[s].name for s in game.winners()]
                    names = list(last.names)
                    lines.append(ngettext("The last game of {game} was won by {names}.",
                                          "The last game of {game} was shared by {names}.",
                                          len(winners), game=adapter.title, names=names_text(winners)))
            return Reply(public=lines, names=names)
        rec, adapter = table.record, table.adapter
        if table.game is None and table.game_open:  # no game chosen yet: name none
            return self._reply(table, public=[ngettext(
                "A table waiting to start: {players} ({count} seat taken); choose the game with /start GAME "
                "({games}).",
                "A table waiting to start: {players} ({count} seats taken); choose the game with /start GAME "
                "({games}).", len(rec.seats), players=names_text(rec.names), count=len(rec.seats),
                games=names_text(self.games.ids()))])
        if table.game is None:
            cls = adapter.game_cls
            return self._reply(table, public=[_(
                "{game} table waiting to start: {players} ({count}/{max} seats, at least {min}).",
                game=adapter.title, players=names_text(rec.names), count=len(rec.seats), max=cls.MAX_PLAYERS,
                min=cls.MIN_PLAYERS)])
        lines = [ngettext("{game} ({options}), {count} move played: {players}.",
                          "{game} ({options}), {count} moves played: {players}.", rec.version, game=adapter.title,
                          options=self._describe_options(table.adapter, rec.options), count=rec.version,
                          players=names_text(rec.names)),
                 adapter.text(table.game)]
        if rec.votes:
            lines.append(_("Votes to abandon: {count}/{needed}.", count=len(rec.votes),
                           needed=votes_needed(rec.seats)))
        lines += await turntimes.waiting_lines(self, table)  # issue 25: how long the table has waited for whom
        lines += await turns.status_lines(self, table)
        request = undo.pending_request(rec)  # issue 17: a standing undo request is part of the table
        if request is not None:
            waiting = sorted(request.need - request.agree)
            lines.append(ngettext(
                "{name} asks to take back the last move; waiting for {names} to agree (/table undo).",
                "{name} asks to take back the last {count} moves; waiting for {names} to agree (/table undo).",
                request.count, name=rec.seats[request.seat].name, count=request.count,
                names=names_text([rec.seats[s].name for s in waiting])))
        return self._reply(table, public=lines, prompts=self._prompts(table))

    @host_call()
    async def board(self, channel: str, user: str | None = None, *, private: bool = False,
                    player: str | None = None) -> Reply:
        """The table as image and text; ``private`` shows ``user``'s own view (their seat);
        ``player`` (a seated name) draws that player's part large (issue 14)."""
        table = await self._open_table(channel)
        if table is None:
            last = await self.storage.last_match(channel)
            if last is None or last.status != "finished" or self.games.get(last.game) is None:
                raise Refusal(RefusalCode.NO_GAME_TO_SHOW)
            table = Table(last, self.games[last.game], self.games[last.game].game_cls.from_json(
                last.snapshot or {}))
        if table.game is None:
            raise Refusal(RefusalCode.NOT_STARTED)
        seat = None
        if private:
            if user is None:
                raise Refusal(RefusalCode.NOT_PLAYER)
            seat = self._need_seat(table, user)
        focus = None
        if player:
            names = [n.casefold() for n in table.record.names]
            if player.strip().casefold() not in names:
                raise Refusal(RefusalCode.UNKNOWN_PLAYER, name=quote(player))
            focus = names.index(player.strip().casefold())
        game, version = table.game, table.record.version
        text = "\n".join(filter(None, [table.adapter.text(game, seat), table.adapter.text_key()]))
        image = await self._image(table, game, version, seat, board=True, focus=focus)
        if private:
            return self._reply(table, private=[text], image=image)
        return self._reply(table, public=[text], image=image, prompts=self._prompts(table))

    @host_call()
    async def rules(self, channel: str, topic: str | None = None, *, game: str | None = None) -> Reply:
        if game is None:
            table = await self._open_table(channel)
            game = table.record.game if table else self.games.default
        adapter = self.games.get(game) if game else None
        if adapter is None:
            raise Refusal(RefusalCode.UNKNOWN_GAME, game=quote(game or ""), games=names_text(self.games.ids()))
        try:
            return Reply(public=adapter.rules(topic), game=game)
        except KeyError:
            raise Refusal(RefusalCode.UNKNOWN_RULE, game=adapter.title, topic=quote(topic or "")) from None

