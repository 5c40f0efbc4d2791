"""Schema 4 (issue 25): when a match started (turn times), people's ping settings, the ping timers
a transport keeps across actions, and the migration from schema 3 — on SQLite and on a real
PostgreSQL (the ``database`` fixture, tests/pgserver.py)."""

from __future__ import annotations

import json

import pytest

from bot.games.registry import default_registry
from bot.storage import MIGRATIONS, NewTimer, PlayerSettings, Storage
from bot.storage import postgres as pg_backend
from bot.storage.migrate import migrate
from tests.storage.test_storage import SEATS, play, raw, started
from tests.toygame import ToyGame


@pytest.fixture
async def store(database):
    s = await Storage.open(database)
    yield s
    await s.close()


def migrations_of(backend: str):
    return MIGRATIONS if backend == "sqlite" else pg_backend.MIGRATIONS


async def test_turn_time_start_of_a_match_is_stored_when_it_starts(store):
    match_id, _game = await started(store, now=123.5)
    rec = await store.get_match(match_id)
    assert rec.started == 123.5 and rec.created == 123.5
    lobby = await store.create_lobby(channel="c2", game="toy", creator="u1", seats=SEATS, now=7.0)
    assert lobby.started is None  # a lobby has not started


async def test_ping_setting_is_stored_per_user_and_replaced(store):
    assert await store.player_settings(["u1", "u2"]) == {}
    await store.set_player_settings(PlayerSettings("u1", "after", 6), now=1.0)
    await store.set_player_settings(PlayerSettings("u2", "reminders"), now=1.0)
    assert await store.player_settings(["u1", "u2", "u3"]) == {
        "u1": PlayerSettings("u1", "after", 6), "u2": PlayerSettings("u2", "reminders")}
    await store.set_player_settings(PlayerSettings("u1", "every"), now=2.0)  # an upsert, one row per user
    assert await store.player_settings(["u1"]) == {"u1": PlayerSettings("u1", "every")}
    assert [s.user for s in await store.all_player_settings()] == ["u1", "u2"]
    assert await store.player_settings([]) == {}


@pytest.mark.parametrize("bad", [PlayerSettings("u1", "sometimes"), PlayerSettings("u1", "after"),
                                 PlayerSettings("u1", "after", 0), PlayerSettings("u1", "every", 3)])
async def test_ping_setting_that_does_not_fit_is_refused_and_changes_nothing(store, bad):
    await store.set_player_settings(PlayerSettings("u1", "reminders"), now=1.0)
    with pytest.raises(ValueError):
        await store.set_player_settings(bad, now=2.0)
    assert await store.player_settings(["u1"]) == {"u1": PlayerSettings("u1", "reminders")}


async def test_ping_setting_timers_outlive_a_new_action_but_not_the_end(store):
    """A ``ping`` timer is the transport's: an action's new timers replace the host's own
    (reminders, deadlines), not it; the end of the match drops it with the rest."""
    match_id, game = await started(store)
    await store.add_timers(match_id, [NewTimer("ping", 9_000.0, {"seat": 1, "user": "u2", "since": 100.0})])
    seat = game.acting_seats()[0]
    action = game.legal_actions(seat)[0]
    game.apply(seat, action)
    await store.commit_action(match_id, expected_version=0, seat=seat, action=str(action), snapshot=game.to_json(),
                              status="active", now=150.0, timers=[NewTimer("reminder", 500.0, {"seat": 1})])
    assert sorted(t.kind for t in await store.timers(match_id)) == ["ping", "reminder"]
    [ping] = await store.take_due_timers(10_000.0, kind="ping")
    assert ping.payload == {"seat": 1, "user": "u2", "since": 100.0}
    await store.add_timers(match_id, [NewTimer("ping", 9_000.0, {"seat": 0})])
    while not game.is_over:  # to the end
        await play(store, match_id, game, 1)
    assert game.is_over and await store.timers(match_id) == []


async def test_turn_time_and_ping_setting_schema_3_database_migrates_to_5(database, backend):
    """A database of schema 3 (before issue 25) opens: ``started`` is added (NULL for the games
    already there, which keep everything else) and ``player_settings`` is created."""
    old = migrations_of(backend)[:3]
    async with await Storage.open(database, migrations=old) as store:
        assert await store.schema_version() == 3
        await raw(store, "INSERT INTO matches (guild, channel, game, options, seed, status, creator, seats, version, "
                         "snapshot, created, updated, link) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  ("g", "c1", "toy", "{}", 5, "active", "u1",
                   json.dumps([s.to_json() for s in SEATS]), 0,
                   json.dumps(ToyGame.new(["alice", "bob"], seed=5).to_json()), 10.0, 20.0, "https://x"))
        await raw(store, "INSERT INTO meta (key, value) VALUES (?, ?)", ("k", "v"))
    async with await Storage.open(database) as store:
        assert await store.schema_version() == len(migrations_of(backend)) == 6
        [rec] = await store.unfinished_matches()
        assert (rec.started, rec.created, rec.updated, rec.link, rec.seats) == (None, 10.0, 20.0, "https://x", SEATS)
        assert await store.get_meta("k") == "v"
        await store.set_player_settings(PlayerSettings("u1", "after", 2), now=30.0)
        assert await store.player_settings(["u1"]) == {"u1": PlayerSettings("u1", "after", 2)}


async def test_ping_setting_and_turn_time_start_are_copied_by_migrate_db(database, tmp_path):
    """``meadhall migrate-db`` copies people's settings and each match's start."""
    async with await Storage.open(database) as store:
        match_id, game = await started(store, now=42.0)
        await play(store, match_id, game, 3)
        await store.set_player_settings(PlayerSettings("u2", "reminders"), now=1.0)
    target = tmp_path / "copy.db"
    report = await migrate(database, target, default_registry())
    assert report.settings == 1 and report.matches == 1
    async with await Storage.open(target) as copy:
        assert (await copy.get_match(match_id)).started == 42.0
        assert await copy.player_settings(["u2"]) == {"u2": PlayerSettings("u2", "reminders")}

