"""Issue 31: the analysis jobs of finished games are queued in the database (schema 6), survive a
restart and run once, also with several processes claiming (the ``database`` fixture runs each test
on SQLite and on PostgreSQL)."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Storage, StorageError
from tests.storage.test_rematch_storage import finished
from tests.storage.test_storage import started


async def test_a_queued_analysis_survives_a_restart_and_runs_once(database):
    async with await Storage.open(database) as store:
        match_id = await finished(store)
        job = await store.queue_analysis(match_id, channel="t1", now=10.0)
        assert (job.state, job.channel, job.progress, job.result) == ("queued", "t1", 0.0, None)
        again = await store.queue_analysis(match_id, now=11.0)  # asked again (privately): the same job
        assert again == job
    async with await Storage.open(database) as store:  # a restart: the job is still queued
        assert await store.get_analysis(match_id) == job
        mine = await store.claim_analysis("w1", now=20.0, lease=60.0)
        assert mine is not None and (mine.state, mine.worker, mine.lease) == ("running", "w1", 80.0)
        assert await store.claim_analysis("w2", now=21.0, lease=60.0) is None  # nothing else to do
        assert await store.analysis_progress(match_id, "w1", 0.4, now=30.0, lease=60.0)
        assert not await store.analysis_progress(match_id, "w2", 0.5, now=30.0, lease=60.0)  # not w2's
        assert (await store.get_analysis(match_id)).progress == pytest.approx(0.4)
        assert await store.finish_analysis(match_id, "w1", {"review": [1, 2]}, now=40.0)
        assert not await store.finish_analysis(match_id, "w1", {"review": [3]}, now=41.0)  # once
        done = await store.get_analysis(match_id)
        assert (done.state, done.result, done.progress) == ("done", {"review": [1, 2]}, 1.0)
        assert [j.match for j in await store.unposted_analyses()] == [match_id]
        await store.set_analysis_message(match_id, "m77")
        assert await store.analysis_posted(match_id, now=50.0)
        assert not await store.analysis_posted(match_id, now=51.0)  # posted once
        assert (await store.get_analysis(match_id)).message == "m77" and await store.unposted_analyses() == []
        assert await store.claim_analysis("w1", now=60.0, lease=60.0) is None


async def test_a_dead_workers_job_is_claimed_again_when_its_lease_runs_out(database):
    async with await Storage.open(database) as store:
        match_id = await finished(store)
        await store.queue_analysis(match_id, now=1.0)
        assert await store.claim_analysis("dead", now=2.0, lease=30.0) is not None
        assert await store.claim_analysis("w2", now=31.0, lease=30.0) is None  # the lease still runs
        job = await store.claim_analysis("w2", now=33.0, lease=30.0)
        assert job is not None and job.worker == "w2"
        assert not await store.finish_analysis(match_id, "dead", {}, now=34.0)  # the dead one lost it
        assert await store.fail_analysis(match_id, "w2", now=35.0)
        assert (await store.get_analysis(match_id)).state == "failed"


async def test_only_a_finished_game_is_analysed_and_a_claim_can_name_its_game(database):
    async with await Storage.open(database) as store:
        running, _game = await started(store, "c9")
        with pytest.raises(StorageError, match="not finished"):
            await store.queue_analysis(running, now=1.0)
        with pytest.raises(StorageError, match="not finished"):
            await store.queue_analysis(999_999, now=1.0)
        assert await store.get_analysis(running) is None and await store.get_analysis(0) is None
        first, second = await finished(store, "c1"), await finished(store, "c2")
        await store.queue_analysis(first, now=1.0)
        await store.queue_analysis(second, channel="t2", now=2.0)
        assert (await store.claim_analysis("w", now=3.0, lease=9.0, match_id=second)).match == second
        assert (await store.claim_analysis("w", now=3.0, lease=9.0)).match == first


async def test_several_processes_claim_each_job_exactly_once(database):
    """Four connections (as four processes would) claim at once, again and again: each job is
    handed to exactly one of them."""
    stores = [await Storage.open(database) for _ in range(4)]
    try:
        jobs = [await finished(stores[0], f"c{i}") for i in range(6)]
        for k, m in enumerate(jobs):
            await stores[0].queue_analysis(m, now=float(k))
        got: list[int] = []

        async def claimer(store: Storage, name: str) -> None:
            for _ in range(12):
                job = await store.claim_analysis(name, now=100.0, lease=600.0)
                if job is not None:
                    got.append(job.match)

        await asyncio.gather(*(claimer(s, f"p{i}") for i, s in enumerate(stores)))
        assert sorted(got) == sorted(jobs)
    finally:
        for s in stores:
            await s.close()


async def test_migrate_db_copies_the_analyses(database, tmp_path):
    from bot.games.registry import default_registry
    from bot.storage.migrate import migrate

    async with await Storage.open(database) as store:
        done, queued = await finished(store, "c1"), await finished(store, "c2")
        await store.queue_analysis(done, channel="t1", now=1.0)
        await store.claim_analysis("w", now=2.0, lease=9.0, match_id=done)
        await store.finish_analysis(done, "w", {"game": "toy"}, now=3.0)
        await store.queue_analysis(queued, now=4.0)
        jobs = await store.all_analyses()
    report = await migrate(database, tmp_path / "copy.db", default_registry())
    assert report.analyses == 2 and "2 analyses" in report.summary()
    async with await Storage.open(tmp_path / "copy.db") as copy:
        assert await copy.all_analyses() == jobs
