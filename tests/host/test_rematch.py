"""Issue 25, the host's side of a rematch (bot.host.rematch): votes, who may vote, the same seats
and options in a new table, once."""

from __future__ import annotations

from bot.games import GameRegistry
from bot.host.service import HostService
from bot.storage import Storage
from bot.storage.migrate import migrate
from tests.host_helpers import Clock
from tests.toygame import ToyAdapter


async def service(tmp_path, name: str = "r.db") -> tuple[HostService, Storage]:
    store = await Storage.open(tmp_path / name)
    svc = HostService(store, GameRegistry([ToyAdapter()]), clock=Clock(), images=False, seed_source=lambda: 4)
    await svc.load()
    return svc, store


async def finish(svc: HostService, channel: str, users: list[str], words: list[str]) -> int:
    for i, user in enumerate(users):
        assert (await svc.join(channel, user, user.title(), guild="g", game="toy" if i == 0 else None)).ok
    r = await svc.start(channel, users[0], "toy", words)
    assert r.ok, r.private
    match_id = r.match_id
    while (table := await svc.table(channel)) is not None:
        [seat] = table.game.acting_seats()
        assert (await svc.act(channel, table.record.seats[seat].user, "take 1")).ok
    return match_id


async def test_rematch_votes_then_the_same_seats_and_options_start_once(tmp_path):
    svc, store = await service(tmp_path)
    try:
        match_id = await finish(svc, "t1", ["u1", "u2", "bot:random:0"], ["pile=3", "max=2", "manual",
                                                                         "deadline:2h", "lang:de", "level:random"])
        r = await svc.rematch_vote(match_id, "u2", "Bobby", guild="g")
        assert (r.ok, r.code) == (True, "rematch_waiting")
        assert r.public == ["U2 will eine Revanche – wir warten auf U1."], r.public  # the table speaks lang:de
        again = await svc.rematch_vote(match_id, "u2", "Bobby", guild="g")
        assert (again.ok, again.code) == (False, "already_voted")
        assert (await svc.rematch_vote(match_id, "u9", "Eve", guild="g")).code == "not_player"
        assert (await svc.rematch_vote(match_id, "bot:random:0", "Ragnar", guild="g")).code == "not_player"
        assert (await svc.rematch_vote(match_id, "u1", "Ann", guild="other")).code == "no_table"
        early = await svc.rematch_start(match_id, "t2", guild="g")
        assert (early.ok, early.code) == (False, "not_started") and await svc.table("t2") is None
        r = await svc.rematch_vote(match_id, "u1", "Ann", guild="g")
        assert (r.ok, r.code) == (True, "rematch_agreed")
        r = await svc.rematch_start(match_id, "t2", guild="g", place=lambda c: f"<#{c}>")
        assert r.ok and r.prompts and r.mentions, r.private
        old, new = await store.get_match(match_id), await store.get_match(r.match_id)
        assert [s.user for s in new.seats] == [s.user for s in old.seats]
        assert new.names == ["Ann", "Bobby", old.names[2]]  # people as they asked, the computer as it was
        assert new.options == {"pile": 3, "max": 2, "host": {"forced_moves": False, "deadline": 7200,
                                                              "language": "de", "level": "random"}}
        assert (new.channel, new.status, new.guild) == ("t2", "active", "g")
        late = await svc.rematch_vote(match_id, "u1", "Ann", guild="g", place=lambda c: f"<#{c}>")
        assert (late.ok, late.code) == (False, "already_started") and "<#t2>" in late.private[0]
        assert (await svc.rematch_start(match_id, "t3", guild="g")).code == "already_started"
        assert await svc.table("t3") is None
    finally:
        await store.close()


async def test_rematch_of_a_game_played_in_a_channel_with_a_table_now_is_refused(tmp_path):
    svc, store = await service(tmp_path)
    try:
        match_id = await finish(svc, "c", ["u1", "u2"], ["pile=2"])
        for user in ("u1", "u2"):
            assert (await svc.rematch_vote(match_id, user, user, guild="g")).ok
        assert (await svc.join("c", "u3", "Cid", guild="g", game="toy")).ok  # somebody opened a table
        r = await svc.rematch_start(match_id, "c", guild="g")
        assert (r.ok, r.code) == (False, "already_started") and "finished or abandoned" in r.private[0]
        assert (await svc.table("c")).record.status == "lobby" and await store.rematch_of(match_id) is None
    finally:
        await store.close()


async def test_a_computer_that_took_a_seat_over_gives_it_back_to_its_person_in_the_rematch(tmp_path):
    svc, store = await service(tmp_path)
    try:
        for user in ("u1", "u2"):
            assert (await svc.join("c", user, user, guild="g", game="toy")).ok
        assert (await svc.start("c", "u1", "toy", ["pile=6"])).ok
        assert (await svc.replace("c", "u1", ["u2", "random"])).ok  # 1/2 votes
        assert "now plays" in (await svc.replace("c", "u2", ["u2", "yes"])).public[0]
        match_id = (await svc.table("c")).record.id
        while (table := await svc.table("c")) is not None:
            [seat] = table.game.acting_seats()
            assert (await svc.act("c", table.record.seats[seat].user, "take 1")).ok  # the computer's too
        assert (await store.get_match(match_id)).seats[1].user.startswith("bot:")
        assert (await svc.rematch_vote(match_id, "u1", "u1", guild="g")).code == "rematch_waiting"
        assert (await svc.rematch_vote(match_id, "u2", "u2", guild="g")).code == "rematch_agreed"
        r = await svc.rematch_start(match_id, "t", guild="g")
        assert [s.user for s in (await store.get_match(r.match_id)).seats] == ["u1", "u2"]
        assert "missed" not in (await store.get_match(r.match_id)).options["host"]
    finally:
        await store.close()


async def test_rematch_of_an_unknown_game_or_with_a_database_that_cannot_write_changes_nothing(tmp_path):
    from bot.storage import StorageUnavailable

    svc, store = await service(tmp_path)
    try:
        assert (await svc.rematch_vote(999, "u1", "Ann", guild="g")).code == "no_table"
        assert (await svc.rematch_vote(2**70, "u1", "Ann", guild="g")).code == "no_table"  # a forged custom id
        assert (await svc.rematch_start(999, "t9", guild="g")).code == "no_table"
        match_id = await finish(svc, "c", ["u1", "u2"], ["pile=2"])
        assert (await svc.rematch_vote(match_id, "u1", "Ann", guild="g")).ok

        async def cannot_write(*args, **kwargs):
            raise StorageUnavailable("could not write to the database: disk full", writing=True)

        store.add_rematch_vote = cannot_write  # type: ignore[method-assign]
        r = await svc.rematch_vote(match_id, "u2", "Bob", guild="g")
        assert (r.ok, r.code) == (False, "storage_failed") and await store.rematch_votes(match_id) == [("u1", "Ann")]
        del store.add_rematch_vote
        assert (await svc.rematch_vote(match_id, "u2", "Bob", guild="g")).code == "rematch_agreed"
        store.create_rematch = cannot_write  # type: ignore[method-assign]
        r = await svc.rematch_start(match_id, "t", guild="g")
        assert (r.ok, r.code) == (False, "storage_failed") and await svc.table("t") is None
        assert await store.rematch_of(match_id) is None
        del store.create_rematch
        assert (await svc.rematch_start(match_id, "t", guild="g")).ok  # tried again, it starts
        assert (await svc.table("t")).record.names == ["Ann", "Bob"]  # as they asked
    finally:
        await store.close()


async def test_migrate_db_keeps_a_waiting_vote_and_a_started_rematch(tmp_path, database):
    """Nothing lost in ``meadhall migrate-db``: a vote still waiting for the others counts in the
    copy, a rematch that already started does not start a second time there, and a table's live
    message (the meta table) is kept."""
    svc, store = await service(tmp_path)
    try:
        waiting = await finish(svc, "t1", ["u1", "u2"], ["pile=2"])
        assert (await svc.rematch_vote(waiting, "u2", "Bobby", guild="g")).code == "rematch_waiting"
        done = await finish(svc, "t2", ["u1", "u2"], ["pile=2"])
        for user in ("u1", "u2"):
            assert (await svc.rematch_vote(done, user, user.title(), guild="g")).ok
        assert (await svc.rematch_start(done, "t3", guild="g")).ok
        await store.set_meta("live-message:t3", '{"live": null}')  # what the Discord transport keeps
    finally:
        await store.close()
    report = await migrate(tmp_path / "r.db", database, GameRegistry([ToyAdapter()]))  # SQLite, PostgreSQL
    assert (report.rematch_votes, report.rematches) == (3, 1)
    assert "3 rematch votes, 1 rematches" in report.summary() and report.meta == 1
    store = await Storage.open(database)
    svc = HostService(store, GameRegistry([ToyAdapter()]), clock=Clock(), images=False, seed_source=lambda: 4)
    await svc.load()
    try:
        assert (await svc.rematch_vote(waiting, "u2", "Bobby", guild="g")).code == "already_voted"
        assert (await svc.rematch_vote(waiting, "u1", "Ann", guild="g")).code == "rematch_agreed"
        assert (await svc.rematch_start(done, "t4", guild="g")).code == "already_started"
        assert await svc.table("t4") is None
        assert await store.get_meta("live-message:t3") == '{"live": null}'
    finally:
        await store.close()
