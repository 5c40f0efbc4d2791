"""A server's life (issue 29) through the fake Discord and discord.py's own client: a game's
thread deleted mid-game (THREAD_DELETE), a channel deleted (CHANNEL_DELETE), the bot removed
from the server (GUILD_DELETE) and invited back (GUILD_CREATE), a member leaving (no event
without the privileged GUILD_MEMBERS intent). Decisions: docs/decisions.md, issue 29."""

from __future__ import annotations

import asyncio

import pytest

import bot.discord.app as app_module
from bot.host.lifecycle import halt_of
from bot.host.seats import bot_level
from tests.discord.test_discord_e2e import Host, offered, press, usable, user_of
from tests.fakediscord import FakeDiscord
from tests.host_helpers import Clock


def calls_to(fd: FakeDiscord, channel_id: int, after: int) -> list[str]:
    return [f"{r.method} {r.path}" for r in fd.requests[after:] if f"/channels/{channel_id}" in r.path]


async def person_presses(fd: FakeDiscord, host: Host, key: str) -> bool:
    """The person to act presses the first choice of the live message; False when a computer
    player (or nobody) must act."""
    table = await host.svc.table(key)
    if table is None or table.game is None or table.game.is_over:
        return False
    seats = table.record.seats
    people = [s for s in table.game.acting_seats() if bot_level(seats[s].user) is None]
    if not people:
        return False
    live = [m for m in fd.messages(int(key)) if usable(m)]
    assert len(live) == 1, [(m.content[-150:], m.custom_ids, m.components) for m in fd.messages(int(key))][-3:]
    [msg] = live
    kind, cid, value = offered(msg)[0]
    who = user_of(fd, int(seats[people[0]].user))
    r = await press(fd, who, kind, cid, value, msg)
    if r.ephemeral_messages and r.ephemeral_messages[0].custom_ids:  # a confirmation, privately
        await fd.click(who, r.ephemeral_messages[0].custom_ids[0], message=r.ephemeral_messages[0])
    return True


@pytest.mark.slow  # a whole game against a computer player, and a restart (about 25 s)
async def test_a_deleted_game_thread_pauses_the_table_and_table_resume_reopens_it_to_the_end(tmp_path, monkeypatch):
    gate = asyncio.Event()  # the computer player is due, and held until the thread is gone
    real_play_bots = app_module.play_bots

    async def held_play_bots(*args, **kw):
        await gate.wait()
        return await real_play_bots(*args, **kw)

    monkeypatch.setattr(app_module, "play_bots", held_play_bots)
    async with FakeDiscord(strict_answer_order=False, lifetime=280) as fd:
        host = Host(fd, tmp_path / "life.db")
        host.bot_kw = {"bot_pause": 0.0}
        await host.start()
        try:
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("alice", "table addbot", {"level": "random"})
            await fd.slash("alice", "start")
            [thread] = fd.threads_of("general")
            key = str(thread.id)
            while await person_presses(fd, host, key):
                pass
            table = await host.svc.table(key)
            assert bot_level(table.record.seats[table.game.acting_seats()[0]].user)  # a computer player is due
            version = table.record.version
            mark = len(fd.requests)
            await fd.delete_thread(thread)  # while the computer player is about to move
            told = await fd.wait_for_message(lambda m: "was deleted" in m.content, timeout=5)
            assert told.channel_id == fd.channel.id and "/table resume" in told.content and told.pinged == []
            gate.set()  # the computer player tries its move now: refused, the table is paused
            await host.bot.bots_idle()
            assert calls_to(fd, thread.id, mark) == []  # nothing more went to the deleted thread
            assert (await host.svc.table(key)).record.version == version  # it did not move
            assert [m.id for m in fd.messages("general") if m.id > told.id] == []  # one line only

            await host.restart()  # the pause is durable
            assert halt_of((await host.svc.table(key)).record)["why"] == "deleted"
            await host.bot.bots_idle()
            assert (await host.svc.table(key)).record.version == version
            status = await fd.slash("bob", "table status")
            assert "1 paused table of this server" in status.text, status.text

            r = await fd.slash("bob", "table resume")
            threads = [t for t in fd.threads_of("general") if t.id != thread.id]
            assert len(threads) == 1, threads
            new = str(threads[0].id)
            assert (await host.svc.table(new)).record.id == table.record.id
            assert any("goes on" in m.content for m in fd.messages(threads[0])), r.text
            await host.bot.bots_idle()
            for _ in range(600):  # the game finishes in its new thread
                await host.bot.bots_idle()  # the computer player's moves are posted
                if await host.svc.table(new) is None:
                    break
                await person_presses(fd, host, new)
            assert (await host.store.get_match(table.record.id)).status == "finished"
            again = await fd.slash("bob", "table resume")
            assert again.ephemeral and "No table of this server is paused" in again.text
        finally:
            await host.stop()


async def test_a_deleted_channel_pauses_its_table_silently(tmp_path):
    async with FakeDiscord(strict_answer_order=False, channels=("general", "tavern")) as fd:
        host = Host(fd, tmp_path / "chan.db")
        host.config_kw = {"threads": False}
        await host.start()
        try:
            await fd.slash("alice", "join", {"game": "vikings"}, channel="tavern")
            await fd.slash("bob", "join", channel="tavern")
            await fd.slash("alice", "start", channel="tavern")
            tavern = fd.channels["tavern"]
            key = str(tavern.id)
            mark, posts = len(fd.requests), len(fd.messages(ephemeral=None))
            await fd.delete_channel(tavern)
            for _ in range(100):
                table = await host.svc.table(key)
                if halt_of(table.record) is not None:
                    break
                await asyncio.sleep(0.02)
            assert halt_of(table.record) == {"why": "deleted", "parent": None, "at": halt_of(table.record)["at"]}
            assert len(fd.messages(ephemeral=None)) == posts and calls_to(fd, tavern.id, mark) == []
            r = await fd.slash("carol", "table status")  # in general
            assert "1 paused table" in r.text
        finally:
            await host.stop()


async def test_the_bot_removed_stops_its_tables_and_invited_back_they_go_on(tmp_path):
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = Host(fd, tmp_path / "kick.db")
        host.config_kw = {"threads": False}
        clock = Clock(1_000_000.0)  # the service's time: reminders fall due when the test says
        host.kw = {"reminder_delay": 60, "reminder_limit": 2, "clock": clock}
        await host.start()
        try:
            host.bot.reminder_poll = 0.05
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start")
            key = str(fd.channel.id)
            version = (await host.svc.table(key)).record.version
            await fd.guild_outage()  # unavailable: an outage, not a removal
            await asyncio.sleep(0.1)
            assert halt_of((await host.svc.table(key)).record) is None
            await fd.announce_guild(fd.guild())  # available again (GUILD_CREATE): no join, nothing to resume
            guild = fd.guild()
            mark = len(fd.requests)
            await fd.remove_bot(guild)
            for _ in range(100):
                if await host.svc.halted(key):
                    break
                await asyncio.sleep(0.02)
            assert await host.svc.halted(key)
            clock.t += 3600  # reminders would be due: none is sent
            assert await host.bot.send_due_reminders() == 0
            assert calls_to(fd, fd.channel.id, mark) == []
            assert await host.store.timers((await host.svc.table(key)).record.id) == []
            await host.restart()  # READY lists the guild no more; the pause is durable
            assert await host.svc.halted(key)
            mark_id = fd.messages()[-1].id
            await fd.invite_bot(guild)
            ping = await fd.wait_for_message(lambda m: bool(m.pinged), after=mark_id, timeout=5)
            assert ping.channel_id == fd.channel.id  # whoever must act is pinged
            [live] = [m for m in fd.messages() if usable(m)]  # the live message says the game goes on
            assert "The game of Vikings goes on." in live.content
            assert not await host.svc.halted(key) and (await host.svc.table(key)).record.version == version
            assert await person_presses(fd, host, key)  # and the game goes on
            assert (await host.svc.table(key)).record.version > version
        finally:
            await host.stop()


async def test_a_member_who_left_is_not_told_to_the_bot_and_their_turn_goes_to_the_deadline(tmp_path):
    clock = Clock(1_000_000.0)
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = Host(fd, tmp_path / "left.db", clock=clock, reminder_delay=60, reminder_limit=2)
        host.config_kw = {"threads": False}
        await host.start()
        try:
            host.bot.reminder_poll = 0.05
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start", {"options": "deadline:30m"})
            key = str(fd.channel.id)
            bob = fd.users["bob"]
            table = await host.svc.table(key)
            while table.record.seats[table.game.acting_seats()[0]].user != str(bob.id):
                assert await person_presses(fd, host, key)
                table = await host.svc.table(key)
            assert await fd.member_leaves("bob") is False  # GUILD_MEMBERS is privileged: no event
            assert not any(e == "GUILD_MEMBER_REMOVE" for e, _d in fd.dispatched)
            first = fd.messages()[-1].id
            for _ in range(2):  # the reminders still post (a mention is text), and are bounded
                clock.t += 61
                host.bot.wake_reminders()
                await fd.wait_for_message(lambda m: "Reminder" in m.content, after=first, timeout=5)
                first = fd.messages()[-1].id
            clock.t += 1800
            host.bot.wake_reminders()
            made = await fd.wait_for_message(lambda m: "after the deadline" in m.content, timeout=10)
            assert "Bob" in made.content or "bob" in made.content
            reminders = [m for m in fd.messages() if "Reminder" in m.content]
            assert len(reminders) == 2 and all(m.pinged == [bob.id] for m in reminders)
        finally:
            await host.stop()


async def test_a_thread_deleted_while_the_bot_was_away_pauses_its_table_at_start(tmp_path):
    """No THREAD_DELETE reaches a bot that is offline; at start-up the keep-alive's look at the
    threads of running tables (issue 24) gets 404/10003 for it: the table is paused as deleted."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = Host(fd, tmp_path / "away.db")
        await host.start()
        try:
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start")
            [thread] = fd.threads_of("general")
            key = str(thread.id)
            await host.stop()
            await fd.delete_thread(thread)
            # kept at most for a RESUME of the closed session, which the new process never makes
            await host.start()
            await host.bot.tables_looked_at.wait()
            table = await host.svc.table(key)
            assert halt_of(table.record) == {"why": "deleted", "parent": None, "at": halt_of(table.record)["at"]}
            r = await fd.slash("carol", "table status")
            assert "1 paused table" in r.text
        finally:
            await host.stop()


async def test_invited_back_while_the_bot_was_away_its_tables_go_on_at_start(tmp_path):
    """Removed, then invited back while the bot was offline: at start-up the server is in READY
    and its GUILD_CREATE (discord.py: on_guild_available) brings the paused tables back."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = Host(fd, tmp_path / "away-invite.db")
        host.config_kw = {"threads": False}
        await host.start()
        try:
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start")
            key = str(fd.channel.id)
            guild = fd.guild()
            await fd.remove_bot(guild)
            for _ in range(100):
                if await host.svc.halted(key):
                    break
                await asyncio.sleep(0.02)
            await host.stop()
            await fd.invite_bot(guild)  # nobody connected: no event
            mark_id = fd.messages()[-1].id
            await host.start()
            await fd.wait_for_message(lambda m: bool(m.pinged), after=mark_id, timeout=5)
            assert not await host.svc.halted(key)
            assert await person_presses(fd, host, key)
        finally:
            await host.stop()
