"""The host service: lobby, turns, storage and reminders for one table per channel.

Transport-agnostic: the Discord cog and the offline table both call a :class:`HostService` and
turn its :class:`Reply` values into messages. It never imports discord or PIL; everything
game-specific goes through the adapters of a :class:`bot.games.GameRegistry`.

API (every method is a coroutine; ``channel`` and ``user`` are opaque strings — Discord ids or
terminal names — and ``name`` is how people see a player)::

    svc = HostService(storage, registry, clock=time.time, reminder_delay=None, reminder_limit=3,
                      images=True, seed_source=None, cpu=None, shards=None)
                      # cpu: bot.cpu.CpuPool; shards: bot.shards.Shards this process serves
    await svc.load() -> int                              # warm up every unfinished table
    await svc.join(channel, user, name, *, guild=None, game=None) -> Reply
    await svc.leave(channel, user) -> Reply               # before the start only
    await svc.start(channel, user, game=None, options=(), *, seed=None, start_seat=None) -> Reply
    await svc.abandon(channel, user, *, is_admin=False) -> Reply  # creator/admin, or players' vote
    await svc.status(channel) -> Reply
    await svc.board(channel, user=None, *, private=False) -> Reply   # image + text of the table
    await svc.act(channel, user, text, *, version=None) -> Reply     # one game action
    await svc.rules(channel, topic=None, *, game=None) -> Reply
    await svc.export(channel, match_id=None, *, guild=None) -> Reply  # .file = the action log as text
    await svc.leaderboard(game=None, scope=None, *, guild=None) -> Reply   # issue 17 (bot.ratings)
    await svc.profile(who, *, guild=None) -> Reply        # who: user id or name
    await svc.game_history(*, guild=None) -> Reply        # finished games; .file = the list as TSV
    await svc.recap(match_id) -> Reply                    # result line + final scoring picture with VP chart
    await svc.command(channel, user, line, *, name=None, guild=None, is_admin=False) -> Reply
    await svc.table(channel) -> Table | None              # read-only: record, adapter, live game
    await svc.move(channel, new_channel) -> bool          # the open table continues elsewhere
    await svc.history(channel=None, guild=None, limit=20) -> list[MatchRecord]
    await svc.replay(match_id) -> Game                    # rebuilt from seed + log
    await svc.due_reminders(now=None) -> list[Reminder]   # what to send now (and re-arms them)
    await svc.next_reminder_due() -> float | None

Every refusal is a ``Reply`` with ``ok=False``, a ``code`` from :data:`REFUSALS` and the
translated sentence in ``private`` (show it to the actor only); nothing changes on a refusal.
Success replies carry ``public`` lines (narration for everybody), ``prompts`` (who must decide
what next — the transport writes ``@name: text``), ``mentions`` (users to ping), ``image``
(rendered after the commit), ``events``, and the new ``version``. Actions are committed before
the reply exists. One lock per channel serialises everything that changes a table; a
``version`` given with ``act`` (from a button) must equal the table's version, and a repeated
click of the same button is answered ``duplicate`` and applied once.

Reminders: with ``reminder_delay`` seconds set, each seat that must act gets a durable
``reminder`` timer (re-armed at every action that changes who must act); ``due_reminders``
returns due ones whose seat still must act and re-arms them up to ``reminder_limit`` times.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot import turns, undo
from bot.cpu import CpuPool
from bot.games import (
    HOST_KEY,
    GameAdapter,
    GameRegistry,
    OptionError,
    engine_options,
    host_options,
    split_option_words,
)
from bot.i18n import _, ngettext, tr_msg
from bot.ratings import Records, Standing, result_of
from bot.shards import Shards
from bot.storage import (
    MatchRecord,
    NewTimer,
    Seat,
    StaleVersionError,
    Storage,
    StorageError,
    StorageUnavailable,
    effective_actions,
    rebuild,
)
from bot.text import QUOTE_LIMIT, quote
from bot.widgets import label_of
from engine.core import (
    Action,
    ActionSyntaxError,
    EngineError,
    Event,
    Game,
    IllegalActionError,
    NotYourTurnError,
    json_copy,
)

log = logging.getLogger(__name__)

REFUSALS = (
    "no_table",          # no table (or no game to show/export) in this channel
    "not_started",       # the table is still a lobby
    "already_started",   # join/start/leave… on a running game
    "already_seated",    # join twice
    "table_full",        # join beyond the game's MAX_PLAYERS
    "other_game",        # join naming another game than the lobby's
    "too_few_players",   # start below MIN_PLAYERS
    "too_many_players",  # start a game whose MAX_PLAYERS is below the seats taken
    "unknown_game",      # no adapter for that game id
    "bad_options",       # option words the game does not accept
    "not_player",        # not seated at this table
    "unknown_player",    # /board player:NAME names nobody at this table
    "not_allowed",       # abandon by someone who may not (and cannot vote)
    "already_voted",     # second abandon vote by the same player
    "not_your_turn",     # the seat owes no decision now
    "malformed",         # the text is no action of this game
    "illegal",           # a well-formed action the rules forbid now
    "stale",             # a button of an older version of the table
    "duplicate",         # the same button clicked again after it was applied
    "unknown_rule",      # rules topic the game does not know
    "unknown_command",   # command() could not read the line
    "storage_failed",    # the database could not be written (or read) just now; nothing changed
    "bad_scope",         # /leaderboard with a scope other than server or all
    "no_games",          # /profile of somebody who finished no game (here)
    # issue 17 (bot.undo, bot.turns)
    "undo_nothing",      # undo: the player has no move in force to take back
    "undo_random",       # undo: chance was used since that move
    "undo_revealed",     # undo: something hidden was shown since (tile turned, viking drawn, card seen)
    "undo_unsure",       # undo: the host cannot tell whether something hidden was shown
    "no_request",        # replace NAME yes: there is no such request
)

COMPUTER_PREFIX = "bot:"  # user ids of computer players (bot.seats); they never vote or keep a lobby


def is_computer(user: str) -> bool:
    return user.startswith(COMPUTER_PREFIX)


def votes_needed(seats) -> int:
    """A majority of the people at the table (computer players do not vote)."""
    people = sum(1 for s in seats if not is_computer(s.user))
    return max(1, people) // 2 + 1


MAX_FORCED_MOVES = 100  # forced moves made in a row after one change (a bound, not a rule)

MAX_NAME = 32  # characters of a player's name (Discord allows 32 for a display name)

HOST_COMMANDS = ("join", "leave", "start", "abandon", "status", "board", "rules", "export", "undo", "replace",
                 "help")
RECORD_COMMANDS = ("leaderboard", "profile", "history")  # issue 17: what the table remembers
SCOPES = ("server", "all")  # /leaderboard scope: this server's games, or every server's


@dataclass(frozen=True, slots=True)
class Prompt:
    """``user`` (at ``seat``, shown as ``name``) must decide: ``text`` (e.g. "buy a combo")."""

    user: str
    seat: int
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Attachment:
    data: bytes
    filename: str


@dataclass(slots=True)
class Reply:
    ok: bool = True
    code: str = "ok"
    public: list[str] = field(default_factory=list)
    private: list[str] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    mentions: list[str] = field(default_factory=list)
    image: Attachment | None = None
    file: Attachment | None = None
    events: list[Event] = field(default_factory=list)
    match_id: int | None = None
    game: str | None = None
    status: str | None = None
    version: int | None = None
    # the players' names this reply may show (chosen by people: a transport that renders
    # markup, like Discord, escapes them in every line; the offline table prints them plain)
    names: list[str] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)  # /leaderboard rows (issue 17)

    def lines(self, mention: Callable[[Prompt], str] = lambda p: f"@{p.name}") -> list[str]:
        """Public lines then one ``"<mention>: <prompt>"`` line per prompt (the offline table)."""
        return self.public + [f"{mention(p)}: {p.text}" for p in self.prompts]


@dataclass(frozen=True, slots=True)
class Reminder:
    """Send to ``channel``: mention ``user`` with ``text`` (already translated, no mention)."""

    channel: str
    match_id: int
    user: str
    seat: int
    name: str
    text: str
    count: int
    names: tuple[str, ...] = ()  # the table's player names (``text`` may show them; see Reply.names)


@dataclass(slots=True)
class Table:
    """An open table: its stored record, its adapter and (once started) the live game.

    Read-only for callers (e.g. autocomplete reads ``game.legal_actions(seat)``).
    """

    record: MatchRecord
    adapter: GameAdapter
    game: Game | None = None
    last_action: tuple[int, int, str] | None = None  # (version, seat, text) of the last commit


class Refusal(Exception):
    def __init__(self, code: str, message: str, names: Sequence[str] = ()) -> None:
        assert code in REFUSALS, code
        self.code = code
        self.message = message
        self.names = list(names)  # players' names the message shows (see Reply.names)
        super().__init__(message)


def _refused(r: Refusal) -> Reply:
    return Reply(ok=False, code=r.code, private=[r.message], names=r.names)


def _storage_safe(method):
    """A storage failure (read-only or full disk, a lock held past the busy timeout, I/O) becomes a
    ``storage_failed`` refusal; the transaction was rolled back and the tables in memory are as
    before (issue 11)."""

    @functools.wraps(method)
    async def safe(self, *args, **kwargs):
        try:
            return await method(self, *args, **kwargs)
        except StorageUnavailable as e:
            log.error("%s", e)
            if e.writing:
                return _refused(Refusal("storage_failed", _(
                    "That could not be saved, so nothing changed. Please try again in a moment.")))
            return _refused(Refusal("storage_failed", _(
                "The table could not be read just now. Please try again in a moment.")))

    return safe


def _names(names: Sequence[str]) -> str:
    return ", ".join(names)


def _shortened(reason: str, text: str) -> str:
    """An engine's reason, which may quote the input again, with every long word of the input
    in it shortened, and at most 3 × ``QUOTE_LIMIT`` characters."""
    for word in sorted(set(text.split()), key=len, reverse=True):
        if len(word) > 30:
            reason = reason.replace(word, quote(word, 30))
    return quote(reason, 3 * QUOTE_LIMIT)




class HostService:
    def __init__(
        self,
        storage: Storage,
        games: GameRegistry,
        *,
        clock: Callable[[], float] = time.time,
        reminder_delay: float | None = None,
        reminder_limit: int = 3,
        images: bool = True,
        seed_source: Callable[[], int] | None = None,
        cpu: CpuPool | None = None,
        shards: Shards | None = None,
        deadline_takeover: int = 3,
    ) -> None:
        self.storage = storage
        self.cpu = cpu  # pictures (and bot.seats' search players) in worker processes; None: a thread
        self.shards = shards  # serve only these shards' guilds (load, reminders); None: every guild
        self.games = games
        self.clock = clock
        self.reminder_delay = reminder_delay if reminder_delay and reminder_delay > 0 else None
        self.reminder_limit = reminder_limit
        self.deadline_takeover = max(1, deadline_takeover)  # missed deadlines before a take-over (issue 17)
        self.images = images
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._tables: dict[str, Table] = {}
        self._resumed: set[str] = set()  # channels of tables load() found, not used since
        self._generation: dict[str, int] = {}  # bumped at every change of a channel's cache entry
        self._locks: dict[str, asyncio.Lock] = {}
        self.records = Records(storage, games)  # ratings, profiles, history (issue 17)

    # ------------------------------------------------------------------ tables in memory

    def _lock(self, channel: str) -> asyncio.Lock:
        return self._locks.setdefault(channel, asyncio.Lock())

    def _cache(self, channel: str, table: Table) -> None:
        self._tables[channel] = table
        self._generation[channel] = self._generation.get(channel, 0) + 1

    def _uncache(self, channel: str) -> None:
        self._tables.pop(channel, None)
        self._generation[channel] = self._generation.get(channel, 0) + 1

    def _table_from(self, record: MatchRecord) -> Table | None:
        adapter = self.games.get(record.game)
        if adapter is None:
            log.warning("match %s in channel %s: game %r is not registered", record.id, record.channel,
                        record.game)
            return None
        game = None
        if record.status == "active":
            assert record.snapshot is not None
            game = adapter.game_cls.from_json(record.snapshot)
        return Table(record, adapter, game)

    async def load(self) -> int:
        """Find every unfinished table this host serves; each comes back in the state of its last
        commit when it is first used (one read of its record and snapshot), so that thousands of
        tables resume in one light query (issue 15). Returns how many tables this host serves."""
        count = 0
        for record in await self.storage.unfinished_matches(snapshots=False):
            if self.shards is not None and not self.shards.owns(record.guild):
                continue  # another process serves that guild's shard
            if self.games.get(record.game) is None:
                log.warning("match %s in channel %s: game %r is not registered", record.id, record.channel,
                            record.game)
                continue
            if record.channel not in self._tables:
                self._resumed.add(record.channel)
            count += 1
        return count

    async def _open_table(self, channel: str) -> Table | None:
        """The channel's open table: from the cache, else read from the database and cached.

        Readers do not take the channel's lock, so a writer may commit (and cache a newer table,
        or drop a finished one) while this awaits the database: then the read may be older than
        the cache and is never stored over it (the cache never goes backwards); it is read again.
        """
        for _attempt in range(3):
            table = self._tables.get(channel)
            if table is not None:
                return table
            self._resumed.discard(channel)
            generation = self._generation.get(channel, 0)
            record = await self.storage.open_match(channel)
            if self._generation.get(channel, 0) != generation:
                continue  # a writer changed this channel meanwhile: our read may be older
            if record is None:
                return None
            table = self._table_from(record)
            if table is None:
                raise Refusal("unknown_game", _(
                    "This channel's table plays {game}, which this host does not offer now.", game=record.game))
            self._cache(channel, table)
            return table
        # writers keep changing this channel: answer from the newest read without caching it
        table = self._tables.get(channel)
        if table is not None:
            return table
        record = await self.storage.open_match(channel)
        return None if record is None else self._table_from(record)

    async def table(self, channel: str) -> Table | None:
        try:
            return await self._open_table(channel)
        except Refusal:
            return None

    async def _need_table(self, channel: str) -> Table:
        table = await self._open_table(channel)
        if table is None:
            raise Refusal("no_table", _("There is no table in this channel. Use join to open one."))
        return table

    async def _need_game(self, channel: str) -> tuple[Table, Game]:
        table = await self._need_table(channel)
        if table.game is None:
            raise Refusal("not_started", _("The game has not started yet."))
        return table, table.game

    @staticmethod
    def _need_seat(table: Table, user: str) -> int:
        seat = table.record.seat_of(user)
        if seat is None:
            raise Refusal("not_player", _("You are not a player at this table."))
        return seat

    # ------------------------------------------------------------------ pieces of replies

    def _prompts(self, table: Table) -> list[Prompt]:
        game = table.game
        if game is None:
            return []
        seats = table.record.seats
        return [Prompt(seats[s].user, s, seats[s].name, table.adapter.prompt(game, s))
                for s in game.acting_seats()]

    async def _image(self, table: Table, game: Game, version: int, seat: int | None = None, *,
                     events: Sequence[Event] | None = None, board: bool = False,
                     focus: int | None = None) -> Attachment | None:
        """The reply's picture: the adapter's ``picture`` (issue 14) draws the turn picture, the
        scoring picture, or with ``board`` the full table (the default draws ``render``)."""
        if not self.images:
            return None
        try:
            replay = None
            if events and table.adapter.needs_replay(game, events):
                rec = table.record
                moves = [(a.seat, a.action) for a in effective_actions(await self.storage.actions(rec.id))]
                replay = ((rec.names, rec.seed, rec.options, rec.start_seat), moves)
            kwargs = {"seat": seat, "board": board, "events": events or (), "replay": replay,
                      "focus": focus}
            if self.cpu is not None:  # a worker process: the event loop stays free (issue 15)
                data = await self.cpu.picture(table.adapter, game, **kwargs)
            else:
                data = await asyncio.to_thread(functools.partial(table.adapter.picture, game, **kwargs))
        except Exception:
            log.exception("rendering match %s version %s failed", table.record.id, version)
            return None
        if data is None:
            return None
        return Attachment(data, f"{table.record.game}-{table.record.id}-{version}.png")

    def _reminder_timers(self, table: Table, game: Game, version: int, now: float) -> list[NewTimer]:
        deadlines = turns.deadline_timers(self, table, game, version, now)  # issue 17
        if self.reminder_delay is None or game.is_over:
            return deadlines
        seats = table.record.seats
        return deadlines + [NewTimer("reminder", now + self.reminder_delay,
                         {"seat": s, "user": seats[s].user, "version": version, "count": 0})
                for s in game.acting_seats()]

    def _winner_lines(self, table: Table, game: Game) -> list[str]:
        winners = [table.record.seats[s].name for s in game.winners()]
        return [ngettext("Game over. The winner: {names}.", "Game over. The winners: {names}.",
                         len(winners), names=_names(winners))]

    def _reply(self, table: Table, **kw: object) -> Reply:
        rec = table.record
        kw.setdefault("names", list(rec.names))
        return Reply(match_id=rec.id, game=rec.game, status=rec.status, version=rec.version, **kw)

    # ------------------------------------------------------------------ lobby

    @_storage_safe
    async def join(
        self, channel: str, user: str, name: str, *, guild: str | None = None, game: str | None = None
    ) -> Reply:
        try:
            async with self._lock(channel):
                return await self._join(channel, user, name, guild, game)
        except Refusal as r:
            return _refused(r)

    async def _join(self, channel: str, user: str, name: str, guild: str | None, game: str | None) -> Reply:
        now = self.clock()
        # a name is shown in every message: at most MAX_NAME characters (Discord's own limit for
        # display names), no control characters; an empty one becomes the user's id
        name = quote(name, MAX_NAME) or quote(user, MAX_NAME)
        table = await self._open_table(channel)
        if table is None:
            game_id = game or self.games.default
            adapter = self.games.get(game_id) if game_id else None
            if adapter is None:
                raise Refusal("unknown_game", _("I do not know the game {game}. I know: {games}.",
                                                game=quote(game or ""), games=_names(self.games.ids())))
            record = await self.storage.create_lobby(
                channel=channel, game=game_id, creator=user, seats=[Seat(user, name)], now=now, guild=guild
            )
            table = Table(record, adapter)
            self._cache(channel, table)
            return self._reply(table, public=[_(
                "{name} opens a table for {game} ({count}/{max} seats). Others may join; then start.",
                name=name, game=adapter.title, count=1, max=adapter.game_cls.MAX_PLAYERS)])
        rec = table.record
        if rec.status != "lobby":
            raise Refusal("already_started", _("The game has already started; no more seats."))
        if rec.seat_of(user) is not None:
            raise Refusal("already_seated", _("You already have a seat at this table."))
        if game is not None and game != rec.game:
            raise Refusal("other_game", _("This table is set up for {game}.", game=table.adapter.title))
        limit = table.adapter.game_cls.MAX_PLAYERS
        if len(rec.seats) >= limit:
            raise Refusal("table_full", _("The table is full ({max} seats).", max=limit))
        taken = set(rec.names)
        shown, k = name, 2
        while shown in taken:
            shown, k = f"{name} ({k})", k + 1
        seats = [*rec.seats, Seat(user, shown)]
        await self.storage.update_lobby(rec.id, seats=seats, creator=rec.creator, game=rec.game, now=now)
        rec.seats, rec.updated = seats, now
        return self._reply(table, public=[_("{name} joins the table ({count}/{max} seats).",
                                            name=shown, count=len(seats), max=limit)])

    @_storage_safe
    async def leave(self, channel: str, user: str) -> Reply:
        try:
            async with self._lock(channel):
                now = self.clock()
                table = await self._need_table(channel)
                rec = table.record
                if rec.status != "lobby":
                    raise Refusal("already_started", _(
                        "The game has already started; you cannot leave it. Use abandon to end it."))
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
                return self._reply(table, public=[_("{name} leaves the table ({count}/{max} seats).",
                                                    name=name, count=len(seats),
                                                    max=table.adapter.game_cls.MAX_PLAYERS)],
                                   names=[*rec.names, name])
        except Refusal as r:
            return _refused(r)

    @_storage_safe
    async def start(
        self, channel: str, user: str, game: str | None = None, options: Sequence[str] = (), *,
        seed: int | None = None, start_seat: int | None = None,
    ) -> Reply:
        """Start the lobby's game (or ``game``) with option words; any seated player may start."""
        try:
            async with self._lock(channel):
                return await self._forced_moves(channel, await self._start(channel, user, game, options, seed,
                                                                           start_seat))
        except Refusal as r:
            return _refused(r)

    async def _start(
        self, channel: str, user: str, game_id: str | None, words: Sequence[str], seed: int | None,
        start_seat: int | None,
    ) -> Reply:
        table = await self._need_table(channel)
        rec = table.record
        if rec.status != "lobby":
            raise Refusal("already_started", _("The game has already started."))
        self._need_seat(table, user)
        game_id = game_id or rec.game
        adapter = self.games.get(game_id)
        if adapter is None:
            raise Refusal("unknown_game", _("I do not know the game {game}. I know: {games}.",
                                            game=quote(game_id), games=_names(self.games.ids())))
        cls = adapter.game_cls
        if len(rec.seats) < cls.MIN_PLAYERS:
            raise Refusal("too_few_players", _("{game} needs at least {min} players; {count} joined.",
                                               game=adapter.title, min=cls.MIN_PLAYERS, count=len(rec.seats)))
        if len(rec.seats) > cls.MAX_PLAYERS:
            raise Refusal("too_many_players", _("{game} seats at most {max} players; {count} joined.",
                                                game=adapter.title, max=cls.MAX_PLAYERS, count=len(rec.seats)))
        try:
            game_words, host = split_option_words(words)
            options = adapter.parse_options(game_words)
        except OptionError as e:
            raise Refusal("bad_options", quote(str(e), 4 * QUOTE_LIMIT)) from None
        if start_seat is not None and not 0 <= start_seat < len(rec.seats):
            raise Refusal("bad_options", _("There is no seat {seat}.", seat=start_seat))
        seed = self._seed_source() if seed is None else seed
        try:
            game = cls.new(rec.names, seed=seed, options=options, start_seat=start_seat)
        except (EngineError, ValueError) as e:
            raise Refusal("bad_options", _("These options do not work: {reason}",
                                           reason=quote(str(e), 2 * QUOTE_LIMIT))) from None
        if host:
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
        rec.version, rec.snapshot, rec.votes, rec.updated = 0, snapshot, [], now
        table.adapter, table.game, table.last_action = adapter, game, None
        prompts = self._prompts(table)
        return self._reply(
            table,
            public=[_("{game} begins ({options}): {players}.", game=adapter.title,
                      options=self._describe_options(adapter, options), players=_names(rec.names))],
            prompts=prompts, mentions=[p.user for p in prompts],
            image=await self._image(table, game, 0),
        )

    @_storage_safe
    async def abandon(self, channel: str, user: str, *, is_admin: bool = False) -> Reply:
        """The creator or an admin ends the table at once; other players vote (majority ends it)."""
        try:
            async with self._lock(channel):
                now = self.clock()
                table = await self._need_table(channel)
                rec = table.record
                seat = rec.seat_of(user)
                if user == rec.creator or is_admin:
                    return await self._close(table, now, _("The table is abandoned."))
                if rec.status == "lobby" or seat is None:
                    raise Refusal("not_allowed", _(
                        "Only the table's creator or an admin can abandon it; players of a running "
                        "game can vote to abandon."))
                if user in rec.votes:
                    raise Refusal("already_voted", _("You have already voted to abandon."))
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
        except Refusal as r:
            return _refused(r)

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

    # ------------------------------------------------------------------ looking

    @_storage_safe
    async def status(self, channel: str) -> Reply:
        try:
            table = await self._open_table(channel)
        except Refusal as r:
            return _refused(r)
        if table is None:
            last = await self.storage.last_match(channel)
            lines = [_("There is no table in this channel. Use join to open one.")]
            names: list[str] = []
            if last is not None and last.status == "finished" and last.snapshot is not None:
                adapter = self.games.get(last.game)
                if adapter is not None:
                    game = adapter.game_cls.from_json(last.snapshot)
                    winners = [last.seats[s].name for s in game.winners()]
                    names = list(last.names)
                    lines.append(ngettext("The last game of {game} was won by {names}.",
                                          "The last game of {game} was shared by {names}.",
                                          len(winners), game=adapter.title, names=_names(winners)))
            return Reply(public=lines, names=names)
        rec, adapter = table.record, table.adapter
        if table.game is None:
            cls = adapter.game_cls
            return self._reply(table, public=[_(
                "{game} table waiting to start: {players} ({count}/{max} seats, at least {min}).",
                game=adapter.title, players=_names(rec.names), count=len(rec.seats), max=cls.MAX_PLAYERS,
                min=cls.MIN_PLAYERS)])
        lines = [_("{game} ({options}), {count} moves played: {players}.", game=adapter.title,
                   options=self._describe_options(table.adapter, rec.options), count=rec.version,
                   players=_names(rec.names)),
                 adapter.text(table.game)]
        if rec.votes:
            lines.append(_("Votes to abandon: {count}/{needed}.", count=len(rec.votes),
                           needed=votes_needed(rec.seats)))
        lines += await turns.status_lines(self, table)
        return self._reply(table, public=lines, prompts=self._prompts(table))

    @_storage_safe
    async def board(self, channel: str, user: str | None = None, *, private: bool = False,
                    player: str | None = None) -> Reply:
        """The table as image and text; ``private`` shows ``user``'s own view (their seat);
        ``player`` (a seated name) draws that player's part large (issue 14)."""
        try:
            table = await self._open_table(channel)
            if table is None:
                last = await self.storage.last_match(channel)
                if last is None or last.status != "finished" or self.games.get(last.game) is None:
                    raise Refusal("no_table", _("There is no game to show in this channel."))
                table = Table(last, self.games[last.game], self.games[last.game].game_cls.from_json(
                    last.snapshot or {}))
            if table.game is None:
                raise Refusal("not_started", _("The game has not started yet."))
            seat = None
            if private:
                if user is None:
                    raise Refusal("not_player", _("You are not a player at this table."))
                seat = self._need_seat(table, user)
            focus = None
            if player:
                names = [n.casefold() for n in table.record.names]
                if player.strip().casefold() not in names:
                    raise Refusal("unknown_player", _("There is no player called {name} at this table.",
                                                      name=quote(player)))
                focus = names.index(player.strip().casefold())
            game, version = table.game, table.record.version
            text = "\n".join(filter(None, [table.adapter.text(game, seat), table.adapter.text_key()]))
            image = await self._image(table, game, version, seat, board=True, focus=focus)
            if private:
                return self._reply(table, private=[text], image=image)
            return self._reply(table, public=[text], image=image, prompts=self._prompts(table))
        except Refusal as r:
            return _refused(r)

    @_storage_safe
    async def rules(self, channel: str, topic: str | None = None, *, game: str | None = None) -> Reply:
        try:
            if game is None:
                table = await self._open_table(channel)
                game = table.record.game if table else self.games.default
            adapter = self.games.get(game) if game else None
            if adapter is None:
                raise Refusal("unknown_game", _("I do not know the game {game}. I know: {games}.",
                                                game=quote(game or ""), games=_names(self.games.ids())))
            try:
                return Reply(public=adapter.rules(topic), game=game)
            except KeyError:
                raise Refusal("unknown_rule", _("{game} has no rule {topic}.", game=adapter.title,
                                                topic=quote(topic or ""))) from None
        except Refusal as r:
            return _refused(r)

    async def history(
        self, channel: str | None = None, guild: str | None = None, limit: int = 20
    ) -> list[MatchRecord]:
        return await self.storage.history(channel=channel, guild=guild, limit=limit)

    async def replay(self, match_id: int) -> Game:
        record = await self.storage.get_match(match_id)
        if record is None:
            raise KeyError(match_id)
        return rebuild(self.games[record.game].game_cls, record, await self.storage.actions(match_id))

    @_storage_safe
    async def export(self, channel: str, match_id: int | None = None, *, guild: str | None = None) -> Reply:
        """The action log of the channel's current (or last, or given) game as a text file.

        While the game runs (or is only abandoned mid-way — it could be a "finished" one only
        once it is over) the file holds only what every player may see: no seed (from it and
        the log anyone rebuilds every hand and the future stacks), hidden decisions written as
        hidden (the adapter's ``public_action``). Once the game is over the whole log is given,
        seed included. The reply is meant for whoever asked (``private``).
        """
        try:
            if match_id is None:
                record = await self.storage.open_match(channel) or await self.storage.last_match(channel)
            else:
                record = await self.storage.get_match(match_id)
                same_server = guild is not None and record is not None and record.guild == guild
                if record is not None and record.channel != channel and not (
                        record.status == "finished" and same_server):  # /history's exports (issue 17)
                    record = None
            if record is None:
                raise Refusal("no_table", _("There is no game to export in this channel."))
            if record.snapshot is None:
                raise Refusal("not_started", _("The game has not started yet."))
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
        except Refusal as r:
            return _refused(r)

    # ------------------------------------------------------------------ records (issue 17)

    @staticmethod
    def _rating_text(st: Standing) -> str:
        return _("{ordinal} (μ {mu} ± {sigma})", ordinal=f"{st.ordinal:.1f}", mu=f"{st.mu:.1f}",
                 sigma=f"{st.sigma:.1f}")

    def _game_adapter(self, game: str | None) -> GameAdapter:
        adapter = self.games.get(game or self.games.default)
        if adapter is None:
            raise Refusal("unknown_game", _("I do not know the game {game}. I know: {games}.",
                                            game=quote(game or ""), games=_names(self.games.ids())))
        return adapter

    @_storage_safe
    async def leaderboard(self, game: str | None = None, scope: str | None = None, *,
                          guild: str | None = None, limit: int = 20) -> Reply:
        """The ratings of ``game`` (default: the first game) on this server (``scope`` ``server``,
        the default where there is a server) or on ``all``: rank, name, ordinal (μ ± σ), games.
        ``Reply.standings`` holds the :class:`bot.ratings.Standing` rows for a picture or embed."""
        try:
            adapter = self._game_adapter(game)
            scope = (scope or ("server" if guild is not None else "all")).lower()
            if scope not in SCOPES:
                raise Refusal("bad_scope", _("The scope is server or all, not {scope}.", scope=quote(scope)))
            where = guild if scope == "server" else None
            rows = await self.records.leaderboard(adapter.game_cls.GAME_ID, where)
            title = (_("{game} leaderboard, this server", game=adapter.title) if where is not None
                     else _("{game} leaderboard, all servers", game=adapter.title))
            lines = [title]
            if not rows:
                lines.append(_("Nobody has finished a rated game yet."))
            for st in rows[:limit]:
                lines.append(ngettext("{rank}. {name}: {rating}, {count} game",
                                      "{rank}. {name}: {rating}, {count} games", st.games, rank=st.rank,
                                      name=st.name, rating=self._rating_text(st), count=st.games))
            return Reply(public=lines, game=adapter.game_cls.GAME_ID, names=[st.name for st in rows[:limit]],
                         standings=rows[:limit], image=await self._leaderboard_image(title, rows[:limit]))
        except Refusal as r:
            return _refused(r)

    async def _leaderboard_image(self, title: str, rows: Sequence[Standing]) -> Attachment | None:
        """The leaderboard picture (renderer/leaderboard.py), or ``None`` (images off, nobody rated,
        or the renderer failed: the lines say it all)."""
        if not self.images or not rows:
            return None
        from renderer.leaderboard import render_leaderboard  # Pillow only where pictures are drawn

        data = [{"rank": st.rank, "name": st.name, "ordinal": st.ordinal, "mu": st.mu, "sigma": st.sigma,
                 "games": st.games} for st in rows]
        try:
            png = await asyncio.to_thread(functools.partial(render_leaderboard, title, data, tr=_, ntr=ngettext))
        except Exception:
            log.exception("rendering the leaderboard failed")
            return None
        return Attachment(png, "meadhall-leaderboard.png")

    @_storage_safe
    async def profile(self, who: str, *, guild: str | None = None) -> Reply:
        """A person's record (by user id or name): games and wins per game, rating here and on all
        servers, best and average final VP, the most recent games with their links."""
        try:
            prof = await self.records.profile(who, guild)
            if prof is None or not prof.games:
                raise Refusal("no_games", _("{name} has not finished a game here yet.", name=quote(who)))
            lines = [_("Profile of {name}", name=prof.name)]
            for game, rec in prof.games.items():
                adapter = self.games.get(game)
                title = adapter.title if adapter else game
                lines.append(ngettext("{game}: {count} game, {wins} won", "{game}: {count} games, {wins} won",
                                      rec.games, game=title, count=rec.games, wins=rec.wins))
                if rec.rating is not None:
                    lines.append(_("  rating {rating}", rating=self._rating_text(rec.rating)))
                if rec.rating_all is not None and guild is not None:
                    lines.append(_("  rating on all servers {rating}", rating=self._rating_text(rec.rating_all)))
                if rec.best_vp is not None:
                    lines.append(_("  final VP: best {best}, average {average}", best=rec.best_vp,
                                   average=f"{rec.average_vp:.1f}"))
            lines.append(_("Most recent games:"))
            for g in prof.recent:
                adapter = self.games.get(g.game)
                when = datetime.fromtimestamp(g.ended, UTC).strftime("%Y-%m-%d")
                line = (_("  game {id} ({game}, {date}): won", id=g.match_id,
                          game=adapter.title if adapter else g.game, date=when) if g.won else
                        _("  game {id} ({game}, {date}): place {place} of {players}", id=g.match_id,
                          game=adapter.title if adapter else g.game, date=when, place=g.place, players=g.players))
                if g.vp is not None:
                    line += _(", {vp} VP", vp=g.vp)
                if g.link:
                    line += f" {g.link}"
                lines.append(line)
            return Reply(public=lines, names=[prof.name])
        except Refusal as r:
            return _refused(r)

    @_storage_safe
    async def game_history(self, *, guild: str | None = None, limit: int = 20) -> Reply:
        """The finished games of this server (``guild``; ``None``: every game this host keeps),
        newest first: players with final VP, the winners, the link to its thread, and how to get
        its export (``/export ID``). ``Reply.file`` holds the same as tab-separated text."""
        entries = await self.records.history(guild, limit)
        lines = [_("Finished games:")] if entries else [_("No game has been finished here yet.")]
        rows = ["match	game	ended	players	winners	link"]
        names: list[str] = []
        for e in entries:
            rec = e.record
            adapter = self.games.get(rec.game)
            players = _names([s.name + ("" if vp is None else f" {vp}")
                              for s, vp in zip(rec.seats, e.result.vps, strict=True)])
            when = datetime.fromtimestamp(rec.updated, UTC).strftime("%Y-%m-%d")
            line = _("game {id} ({game}, {date}): {players}; won by {winners}; export: /export {id}",
                     id=rec.id, game=adapter.title if adapter else rec.game, date=when, players=players,
                     winners=_names(e.winners))
            lines.append(line + (f" {rec.link}" if rec.link else ""))
            names += rec.names
            rows.append("\t".join([str(rec.id), rec.game, when, players, _names(e.winners), rec.link or ""]))
        data = ("\n".join(rows) + "\n").encode("utf-8")
        return Reply(public=lines, names=names, file=Attachment(data, "meadhall-history.tsv"))

    @_storage_safe
    async def recap(self, match_id: int) -> Reply:
        """The recap of a finished match (issue 17), for a transport to post when a game ends (or
        later): ``public[0]`` one line with the result (the parent channel's line), ``image`` the
        final scoring picture with every player's VP by round, replayed from the stored log (the
        same picture the game-ending move's reply carries)."""
        try:
            record = await self.storage.get_match(match_id)
            if record is None or record.status != "finished":
                raise Refusal("no_table", _("There is no finished game {id}.", id=match_id))
            adapter = self._game_adapter(record.game)
            actions = await self.storage.actions(record.id)
            game = rebuild(adapter.game_cls, record, actions[:-1])
            events = game.apply(actions[-1].seat, actions[-1].action) if actions else []
            result = result_of(adapter.game_cls, record)
            winners = _names([record.seats[s].name for s in result.winners])
            line = _("{game}, game {id}: won by {winners}.", game=adapter.title, id=record.id, winners=winners)
            if all(vp is not None for vp in result.vps):
                line += " " + _("Final VP: {scores}.", scores=_names(
                    [f"{s.name} {vp}" for s, vp in zip(record.seats, result.vps, strict=True)]))
            if record.link:
                line += f" {record.link}"
            image = await self._image(Table(record, adapter, game), game, record.version, events=events)
            return Reply(public=[line], image=image, names=list(record.names), match_id=record.id,
                         game=record.game, status=record.status, version=record.version)
        except Refusal as r:
            return _refused(r)

    # ------------------------------------------------------------------ playing

    @_storage_safe
    async def act(
        self, channel: str, user: str, text: str, *, version: int | None = None, scoped: bool = False
    ) -> Reply:
        """Apply one action of ``user``'s seat; committed before this returns.

        ``version``: the table version the action was offered at (buttons); another version is
        refused as ``stale`` (``duplicate`` if it is this very action, already applied).
        ``scoped``: the version guards only this seat's own decision (its private choices while
        several seats decide at once, e.g. the Brian Boru draft): when since ``version`` only
        other seats moved, this seat still must act and the action is still legal, it is taken
        at the current version — decided here, under the table's lock, so that players deciding
        at the same moment never make each other's choices stale.
        """
        try:
            async with self._lock(channel):
                return await self._forced_moves(channel, await self._act(channel, user, text.strip(), version, scoped))
        except Refusal as r:
            return _refused(r)

    @staticmethod
    def _describe_options(adapter: GameAdapter, options: dict) -> str:
        text = adapter.describe_options(engine_options(options))
        if not host_options(options)["forced_moves"]:
            text += "; " + _("every decision asked, even with one choice")
        return text

    async def _forced_moves(self, channel: str, reply: Reply) -> Reply:
        """After a change: a decision with exactly one legal choice is made at once for whoever
        owes it, committed and narrated like any move (issue 13), unless the table was started
        ``manual`` or the adapter says the choice is optional or would reveal something."""
        for _i in range(MAX_FORCED_MOVES):
            table = self._tables.get(channel)
            if not reply.ok or table is None or table.game is None or table.game.is_over:
                break
            if not host_options(table.record.options)["forced_moves"]:
                break
            game = table.game
            forced = next(((seat, a) for seat in game.acting_seats()
                           if (a := table.adapter.forced_action(game, seat)) is not None), None)
            if forced is None:
                break
            seat, action = forced
            name = table.record.seats[seat].name
            label = label_of(table.adapter, game, action)
            made = await self._act(channel, table.record.seats[seat].user, str(action), None)
            if not made.ok:  # an adapter offered what the engine refuses: leave it to the player
                log.error("table %s: forced move %r for seat %d refused: %s", channel, str(action), seat,
                          made.private)
                break
            reply = Reply(
                ok=True, code=made.code,
                public=[*reply.public, _("{name} had one choice, made for them: {choice}.", name=name,
                                         choice=label), *made.public],
                private=reply.private, prompts=made.prompts, mentions=made.mentions,
                image=made.image or reply.image, file=reply.file, events=[*reply.events, *made.events],
                match_id=made.match_id, game=made.game, status=made.status, version=made.version,
                names=made.names,
            )
        return reply

    async def _only_others_moved(self, table: Table, seat: int, version: int, text: str) -> bool:
        """Since ``version`` only other seats moved, ``seat`` still must act and ``text`` is legal."""
        game, rec = table.game, table.record
        if game is None or not 0 <= version < rec.version or seat not in game.acting_seats():
            return False
        try:
            if not game.is_legal(seat, text):
                return False
        except Exception:  # unreadable text: refused as stale like any other old click
            return False
        since = [a for a in await self.storage.actions(rec.id) if a.seq > version]
        return not any(a.seat == seat for a in since)

    async def _act(self, channel: str, user: str, text: str, version: int | None, scoped: bool = False) -> Reply:
        table, game = await self._need_game(channel)
        rec = table.record
        seat = self._need_seat(table, user)
        if version is not None and version != rec.version:
            last = table.last_action
            if last is not None and version == last[0] - 1 and last[1] == seat and last[2] == text:
                raise Refusal("duplicate", _("That move was already made."))
            if not (scoped and await self._only_others_moved(table, seat, version, text)):
                raise Refusal("stale", _("The table has changed since that message. "
                                         "Please choose again from the latest one."))
        if any(c.isdigit() and not c.isascii() for c in text):
            # "buy ١" must not become "buy 1" (int() reads every script's digits): no game's
            # actions use other digits than 0-9, whatever its parser makes of them
            raise Refusal("malformed", _("I cannot read “{text}” as a move: {reason}.", text=quote(text),
                                         reason=_("numbers are written with the digits 0 to 9")))
        try:
            action = game.parse_action(text)
        except ActionSyntaxError as e:
            raise Refusal("malformed", _("I cannot read “{text}” as a move: {reason}.",
                                         text=quote(text), reason=_shortened(tr_msg(e.msg), text))) from None
        except Exception:  # any parser failure is the input's fault, never the host's end
            log.warning("parsing %r in match %s failed", quote(text), rec.id, exc_info=True)
            raise Refusal("malformed", _("I cannot read “{text}” as a move of this game.",
                                         text=quote(text))) from None
        acting = game.acting_seats()
        free = seat not in acting
        if free and not self._is_free_action(game, seat, action):
            raise self._not_your_turn(table, acting)
        try:
            events = self._apply(channel, game, seat, action)
        except NotYourTurnError:
            raise self._not_your_turn(table, acting) from None
        except IllegalActionError as e:
            if e.rule:
                raise Refusal("illegal", _("That move is not allowed: {reason} ({rule}).",
                                           reason=_shortened(tr_msg(e.msg), text), rule=e.rule)) from None
            raise Refusal("illegal", _("That move is not allowed: {reason}.",
                                       reason=_shortened(tr_msg(e.msg), text))) from None
        except EngineError as e:
            raise Refusal("illegal", _("That move is not allowed: {reason}.",
                                       reason=_shortened(str(e), text))) from None
        now = self.clock()
        status = "finished" if game.is_over else "active"
        new_version = rec.version + 1
        keep_timers = free and game.acting_seats() == acting
        timers = None if keep_timers else self._reminder_timers(table, game, new_version, now)
        snapshot = game.to_json()
        action_text = str(action)
        try:
            await self.storage.commit_action(
                rec.id, expected_version=rec.version, seat=seat, action=action_text, snapshot=snapshot,
                status=status, now=now, timers=timers,
            )
        except StorageUnavailable:
            table.game = table.adapter.game_cls.from_json(json_copy(rec.snapshot))  # back to the commit
            raise
        except StaleVersionError:
            self._uncache(channel)
            raise Refusal("stale", _("The table has changed since that message. "
                                     "Please choose again from the latest one.")) from None
        except BaseException:
            self._uncache(channel)  # the live game is ahead of the database: reload it
            raise
        rec.version, rec.snapshot, rec.status, rec.updated = new_version, snapshot, status, now
        table.last_action = (new_version, seat, text)
        public = table.adapter.narrate(game, events)
        if game.is_over:
            public += self._winner_lines(table, game)
            self._uncache(channel)
        prompts = self._prompts(table)
        return self._reply(
            table, public=public, prompts=prompts, mentions=[p.user for p in prompts], events=events,
            image=await self._image(table, game, new_version, events=events),
        )

    def _apply(self, channel: str, game: Game, seat: int, action: Action) -> list[Event]:
        try:
            return game.apply(seat, action)
        except EngineError:
            raise  # the protocol: nothing changed
        except BaseException:
            self._uncache(channel)  # an engine bug may have half-changed the live game
            raise

    @staticmethod
    def _is_free_action(game: Game, seat: int, action: Action) -> bool:
        """A kind of action the game lets any seat take at any time (``free_actions(seat)``,
        e.g. Vikings' ``exchange N``); the engine then judges the details (e.g. too many VP)."""
        return type(action) in {type(a) for a in game.free_actions(seat)}

    @staticmethod
    def _not_your_turn(table: Table, acting: list[int]) -> Refusal:
        names = [table.record.seats[s].name for s in acting]
        return Refusal("not_your_turn", _("It is not your turn; waiting for {names}.", names=_names(names)),
                       names=table.record.names)

    # ------------------------------------------------------------------ undo, take-over (issue 17)

    @_storage_safe
    async def undo(self, channel: str, user: str) -> Reply:
        """Take back ``user``'s last move, or agree to another player's request (:mod:`bot.undo`)."""
        try:
            async with self._lock(channel):
                return await undo.undo(self, channel, user)
        except Refusal as r:
            return _refused(r)

    @_storage_safe
    async def replace(self, channel: str, user: str, words: Sequence[str]) -> Reply:
        """``replace NAME LEVEL|me|yes``: the table gives a seat to a computer or a person (:mod:`bot.turns`)."""
        try:
            async with self._lock(channel):
                return await turns.replace(self, channel, user, list(words))
        except Refusal as r:
            return _refused(r)

    # ------------------------------------------------------------------ text commands

    @_storage_safe
    async def command(
        self, channel: str, user: str, line: str, *, name: str | None = None, guild: str | None = None,
        is_admin: bool = False,
    ) -> Reply:
        """Run one typed line ("join", "start toy pile=9", "take 2", "/status", …)."""
        try:
            return await self._command(channel, user, line, name, guild, is_admin)
        except Refusal as r:
            return _refused(r)

    async def _command(
        self, channel: str, user: str, line: str, name: str | None, guild: str | None, is_admin: bool
    ) -> Reply:
        words = line.strip().removeprefix("/").split()
        if not words:
            raise self._unknown_command(line)
        word, args = words[0].lower(), words[1:]
        if word == "join":
            return await self.join(channel, user, name or user, guild=guild, game=args[0] if args else None)
        if word == "leave":
            return await self.leave(channel, user)
        if word == "start":
            game = args[0] if args and args[0] in self.games else None
            return await self.start(channel, user, game, args[1:] if game else args)
        if word == "abandon":
            return await self.abandon(channel, user, is_admin=is_admin)
        if word == "status":
            return await self.status(channel)
        if word == "board":
            private = args == ["private"]
            return await self.board(channel, user, private=private, player=" ".join(args) if args and not private
                                    else None)
        if word == "rules":
            return await self.rules(channel, args[0] if args else None)
        if word == "export":
            if args and not (len(args) == 1 and args[0].isascii() and args[0].isdigit()):
                raise Refusal("unknown_command", _("Write /export, or /export ID of a finished game."))
            return await self.export(channel, int(args[0]) if args else None, guild=guild)
        if word == "leaderboard":
            if len(args) > 2:
                raise Refusal("unknown_command", _("Write /leaderboard [game] [server|all]."))
            game = next((a for a in args if a.lower() not in SCOPES), None)
            scope = next((a for a in args if a.lower() in SCOPES), None)
            return await self.leaderboard(game, scope, guild=guild)
        if word == "profile":
            return await self.profile(" ".join(args) if args else user, guild=guild)
        if word == "history":
            return await self.game_history(guild=guild)
        if word == "undo":
            return await self.undo(channel, user)
        if word == "replace":
            return await self.replace(channel, user, args)
        if word == "help":
            return await self._help(channel)
        table = await self._open_table(channel)
        adapters = [table.adapter] if table else list(self.games)
        for adapter in adapters:
            if word in adapter.verbs:
                return await self.act(channel, user, " ".join([adapter.verbs[word], *args]))
        raise self._unknown_command(line)

    @staticmethod
    def _unknown_command(line: str) -> Refusal:
        return Refusal("unknown_command", _("I do not know the command “{line}”. Try help.", line=quote(line)))

    async def _help(self, channel: str) -> Reply:
        table = await self._open_table(channel)
        lines = [_("Table commands: {commands}.", commands=_names(HOST_COMMANDS))]
        for adapter in [table.adapter] if table else list(self.games):
            if adapter.verbs:
                lines.append(_("{game} moves: {verbs}.", game=adapter.title, verbs=_names(adapter.verbs)))
        lines.append(_("Records: {commands}.", commands=_names(RECORD_COMMANDS)))
        return Reply(public=lines)

    # ------------------------------------------------------------------ reminders

    async def due_reminders(self, now: float | None = None) -> list[Reminder]:
        """Reminders to send now: take due timers, keep those whose seat still must act.

        Each sent reminder is re-armed ``reminder_delay`` later until it has been sent
        ``reminder_limit`` times.
        """
        now = self.clock() if now is None else now
        out: list[Reminder] = []
        for made in await turns.due_deadlines(self, now):  # issue 17: moves made for late seats
            out.append(Reminder(channel=made.channel, match_id=made.match_id, user=made.user, seat=made.seat,
                                name=made.name, text="\n".join(made.lines), count=0, names=made.names))
        owns = self.shards.owns if self.shards is not None else None
        for timer in await self.storage.take_due_timers(now, kind="reminder", guilds=owns):
            record = await self.storage.get_match(timer.match)
            if record is None or record.status != "active":
                continue
            async with self._lock(record.channel):
                table = await self.table(record.channel)
                if table is None or table.game is None or table.record.id != timer.match:
                    continue
                seat, count = timer.payload["seat"], timer.payload.get("count", 0) + 1
                if seat not in table.game.acting_seats() or table.record.seats[seat].user != timer.payload["user"]:
                    continue
                if self.reminder_delay is not None and count < self.reminder_limit:
                    await self.storage.add_timers(timer.match, [NewTimer(
                        "reminder", now + self.reminder_delay, {**timer.payload, "count": count})])
                s = table.record.seats[seat]
                out.append(Reminder(
                    channel=record.channel, match_id=record.id, user=s.user, seat=seat, name=s.name,
                    text=_("Reminder: it is still your turn in {game}: {prompt}", game=table.adapter.title,
                           prompt=table.adapter.prompt(table.game, seat)),
                    count=count, names=tuple(table.record.names),
                ))
        return out

    async def next_reminder_due(self) -> float | None:
        return await self.storage.next_timer_due()
