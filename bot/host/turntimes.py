"""Turn times (issue 25): how long each person took per turn, and how long a table has waited.

Read from the action log (``actions.at``) and the match's start (``matches.started``, schema 4),
replaying the moves in force. The definition (docs/decisions.md, D-turn-time):

* a **turn** of a seat begins when the seat becomes one to act: at the start of the game, or at
  the logged action after which it is to act while it was not before; it ends with that seat's own
  action after which it is no longer to act. Several actions of one player in a row (Vikings: buy,
  then place) are one turn; a seat that stays to act after its action (it leads again) goes on
  with the same turn;
* players deciding at once (a draft) each have their own turn, from when they were asked;
* a free action of a seat not to act (an exchange) neither begins nor ends a turn;
* an undone move and its ``#undo`` leave no turn of their own: the log is read without them
  (``effective_actions``), so the turn in which a move was taken back lasts until the move that
  stood;
* a move the computer made for a person after a deadline (issue 17) ends that person's turn at the
  deadline: the table waited that long for them;
* a turn is the person's who held the seat when it ended (``options["host"]["replaced"]``: a seat
  taken over changes hands at that version); computer players' turns are not counted;
* games started before schema 4 have no start time: their first turns are not counted.

API::

    clock = turn_clock(game_cls, record, actions)   # replay: TurnClock(turns, waiting)
    clock.turns: list[Turn]                          # (seat, user, seconds) of every ended turn
    clock.waiting: dict[int, float]                  # seat → since when it is to act (a running game)
    summary = TurnSummary.of([seconds, …])           # count, median, longest
    duration_text(seconds) -> str                    # "3 hours 12 minutes", in the current language
    await waiting_lines(service, table) -> list[str] # /table status: "Waiting for bob for 3 hours …"
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import engine_options
from bot.host.common import is_computer
from bot.host.protocol import TableHost
from bot.host.replies import Table
from bot.i18n import _, ngettext
from bot.storage import LoggedAction, MatchRecord, effective_actions
from engine.core import EngineError, Game

log = logging.getLogger("bot.host.service")  # one logger for the host, whichever module says it

MIN_WAIT = 60.0  # seconds: /table status names a wait from a minute on (a wait of 5 seconds is no news)


@dataclass(frozen=True, slots=True)
class Turn:
    seat: int
    user: str
    seconds: float


@dataclass(slots=True)
class TurnClock:
    turns: list[Turn] = field(default_factory=list)
    waiting: dict[int, float] = field(default_factory=dict)

    def of_user(self, user: str) -> list[float]:
        return [t.seconds for t in self.turns if t.user == user]


@dataclass(frozen=True, slots=True)
class TurnSummary:
    count: int
    median: float
    longest: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> TurnSummary | None:
        if not seconds:
            return None
        return cls(len(seconds), float(statistics.median(seconds)), float(max(seconds)))


def _user_at(record: MatchRecord, seat: int, seq: int) -> str:
    """Who held ``seat`` when the action ``seq`` was made (take-overs, issue 17)."""
    user = record.seats[seat].user
    host = record.options.get("host") if isinstance(record.options, dict) else None
    replaced: list[dict[str, Any]] = list(host.get("replaced", [])) if isinstance(host, dict) else []
    for entry in sorted(replaced, key=lambda e: e.get("version", 0), reverse=True):
        if entry.get("seat") == seat and seq <= entry.get("version", 0):
            user = str(entry.get("user", user))
    return user


def turn_clock(game_cls: type[Game], record: MatchRecord, actions: Iterable[LoggedAction], *,
               now_acting: Sequence[int] | None = None) -> TurnClock:
    """Replay ``record``'s moves in force and time every turn (see the module's docstring).

    ``now_acting``: the live game's seats to act. When given, a log that does not replay (a table whose
    state was changed by hand, an engine that reads an old log otherwise) does not fail the caller
    (``/table status``, a deferred ping): each of those seats is timed from another seat's last
    logged move (or the start), which is the definition for turns taken in order, and no turn is
    counted. Without it the engine's error is raised."""
    game = game_cls.new(record.names, seed=record.seed, options=engine_options(record.options),
                        start_seat=record.start_seat)
    since: dict[int, float | None] = {s: record.started for s in game.acting_seats()}
    clock = TurnClock()
    moves = effective_actions(actions)
    for logged in moves:
        try:
            game.apply(logged.seat, logged.action)
        except EngineError:
            if now_acting is None:
                raise
            log.warning("the log of match %s does not replay at action %s: waits timed from the others' last moves",
                        record.id, logged.seq)
            waiting: dict[int, float] = {}
            for seat in now_acting:  # since another seat last moved: the definition, for turns taken in order
                since_then = next((m.at for m in reversed(moves) if m.seat != seat), record.started)
                if since_then is not None:
                    waiting[seat] = since_then
            return TurnClock(waiting=waiting)
        acting = set() if game.is_over else set(game.acting_seats())
        start = since.get(logged.seat, -1.0)
        if logged.seat not in acting and start != -1.0:
            since.pop(logged.seat)
            user = _user_at(record, logged.seat, logged.seq)
            if start is not None and not is_computer(user):
                clock.turns.append(Turn(logged.seat, user, max(0.0, logged.at - start)))
        for seat in list(since):
            if seat not in acting:  # no longer asked without acting (the game ended): no turn of theirs
                since.pop(seat)
        for seat in acting - since.keys():
            since[seat] = logged.at
    clock.waiting = {s: t for s, t in since.items() if t is not None}
    return clock


def duration_text(seconds: float) -> str:
    """A duration for people: its two largest units ("3 hours 12 minutes", "2 days 5 hours",
    "45 seconds"), in the current language."""
    total = max(0, int(round(seconds)))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        ngettext("{count} day", "{count} days", days, count=days) if days else "",
        ngettext("{count} hour", "{count} hours", hours, count=hours) if hours else "",
        ngettext("{count} minute", "{count} minutes", minutes, count=minutes) if minutes else "",
        ngettext("{count} second", "{count} seconds", secs, count=secs) if secs else "",
    ]
    first = next((i for i, p in enumerate(parts) if p), None)
    if first is None:
        return ngettext("{count} second", "{count} seconds", 0, count=0)
    if first + 1 == len(parts) or not parts[first + 1]:  # "2 days", not "2 days 5 seconds"
        return parts[first]
    return _("{larger} {smaller}", larger=parts[first], smaller=parts[first + 1])


async def waiting_lines(service: TableHost, table: Table) -> list[str]:
    """/table status: how long the table has waited for each person to act — since its last move
    (or the start), once it is a minute or more; nothing for computer players. Read from the log's
    last time alone, never from a replay: every seat still to act has kept the table waiting since
    then, and the line is the same for two games that differ only in what is hidden."""
    rec = table.record
    if table.game is None or table.game.is_over:
        return []
    actions = await service.storage.actions(rec.id)
    since = actions[-1].at if actions else rec.started
    if since is None:
        return []
    now = service.clock()
    return [_("Waiting for {name} for {time}.", name=rec.seats[seat].name, time=duration_text(now - since))
            for seat in sorted(table.game.acting_seats())
            if not is_computer(rec.seats[seat].user) and now - since >= MIN_WAIT]
