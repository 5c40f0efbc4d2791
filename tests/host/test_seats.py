"""Computer players seated at a host table (issue 8, host side)."""

from __future__ import annotations

import pytest

from bot.games.registry import default_registry
from bot.host.seats import OfflineBots, add_bot, bot_level, bot_user, play_bots
from bot.host.service import HostService
from bot.offline.table import OfflineTable
from bot.storage import Storage


@pytest.fixture
async def svc(tmp_path):
    storage = await Storage.open(tmp_path / "b.db")
    yield HostService(storage, default_registry(), images=False)
    await storage.close()


def test_bot_user_ids():
    assert bot_level(bot_user("normal", 2)) == "normal"
    assert bot_level("alice") is None and bot_level("bot:nonsense:1") is None
    # issue 30: ids stored with the old names read as their new levels
    assert bot_level(bot_user("heuristic", 2)) == "normal" and bot_level("bot:search:101") == "hard"
    assert bot_level("bot:montecarlo:1") is None  # the ladder's level never sits at a table


async def test_addbot_takes_old_level_names_and_seats_the_new_level(svc):
    """Issue 30: /addbot heuristic and /addbot search still work; the seat is named by its new level."""
    await svc.join("c", "alice", "alice")
    r = await add_bot(svc, "c", "heuristic")
    assert r.ok and "Ragnar (computer, normal)" in r.public[0], r
    r = await add_bot(svc, "c", "search")
    assert r.ok and "Freydis (computer, hard)" in r.public[0], r
    r = await add_bot(svc, "c", "easy")
    assert r.ok and "Ulf (computer, easy)" in r.public[0], r
    table = await svc.table("c")
    assert [s.user for s in table.record.seats] == ["alice", "bot:normal:0", "bot:hard:1", "bot:easy:2"]
    bad = await add_bot(svc, "c", "montecarlo")  # the ladder's level is not offered
    assert not bad.ok and bad.private == ["There is no computer level “montecarlo”. Levels: random, easy, normal, "
                                          "hard."]
    assert len((await svc.table("c")).record.seats) == 4


def test_every_level_has_one_line_how_it_plays_and_how_long_it_thinks():
    from bot.host.seats import LEVEL_LINES, level_line, levels_text
    from engine.players import LEVELS

    assert list(LEVEL_LINES) == list(LEVELS)
    assert level_line("easy") == "easy — makes a person's mistakes, moves at once"
    assert level_line("hard") == "hard — searches deeply, about 1 s a move"
    assert levels_text().splitlines() == [level_line(lv) for lv in LEVELS]


async def test_a_table_stored_with_the_old_level_names_plays_on_after_the_upgrade(tmp_path):
    """Issue 30: a table stored before the renaming — computer seats added as heuristic and search
    (ids bot:heuristic:0, bot:search:1), the deadline's level stored as heuristic — is loaded by a new
    host and played to the end; a computer player added to it later gets a name of its own."""
    db = tmp_path / "old.db"
    storage = await Storage.open(db)
    try:  # what a host before issue 30 stored
        svc = HostService(storage, default_registry(), images=False)
        assert (await svc.join("c", "alice", "alice")).ok
        assert (await svc.join("c", "bot:heuristic:0", "Ragnar (computer, heuristic)")).ok
        assert (await svc.join("c", "bot:search:1", "Freydis (computer, search)")).ok
        r = await add_bot(svc, "c", "random")  # added after the upgrade to the old lobby
        assert r.ok and "Ulf (computer, random)" in r.public[0], r  # not a second Ragnar or Freydis
        assert (await svc.start("c", "alice", "vikings", seed=4)).ok
        rec = (await svc.table("c")).record
        await storage.update_running(rec.id, seats=rec.seats, now=1.0,
                                     options={**rec.options, "host": {**rec.options.get("host", {}),
                                                                       "level": "heuristic"}})
    finally:
        await storage.close()
    storage = await Storage.open(db)
    try:  # the new host
        svc = HostService(storage, default_registry(), images=False)
        assert await svc.load() == 1
        table = await svc.table("c")
        assert [bot_level(s.user) for s in table.record.seats] == [None, "normal", "hard", "random"]
        assert table.record.options["host"]["level"] == "heuristic"  # stored as it was
        from bot.games import host_options

        assert host_options(table.record.options)["level"] == "normal"  # read as its new name
        await play_bots(svc, "c", budget=0.01)
        moves = 0
        while (table := await svc.table("c")) is not None and not table.game.is_over:
            seat = table.game.acting_seats()[0]
            assert table.record.seats[seat].user == "alice"  # the old computer seats moved
            assert (await svc.act("c", "alice", str(table.game.legal_actions(seat)[0]))).ok
            moves += 1
            await play_bots(svc, "c", budget=0.01)
        assert moves > 10
        record = await storage.get_match(1)
        assert record.status == "finished"
        assert [s.user for s in record.seats] == ["alice", "bot:heuristic:0", "bot:search:1", "bot:random:2"]
        hard = [a for a in await storage.actions(1) if a.seat == 2]
        assert hard  # the old search seat played as hard
    finally:
        await storage.close()


async def test_addbot_seats_named_computer_players_and_refuses_unknown_level(svc):
    await svc.join("c", "alice", "alice")
    r = await add_bot(svc, "c", "random")
    assert r.ok and "(computer, random)" in r.public[0]
    r2 = await add_bot(svc, "c", "random")
    assert r2.ok
    table = await svc.table("c")
    assert len({s.user for s in table.record.seats}) == 3
    bad = await add_bot(svc, "c", "genius")
    assert not bad.ok and "no computer level" in bad.private[0]
    assert len((await svc.table("c")).record.seats) == 3


async def play_with_bots(svc, seed):
    await svc.join("c", "alice", "alice")
    for level in ("random", "normal", "random"):
        await add_bot(svc, "c", level)
    started = await svc.start("c", "alice", "vikings", seed=seed)
    match_id = started.match_id
    await play_bots(svc, "c")
    moves = 0
    while True:
        table = await svc.table("c")
        if table is None or table.game is None or table.game.is_over:
            break
        game = table.game
        seats = game.acting_seats()
        assert [table.record.seats[s].user for s in seats] == ["alice"]  # bots never leave a move waiting
        r = await svc.act("c", "alice", str(game.legal_actions(seats[0])[0]))
        assert r.ok
        moves += 1
        await play_bots(svc, "c")
    return moves, [a.action for a in await svc.storage.actions(match_id)]


async def test_bots_play_a_whole_game_with_a_person_and_replay_identically(tmp_path):
    logs = []
    for run in range(2):
        storage = await Storage.open(tmp_path / f"run{run}.db")
        try:
            svc = HostService(storage, default_registry(), images=False)
            moves, log = await play_with_bots(svc, seed=11)
            assert moves > 20
            record = await storage.get_match(1)
            assert record.status == "finished"
            logs.append(log)
        finally:
            await storage.close()
    assert logs[0] == logs[1]


async def test_offline_table_with_bots(tmp_path):
    storage = await Storage.open(tmp_path / "o.db")
    try:
        svc = HostService(storage, default_registry(), images=False)
        t = OfflineTable(svc, tmp_path / "out", bots=OfflineBots(2, "random"))
        out = await t.handle("alice: /join")
        assert sum("(computer, random)" in line for line in out) == 2
        out = await t.handle("alice: /start vikings")
        table = await svc.table("offline")
        assert table.record.seats[table.game.acting_seats()[0]].user == "alice"
        assert any(line.startswith("@alice: ") for line in out)
    finally:
        await storage.close()


async def test_last_person_leaving_closes_a_lobby_of_computer_players(svc):
    await svc.join("c", "alice", "alice")
    await add_bot(svc, "c", "random")
    r = await svc.leave("c", "alice")
    assert r.ok and "closed" in r.public[0]
    assert await svc.table("c") is None


async def test_computer_players_do_not_count_for_the_abandon_majority(svc):
    for u in ("alice", "bob"):
        await svc.join("c", u, u)
    await add_bot(svc, "c", "random")
    await add_bot(svc, "c", "random")
    await svc.start("c", "alice", "vikings", seed=3)
    r = await svc.abandon("c", "bob")  # 2 people: a majority is 2 votes
    assert r.ok and "1/2 votes" in r.public[0]


async def test_only_searching_levels_move_through_the_cpu_pool(tmp_path):
    """Issue 30: hard (SEARCHING) runs in the CPU pool; easy and normal move at once, here."""
    from engine.players import SEARCHING, make_player

    class Pool:  # the CpuPool's choose, done here and recorded
        def __init__(self) -> None:
            self.levels: list[str] = []

        async def choose(self, game_id, level, seed, options, view, legal):
            self.levels.append(level)
            return make_player(game_id, level, seed=seed, **options).choose(view, legal)

    pool = Pool()
    storage = await Storage.open(tmp_path / "p.db")
    try:
        svc = HostService(storage, default_registry(), images=False, cpu=pool)  # type: ignore[arg-type]
        await svc.join("c", "ann", "Ann")
        for level in ("easy", "search", "normal"):
            assert (await add_bot(svc, "c", level)).ok
        assert (await svc.start("c", "ann", "brian-boru", seed=2, start_seat=1)).ok
        moved = 0
        for _round in range(4):
            moved += len(await play_bots(svc, "c", budget=0.01))
            table = await svc.table("c")
            seat = table.game.acting_seats()[0]
            assert (await svc.act("c", "ann", str(table.game.legal_actions(seat)[0]))).ok
        assert pool.levels and set(pool.levels) == {"hard"} <= SEARCHING
        assert moved >= 3 * len(pool.levels) >= 3  # easy and normal moved as often, not in the pool
    finally:
        await storage.close()
