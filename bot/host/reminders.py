"""Reminders and deadlines: what to send now, and when the next is due."""

from __future__ import annotations

from bot.games import table_language
from bot.host import turns
from bot.host.pings import due_pings
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
                with use_language(table_language(record.options) or current_language()):  # issue 16: the table's
                    text = _("Reminder: it is still your turn in {game}: {prompt}", game=table.adapter.title,
                             prompt=table.adapter.prompt(table.game, seat))
                out.append(Reminder(channel=record.channel, match_id=record.id, user=s.user, seat=seat, name=s.name,
                                    text=text, count=count, names=tuple(table.record.names)))
        out += await due_pings(self, now)  # issue 25: turns of people pinged only after N hours
        return out

    async def next_reminder_due(self) -> float | None:
        return await self.storage.next_timer_due()

