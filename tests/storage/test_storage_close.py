"""Closing the database never hangs (a shutdown, a test's end): a task stuck holding the write
lock or a pool connection is cut off after the busy timeout instead of holding the process."""

from __future__ import annotations

import asyncio
import logging
import time

from bot.storage import Storage


async def test_close_is_bounded_when_a_task_is_stuck_in_a_write(database, caplog):
    store = await Storage.open(database, busy_timeout=0.3)
    entered = asyncio.Event()

    async def stuck_writer() -> None:
        async with store._tx() as tx:
            await tx.execute("UPDATE meta SET value = value WHERE key = 'nothing'")
            entered.set()
            await asyncio.Event().wait()  # never ends by itself

    task = asyncio.create_task(stuck_writer())
    await asyncio.wait_for(entered.wait(), 10)
    started = time.monotonic()
    caplog.set_level(logging.WARNING, logger="bot.storage")
    await asyncio.wait_for(store.close(), 30)  # before: waited for the writer for ever
    assert time.monotonic() - started < 20
    assert any("closing" in r.getMessage() for r in caplog.records)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_close_waits_for_a_write_that_ends(database):
    store = await Storage.open(database, busy_timeout=5.0)
    release = asyncio.Event()
    entered = asyncio.Event()

    async def writer() -> None:
        async with store._tx() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('close-test', 'kept')")
            entered.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await asyncio.wait_for(entered.wait(), 10)
    closing = asyncio.create_task(store.close())
    await asyncio.sleep(0.1)
    assert not closing.done()  # the write in progress ends first
    release.set()
    await asyncio.wait_for(asyncio.gather(task, closing), 10)
    store = await Storage.open(database)
    try:
        assert await store.get_meta("close-test") == "kept"
    finally:
        await store.close()
