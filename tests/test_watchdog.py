"""The CI watchdog (tests/watchdog.py) names where a hung coroutine waits."""

from __future__ import annotations

import asyncio
import threading

from tests.watchdog import _running_loop_of, describe_tasks


async def _inner(event: asyncio.Event) -> None:
    await event.wait()


async def _outer(event: asyncio.Event) -> None:
    await _inner(event)


async def test_watchdog_names_each_await_a_stuck_task_waits_in():
    event = asyncio.Event()
    task = asyncio.create_task(_outer(event), name="stuck-table")
    await asyncio.sleep(0)
    text = describe_tasks(asyncio.get_running_loop())
    event.set()
    await task
    block = text.split("task stuck-table", 1)[1].split("\ntask ", 1)[0]
    assert "in _outer" in block and "in _inner" in block and "in wait" in block
    assert block.index("in _outer") < block.index("in _inner") < block.index("in wait")


async def test_watchdog_finds_the_loop_a_thread_is_running():
    loop = asyncio.get_running_loop()
    found: list[object] = []
    me = threading.get_ident()
    await asyncio.to_thread(lambda: found.append(_running_loop_of(me)))
    assert found == [loop]


def test_a_task_that_swallows_its_cancellation_cannot_hold_a_closing_loop(monkeypatch):
    import pytest

    from tests import watchdog

    monkeypatch.setattr(watchdog, "TEARDOWN_PATIENCE", 0.2)
    loop = asyncio.new_event_loop()

    done = False

    async def stubborn() -> None:
        while not done:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                continue

    async def polite() -> None:
        await asyncio.sleep(3600)

    stuck = loop.create_task(stubborn(), name="stubborn")
    nice = loop.create_task(polite(), name="polite")
    loop.run_until_complete(asyncio.sleep(0))
    try:
        with pytest.raises(watchdog.TasksWouldNotEnd, match="in stubborn"):
            watchdog.bounded_cancel_all_tasks(loop)
        assert nice.cancelled() and asyncio.all_tasks(loop) == set()  # the stuck one was dropped
        done = True  # let it end here, so that it is not reported as destroyed while pending
        stuck.cancel()
        loop.run_until_complete(asyncio.wait([stuck]))
    finally:
        loop.close()
