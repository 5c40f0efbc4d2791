"""Turn deadlines and seat take-over (issue 17), called by :class:`bot.host.service.HostService`.

**Deadlines.** A table started with ``deadline:12h`` (host option, minutes to days) gets, next to
the reminders, one durable ``deadline`` timer per person who must act (payload ``seat``, ``user``,
``version``), re-armed at every change of who must act like the reminders. It is due at
``max(deadline, reminder_delay × reminder_limit)`` after the change: the reminders are spent
first. When it is due and the seat still must act, the table's computer player (``level:L``,
default ``normal``; a table stored with an old name, ``level:heuristic``, reads it as its new one) moves for it until it no longer owes a decision; each move is committed
like a person's (the version check makes a second process's attempt ``stale``) and narrated
"made by the computer for NAME after the deadline". Exactly once: the timer is *read*, not taken;
the move's commit replaces the match's timers in the same transaction, so a crash before it
leaves the timer due and a crash after it leaves no timer (a timer whose seat no longer acts is
dropped). Each deadline that fires counts a missed deadline for that seat in
``options["host"]["missed"]`` (written after the move: a crash in between forgets one count);
after ``deadline_takeover`` of them the seat is taken over by the computer for the rest of the
game.

**Take-over** (``/replace NAME LEVEL|me|yes``). The people seated vote (a majority, like
abandon) to give seat NAME to a computer player of LEVEL or to a person who asked with ``me``
(that person need not be seated; their request counts no vote); ``yes`` supports the standing
request. The seat keeps its name in the game (the engine's names are fixed for replay); its
user becomes the computer (``bot:LEVEL:1SS``) or the new person. The request stands in
``options["host"]["replace"]``; every take-over is appended to ``options["host"]["replaced"]``
as ``{"seat", "user", "by", "version", "why": "vote"|"deadline"}`` — the ratings read it to
rate only the people who finished (``finishers``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.games import HOST_KEY, host_options, table_language
from bot.games.widgets import label_of
from bot.host.common import computer_identity, is_computer, votes_needed
from bot.host.guard import refused
from bot.host.protocol import PlayingHost, TableHost
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply, Table
from bot.i18n import _, current_language, ngettext, use_language
from bot.i18n.text import quote
from bot.storage import MatchRecord, NewTimer, Seat, Timer
from engine.players import LEVELS, SEARCHING, canonical_level, make_player

if TYPE_CHECKING:
    from engine.core import Action, Game

DEADLINE_KIND = "deadline"
MAX_DEADLINE_MOVES = 50  # computer moves for one seat after one deadline (a bound, not a rule)


def computer_user(level: str, seat: int) -> str:
    """The user id of the computer player that takes over ``seat`` (``bot.host.seats.bot_level`` reads it)."""
    return f"bot:{level}:{100 + seat}"


def finishers(record: MatchRecord) -> list[str]:
    """The users of the people who finished the game: seated at the end and never replaced."""
    replaced = {r["user"] for r in record.options.get(HOST_KEY, {}).get("replaced", [])}
    return [s.user for s in record.seats if not s.user.startswith("bot:") and s.user not in replaced]


def deadline_timers(service: TableHost, table: Table, game: Game, version: int, now: float) -> list[NewTimer]:
    seconds = host_options(table.record.options)["deadline"]
    if not seconds or game.is_over:
        return []
    spent = service.reminder_delay * service.reminder_limit if service.reminder_delay else 0.0
    seats = table.record.seats
    return [NewTimer(DEADLINE_KIND, now + max(float(seconds), spent),
                     {"seat": s, "user": seats[s].user, "version": version})
            for s in game.acting_seats() if not seats[s].user.startswith("bot:")]


def describe_deadline(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


async def status_lines(service: TableHost, table: Table) -> list[str]:
    """/status: the deadline of each seat that must act, and a standing take-over request."""
    rec = table.record
    host = host_options(rec.options)
    out: list[str] = []
    if host["deadline"]:
        due: dict[int, float] = {t.payload["seat"]: t.due for t in await service.storage.timers(rec.id)
                                 if t.kind == DEADLINE_KIND}  # deadline_timers gives each its seat
        for seat, when in sorted(due.items()):
            left = max(0, int(when - service.clock()))
            out.append(_("Deadline for {name}: in {time} (then the computer moves, level {level}).",
                         name=rec.seats[seat].name, time=_left(left), level=host["level"]))
    pending = host.get("replace")
    if pending:
        out.append(_("Request to give the seat of {name} to {to}: {count}/{needed} votes.",
                     name=rec.seats[pending["seat"]].name, to=pending["label"], count=len(pending["votes"]),
                     needed=_votes_needed(rec.seats)))
    return out


def _left(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


def _votes_needed(seats: Sequence[Seat]) -> int:

    return votes_needed(seats)


# ------------------------------------------------------------------ deadlines


@dataclass(frozen=True, slots=True)
class DeadlineMoves:
    """The computer moved for ``name`` (``user`` at ``seat``) at ``channel``: ``lines`` narrate it."""

    channel: str
    match_id: int
    user: str
    seat: int
    name: str
    lines: list[str]
    names: tuple[str, ...]
    reply: Reply | None = None  # the last move's reply (who acts next, the picture): published like a move


async def due_deadlines(service: PlayingHost, now: float) -> list[DeadlineMoves]:
    """Make the computer moves of every due deadline (one entry per deadline that moved)."""
    out: list[DeadlineMoves] = []
    owns = service.shards.owns if service.shards is not None else None
    for timer in await service.storage.timers():
        if timer.kind != DEADLINE_KIND or timer.due > now:
            continue
        record = await service.storage.get_match(timer.match)
        if record is None or record.status != "active" or (owns is not None and not owns(record.guild)):
            continue
        async with service._lock(record.channel):
            with use_language(table_language(record.options) or current_language()):  # issue 16: said in the table's language
                made = await _deadline(service, record.channel, timer, now)
        lines, last = made if made is not None else (None, None)
        if lines is None:
            await service.storage.take_timer(timer.id)  # moot (the seat no longer acts): drop it
        elif lines:
            seat = timer.payload["seat"]
            out.append(DeadlineMoves(record.channel, record.id, timer.payload["user"], seat,
                                     record.seats[seat].name, lines, tuple(record.names), last))
    return out


async def _deadline(service: PlayingHost, channel: str, timer: Timer, now: float
                    ) -> tuple[list[str], Reply | None] | None:
    table = await service.table(channel)
    seat, user = timer.payload["seat"], timer.payload["user"]
    if (table is None or table.game is None or table.record.id != timer.match
            or seat not in table.game.acting_seats() or table.record.seats[seat].user != user):
        return None
    level = host_options(table.record.options)["level"]
    name = table.record.seats[seat].name
    lines: list[str] = []
    last: Reply | None = None
    for _i in range(MAX_DEADLINE_MOVES):
        table = await service.table(channel)
        if table is None or table.game is None or table.game.is_over or seat not in table.game.acting_seats():
            break
        game, rec = table.game, table.record
        action = await _choose(rec, game, seat, level)
        label = label_of(table.adapter, game, action)
        reply = await service._forced_moves(channel, await _act(service, channel, user, str(action), rec.version))
        if not reply.ok:
            break
        last = reply
        lines.append(_("Move made by the computer for {name} after the deadline: {choice}.",
                       name=name, choice=label))
        lines += reply.public
    if not lines:
        return None
    table = await service.table(channel)
    if table is not None and table.game is not None and table.record.seats[seat].user == user:
        lines += await _count_missed(service, table, seat, now)
    return lines, last


async def _act(service: PlayingHost, channel: str, user: str, text: str, version: int) -> Reply:
    try:
        return await service._act(channel, user, text, version)
    except Refusal as r:
        return refused(r)


async def _choose(rec: MatchRecord, game: Game, seat: int, level: str) -> Action:
    player = make_player(rec.game, level, seed=rec.seed * 1009 + seat * 101 + rec.version)
    view, legal = game.view(seat), game.legal_actions(seat)
    if level in SEARCHING:
        return await asyncio.to_thread(player.choose, view, legal)
    return player.choose(view, legal)


async def _count_missed(service: TableHost, table: Table, seat: int, now: float) -> list[str]:
    rec = table.record
    host = dict(rec.options.get(HOST_KEY, {}))
    missed = dict(host.get("missed", {}))
    missed[str(seat)] = missed.get(str(seat), 0) + 1
    host["missed"] = missed
    if missed[str(seat)] < service.deadline_takeover:
        await _save(service, table, rec.seats, host, now)
        return []
    level = host_options(rec.options)["level"]
    line = ngettext("{name} missed {count} deadline: a computer player ({level}) takes the seat for the rest "
                    "of the game.",
                    "{name} missed {count} deadlines: a computer player ({level}) takes the seat for the rest "
                    "of the game.", missed[str(seat)], name=rec.seats[seat].name, count=missed[str(seat)],
                    level=level)
    await _take_over(service, table, seat, computer_user(level, seat), host, now, "deadline")
    return [line]


async def _save(service: TableHost, table: Table, seats: list[Seat], host: dict[str, Any], now: float) -> None:
    rec = table.record
    options = {**rec.options, HOST_KEY: host}
    await service.storage.update_running(rec.id, seats=seats, options=options, now=now)
    rec.seats, rec.options, rec.updated = seats, options, now


async def _take_over(service: TableHost, table: Table, seat: int, by: str, host: dict[str, Any], now: float,
                     why: str) -> None:
    rec = table.record
    old = rec.seats[seat]
    host = {**host, "replaced": [*host.get("replaced", []), {"seat": seat, "user": old.user, "by": by,
                                                              "version": rec.version, "why": why}]}
    host.pop("replace", None)
    seats = [*rec.seats]
    seats[seat] = Seat(by, old.name)
    await _save(service, table, seats, host, now)
    if table.game is not None and not by.startswith("bot:"):  # the new person is reminded too
        timers = [t for t in service._reminder_timers(table, table.game, rec.version, now)
                  if t.payload["seat"] == seat]
        if timers:
            await service.storage.add_timers(rec.id, timers)


# ------------------------------------------------------------------ /replace


async def replace(service: TableHost, channel: str, user: str, words: list[str]) -> Reply:
    """``/replace NAME LEVEL|me|yes`` (the service holds the channel's lock)."""
    table, game = await service._need_game(channel)
    rec = table.record
    if len(words) < 2:
        raise Refusal(RefusalCode.REPLACE_USAGE, levels=", ".join(LEVELS))
    target, name = words[-1].lower(), " ".join(words[:-1]).strip()
    names = [n.casefold() for n in rec.names]
    if name.casefold() not in names:
        raise Refusal(RefusalCode.UNKNOWN_PLAYER, name=quote(name))
    seat = names.index(name.casefold())
    host = dict(rec.options.get(HOST_KEY, {}))
    pending = host.get("replace")
    voter = rec.seat_of(user)
    voting = voter is not None and not is_computer(user)
    if target == "yes":
        if not pending or pending["seat"] != seat:
            raise Refusal(RefusalCode.NO_REQUEST, name=rec.seats[seat].name)
        if not voting:
            raise Refusal(RefusalCode.NOT_PLAYER)
        if user in pending["votes"]:
            raise Refusal(RefusalCode.ALREADY_VOTED)
        request = {**pending, "votes": [*pending["votes"], user]}
    else:
        if target == "me":
            if voter is not None:
                raise Refusal(RefusalCode.ALREADY_SEATED)
            to, label = user, _("{name} (who asked)", name=quote(user))
        else:
            try:
                level = canonical_level(target)  # issue 30: an old name (heuristic, search) gives its new one
            except ValueError:
                raise Refusal(RefusalCode.NO_LEVEL, level=quote(target), levels=", ".join(LEVELS)) from None
            if not voting:
                raise Refusal(RefusalCode.NOT_PLAYER)
            to, label = computer_user(level, seat), _("a computer player ({level})", level=level)
        if computer_identity(rec.seats[seat].user) == computer_identity(to):
            raise Refusal(RefusalCode.ALREADY_PLAYED_THAT_WAY, name=rec.seats[seat].name)
        same = bool(pending and pending["seat"] == seat and computer_identity(pending["to"]) == computer_identity(to))
        votes = list(pending["votes"]) if pending and same else []
        if voting and user in votes:
            raise Refusal(RefusalCode.ALREADY_VOTED)
        request = {"seat": seat, "to": to, "label": label, "votes": [*votes, user] if voting else votes}
    needed = votes_needed(rec.seats)
    now = service.clock()
    if len(request["votes"]) >= needed:
        await _take_over(service, table, seat, request["to"], host, now, "vote")
        return service._reply(table, public=[_(
            "The table agreed ({count}/{needed}): {label} now plays the seat of {name}; the game goes on.",
            count=len(request["votes"]), needed=needed, label=request["label"], name=rec.seats[seat].name)],
            prompts=service._prompts(table))
    host["replace"] = request
    await _save(service, table, rec.seats, host, now)
    return service._reply(table, public=[_(
        "Request: {label} to play the seat of {name} ({count}/{needed} votes; players vote with replace {name} yes).",
        label=request["label"], name=rec.seats[seat].name, count=len(request["votes"]), needed=needed)])
