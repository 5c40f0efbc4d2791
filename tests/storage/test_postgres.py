"""PostgreSQL: many processes on one database (issue 15), its failures, the configuration of the
database, and ``meadhall migrate-db``.

"Two processes" are two :class:`HostService` instances, each with its own connection pool, on one
database: to PostgreSQL they are two clients exactly as two processes are.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot import cli
from bot.config import DATABASE_ENV, ConfigError, load_config
from bot.games import GameRegistry
from bot.games.registry import default_registry
from bot.host.seats import add_bot, play_bots
from bot.host.service import HostService, Reply
from bot.storage import Storage, StorageError, rebuild
from bot.storage.migrate import migrate
from tests.toygame import ToyAdapter, ToyGame

pytestmark = pytest.mark.postgres
CH = "chan-1"


class Clock:
    def __init__(self, t: float = 1_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def two_hosts(pg_url):
    """Two hosts ("processes") over one PostgreSQL database, sharing a clock."""
    clock = Clock()
    stores = [await Storage.open(pg_url) for _ in range(2)]
    hosts = [HostService(s, GameRegistry([ToyAdapter()]), clock=clock, images=False, reminder_delay=600,
                         reminder_limit=3) for s in stores]
    yield hosts, clock
    for s in stores:
        await s.close()


async def toy_game(svc: HostService, channel: str = CH, pile: int = 40) -> None:
    for user in ("ann", "bob"):
        assert (await svc.join(channel, user, user.title(), guild="g")).ok
    assert (await svc.start(channel, "ann", options=[f"pile={pile}"], seed=1, start_seat=0)).ok


# ----------------------------------------------------------------------------- many processes


async def test_two_hosts_never_both_apply_an_action_at_the_same_version(two_hosts):
    (a, b), _ = two_hosts
    await toy_game(a)
    for _round in range(12):
        for svc in (a, b):
            svc._tables.pop(CH, None)  # both hold the table at the current version
            await svc.table(CH)
        version = (await a.table(CH)).record.version
        user = "ann" if version % 2 == 0 else "bob"
        ra, rb = await asyncio.gather(a.act(CH, user, "take 1"), b.act(CH, user, "take 2"))
        assert sorted([ra.ok, rb.ok]) == [False, True], (ra, rb)
        loser = ra if not ra.ok else rb
        assert loser.code == "stale"
        stored = await a.storage.get_match((await a.table(CH)).record.id)
        assert stored.version == version + 1
    log = await a.storage.actions(stored.id)
    assert [x.seq for x in log] == list(range(1, 13))
    assert rebuild(ToyGame, stored, log).to_json() == stored.snapshot


async def test_typed_moves_from_two_hosts_keep_one_consistent_log(two_hosts):
    (a, b), _ = two_hosts
    await toy_game(a, pile=200)
    applied: list[Reply] = []

    async def player(svc: HostService, user: str) -> None:
        for _ in range(25):
            svc._tables.pop(CH, None)
            r = await svc.act(CH, user, "taunt")  # a free action: every seat, any time
            assert r.ok or r.code == "stale", r
            if r.ok:
                applied.append(r)

    await asyncio.gather(player(a, "ann"), player(b, "bob"), player(a, "bob"), player(b, "ann"))
    rec = await a.storage.get_match(applied[0].match_id)
    assert sorted(r.version for r in applied) == list(range(1, rec.version + 1))  # each version once
    assert rebuild(ToyGame, rec, await a.storage.actions(rec.id)).to_json() == rec.snapshot


async def test_a_reminder_fires_exactly_once_across_processes(two_hosts):
    (a, b), clock = two_hosts
    await toy_game(a)
    await b.load()
    fired = []
    for _ in range(3):  # the first reminder and its re-arms
        clock.t += 601
        results = await asyncio.gather(*(svc.due_reminders() for svc in (a, b, a, b)))
        fired.append(sum(len(r) for r in results))
    clock.t += 601
    assert fired == [1, 1, 1]  # reminder_limit 3: sent three times in all, each by one process
    assert sum(len(r) for r in await asyncio.gather(a.due_reminders(), b.due_reminders())) == 0


async def test_a_computer_players_move_is_made_by_exactly_one_process(pg_url):
    stores = [await Storage.open(pg_url) for _ in range(2)]
    try:
        hosts = [HostService(s, default_registry(), images=False) for s in stores]
        a, b = hosts
        assert (await a.join(CH, "ann", "Ann", guild="g")).ok
        assert (await add_bot(a, CH, "random")).ok
        assert (await add_bot(a, CH, "random")).ok
        assert (await a.start(CH, "ann", "vikings", seed=4, start_seat=1)).ok
        await b.load()
        moves_a, moves_b = await asyncio.gather(play_bots(a, CH), play_bots(b, CH))
        rec = (await a.storage.unfinished_matches())[0]
        versions = sorted(r.version for r in moves_a + moves_b)
        # every commit reported by exactly one process (a reply may carry forced moves too, issue 13)
        assert versions and len(set(versions)) == len(versions) and versions[-1] == rec.version
        log = await a.storage.actions(rec.id)
        assert all(rec.seats[x.seat].user.startswith("bot:") for x in log)
        game = rebuild(default_registry()["vikings"].game_cls, rec, log)
        assert game.to_json() == rec.snapshot
        assert all(not rec.seats[s].user.startswith("bot:") for s in game.acting_seats())
    finally:
        for s in stores:
            await s.close()


async def test_two_processes_migrating_one_new_database_at_once(pg_url):
    stores = await asyncio.gather(*(Storage.open(pg_url) for _ in range(3)))
    try:
        assert {await s.schema_version() for s in stores} == {len(type(stores[0]).MIGRATIONS)}
    finally:
        for s in stores:
            await s.close()


# ----------------------------------------------------------------------------- failures


async def test_a_row_locked_past_the_timeout_is_refused_and_other_tables_go_on(pg_url):
    store = await Storage.open(pg_url, busy_timeout=0.3)
    svc = HostService(store, GameRegistry([ToyAdapter()]), clock=Clock(), images=False)
    other = await asyncpg.connect(pg_url)
    try:
        await toy_game(svc, "chan-a")
        await toy_game(svc, "chan-b")
        match_a = (await svc.table("chan-a")).record.id
        before = (await svc.table("chan-a")).game.to_json()
        async with other.transaction():
            await other.execute("SELECT * FROM matches WHERE id = $1 FOR UPDATE", match_a)
            waiting = asyncio.create_task(svc.act("chan-a", "ann", "take 2"))
            r = await svc.act("chan-b", "ann", "take 2")  # another table commits meanwhile
            assert r.ok and not waiting.done()
            refused = await waiting
        assert (refused.ok, refused.code) == (False, "storage_failed")
        assert (await svc.table("chan-a")).game.to_json() == before
        assert (await store.get_match(match_a)).version == 0
        assert (await svc.act("chan-a", "ann", "take 2")).ok
    finally:
        await other.close()
        await store.close()


async def test_a_read_only_postgresql_refuses_moves_and_changes_nothing(pg_url):
    store = await Storage.open(pg_url)
    svc = HostService(store, GameRegistry([ToyAdapter()]), clock=Clock(), images=False)
    try:
        await toy_game(svc)
        name = urlsplit(pg_url).path.lstrip("/")
        admin = await asyncpg.connect(pg_url)
        await admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
        await admin.close()
        await store._pool.expire_connections()  # new sessions read the setting
        before = (await svc.table(CH)).game.to_json()
        r = await svc.act(CH, "ann", "take 1")
        assert (r.ok, r.code) == (False, "storage_failed")
        assert (await svc.table(CH)).game.to_json() == before
        assert (await store.get_match((await svc.table(CH)).record.id)).version == 0
    finally:
        await store.close()


async def test_an_unreachable_postgresql_names_the_database_without_its_password(tmp_path):
    url = f"postgresql://meadhall:secret@/nowhere?host={tmp_path}"
    with pytest.raises(StorageError) as failed:
        await Storage.open(url, busy_timeout=1)
    assert "nowhere" in str(failed.value) and "secret" not in str(failed.value)


# ----------------------------------------------------------------------------- configuration


def test_the_database_comes_from_the_environment_or_the_file(tmp_path):
    url = "postgresql://mh:pw@db.example/meadhall"
    cfg = load_config(None, env={DATABASE_ENV: url})
    assert cfg.database == url and cfg.storage_options == {"busy_timeout": 5.0, "pool_size": 4}
    assert "pw" not in repr(cfg) and "mh:***@db.example" in repr(cfg)
    conf = tmp_path / "c.toml"
    conf.write_text('[storage]\ndatabase = "sqlite:///games/mh.db"\nbusy_timeout_seconds = 2\n', encoding="utf-8")
    cfg = load_config(conf, env={})
    assert cfg.database == tmp_path / "games/mh.db" and cfg.storage_options == {"busy_timeout": 2.0}
    assert load_config(conf, env={DATABASE_ENV: url}).database == url  # the environment wins
    assert load_config(None, env={DATABASE_ENV: "x.db"}).database == Path.cwd() / "x.db"


@pytest.mark.parametrize("text, key", [
    ('[storage]\ndatabase = "mysql://x/y"\n', "storage.database"),
    ('[storage]\nbusy_timeout_seconds = 0\n', "busy_timeout_seconds"),
    ('[storage]\npool_size = 0\n', "pool_size"),
])
def test_bad_storage_settings_are_refused(tmp_path, text, key):
    conf = tmp_path / "c.toml"
    conf.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=key):
        load_config(conf, env={})


# ----------------------------------------------------------------------------- migrate-db


async def _fill_sqlite(path: Path) -> dict[str, int]:
    """A SQLite host with two running games, an abandoned one and a lobby, plus timers."""
    async with await Storage.open(path) as store:
        svc = HostService(store, default_registry(), images=False, reminder_delay=600)
        for ch in ("one", "run", "gone"):
            assert (await svc.join(ch, "ann", "Ann", guild="g")).ok
            for _ in range(2 if ch == "run" else 1):  # Brian Boru needs three players
                assert (await add_bot(svc, ch, "random")).ok
            assert (await svc.start(ch, "ann", "brian-boru" if ch == "run" else "vikings", seed=7)).ok
        assert (await svc.join("lobby", "ann", "Ann")).ok
        bots = await asyncio.gather(*(play_bots(svc, ch) for ch in ("one", "run")))
        assert bots
        await svc.abandon("gone", "ann")
        return {m.channel: m.version for m in await store.all_matches()}


async def test_migrate_db_copies_everything_and_verifies_by_replay(tmp_path, pg_url):
    versions = await _fill_sqlite(tmp_path / "old.db")
    report = await migrate(f"sqlite:///{tmp_path}/old.db", pg_url, default_registry())
    assert report.matches == 4 and report.verified == 3 and not report.unverifiable
    async with await Storage.open(tmp_path / "old.db") as old, await Storage.open(pg_url) as new:
        assert await new.all_matches() == await old.all_matches()
        assert await new.timers() == await old.timers() and await new.timers()
        for m in await old.all_matches():
            assert await new.actions(m.id) == await old.actions(m.id)
        assert {m.channel: m.version for m in await new.all_matches()} == versions
        # the copy is a working database: new matches get new ids
        lobby = await new.create_lobby(channel="new", game="vikings", creator="x", seats=[], now=1.0)
        assert lobby.id > max(m.id for m in await old.all_matches())
        await new.add_timers(lobby.id, [])
    # and a host on it resumes the running game
    async with await Storage.open(pg_url) as new:
        svc = HostService(new, default_registry(), images=False)
        assert await svc.load() == 4  # one, run, lobby, new
        assert (await svc.table("run")).record.version == versions["run"]


async def test_migrate_db_refuses_a_target_that_holds_games(tmp_path, pg_url):
    await _fill_sqlite(tmp_path / "old.db")
    await migrate(tmp_path / "old.db", pg_url, default_registry())
    with pytest.raises(StorageError, match="already holds"):
        await migrate(tmp_path / "old.db", pg_url, default_registry())


async def test_migrate_db_detects_a_log_that_does_not_replay_to_its_snapshot(tmp_path, pg_url):
    await _fill_sqlite(tmp_path / "old.db")
    async with await Storage.open(tmp_path / "old.db") as old:
        run = await old.open_match("run")
        async with old._tx() as db:
            await db.execute("UPDATE matches SET snapshot = '{}' WHERE id = ?", (run.id,))
    with pytest.raises(StorageError, match=f"match {run.id}: replaying"):
        await migrate(tmp_path / "old.db", pg_url, default_registry())


def test_the_migrate_db_command(tmp_path, pg_url, capsys):
    asyncio.run(_fill_sqlite(tmp_path / "old.db"))
    assert cli.main(["migrate-db", "--from", f"sqlite:///{tmp_path}/old.db", "--to", pg_url]) == 0
    assert "copied 4 matches" in capsys.readouterr().out
    assert cli.main(["migrate-db", "--from", f"sqlite:///{tmp_path}/old.db", "--to", pg_url]) == 1
    assert "already holds matches" in capsys.readouterr().err
