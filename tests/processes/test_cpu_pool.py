"""CPU work off the event loop (issue 15): pictures and search players in worker processes give
the same results as in a thread, and the pool size is checked."""

from __future__ import annotations

import asyncio

import pytest

from bot.games import GameRegistry
from bot.games.registry import default_registry
from bot.host.seats import add_bot, play_bots
from bot.host.service import HostService
from bot.processes.cpu import CpuPool
from bot.storage import Storage
from engine.players import make_player
from tests.toygame import ToyAdapter


@pytest.fixture(scope="module")
def pool():
    with CpuPool(2) as cpu:
        yield cpu


async def test_a_picture_drawn_in_a_worker_equals_one_drawn_here(pool):
    adapter = default_registry()["vikings"]
    game = adapter.game_cls.new(["Ann", "Bob", "Cnut"], seed=3)
    assert await pool.render(adapter, game, 1) == adapter.render(game, seat=1)


async def test_a_turn_picture_drawn_in_a_worker_equals_one_drawn_here(pool):
    adapter = default_registry()["vikings"]
    game = adapter.game_cls.new(["Ann", "Bob", "Cnut"], seed=3)
    seat = game.acting_seats()[0]
    events = game.apply(seat, game.legal_actions(seat)[0])
    kwargs = {"seat": None, "board": False, "events": events, "replay": None, "focus": None}
    assert await pool.picture(adapter, game, **kwargs) == adapter.picture(game, **kwargs)


async def test_a_worker_draws_in_the_callers_language(pool):
    """Issue 16: a picture drawn in a worker process speaks the table's language, not English."""
    from bot.i18n import use_language

    adapter = default_registry()["vikings"]
    game = adapter.game_cls.new(["Ann", "Bob"], seed=3)
    kwargs = {"seat": None, "board": False, "events": (), "replay": None, "focus": None}
    english = adapter.picture(game, **kwargs)
    with use_language("pl"):
        polish = adapter.picture(game, **kwargs)
        assert await pool.picture(adapter, game, **kwargs) == polish != english
        assert await pool.render(adapter, game, 0) == adapter.render(game, seat=0)


async def test_the_service_draws_turn_pictures_in_the_pool(tmp_path, pool):
    async with await Storage.open(tmp_path / "v.db") as store:
        svc = HostService(store, default_registry(), cpu=pool)
        for user in ("ann", "bob"):
            await svc.join("c", user, user.title())
        r = await svc.start("c", "ann", "vikings", seed=3, start_seat=0)
        table = await svc.table("c")
        move = str(table.game.legal_actions(0)[0])
        r = await svc.act("c", "ann", move)
        assert r.ok and r.image is not None and r.image.data.startswith(b"\x89PNG")


async def test_a_search_move_chosen_in_a_worker_equals_one_chosen_here(pool):
    cls = default_registry()["brian-boru"].game_cls
    game = cls.new(["Ann", "Bob", "Cnut"], seed=5)
    seat = game.acting_seats()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    options = {"budget": 30.0, "max_rollouts": 24}  # a fixed amount of work: deterministic
    here = make_player("brian-boru", "search", seed=11, **options).choose(view, legal)
    there = await pool.choose("brian-boru", "search", 11, options, view, legal)
    assert there in legal and str(there) == str(here)


async def test_the_service_draws_its_pictures_in_the_pool(tmp_path, pool):
    adapter = ToyAdapter()
    async with await Storage.open(tmp_path / "c.db") as store:
        svc = HostService(store, GameRegistry([adapter]), cpu=pool)
        for user in ("ann", "bob"):
            await svc.join("c", user, user.title())
        r = await svc.start("c", "ann", options=["pile=9"], seed=1, start_seat=0)
        assert r.image is not None and r.image.data == b"TOY pile=9 turn=0"
        assert adapter.renders == 0  # drawn by the worker's own adapter, not this one


async def test_search_players_move_through_the_pool(tmp_path, pool):
    async with await Storage.open(tmp_path / "s.db") as store:
        svc = HostService(store, default_registry(), images=False, cpu=pool)
        await svc.join("c", "ann", "Ann")
        await add_bot(svc, "c", "search")
        await add_bot(svc, "c", "search")
        assert (await svc.start("c", "ann", "brian-boru", seed=2, start_seat=1)).ok
        replies = await asyncio.wait_for(play_bots(svc, "c", budget=0.05, max_moves=3), 60)
        assert replies and all(r.ok for r in replies)


@pytest.mark.parametrize("size", [-1, 1.5, True])
def test_a_bad_pool_size_is_refused(size):
    with pytest.raises(ValueError, match="pool size"):
        CpuPool(size)


async def test_size_zero_keeps_the_work_in_a_thread():
    adapter = ToyAdapter()
    from tests.toygame import ToyGame

    with CpuPool(0) as cpu:
        assert await cpu.render(adapter, ToyGame.new(["a", "b"], seed=1, options={"pile": 5}), None) == \
            b"TOY pile=5 turn=" + str(ToyGame.new(["a", "b"], seed=1, options={"pile": 5}).turn).encode()
    assert adapter.renders == 1


def _niceness() -> int:
    import os

    return os.nice(0)


async def test_analysis_pieces_run_in_a_worker_of_the_lowest_priority_and_moves_do_not(pool):
    """Issue 31: a game's analysis never slows a game, even with every core analysing: its pieces
    run in a worker the operating system schedules last (nice 19), moves and pictures do not."""
    import os

    here = os.nice(0)
    assert await pool._run(_niceness) == here
    assert await pool._run_background(_niceness) == min(19, here + 19)
    assert await pool._run(_niceness) == here  # the foreground workers were not touched
