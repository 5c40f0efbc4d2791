"""Storage that fails safely (issue 11): a read-only database, a full disk or a lock held past the
busy timeout become a ``storage_failed`` refusal with nothing changed, the startup error names the
database, and one table waiting for the database does not hold up the others."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot.games import GameRegistry
from bot.host.service import HostService, Reply
from bot.storage import Storage, StorageError, StorageUnavailable
from tests.toygame import ToyAdapter

A, B = "chan-a", "chan-b"


class Clock:
    t = 1_000.0

    def __call__(self) -> float:
        return self.t


async def open_host(path, **kw) -> tuple[Storage, HostService]:
    store = await Storage.open(path, **kw)
    svc = HostService(store, GameRegistry([ToyAdapter()]), clock=Clock(), images=False)
    await svc.load()
    return store, svc


async def start_game(svc: HostService, channel: str) -> None:
    for user in ("ann", "bob"):
        assert (await svc.join(channel, user, user.title(), guild="g")).ok
    assert (await svc.start(channel, "ann", options=["pile=12"], seed=3, start_seat=0)).ok


def refused_storage(reply: Reply) -> None:
    assert (reply.ok, reply.code) == (False, "storage_failed"), reply
    assert reply.private and not reply.public and reply.image is None


async def state(svc: HostService, store: Storage, channel: str) -> tuple[str, int, int]:
    """The live game (JSON), the stored version and the number of logged actions."""
    table = await svc.table(channel)
    rec = await store.get_match(table.record.id)
    return (json.dumps(table.game.to_json(), sort_keys=True), rec.version,
            len(await store.actions(rec.id)))


def raw_rows(path) -> list:
    with sqlite3.connect(path) as raw:
        return (raw.execute("SELECT id, version, snapshot, status FROM matches ORDER BY id").fetchall()
                + raw.execute("SELECT * FROM actions ORDER BY match, seq").fetchall()
                + raw.execute("SELECT * FROM timers ORDER BY id").fetchall())


@pytest.fixture
async def host(tmp_path):
    store, svc = await open_host(tmp_path / "h.db", busy_timeout=0.3)
    await start_game(svc, A)
    yield tmp_path / "h.db", store, svc
    await store.close()


async def test_a_read_only_database_refuses_the_move_and_changes_nothing(host):
    path, store, svc = host
    before, rows = await state(svc, store, A), raw_rows(path)
    await store._conn.execute("PRAGMA query_only=ON")  # every write now fails: SQLITE_READONLY
    refused_storage(await svc.act(A, "ann", "take 2"))
    assert await state(svc, store, A) == before and raw_rows(path) == rows
    assert (await svc.table(A)).game.pile == 12  # the live game did not advance
    # the lobby commands refuse as well, and nothing is written
    refused_storage(await svc.join(B, "cat", "Cat"))
    assert await svc.table(B) is None
    await store._conn.execute("PRAGMA query_only=OFF")
    assert (await svc.act(A, "ann", "take 2")).ok  # the same move works once the disk is back
    assert (await svc.table(A)).game.pile == 10


async def test_a_full_disk_rolls_the_commit_back(host):
    path, store, svc = host
    async with store._conn.execute("PRAGMA page_count") as cur:
        pages = (await cur.fetchone())[0]
    await store._conn.execute(f"PRAGMA max_page_count={pages}")  # no page more: SQLITE_FULL
    before, rows = await state(svc, store, A), raw_rows(path)
    big = "x" * 20 * 4096  # a log line that needs new pages
    with pytest.raises(StorageUnavailable, match="full") as failed:
        await store.commit_action((await svc.table(A)).record.id, expected_version=0, seat=0, action=big,
                                  snapshot={}, status="active", now=1.0)
    assert failed.value.writing and str(path) in str(failed.value)
    assert await state(svc, store, A) == before and raw_rows(path) == rows


class FullDisk:
    """The write connection of a store whose disk fills up at the next INSERT."""

    def __init__(self, conn) -> None:
        self.conn = conn

    def execute(self, sql, *args):
        if sql.startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


async def test_a_full_disk_refuses_the_move_and_changes_nothing(host):
    path, store, svc = host
    before, rows = await state(svc, store, A), raw_rows(path)
    real, store._conn = store._conn, FullDisk(store._conn)
    try:
        refused_storage(await svc.act(A, "ann", "take 2"))
    finally:
        store._conn = real
    assert await state(svc, store, A) == before and raw_rows(path) == rows
    assert (await svc.act(A, "ann", "take 2")).ok


async def test_a_lock_held_past_the_busy_timeout_is_refused_and_other_tables_go_on(host):
    path, store, svc = host
    await start_game(svc, B)
    svc._tables.pop(B)  # B must be read from the database while A waits
    before = await state(svc, store, A)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        waiting = asyncio.create_task(svc.act(A, "ann", "take 2"))
        await asyncio.sleep(0.05)
        status = await svc.status(B)  # a read of another table is not held up by A's write
        assert status.ok and not waiting.done()
        refused_storage(await waiting)
        # writes queued behind a waiting write give up at the same deadline, not one after another
        many = await asyncio.gather(svc.act(A, "ann", "take 1"), svc.act(B, "ann", "take 1"),
                                    svc.abandon(B, "ann"))
        for r in many:
            refused_storage(r)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await state(svc, store, A) == before
    assert (await svc.act(A, "ann", "take 2")).ok


async def test_storage_refusals_are_translated_sentences(host):
    _, store, svc = host
    await store._conn.execute("PRAGMA query_only=ON")
    r = await svc.act(A, "ann", "take 1")
    assert r.private == ["That could not be saved, so nothing changed. Please try again in a moment."]
    await store._conn.execute("PRAGMA query_only=OFF")


async def test_a_database_that_cannot_be_read_is_refused_as_such(host):
    _, store, svc = host
    svc._tables.clear()
    await store._reader.execute("PRAGMA query_only=ON")
    real = store._reader

    class Broken:
        def execute(self, *a):
            raise sqlite3.DatabaseError("disk I/O error")

    store._reader = Broken()
    try:
        r = await svc.status(A)
        refused_storage(r)
        assert "could not be read" in r.private[0]
    finally:
        store._reader = real


@pytest.mark.parametrize("make", ["directory", "garbage"])
async def test_the_startup_error_names_the_database(tmp_path, make):
    path = tmp_path / "broken.db"
    if make == "directory":
        path.mkdir()
    else:
        path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StorageError) as failed:
        await Storage.open(path)
    assert str(path) in str(failed.value)


async def test_busy_timeout_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="busy_timeout"):
        await Storage.open(tmp_path / "a.db", busy_timeout=0)
