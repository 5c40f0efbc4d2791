"""Reminders and deadlines: what to send now, and when the next is due."""

from __future__ import annotations

from bot.games import table_language
from bot.host import turns
from bot.host.pings import due_pings, due_turn_timers
from bot.host.play import PlayMixin
from bot.host.replies import Reminder
from bot.i18n import _, current_language, use_language
from bot.storage import NewTimer


class RemindersMixin(PlayMixin):
    """Durable ``reminder`` timers (and the deadlines of :mod:`bot.host.turns`, whose computer moves are
    made like a player's: hence on :class:`PlayMixin`)."""

    async def due_reminders(self, now: float | None = None) -> list[Reminder]:
        """Reminders to send now: take due timers, keep those whose seat still must act.

        Each sent reminder is re-armed ``reminder_delay`` later until it has been sent
        ``reminder_limit`` times.
        """
        now = self.clock() if now is None else now
        out: list[Reminder] = []
        for made in await turns.due_deadlines(self, now):  # issue 17: moves made for late seats
            out.append(Reminder(channel=made.channel, match_id=made.match_id, user=made.user, seat=made.seat,
                                name=made.name, text="\n".join(made.lines), count=0, names=made.names,
                                reply=made.reply))
        async for timer, table, seat in due_turn_timers(self, now, "reminder"):
            assert table.game is not None  # due_turn_timers hands out live games only
            count = timer.payload.get("count", 0) + 1
            if self.reminder_delay is not None and count < self.reminder_limit:
                await self.storage.add_timers(timer.match, [NewTimer(
                    "reminder", now + self.reminder_delay, {**timer.payload, "count": count})])
            record = table.record
            s = record.seats[seat]
            with use_language(table_language(record.options) or current_language()):  # issue 16: the table's
                text = _("Reminder: it is still your turn in {game}: {prompt}", game=table.adapter.title,
                         prompt=table.adapter.prompt(table.game, seat))
            out.append(Reminder(channel=record.channel, match_id=record.id, user=s.user, seat=seat, name=s.name,
                                text=text, count=count, names=tuple(record.names)))
        out += await due_pings(self, now)  # issue 25: turns of people pinged only after N hours
        return out

    async def next_reminder_due(self) -> float | None:
        return await self.storage.next_timer_due()

