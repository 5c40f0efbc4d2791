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
    assert bot_level(bot_user("heuristic", 2)) == "heuristic"
    assert bot_level("alice") is None and bot_level("bot:nonsense:1") is None


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
    for level in ("random", "heuristic", "random"):
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
