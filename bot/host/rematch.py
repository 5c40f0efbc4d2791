"""Rematch (issue 25): a finished game played again by the same players with the same options.

A finished match's people vote for its rematch (``rematch_vote``: the Rematch button on
Discord); computer players agree by themselves. Each vote is stored at once (``rematch_votes``,
schema 4), so a restart loses none. When every person seated has asked, the transport opens
the new table's place (Discord: a new thread) and calls ``rematch_start``, which creates the
table there with the same seats and options and starts it, in one transaction with the claim
that it *is* that match's rematch (``rematches``): a rematch starts once, whoever presses last
and however many processes serve the database. The offline table, where every seat is at one
keyboard, starts one at once (``rematch_here``).

API (facade :mod:`bot.host.service`)::

    await svc.rematch_vote(match_id, user, name, *, guild=None, place=str) -> Reply
        # code "rematch_waiting" (public: "alice wants a rematch — waiting for bob") or
        # "rematch_agreed" (everybody asked: start it); refusals: no such finished game (here),
        # not one of its people, asked already, started already (``place(channel)`` says where)
    await svc.rematch_start(match_id, channel, *, guild=None, place=str, seed=None) -> Reply
        # the new game's first reply (like /start's), forced moves made; refused unless everybody
        # asked, or when ``channel`` has an open table or the rematch exists
    await svc.rematch_here(channel, user, *, seed=None) -> Reply   # the offline table: no vote

**The same players.** The seats as the game ended, in the same order; a seat a computer player
took over (a missed deadline, a vote, issue 17) goes back to the last person who had it, who
is one of the players asked; a computer player seated from the start stays, with its level.
A person's seat takes the name they asked under (Discord: their name at the press).
**The same options.** The game's options and the host's options words set (``lang``,
``deadline``, ``level``, ``manual`` and any other of :data:`bot.games.HOST_OPTION_WORDS`);
never the host's records of the finished game (missed deadlines, take-overs, requests). The
seed is new; the start seat is drawn again unless the game was started with one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games import HOST_KEY, HOST_OPTION_DEFAULTS, HOST_OPTION_WORDS, engine_options, table_language
from bot.host.common import is_computer, names_text
from bot.host.guard import host_call
from bot.host.lobby import LobbyMixin
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply, Table
from bot.i18n import _, current_language, use_language
from bot.i18n.text import quote
from bot.storage import MatchRecord, Seat, StorageConflict
from engine.core import EngineError

WAITING, AGREED = "rematch_waiting", "rematch_agreed"  # Reply.code of a vote
# the host options a table is started with (the rest of options["host"] is the game's own record)
OPTION_KEYS = frozenset(HOST_OPTION_DEFAULTS) | {k for words in HOST_OPTION_WORDS.values() for k in words}


def rematch_key(match_id: int) -> str:
    """The lock of one match's rematch (never a channel's key)."""
    return f"rematch:{match_id}"


def rematch_seats(record: MatchRecord) -> list[Seat]:
    """The seats as the game ended, a seat taken over by a computer back to its last person."""
    seats = list(record.seats)
    for change in record.options.get(HOST_KEY, {}).get("replaced", []):
        seat = change.get("seat")
        if (isinstance(seat, int) and 0 <= seat < len(seats) and is_computer(seats[seat].user)
                and not is_computer(str(change.get("user", "bot:")))):
            seats[seat] = Seat(str(change["user"]), seats[seat].name)
    return seats


def rematch_options(record: MatchRecord) -> dict[str, Any]:
    """The game's options and the host's option settings, not the host's records of the game."""
    host = {k: v for k, v in record.options.get(HOST_KEY, {}).items() if k in OPTION_KEYS}
    return {**engine_options(record.options), HOST_KEY: host}


def _unique(seats: list[Seat]) -> list[Seat]:
    """Names differ at a table (as /join makes them): a repeated one gets " (2)", " (3)" …"""
    out: list[Seat] = []
    for s in seats:
        name, k = s.name, 2
        while name in [o.name for o in out]:
            name, k = f"{s.name} ({k})", k + 1
        out.append(Seat(s.user, name))
    return out


class RematchMixin(LobbyMixin):
    """Votes for a finished match's rematch, and its start (see the module's docstring)."""

    @host_call()
    async def rematch_vote(self, match_id: int, user: str, name: str, *, guild: str | None = None,
                           place: Callable[[str], str] = str) -> Reply:
        async with self._lock(rematch_key(match_id)):
            record = await self._finished(match_id, guild)
            with use_language(table_language(record.options) or current_language()):
                await self._not_started(match_id, place)
                people = [s for s in rematch_seats(record) if not is_computer(s.user)]
                seat = next((i for i, s in enumerate(people) if s.user == user), None)
                if seat is None:
                    raise Refusal(RefusalCode.REMATCH_NOT_PLAYER, id=match_id)
                voted = [u for u, _name in await self.storage.rematch_votes(match_id)]
                if user in voted:
                    waiting = [s.name for s in people if s.user not in voted]
                    if waiting:
                        raise Refusal(RefusalCode.REMATCH_ASKED, names=names_text(waiting), shown_names=record.names)
                    # everybody had asked and the start failed (Discord, the database): try again
                else:
                    await self.storage.add_rematch_vote(match_id, user, name or people[seat].name, now=self.clock())
                    voted.append(user)
                waiting = [s.name for s in people if s.user not in voted]
                who = people[seat].name
                if waiting:
                    line = _("{name} wants a rematch — waiting for {names}.", name=who, names=names_text(waiting))
                elif len(people) == 1:
                    line = _("{name} wants a rematch.", name=who)
                else:
                    line = _("{name} wants a rematch too — everybody agreed.", name=who)
                return Reply(code=WAITING if waiting else AGREED, public=[line], match_id=match_id, game=record.game,
                             status=record.status, names=[*record.names, *(s.name for s in people)])

    @host_call()
    async def rematch_start(self, match_id: int, channel: str, *, guild: str | None = None,
                            place: Callable[[str], str] = str, seed: int | None = None) -> Reply:
        return await self._start_rematch(match_id, channel, guild=guild, place=place, seed=seed, agreed=False)

    @host_call()
    async def rematch_here(self, channel: str, user: str, *, seed: int | None = None) -> Reply:
        """The offline table: this channel's last game, again, at once (every seat is at this
        keyboard: nobody is asked)."""
        if await self._open_table(channel) is not None:
            raise Refusal(RefusalCode.REMATCH_TABLE_OPEN)
        last = await self.storage.last_match(channel)
        if last is None or last.status != "finished":
            raise Refusal(RefusalCode.NO_FINISHED_HERE)
        if user not in [s.user for s in rematch_seats(last) if not is_computer(s.user)]:
            raise Refusal(RefusalCode.REMATCH_NOT_PLAYER, id=last.id)
        return await self._start_rematch(last.id, channel, guild=last.guild, place=str, seed=seed, agreed=True)

    async def _finished(self, match_id: int, guild: str | None) -> MatchRecord:
        record = await self.storage.get_match(match_id)
        if record is None or record.status != "finished" or guild is not None and record.guild != guild:
            raise Refusal(RefusalCode.REMATCH_NO_GAME, id=match_id)  # never another server's game
        return record

    async def _not_started(self, match_id: int, place: Callable[[str], str]) -> None:
        started = await self.storage.rematch_of(match_id)
        if started is not None:
            new = await self.storage.get_match(started)
            raise Refusal(RefusalCode.REMATCH_STARTED, place=place(new.channel) if new else str(started))

    async def _start_rematch(self, match_id: int, channel: str, *, guild: str | None, place: Callable[[str], str],
                             seed: int | None, agreed: bool) -> Reply:
        async with self._lock(rematch_key(match_id)), self._lock(channel):
            record = await self._finished(match_id, guild)
            options = rematch_options(record)
            with use_language(table_language(options) or current_language()):
                await self._not_started(match_id, place)
                people = [s for s in rematch_seats(record) if not is_computer(s.user)]
                names = dict(await self.storage.rematch_votes(match_id))
                waiting = [s.name for s in people if s.user not in names]
                if waiting and not agreed:
                    raise Refusal(RefusalCode.REMATCH_WAITING, names=names_text(waiting), shown_names=record.names)
                if await self._open_table(channel) is not None:
                    raise Refusal(RefusalCode.REMATCH_TABLE_OPEN)
                return await self._forced_moves(channel, await self._begin_rematch(record, channel, options, names,
                                                                                   seed, place))

    async def _begin_rematch(self, record: MatchRecord, channel: str, options: dict[str, Any], names: dict[str, str],
                             seed: int | None, place: Callable[[str], str]) -> Reply:
        adapter = self.games.get(record.game)
        if adapter is None:
            raise Refusal(RefusalCode.GAME_NOT_OFFERED, game=record.game)
        seats = _unique([Seat(s.user, names.get(s.user, s.name)) for s in rematch_seats(record)])
        seed = self._seed_source() if seed is None else seed
        try:
            game = adapter.game_cls.new([s.name for s in seats], seed=seed, options=engine_options(options),
                                        start_seat=record.start_seat)
        except (EngineError, ValueError) as e:  # a game whose options changed meaning since
            raise Refusal(RefusalCode.OPTIONS_DO_NOT_WORK, reason=quote(str(e))) from None
        people = [s.user for s in seats if not is_computer(s.user)]
        creator = record.creator if record.creator in people else (people or [seats[0].user])[0]
        now, snapshot = self.clock(), game.to_json()
        draft = MatchRecord(id=0, guild=record.guild, channel=channel, game=record.game, options=options, seed=seed,
                            start_seat=record.start_seat, status="active", creator=creator, seats=seats, votes=[],
                            version=0, snapshot=snapshot, created=now, updated=now)
        table = Table(draft, adapter, game)
        try:
            table.record = await self.storage.create_rematch(
                record.id, channel=channel, guild=record.guild, game=record.game, creator=creator, seats=seats,
                options=options, seed=seed, start_seat=record.start_seat, snapshot=snapshot, now=now,
                timers=self._reminder_timers(table, game, 0, now))
        except StorageConflict:  # another process started it, or opened a table there, meanwhile
            await self._not_started(record.id, place)
            raise Refusal(RefusalCode.REMATCH_TABLE_OPEN) from None
        self._cache(channel, table)
        prompts = self._prompts(table)
        return self._reply(
            table,
            public=[_("Rematch of game {id}: {game} begins again ({options}): {players}.", id=record.id,
                      game=adapter.title, options=self._describe_options(adapter, options),
                      players=names_text(s.name for s in seats))],
            prompts=prompts, mentions=[p.user for p in prompts], image=await self._image(table, game, 0))
