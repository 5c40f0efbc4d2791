"""Sharded processes on one database (issue 15): each process serves only its shards' guilds
(tables loaded, reminders sent), ``meadhall run --shard-count/--shard-ids`` checks its flags, and
``meadhall cluster`` restarts a process that dies.

The end-to-end test through the sharded fake Discord, two real processes and a SIGKILL is
tests/processes/test_shards_e2e.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import cli
from bot.games import GameRegistry
from bot.host.service import HostService
from bot.processes.cluster import Cluster, run_commands
from bot.processes.shards import Shards, plan, shard_of
from bot.storage import Storage
from tests.toygame import ToyAdapter


class Clock:
    t = 1_000.0

    def __call__(self) -> float:
        return self.t


def guild_on(shard: int, count: int = 2, k: int = 1) -> str:
    """A Discord guild id that lands on ``shard`` of ``count``."""
    return str(((k * count + shard) << 22) | 12345)


def test_shard_of_follows_discords_formula():
    assert shard_of("41771983423143937", 1) == 0
    assert shard_of(str(41771983423143937), 4) == (41771983423143937 >> 22) % 4
    assert [shard_of(guild_on(s, 3), 3) for s in range(3)] == [0, 1, 2]
    assert shard_of(None, 5) == 0 and shard_of("g", 5) == 0  # no Discord guild: shard 0, like DMs


def test_shards_parse_and_plan():
    assert Shards.parse(4, "1,3").ids == {1, 3} and Shards.parse(2).ids == {0, 1}
    for bad in [(0, None), (2, "2"), (2, "a"), (2, "-1")]:
        with pytest.raises(ValueError):
            Shards.parse(*bad)
    assert plan(5, 2) == [[0, 2, 4], [1, 3]]
    with pytest.raises(ValueError):
        plan(1, 2)


@pytest.mark.postgres
async def test_two_shard_processes_each_serve_only_their_guilds(pg_url):
    clock = Clock()
    stores = [await Storage.open(pg_url) for _ in range(2)]
    try:
        hosts = [HostService(s, GameRegistry([ToyAdapter()]), clock=clock, images=False, reminder_delay=600,
                             shards=Shards.parse(2, str(k))) for k, s in enumerate(stores)]
        for k, svc in enumerate(hosts):  # one game in a guild of each shard, opened by its process
            for user in ("ann", "bob"):
                assert (await svc.join(f"chan-{k}", user, user.title(), guild=guild_on(k))).ok
            assert (await svc.start(f"chan-{k}", "ann", options=["pile=9"], seed=1, start_seat=0)).ok
        restarted = [HostService(s, GameRegistry([ToyAdapter()]), clock=clock, images=False, reminder_delay=600,
                                 shards=Shards.parse(2, str(k))) for k, s in enumerate(stores)]
        assert [await svc.load() for svc in restarted] == [1, 1]
        assert [sorted(svc._resumed) for svc in restarted] == [["chan-0"], ["chan-1"]]
        clock.t += 601
        first = await restarted[1].due_reminders()  # shard 1 first: it must not take shard 0's timer
        second = await restarted[0].due_reminders()
        assert [r.channel for r in first] == ["chan-1"] and [r.channel for r in second] == ["chan-0"]
    finally:
        for s in stores:
            await s.close()


@pytest.mark.parametrize("argv, message", [
    (["run", "--shard-ids", "0"], "needs --shard-count"),
    (["run", "--shard-count", "2", "--shard-ids", "2"], "between 0 and 1"),
    (["cluster", "--processes", "3", "--shard-count", "2"], "3 processes"),
])
def test_bad_shard_flags_are_refused(monkeypatch, capsys, argv, message):
    monkeypatch.setenv("MEADHALL_TOKEN", "x")
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_the_cluster_runs_every_shard_once():
    commands = run_commands("c.toml", 5, 2)
    assert [c[c.index("--shard-ids") + 1] for c in commands] == ["0,2,4", "1,3"]
    assert all(c[c.index("--shard-count") + 1] == "5" and "--config" in c for c in commands)


def test_the_cluster_restarts_a_process_that_dies(tmp_path):
    marker = tmp_path / "starts"
    dies = [sys.executable, "-c", f"open({str(marker)!r}, 'a').write('x')"]  # exits at once
    lives = [sys.executable, "-c", "import time; time.sleep(60)"]
    cluster = Cluster([dies, lives], restart_delay=0.05, stable_after=0.0, poll=0.02)
    deadline = time.monotonic() + 30
    assert cluster.run(until=lambda: cluster.restarts[0] >= 2 or time.monotonic() > deadline) == 0
    assert cluster.restarts == [2, 0]
    assert all(p is None or p.poll() is not None for p in cluster.procs)  # everything stopped
    time.sleep(0.2)
    assert len(marker.read_text()) >= 2


def test_the_cluster_starts_a_killed_process_again_and_leaves_the_others_alone():
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
    cluster = Cluster([sleeper, sleeper], restart_delay=0.05, stable_after=0.0, poll=0.02)
    seen: dict[str, object] = {}
    deadline = time.monotonic() + 30

    def until() -> bool:  # polled by the cluster's loop: kill process 0 once, then wait for its successor
        alive = [p.pid if p is not None and p.poll() is None else None for p in cluster.procs]
        if "killed" not in seen and all(alive):
            seen["first"] = alive
            os.kill(alive[0], signal.SIGKILL)
            seen["killed"] = True
        elif "killed" in seen and alive[0] not in (None, seen["first"][0]):
            seen["after"] = alive
            return True
        return time.monotonic() > deadline

    assert cluster.run(until=until) == 0
    first, after = seen["first"], seen["after"]
    assert after[0] != first[0] and after[1] == first[1]  # a new process 0; process 1 untouched
    assert cluster.restarts == [1, 0]
    assert all(p is None or p.poll() is not None for p in cluster.procs)  # the cluster stopped them all


def test_python_m_bot_cli_runs_every_command():
    # the cluster starts ``python -m bot.cli run …``: every command must work that way too
    out = subprocess.run([sys.executable, "-m", "bot.cli", "invite", "--application-id", "123"],
                         capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0 and "client_id=123" in out.stdout, out.stderr
