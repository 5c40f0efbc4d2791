"""Lobby: join, leave, start, abandon, and moving a table to another channel."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games import HOST_KEY, OptionError, split_option_words
from bot.host.common import MAX_NAME, is_computer, names_text, votes_needed
from bot.host.guard import host_call
from bot.host.play import PlayMixin
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply, Table
from bot.i18n import _, current_language, ngettext, use_language
from bot.i18n.text import QUOTE_LIMIT, player_name, quote
from bot.storage import Seat, StorageError
from engine.core import EngineError


class LobbyMixin(PlayMixin):
    """Opening and closing tables; ``start`` leads into play (forced first moves)."""

    @host_call(lock=True)
    async def join(
        self, channel: str, user: str, name: str, *, guild: str | None = None, game: str | None = None
    ) -> Reply:
        return await self._join(channel, user, name, guild, game)

    async def _join(self, channel: str, user: str, name: str, guild: str | None, game: str | None) -> Reply:
        now = self.clock()
        # a name is shown in every message: at most MAX_NAME characters (Discord's own limit for
        # display names), on one line, no control characters; an empty one becomes the user's id
        name = player_name(name, MAX_NAME) or quote(user, MAX_NAME)
        table = await self._open_table(channel)
        if table is None:
            game_id = game or self.games.default
            adapter = self.games.get(game_id) if game_id else None
            if adapter is None or game_id is None:
                raise Refusal(RefusalCode.UNKNOWN_GAME, game=quote(game or ""), games=names_text(self.games.ids()))
            record = await self.storage.create_lobby(
                channel=channel, game=game_id, creator=user, seats=[Seat(user, name)], now=now, guild=guild
            )
            table = Table(record, adapter, game_open=game is None and len(self.games.ids()) > 1)
            self._cache(channel, table)
            if table.game_open:  # no game chosen yet: name none (the default is only a fallback)
                return self._reply(table, public=[_(
                    "{name} opens a table. Others may join; then choose the game with /start GAME ({games}).",
                    name=name, games=names_text(self.games.ids()))])
            return self._reply(table, public=[_(
                "{name} opens a table for {game} ({count}/{max} seats). Others may join; then /start.",
                name=name, game=adapter.title, count=1, max=adapter.game_cls.MAX_PLAYERS)])
        rec = table.record
        if rec.status != "lobby":
            raise Refusal(RefusalCode.NO_MORE_SEATS)
        if rec.seat_of(user) is not None:
            raise Refusal(RefusalCode.ALREADY_SEATED)
        if game is not None and game != rec.game and not table.game_open:
            raise Refusal(RefusalCode.OTHER_GAME, game=table.adapter.title)
        chosen = None
        if game is not None and table.game_open:  # /join GAME on a lobby with no game yet chooses it
            chosen = self.games.get(game)
            if chosen is None:
                raise Refusal(RefusalCode.UNKNOWN_GAME, game=quote(game), games=names_text(self.games.ids()))
        limit = self._seat_limit(table) if chosen is None else chosen.game_cls.MAX_PLAYERS
        if len(rec.seats) >= limit:
            raise Refusal(RefusalCode.TABLE_FULL, max=limit)
        taken = set(rec.names)
        shown, k = name, 2
        while shown in taken:
            shown, k = f"{name} ({k})", k + 1
        seats = [*rec.seats, Seat(user, shown)]
        game_id = rec.game if chosen is None or game is None else game
        await self.storage.update_lobby(rec.id, seats=seats, creator=rec.creator, game=game_id, now=now)
        rec.seats, rec.updated, rec.game = seats, now, game_id
        if chosen is not None:
            table.adapter, table.game_open = chosen, False
        if table.game_open:
            return self._reply(table, public=[ngettext(
                "{name} joins the table ({count} seat taken).", "{name} joins the table ({count} seats taken).",
                len(seats), name=shown, count=len(seats))])
        return self._reply(table, public=[_("{name} joins the table ({count}/{max} seats).",
                                            name=shown, count=len(seats), max=limit)])

    def _seat_limit(self, table: Table) -> int:
        """The seats a lobby offers: its game's, or (no game chosen yet) the largest game's."""
        limits: list[int] = [a.game_cls.MAX_PLAYERS for a in self.games] if table.game_open \
            else [table.adapter.game_cls.MAX_PLAYERS]
        return max(limits)

    @host_call(lock=True)
    async def leave(self, channel: str, user: str) -> Reply:
        now = self.clock()
        table = await self._need_table(channel)
        rec = table.record
        if rec.status != "lobby":
            raise Refusal(RefusalCode.CANNOT_LEAVE)
        seat = self._need_seat(table, user)
        name = rec.seats[seat].name
        seats = [s for s in rec.seats if s.user != user]
        if not any(not is_computer(s.user) for s in seats):  # nobody but computer players left
            await self.storage.close_match(rec.id, "abandoned", now=now)
            rec.status = "abandoned"
            self._uncache(channel)
            return self._reply(table, public=[_("{name} leaves; no person is left at the table, so it is closed.",
                                                name=name)], names=[*rec.names, name])
        creator = rec.creator if rec.creator != user else seats[0].user
        await self.storage.update_lobby(rec.id, seats=seats, creator=creator, game=rec.game, now=now)
        rec.seats, rec.creator, rec.updated = seats, creator, now
        if table.game_open:
            return self._reply(table, public=[ngettext(
                "{name} leaves the table ({count} seat taken).", "{name} leaves the table ({count} seats taken).",
                len(seats), name=name, count=len(seats))], names=[*rec.names, name])
        return self._reply(table, public=[_("{name} leaves the table ({count}/{max} seats).",
                                            name=name, count=len(seats),
                                            max=table.adapter.game_cls.MAX_PLAYERS)],
                           names=[*rec.names, name])

    @host_call(lock=True)
    async def start(
        self, channel: str, user: str, game: str | None = None, options: Sequence[str] = (), *,
        seed: int | None = None, start_seat: int | None = None,
    ) -> Reply:
        """Start the lobby's game (or ``game``) with option words; any seated player may start.
        The table speaks the language of a ``lang:xx`` word, else the current one (issue 16)."""
        try:
            _words, host = split_option_words(options)
        except OptionError:
            host = {}  # _start refuses the words
        with use_language(host.get("language") or current_language()):
            return await self._forced_moves(channel, await self._start(channel, user, game, options, seed,
                                                                       start_seat))

    async def _start(
        self, channel: str, user: str, game_id: str | None, words: Sequence[str], seed: int | None,
        start_seat: int | None,
    ) -> Reply:
        table = await self._need_table(channel)
        rec = table.record
        if rec.status != "lobby":
            raise Refusal(RefusalCode.ALREADY_STARTED)
        self._need_seat(table, user)
        game_id = game_id or rec.game
        adapter = self.games.get(game_id)
        if adapter is None:
            raise Refusal(RefusalCode.UNKNOWN_GAME, game=quote(game_id), games=names_text(self.games.ids()))
        cls = adapter.game_cls
        if len(rec.seats) < cls.MIN_PLAYERS:
            raise Refusal(RefusalCode.TOO_FEW_PLAYERS, game=adapter.title, min=cls.MIN_PLAYERS, count=len(rec.seats))
        if len(rec.seats) > cls.MAX_PLAYERS:
            raise Refusal(RefusalCode.TOO_MANY_PLAYERS, game=adapter.title, max=cls.MAX_PLAYERS, count=len(rec.seats))
        try:
            game_words, host = split_option_words(words)
            options = adapter.parse_options(game_words)
        except OptionError as e:  # its message itself, so the asker's language can say it again (issue 16)
            message = e.args[0] if len(e.args) == 1 and isinstance(e.args[0], str) else str(e)
            raise Refusal(RefusalCode.BAD_OPTIONS, reason=quote(message, 4 * QUOTE_LIMIT)) from None
        if start_seat is not None and not 0 <= start_seat < len(rec.seats):
            raise Refusal(RefusalCode.NO_SEAT, seat=start_seat)
        seed = self._seed_source() if seed is None else seed
        try:
            game = cls.new(rec.names, seed=seed, options=options, start_seat=start_seat)
        except (EngineError, ValueError) as e:
            raise Refusal(RefusalCode.OPTIONS_DO_NOT_WORK, reason=quote(str(e), 2 * QUOTE_LIMIT)) from None
        host.setdefault("language", current_language())  # issue 16: stored, so a restart keeps it
        options = {**options, HOST_KEY: host}
        now = self.clock()
        snapshot = game.to_json()
        lobby_options, rec.options = rec.options, options  # the timers read the host options (deadline)
        try:
            timers = self._reminder_timers(table, game, 0, now)
        finally:
            rec.options = lobby_options
        await self.storage.start_match(
            rec.id, game=game_id, options=options, seed=seed, start_seat=start_seat, seats=rec.seats,
            snapshot=snapshot, now=now, timers=timers,
        )
        rec.status, rec.game, rec.options, rec.seed, rec.start_seat = "active", game_id, options, seed, start_seat
        rec.version, rec.snapshot, rec.votes, rec.updated, rec.started = 0, snapshot, [], now, now
        table.adapter, table.game, table.last_action = adapter, game, None
        prompts = self._prompts(table)
        return self._reply(
            table,
            public=[_("{game} begins ({options}): {players}.", game=adapter.title,
                      options=self._describe_options(adapter, options), players=names_text(rec.names))],
            prompts=prompts, mentions=[p.user for p in prompts],
            image=await self._image(table, game, 0),
        )

    @host_call(lock=True)
    async def abandon(self, channel: str, user: str, *, is_admin: bool = False) -> Reply:
        """The creator or an admin ends the table at once; other players vote (majority ends it)."""
        now = self.clock()
        table = await self._need_table(channel)
        rec = table.record
        seat = rec.seat_of(user)
        if user == rec.creator or is_admin:
            return await self._close(table, now, _("The table is abandoned."))
        if rec.status == "lobby" or seat is None:
            raise Refusal(RefusalCode.NOT_ALLOWED)
        if user in rec.votes:
            raise Refusal(RefusalCode.ALREADY_VOTED_ABANDON)
        votes = [*rec.votes, user]
        needed = votes_needed(rec.seats)
        if len(votes) >= needed:
            return await self._close(table, now, _(
                "The players voted to abandon ({count}/{needed}); the table is abandoned.",
                count=len(votes), needed=needed))
        await self.storage.set_votes(rec.id, votes, now=now)
        rec.votes = votes
        return self._reply(table, public=[_("{name} votes to abandon ({count}/{needed} votes).",
                                            name=rec.seats[seat].name, count=len(votes),
                                            needed=needed)])

    async def _close(self, table: Table, now: float, line: str) -> Reply:
        rec = table.record
        await self.storage.close_match(rec.id, "abandoned", now=now)
        rec.status, rec.updated = "abandoned", now
        self._uncache(rec.channel)
        return self._reply(table, public=[line])

    async def move(self, channel: str, new_channel: str) -> bool:
        """The open table of ``channel`` continues in ``new_channel`` (the Discord transport opens
        a thread per game and keys the table by it); ``channel`` is then free for a new table.
        False, changing nothing, when ``channel`` has no table or ``new_channel`` already has one."""
        async with self._lock(channel), self._lock(new_channel):
            table = await self.table(channel)
            if table is None or await self.table(new_channel) is not None:
                return False
            try:
                await self.storage.move_match(table.record.id, new_channel, now=self.clock())
            except StorageError:
                return False
            self._tables.pop(channel, None)
            table.record.channel = new_channel
            self._tables[new_channel] = table
            return True

