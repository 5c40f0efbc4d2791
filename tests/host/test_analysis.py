"""Issue 31 in the host: the analysis of a finished game, queued in the database, run once at low
priority in the CPU pool with its progress told, given for any finished game of the server (and
the offline table's /analysis); unknown, unfinished and other servers' games refused alike."""

from __future__ import annotations

import pytest

import bot.host.analysis as host_analysis
from bot.host.service import REFUSALS
from bot.processes.cpu import CpuPool
from tests.host_helpers import CH, open_service, start_game

FAST = {"budget": 0.01, "wall_limit": None}


@pytest.fixture(autouse=True)
def little_work(monkeypatch):
    monkeypatch.setattr(host_analysis, "REVIEW_OPTIONS", FAST)  # the whole pipeline, a small search


async def finished_game(svc, game="vikings", channel=CH) -> int:
    """A seeded 2-player game, each seat taking its first legal action until it ends."""
    r = await start_game(svc, game, seed=5, channel=channel)
    while (table := await svc.table(channel)) is not None:
        seat = table.game.acting_seats()[0]
        assert (await svc.act(channel, table.record.seats[seat].user, str(table.game.legal_actions(seat)[0]))).ok
    return r.match_id


async def test_analysis_of_a_finished_game_runs_once_with_progress_and_is_kept(tmp_path):
    svc, store = await open_service(tmp_path / "a.db", images=True)
    try:
        match_id = await finished_game(svc)
        job = await svc.request_analysis(match_id, channel="thread-1")
        assert job.state == "queued" and job.channel == "thread-1"
        told: list[float] = []

        async def progress(m: int, done: float) -> None:
            assert m == match_id
            told.append(done)

        reply = await svc.run_analysis(progress=progress)
        assert reply is not None and reply.ok and reply.match_id == match_id
        assert told and told == sorted(told) and told[-1] == 1.0 and len(told) > 3
        assert reply.image is not None and reply.image.data[:8] == b"\x89PNG\r\n\x1a\n"
        said = "\n".join(reply.public)
        assert f"Analysis of game {match_id} (Vikings)" in said
        assert "Ann: accuracy" in said and "Bob: accuracy" in said and "VP lost per decision" in said
        assert await svc.run_analysis() is None  # run once: nothing left to claim
        stored = await store.get_analysis(match_id)
        assert stored.state == "done" and stored.result is not None
        again = await svc.analysis(match_id)  # asked later: the stored analysis, nothing run again
        assert again.public == reply.public
    finally:
        await store.close()


async def test_analysis_on_request_refuses_unknown_unfinished_and_other_servers_games(tmp_path):
    svc, store = await open_service(tmp_path / "b.db")
    try:
        match_id = await finished_game(svc)
        for call in (svc.analysis(999), svc.analysis(match_id, guild="another-server")):
            r = await call
            assert (r.ok, r.code) == (False, "no_table") and "no_table" in REFUSALS
            assert r.private[0].startswith("There is no finished game") and not r.public
        await start_game(svc, "vikings", seed=6, channel="chan-2")
        running = (await svc.table("chan-2")).record.id
        r = await svc.analysis(running)
        assert not r.ok and r.private == [f"There is no finished game {running}."]
        assert await store.get_analysis(running) is None and await store.get_analysis(999) is None
        r = await svc.analysis(channel="chan-2")  # this channel has no finished game yet
        assert not r.ok and r.private == ["No game has been finished in this channel yet."]
        r = await svc.analysis(channel=CH)  # this channel's last game, made now
        assert r.ok and f"Analysis of game {match_id}" in r.public[0] and r.image is None  # pictures off
    finally:
        await store.close()


async def test_analysis_pieces_wait_while_a_move_is_in_the_cpu_pool():
    """Low priority: a piece of analysis is handed over only while no move, hint or picture is in
    flight."""
    import asyncio
    import threading

    pool = CpuPool(0)
    gate = threading.Event()
    order: list[str] = []

    def move() -> None:
        gate.wait(10)
        order.append("move")

    foreground = asyncio.create_task(pool._run(move))
    await asyncio.sleep(0.05)
    background = asyncio.create_task(pool._run_background(lambda: order.append("analysis")))
    await asyncio.sleep(0.1)
    assert order == []  # the analysis waits behind the move
    gate.set()
    await asyncio.gather(foreground, background)
    assert order == ["move", "analysis"]
