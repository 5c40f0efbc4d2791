"""A person's ping setting (issue 25): when a transport pings them for their turn.

Stored per user (``player_settings``, schema 4; :class:`bot.storage.PlayerSettings`):

* ``every`` (the default): every turn pings them (issue 24's turn notifications);
* ``after`` N hours: their turn's message names them without pinging; a durable ``ping`` timer
  (kind ``ping``, payload ``seat``, ``user``, ``since`` = when the turn began) is due N hours
  after the turn began, and pings them then (through the reminders: :func:`due_pings`) only if
  that turn is still theirs — they have not acted since;
* ``reminders``: only the reminders (``reminder_delay``) and deadlines ping them.

A ``ping`` timer is the transport's, not the host's: a new action's timers leave it alone
(:data:`bot.storage.base.KEPT_TIMERS`); the end of the match drops it.

API (on the service)::

    await svc.ping_settings([user, …]) -> dict[str, PlayerSettings]   # every user, defaults filled in
    await svc.settings(user, pings=None, hours=None) -> Reply          # show (None) or set, privately
    await svc.defer_ping(channel, user, hours) -> bool                 # arm the ping of their turn
    await due_pings(svc, now) -> list[Reminder]                        # (bot.host.reminders)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from bot.games import table_language
from bot.host.guard import host_call
from bot.host.protocol import TableHost
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reminder, Reply, Table
from bot.host.tables import HostBase
from bot.host.turntimes import duration_text, turn_clock
from bot.i18n import _, current_language, ngettext, use_language
from bot.i18n.text import quote
from bot.storage import PING_CHOICES, NewTimer, PlayerSettings, Timer

log = logging.getLogger("bot.host.service")

PING_KIND = "ping"
MAX_PING_HOURS = 168  # a week: a deferred ping later than that is no ping


def setting_text(settings: PlayerSettings) -> str:
    """What the setting means, for its owner."""
    if settings.pings == "after" and settings.ping_hours is not None:
        return ngettext("You are pinged for your turn only when you have not acted {count} hour after it began.",
                        "You are pinged for your turn only when you have not acted {count} hours after it began.",
                        settings.ping_hours, count=settings.ping_hours)
    if settings.pings == "reminders":
        return _("You are pinged only by reminders: the turn's message names you without pinging you.")
    return _("You are pinged at every turn (the default).")


class PingsMixin(HostBase):
    """Ping settings (see the module's docstring)."""

    async def ping_settings(self, users: list[str]) -> dict[str, PlayerSettings]:
        stored = await self.storage.player_settings(users)
        return {u: stored.get(u, PlayerSettings(u)) for u in users}

    @host_call(lock=False)
    async def settings(self, user: str, pings: str | None = None, hours: int | None = None) -> Reply:
        """``/table settings``: without ``pings`` the current setting; else store it and confirm
        (both privately). ``hours`` goes with ``after`` only (1 … a week)."""
        if pings is None:
            if hours is not None:
                raise Refusal(RefusalCode.PING_HOURS_ALONE)
            current = (await self.ping_settings([user]))[user]
            return Reply(private=[setting_text(current), _(
                "Change it with /table settings pings: every turn, only after N hours, or reminders only.")])
        choice = pings.strip().lower()
        if choice not in PING_CHOICES:
            raise Refusal(RefusalCode.PING_CHOICE, choice=quote(pings))
        if choice == "after":
            if hours is None or not 1 <= hours <= MAX_PING_HOURS:
                raise Refusal(RefusalCode.PING_HOURS, hours=quote("" if hours is None else str(hours)),
                              max=MAX_PING_HOURS)
        elif hours is not None:
            raise Refusal(RefusalCode.PING_HOURS_ALONE)
        chosen = PlayerSettings(user, choice, hours if choice == "after" else None)
        await self.storage.set_player_settings(chosen, now=self.clock())
        return Reply(private=[_("Saved. {setting}", setting=setting_text(chosen))])

    async def defer_ping(self, channel: str, user: str, hours: int) -> bool:
        """Arm the ping of ``user``'s turn at ``channel``: due ``hours`` after the turn began (once
        per turn: an armed one is kept). ``False`` when they are not to act there now."""
        async with self._lock(channel):
            table = await self.table(channel)
            if table is None or table.game is None or table.game.is_over:
                return False
            rec = table.record
            seats = [s for s in table.game.acting_seats() if rec.seats[s].user == user]
            if not seats:
                return False
            clock = await asyncio.to_thread(turn_clock, table.adapter.game_cls, rec,
                                            await self.storage.actions(rec.id), now_acting=table.game.acting_seats())
            armed = {(t.payload.get("seat"), t.payload.get("since")) for t in await self.storage.timers(rec.id)
                     if t.kind == PING_KIND}
            new = []
            for seat in seats:
                since = clock.waiting.get(seat, self.clock())
                if (seat, since) not in armed:
                    new.append(NewTimer(PING_KIND, since + hours * 3600.0, {"seat": seat, "user": user, "since": since}))
            if new:
                await self.storage.add_timers(rec.id, new)
            return True


async def due_turn_timers(service: TableHost, now: float, kind: str) -> AsyncIterator[tuple[Timer, Table, int]]:
    """The due timers of ``kind`` (taken: each is handed out once) whose seat is still to act and
    still held by the timer's person, each with its table and seat, under the table's lock: the
    reminders' and the deferred pings' shared walk. Read it to the end (a ``break`` would hold the
    lock until the generator is closed)."""
    owns = service.shards.owns if service.shards is not None else None
    for timer in await service.storage.take_due_timers(now, kind=kind, guilds=owns):
        record = await service.storage.get_match(timer.match)
        if record is None or record.status != "active":
            continue
        async with service._lock(record.channel):
            table = await service.table(record.channel)
            if table is None or table.game is None or table.record.id != timer.match:
                continue
            seat = timer.payload.get("seat")
            if seat not in table.game.acting_seats() or table.record.seats[seat].user != timer.payload.get("user"):
                continue  # they acted, or the seat changed hands
            yield timer, table, seat


async def due_pings(service: TableHost, now: float) -> list[Reminder]:
    """The deferred pings due now whose turn is still the person's (taken: each is sent once)."""
    out: list[Reminder] = []
    async for timer, table, seat in due_turn_timers(service, now, PING_KIND):
        rec, user = table.record, timer.payload["user"]
        assert table.game is not None  # due_turn_timers hands out live games only
        clock = await asyncio.to_thread(turn_clock, table.adapter.game_cls, rec,
                                        await service.storage.actions(rec.id), now_acting=table.game.acting_seats())
        since = clock.waiting.get(seat)
        if since is not None and since > float(timer.payload.get("since", since)):
            continue  # they acted, and this is a newer turn (which armed its own ping)
        with use_language(table_language(rec.options) or current_language()):
            text = _("It has been your turn in {game} for {time}: {prompt}", game=table.adapter.title,
                     time=duration_text(now - (since if since is not None else timer.payload["since"])),
                     prompt=table.adapter.prompt(table.game, seat))
        out.append(Reminder(channel=rec.channel, match_id=rec.id, user=user, seat=seat,
                            name=rec.seats[seat].name, text=text, count=1, names=tuple(rec.names)))
    return out
