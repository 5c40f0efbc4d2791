"""Issue 25: the rematch votes and the rematch's claim are stored (schema 4), on SQLite and on
PostgreSQL (the ``database`` fixture runs each test on both)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.storage import NewTimer, Seat, Storage, StorageConflict
from tests.storage.test_storage import SEATS, play, started
from tests.toygame import ToyGame


@pytest.fixture
async def store(database):
    s = await Storage.open(database)
    yield s
    await s.close()


async def finished(store: Storage, channel: str = "c1") -> int:
    match_id, game = await started(store, channel)
    while not game.is_over:
        await play(store, match_id, game, 1)
    assert (await store.get_match(match_id)).status == "finished"
    return match_id


async def rematch(store: Storage, match_id: int, channel: str = "t2"):
    game = ToyGame.new([s.name for s in SEATS], seed=9)
    return await store.create_rematch(
        match_id, channel=channel, guild="g", game="toy", creator="u1", seats=SEATS, options={"max": 2},
        seed=9, start_seat=None, snapshot=game.to_json(), now=300.0,
        timers=[NewTimer("reminder", 400.0, {"seat": 0})])


async def test_rematch_votes_are_kept_once_each_and_survive_reopening(database):
    async with await Storage.open(database) as store:
        match_id = await finished(store)
        assert await store.rematch_votes(match_id) == [] and await store.rematch_of(match_id) is None
        assert await store.add_rematch_vote(match_id, "u2", "bob", now=10.0)
        assert not await store.add_rematch_vote(match_id, "u2", "bobby", now=11.0)  # a second press: nothing
    async with await Storage.open(database) as store:  # a restart
        assert await store.rematch_votes(match_id) == [("u2", "bob")]
        assert await store.add_rematch_vote(match_id, "u1", "alice", now=12.0)
        assert await store.rematch_votes(match_id) == [("u2", "bob"), ("u1", "alice")]


async def test_a_rematch_starts_once_with_its_timers_and_is_found_again(store):
    match_id = await finished(store)
    new = await rematch(store, match_id)
    assert (new.status, new.channel, new.version, new.options, new.seats) == ("active", "t2", 0, {"max": 2}, SEATS)
    assert await store.rematch_of(match_id) == new.id
    assert await store.open_match("t2") == new
    assert [t.kind for t in await store.timers(new.id)] == ["reminder"]
    with pytest.raises(StorageConflict):  # the second start (another process) writes nothing
        await rematch(store, match_id, channel="t3")
    assert await store.open_match("t3") is None and await store.rematch_of(match_id) == new.id


async def test_a_rematch_into_a_channel_with_an_open_table_writes_nothing(store):
    match_id = await finished(store)
    await store.create_lobby(channel="busy", game="toy", creator="u3", seats=[Seat("u3", "carol")], now=1.0)
    with pytest.raises(StorageConflict):
        await rematch(store, match_id, channel="busy")
    assert await store.rematch_of(match_id) is None
    assert (await store.open_match("busy")).status == "lobby"


async def test_a_rematch_vote_cancelled_while_its_write_begins_leaves_the_database_usable(tmp_path):
    """A press's task cancelled (the bot stopping) while SQLite's BEGIN runs in aiosqlite's thread
    must not leave the connection inside a transaction: every later write would fail with "cannot
    start a transaction within a transaction" (seen as a flaky command-sync test, issue 25)."""
    async with await Storage.open(tmp_path / "cancel.db") as store:
        match_id = await finished(store)
        for spins in range(6):  # cancel at each step of the write, BEGIN included
            task = asyncio.create_task(store.add_rematch_vote(match_id, f"u{spins}", "x", now=1.0))
            for _ in range(spins):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            assert await store.add_rematch_vote(match_id, f"v{spins}", "y", now=2.0)  # the next write works
