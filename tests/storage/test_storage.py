"""Storage: migrations, WAL, atomic action commits, the append-only log, timers, history, replay.

Every test that takes the ``database`` fixture runs on SQLite and on a real PostgreSQL
(tests/pgserver.py); the rest are about SQLite itself."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import (
    MIGRATIONS,
    NewTimer,
    Seat,
    StaleVersionError,
    Storage,
    StorageConflict,
    StorageError,
    StorageUnavailable,
    rebuild,
)
from engine.core import Rng
from tests.toygame import ToyGame

SEATS = [Seat("u1", "alice"), Seat("u2", "bob")]


@pytest.fixture
async def store(database):
    s = await Storage.open(database)
    yield s
    await s.close()


async def raw(store: Storage, sql: str, params=()) -> None:
    """Run SQL on the store's own backend, in one transaction."""
    async with store._tx() as db:
        await db.execute(sql, params)


async def started(store: Storage, channel: str = "c1", seed: int = 5, now: float = 100.0):
    rec = await store.create_lobby(channel=channel, game="toy", creator="u1", seats=SEATS, now=now, guild="g")
    game = ToyGame.new([s.name for s in SEATS], seed=seed)
    await store.start_match(rec.id, game="toy", options={}, seed=seed, start_seat=None, seats=SEATS,
                            snapshot=game.to_json(), now=now)
    return rec.id, game


async def play(store: Storage, match_id: int, game: ToyGame, steps: int, now: float = 200.0) -> None:
    version = (await store.get_match(match_id)).version
    for _ in range(steps):
        seat = game.acting_seats()[0]
        action = game.legal_actions(seat)[0]
        game.apply(seat, action)
        version = await store.commit_action(
            match_id, expected_version=version, seat=seat, action=str(action), snapshot=game.to_json(),
            status="finished" if game.is_over else "active", now=now,
        )


# ----------------------------------------------------------------------------- schema


async def test_new_database_is_migrated(database):
    async with await Storage.open(database) as store:
        assert await store.schema_version() == len(MIGRATIONS) == len(type(store).MIGRATIONS)


async def test_a_sqlite_database_is_in_wal_mode(tmp_path):
    async with await Storage.open(tmp_path / "a.db") as store:
        assert await store.journal_mode() == "wal"


@pytest.mark.parametrize("spelling", ["path", "url"])
async def test_sqlite_is_opened_by_path_or_url(tmp_path, monkeypatch, spelling):
    monkeypatch.chdir(tmp_path)
    database = "a.db" if spelling == "path" else "sqlite:///a.db"
    async with await Storage.open(database) as store:
        await started(store)
    async with await Storage.open(f"sqlite:///{tmp_path}/a.db") as store:
        assert len(await store.unfinished_matches()) == 1


@pytest.mark.parametrize("bad", ["sqlite://a.db", "mysql://host/db", "sqlite:///"])
async def test_a_database_setting_of_no_known_kind_is_refused(bad):
    with pytest.raises(StorageError, match="database"):
        await Storage.open(bad)


async def test_reopening_keeps_data_and_does_not_reapply_migrations(database):
    async with await Storage.open(database) as store:
        mid, _ = await started(store)
    async with await Storage.open(database) as store:
        assert await store.schema_version() == len(MIGRATIONS)
        assert (await store.get_match(mid)).status == "active"


async def test_a_new_migration_step_is_applied_once_on_reopen(database):
    async with await Storage.open(database) as store:
        mid, _ = await started(store)
        extra = [*type(store).MIGRATIONS, ("ALTER TABLE matches ADD COLUMN note TEXT",)]
    async with await Storage.open(database, migrations=extra) as store:
        assert await store.schema_version() == len(MIGRATIONS) + 1
        assert (await store.get_match(mid)).status == "active"
    async with await Storage.open(database, migrations=extra) as store:  # no "duplicate column" error
        assert await store.schema_version() == len(extra)


async def test_a_failing_migration_step_changes_nothing(database):
    async with await Storage.open(database) as store:
        broken = [*type(store).MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "THIS IS NOT SQL")]
    with pytest.raises(StorageError, match="THIS") as failed:
        await Storage.open(database, migrations=broken)
    assert str(database) in str(failed.value)  # the startup error names the database
    async with await Storage.open(database) as store:
        assert await store.schema_version() == len(MIGRATIONS)
        with pytest.raises(StorageUnavailable, match="extra"):
            await store._fetchall("SELECT x FROM extra")


async def test_a_database_from_a_newer_meadhall_is_refused(database):
    async with await Storage.open(database) as store:
        await raw(store, "UPDATE schema_version SET version = 99")
    with pytest.raises(StorageError, match="newer"):
        await Storage.open(database)


async def test_bad_synchronous_setting_is_refused(tmp_path):
    with pytest.raises(ValueError, match="synchronous"):
        await Storage.open(tmp_path / "a.db", synchronous="SOMETIMES")


# ----------------------------------------------------------------------------- matches


async def test_lobby_then_start_then_actions(store):
    rec = await store.create_lobby(channel="c1", game="toy", creator="u1", seats=SEATS[:1], now=1.0, guild="g")
    assert (rec.status, rec.version, rec.seats, rec.snapshot) == ("lobby", 0, SEATS[:1], None)
    await store.update_lobby(rec.id, seats=SEATS, creator="u1", game="toy", now=2.0)
    assert (await store.open_match("c1")).seats == SEATS
    game = ToyGame.new(["alice", "bob"], seed=3)
    await store.start_match(rec.id, game="toy", options={"max": 3}, seed=3, start_seat=None, seats=SEATS,
                            snapshot=game.to_json(), now=3.0)
    await play(store, rec.id, game, 2, now=4.0)
    got = await store.get_match(rec.id)
    assert (got.status, got.version, got.options, got.seed, got.start_seat) == ("active", 2, {"max": 3}, 3, None)
    assert got.snapshot == game.to_json()
    assert (got.created, got.updated) == (1.0, 4.0)
    assert [(a.seq, a.at) for a in await store.actions(rec.id)] == [(1, 4.0), (2, 4.0)]


async def test_only_one_open_match_per_channel(store):
    await store.create_lobby(channel="c1", game="toy", creator="u1", seats=SEATS, now=1.0)
    with pytest.raises(StorageConflict):
        await store.create_lobby(channel="c1", game="toy", creator="u2", seats=SEATS, now=1.0)
    # the failed insert left the connection usable
    assert (await store.open_match("c1")).creator == "u1"


async def test_commit_with_a_stale_version_writes_nothing(store):
    mid, game = await started(store)
    await play(store, mid, game, 1)
    seat = game.acting_seats()[0]
    with pytest.raises(StaleVersionError) as err:
        await store.commit_action(mid, expected_version=0, seat=seat, action="take 1", snapshot={}, status="active",
                                  now=9.0)
    assert (err.value.expected, err.value.found) == (0, 1)
    got = await store.get_match(mid)
    assert got.version == 1 and got.snapshot == game.to_json()
    assert len(await store.actions(mid)) == 1


async def test_commit_is_one_transaction(store):
    """If the log row cannot be written, the snapshot and version stay as they were."""
    mid, game = await started(store)
    await raw(store, "INSERT INTO actions (match, seq, seat, action, at) VALUES (?, 1, 0, 'x', 1.0)", (mid,))
    seat = game.acting_seats()[0]
    with pytest.raises(StorageConflict):
        await store.commit_action(mid, expected_version=0, seat=seat, action="take 1", snapshot={"x": 1},
                                  status="active", now=9.0)
    got = await store.get_match(mid)
    assert (got.version, got.snapshot) == (0, game.to_json())


async def test_commit_is_one_transaction_sqlite_trigger(tmp_path):
    async with await Storage.open(tmp_path / "t.db") as store:
        mid, game = await started(store)
        with sqlite3.connect(tmp_path / "t.db") as conn:
            conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        with pytest.raises(StorageConflict, match="disk full"):
            await store.commit_action(mid, expected_version=0, seat=game.acting_seats()[0], action="take 1",
                                      snapshot={"x": 1}, status="active", now=9.0)
        got = await store.get_match(mid)
        assert (got.version, got.snapshot) == (0, game.to_json())


async def test_commit_refuses_a_status_other_than_active_or_finished(store):
    mid, _ = await started(store)
    with pytest.raises(ValueError, match="active or finished"):
        await store.commit_action(mid, expected_version=0, seat=0, action="take 1", snapshot={}, status="lobby",
                                  now=1.0)


async def test_commit_on_a_closed_match_is_stale(store):
    mid, game = await started(store)
    await store.close_match(mid, "abandoned", now=5.0)
    with pytest.raises(StaleVersionError):
        await store.commit_action(mid, expected_version=0, seat=0, action="take 1", snapshot={}, status="active",
                                  now=6.0)
    with pytest.raises(StorageError, match="not open"):
        await store.close_match(mid, "abandoned", now=7.0)
    with pytest.raises(ValueError):
        await store.close_match(mid, "active", now=7.0)


async def test_lobby_updates_refused_once_started(store):
    mid, _ = await started(store)
    with pytest.raises(StorageError, match="not a lobby"):
        await store.update_lobby(mid, seats=SEATS, creator="u1", game="toy", now=1.0)
    with pytest.raises(StorageError, match="not a lobby"):
        await store.start_match(mid, game="toy", options={}, seed=1, start_seat=None, seats=SEATS, snapshot={},
                                now=1.0)


async def test_the_action_log_is_append_only(store):
    mid, game = await started(store)
    await play(store, mid, game, 1)
    with pytest.raises(StorageConflict, match="append-only"):
        await raw(store, "UPDATE actions SET action = 'take 3'")
    with pytest.raises(StorageConflict, match="append-only"):
        await raw(store, "DELETE FROM actions")
    assert len(await store.actions(mid)) == 1


async def test_the_action_log_is_append_only_for_other_sqlite_clients(tmp_path):
    async with await Storage.open(tmp_path / "t.db") as store:
        mid, game = await started(store)
        await play(store, mid, game, 1)
    with sqlite3.connect(tmp_path / "t.db") as conn:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE actions SET action = 'take 3'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM actions")


async def test_unfinished_and_history(store):
    a, game_a = await started(store, "c1")
    b, _ = await started(store, "c2")
    lobby = await store.create_lobby(channel="c3", game="toy", creator="u1", seats=SEATS, now=1.0, guild="h")
    while not game_a.is_over:
        await play(store, a, game_a, 1)
    await store.close_match(b, "abandoned", now=9.0)
    assert [m.id for m in await store.unfinished_matches()] == [lobby.id]
    assert [m.id for m in await store.history()] == [b, a]  # newest first
    assert [m.status for m in await store.history(channel="c1")] == ["finished"]
    assert [m.id for m in await store.history(guild="g", limit=1)] == [b]
    assert await store.history(guild="h") == []
    assert (await store.last_match("c1")).status == "finished"
    assert await store.open_match("c1") is None
    assert await store.last_match("nowhere") is None and await store.get_match(999) is None


async def test_unfinished_matches_without_snapshots(store):
    a, game = await started(store, "c1")
    full, light = await store.unfinished_matches(), await store.unfinished_matches(snapshots=False)
    assert [m.id for m in light] == [m.id for m in full] == [a] and full[0].snapshot == game.to_json()
    assert light[0].snapshot is None and light[0].seats == full[0].seats and light[0].version == 0


async def test_votes_are_stored(store):
    mid, _ = await started(store)
    await store.set_votes(mid, ["u2"], now=5.0)
    assert (await store.get_match(mid)).votes == ["u2"]


# ----------------------------------------------------------------------------- timers


async def test_timers_are_taken_when_due_and_only_then(store):
    mid, _ = await started(store)
    await store.add_timers(mid, [NewTimer("reminder", 50.0, {"seat": 0}), NewTimer("reminder", 10.0, {"seat": 1}),
                                 NewTimer("other", 5.0)])
    assert await store.next_timer_due() == 5.0
    assert await store.take_due_timers(9.0, kind="reminder") == []
    taken = await store.take_due_timers(10.0, kind="reminder")
    assert [(t.due, t.payload) for t in taken] == [(10.0, {"seat": 1})]
    assert [t.kind for t in await store.timers(mid)] == ["other", "reminder"]
    assert [t.kind for t in await store.take_due_timers(100.0)] == ["other", "reminder"]
    assert await store.timers() == [] and await store.next_timer_due() is None


async def test_taking_due_timers_of_some_guilds_only(store):
    """A shard process takes only its guilds' timers; the others stay for their own process."""
    mine, _ = await started(store, "c1")  # guild "g"
    rec = await store.create_lobby(channel="c2", game="toy", creator="u1", seats=SEATS, now=1.0, guild="other")
    await store.add_timers(mine, [NewTimer("reminder", 5.0)])
    await store.add_timers(rec.id, [NewTimer("reminder", 5.0), NewTimer("other", 5.0)])
    assert [t.match for t in await store.take_due_timers(10.0, kind="reminder", guilds=lambda g: g == "g")] == [mine]
    assert await store.take_due_timers(10.0, guilds=lambda g: g == "g") == []
    assert sorted((t.match, t.kind) for t in await store.timers()) == [(rec.id, "other"), (rec.id, "reminder")]


async def test_commit_replaces_timers_and_finishing_drops_them(store):
    mid, game = await started(store)
    await store.add_timers(mid, [NewTimer("reminder", 50.0, {"seat": 0})])
    seat = game.acting_seats()[0]
    game.apply(seat, "take 1")
    await store.commit_action(mid, expected_version=0, seat=seat, action="take 1", snapshot=game.to_json(),
                              status="active", now=60.0, timers=[NewTimer("reminder", 120.0, {"seat": 1})])
    assert [(t.due, t.payload) for t in await store.timers(mid)] == [(120.0, {"seat": 1})]
    seat = game.acting_seats()[0]
    game.apply(seat, "take 1")
    await store.commit_action(mid, expected_version=1, seat=seat, action="take 1", snapshot=game.to_json(),
                              status="active", now=61.0)  # timers=None keeps them
    assert len(await store.timers(mid)) == 1
    while not game.is_over:
        await play(store, mid, game, 1)
    assert await store.timers(mid) == []


async def test_closing_a_match_drops_its_timers(store):
    mid, _ = await started(store)
    other, _ = await started(store, "c2")
    await store.add_timers(mid, [NewTimer("reminder", 50.0)])
    await store.add_timers(other, [NewTimer("reminder", 50.0)])
    await store.close_match(mid, "abandoned", now=5.0)
    assert [t.match for t in await store.timers()] == [other]


async def test_timers_survive_reopening(database):
    path = database
    async with await Storage.open(path) as store:
        mid, _ = await started(store)
        await store.add_timers(mid, [NewTimer("reminder", 50.0, {"seat": 1, "user": "u2"})])
    async with await Storage.open(path) as store:
        assert [(t.match, t.payload) for t in await store.take_due_timers(60.0)] == [(mid, {"seat": 1, "user": "u2"})]


# ----------------------------------------------------------------------------- replay


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
async def test_replaying_the_log_equals_the_snapshot(store, seed):
    mid, game = await started(store, seed=seed)
    chooser = Rng(seed + 1000)
    version = 0
    while not game.is_over:
        seat = game.acting_seats()[0]
        if chooser.randbelow(4) == 0:
            other = chooser.randbelow(2)  # a free action from any seat
            game.apply(other, "taunt")
            act, seat = "taunt", other
        else:
            act = str(chooser.choice(game.legal_actions(seat)))
            game.apply(seat, act)
        version = await store.commit_action(mid, expected_version=version, seat=seat, action=act,
                                            snapshot=game.to_json(), status="finished" if game.is_over else "active",
                                            now=1.0)
        if version == 3:  # mid-game too
            rec = await store.get_match(mid)
            assert rebuild(ToyGame, rec, await store.actions(mid)).to_json() == rec.snapshot
    rec = await store.get_match(mid)
    rebuilt = rebuild(ToyGame, rec, await store.actions(mid))
    assert rebuilt.to_json() == rec.snapshot == game.to_json()
    assert rebuilt.is_over and rebuilt.winners() == game.winners()


async def test_replay_detects_a_gap_in_the_log(store):
    mid, game = await started(store)
    await play(store, mid, game, 3)
    rec = await store.get_match(mid)
    actions = await store.actions(mid)
    with pytest.raises(StorageError, match="gap"):
        rebuild(ToyGame, rec, [actions[0], actions[2]])


# ----------------------------------------------------------------------------- ratings data (issue 17)


async def test_a_version_1_database_gains_the_link_column_and_keeps_its_matches(database):
    from bot.storage.postgres import MIGRATIONS as PG_MIGRATIONS

    first_step = (PG_MIGRATIONS if "postgresql" in str(database) else MIGRATIONS)[:1]
    async with await Storage.open(database, migrations=first_step) as store:
        assert await store.schema_version() == 1
        await raw(store, "INSERT INTO matches (channel, game, status, creator, created, updated) "
                  "VALUES ('c1', 'toy', 'lobby', 'u1', 1.0, 1.0)")
    async with await Storage.open(database) as store:
        assert await store.schema_version() == len(MIGRATIONS) >= 2
        (rec,) = await store.unfinished_matches()
        assert rec.status == "lobby" and rec.link is None


async def test_meta_values_are_stored_and_replaced(store):
    """Schema 3 (issue 24): the meta table, e.g. the hash of the slash commands last synced."""
    assert await store.get_meta("commands:1:global") is None
    await store.set_meta("commands:1:global", "abc")
    await store.set_meta("commands:1:global", "def")
    await store.set_meta("commands:1:guild:7", "abc")
    assert await store.get_meta("commands:1:global") == "def"
    assert await store.get_meta("commands:1:guild:7") == "abc"


async def test_a_match_link_is_stored_cleared_and_refused_for_no_match(store):
    mid, _ = await started(store)
    await store.set_link(mid, "https://discord.com/channels/1/2")
    assert (await store.get_match(mid)).link == "https://discord.com/channels/1/2"
    await store.set_link(mid, None)
    assert (await store.get_match(mid)).link is None
    with pytest.raises(StorageError, match="no match"):
        await store.set_link(mid + 100, "x")
    assert (await store.get_match(mid)).link is None


def until_over(game: ToyGame) -> int:
    """How many first-legal moves end the toy game (played on a copy)."""
    copy, n = ToyGame.from_json(game.to_json()), 0
    while not copy.is_over:
        seat = copy.acting_seats()[0]
        copy.apply(seat, copy.legal_actions(seat)[0])
        n += 1
    return n


async def test_finished_matches_in_the_order_they_ended_by_game_and_guild(store):
    first, g1 = await started(store, channel="c1")
    second, g2 = await started(store, channel="c2")
    third, _ = await started(store, channel="c3")
    await play(store, second, g2, until_over(g2), now=300.0)   # ends first
    await play(store, first, g1, until_over(g1), now=400.0)
    await store.close_match(third, "abandoned", now=500.0)   # never rated
    assert [m.id for m in await store.finished_matches()] == [second, first]
    assert [m.id for m in await store.finished_matches(game="toy", guild="g")] == [second, first]
    assert await store.finished_matches(game="vikings") == []
    assert await store.finished_matches(guild="other") == []
