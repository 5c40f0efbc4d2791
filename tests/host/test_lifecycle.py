"""Issue 29 (host side): a table paused when its place is deleted or the bot removed, durably
(SQLite and PostgreSQL), through a restart; resumed with its timers armed again."""

from __future__ import annotations

from bot.host.lifecycle import halt_of
from tests.host_helpers import CH, Clock, live, open_service

GUILD = "g-1"


async def _start(svc, *, options=("deadline:2h",)):
    for i, user in enumerate(("ann", "bob")):
        r = await svc.join(CH, user, user.title(), guild=GUILD, game="vikings" if i == 0 else None)
        assert r.ok, r
    r = await svc.start(CH, "ann", "vikings", list(options), seed=3, start_seat=0)
    assert r.ok, r


async def test_a_deleted_thread_pauses_the_table_through_a_restart_and_resumes_elsewhere(database):
    clock = Clock()
    svc, store = await open_service(database, clock=clock, reminder_delay=600)
    await _start(svc)
    match = (await svc.table(CH)).record.id
    assert await store.timers(match)  # a reminder and a deadline are armed
    assert await svc.pause(CH, "deleted", parent="parent-1")
    assert not await svc.pause(CH, "deleted", parent="parent-1")  # once
    assert await store.timers(match) == []  # nothing of the table fires while it is paused
    game = await live(svc)
    seat = game.acting_seats()[0]
    user = (await svc.table(CH)).record.seats[seat].user
    refused = await svc.act(CH, user, str(game.legal_actions(seat)[0]))
    assert not refused.ok and refused.code == "paused"  # no move at a paused table
    assert (await store.get_match(match)).version == refused.version or refused.version is None
    clock.t += 3 * 3600
    assert await svc.due_reminders() == []
    await store.close()

    svc, store = await open_service(database, clock=clock, reminder_delay=600)  # a restart
    record = await store.get_match(match)
    assert record.status == "active" and halt_of(record)["why"] == "deleted"
    assert halt_of(record)["parent"] == "parent-1"
    status = await svc.status_here("parent-1", GUILD)
    assert any("1 paused table of this server" in line for line in status.public), status.public
    assert any(line.startswith(f"Game {match}: Vikings, Ann, Bob, 0 moves played") for line in status.public), status.public

    resumed = await svc.resume_here("parent-1", GUILD)
    assert resumed.ok, resumed
    assert resumed.public == ["The game of Vikings goes on."]
    assert [p.user for p in resumed.prompts] == [user]  # whoever must act is pinged
    assert await svc.table(CH) is None and (await svc.table("parent-1")).record.id == match
    assert halt_of(await store.get_match(match)) is None
    kinds = sorted(t.kind for t in await store.timers(match))
    assert kinds == ["deadline", "reminder"]  # armed again from the resume
    again = await svc.resume_here("other", GUILD)
    assert not again.ok and again.code == "nothing_paused"
    for _ in range(5_000):  # the game finishes in its new place
        table = await svc.table("parent-1")
        if table is None:
            break
        g = table.game
        s = g.acting_seats()[0]
        assert (await svc.act("parent-1", table.record.seats[s].user, str(g.legal_actions(s)[0]))).ok
    assert (await store.get_match(match)).status == "finished"
    await store.close()


async def test_the_bot_removed_pauses_its_tables_and_invited_back_they_go_on(database):
    clock = Clock()
    svc, store = await open_service(database, clock=clock, reminder_delay=600)
    await _start(svc)
    assert await svc.join("lobby-chan", "cid", "Cid", guild=GUILD, game="vikings")
    assert await svc.pause_guild(GUILD) == [CH]  # the lobby has nothing to stop
    assert await svc.pause_guild("other-guild") == []
    assert (await svc.table("lobby-chan")).record.status == "lobby"  # nothing is deleted
    clock.t += 3 * 3600
    assert await svc.due_reminders() == []
    await store.close()
    svc, store = await open_service(database, clock=clock, reminder_delay=600)  # a restart
    # /table resume reopens only tables whose place was deleted: these come back by themselves
    assert (await svc.resume_here("elsewhere", GUILD)).code == "nothing_paused"
    back = await svc.resume_guild(GUILD)
    assert [channel for channel, _reply in back] == [CH]
    assert back[0][1].prompts and not await svc.halted(CH)
    assert await svc.resume_guild(GUILD) == []
    await store.close()


async def test_a_deleted_lobby_is_closed_as_abandoned_and_kept(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    assert (await svc.join(CH, "ann", "Ann", guild=GUILD, game="vikings")).ok
    assert not await svc.pause(CH, "deleted")
    assert await svc.table(CH) is None
    assert [m.status for m in await store.all_matches()] == ["abandoned"]
    assert not await svc.pause("nowhere", "deleted")
    await store.close()


async def test_a_deleted_table_is_paused_even_if_the_bot_was_removed_first(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await _start(svc, options=())
    assert await svc.pause(CH, "removed")
    assert await svc.pause(CH, "deleted", parent="p")  # the place went meanwhile: a deleted table
    assert not await svc.pause(CH, "removed")  # stays deleted
    assert halt_of((await svc.table(CH)).record)["why"] == "deleted"
    assert await svc.resume_guild(GUILD) == []  # an invitation brings no deleted place back
    await store.close()
