"""``meadhall cluster`` logs in as Discord allows (issue 24), through the fake gateway
(tests/fakediscord/gateway_rules.py) and the cluster's own processes.

* gateway.mdx, "Sharding" / "Max Concurrency": shards IDENTIFY by bucket ``shard_id %
  max_concurrency``, one bucket per 5 s; processes given one ``--login-at`` take turns (no op 9).
* gateway.mdx, "Get Gateway Bot": the shard count is Discord's recommendation unless configured.
* opcodes-and-status-codes.mdx, "Gateway Close Event Codes": 4004, 4010-4014 are not to be
  reconnected: the process logs one line and exits FATAL_EXIT; the cluster does not restart it.
* Commands are synced once per deployment: process 0's first start only.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from bot.discord.login import LoginPlan, ScheduledIdentify
from bot.processes.cluster import Cluster, login_commands
from bot.processes.gateway_limits import FATAL_EXIT, IDENTIFY_WINDOW, fatal_line, identify_at
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def test_identify_slots_follow_the_buckets_in_order():
    assert identify_at(100.0, 0, 1) == 100.0
    assert identify_at(100.0, 1, 1) - 100.0 >= IDENTIFY_WINDOW  # max_concurrency 1: one shard per window
    assert identify_at(100.0, 1, 2) == identify_at(100.0, 0, 2) == 100.0  # one bucket of 2
    assert identify_at(100.0, 2, 2) == identify_at(100.0, 3, 2) > 100.0 + IDENTIFY_WINDOW - 0.01


def test_a_fatal_code_has_one_line_naming_it_and_what_to_do():
    for code in (4004, 4010, 4011, 4012, 4013, 4014):
        line = fatal_line(code)
        assert line is not None and str(code) in line and "not restarted" in line and "\n" not in line
    assert "Sharding required" in (fatal_line(4011) or "") and "--shard-count" in (fatal_line(4011) or "")
    assert fatal_line(4000) is None and fatal_line(1000) is None


def test_a_fatal_exit_is_not_restarted_a_transient_one_is(tmp_path):
    fatal = [sys.executable, "-c", f"import sys; sys.exit({FATAL_EXIT})"]
    transient = [sys.executable, "-c", "import sys; sys.exit(1)"]
    cluster = Cluster([fatal, transient], restart_delay=0.05, stable_after=60.0, poll=0.02)
    deadline = time.monotonic() + 30
    assert cluster.run(until=lambda: cluster.restarts[1] >= 2 or time.monotonic() > deadline) == 0
    assert cluster.restarts[0] == 0 and cluster.fatal == [0] and cluster.restarts[1] >= 2
    assert cluster.delays[1] > 0.05  # the transient one keeps its backoff
    only_fatal = Cluster([fatal], restart_delay=0.05, stable_after=0.0, poll=0.02)
    assert only_fatal.run(until=lambda: time.monotonic() > deadline) == FATAL_EXIT  # nothing left to run
    assert only_fatal.restarts == [0]


def test_commands_are_synced_at_the_first_start_only(tmp_path):
    """A process that dies and is restarted three times synced once: the cluster gives
    ``--sync-global`` to a process's first start only (and login_commands to process 0 only)."""
    log = tmp_path / "argv"
    record = [sys.executable, "-c", f"import sys; open({str(log)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')",
              "run", "--sync-global"]
    cluster = Cluster([record], restart_delay=0.05, stable_after=0.0, poll=0.02)
    deadline = time.monotonic() + 30
    cluster.run(until=lambda: cluster.restarts[0] >= 3 or time.monotonic() > deadline)
    time.sleep(0.2)
    lines = log.read_text().splitlines()
    assert len(lines) >= 3 and sum("--sync-global" in ln for ln in lines) == 1  # the last start may be cut short


async def test_login_commands_take_discords_recommendation_and_concurrency():
    """gateway.mdx, "Get Gateway Bot": ``shards`` recommended, ``session_start_limit.max_concurrency``."""
    async with FakeDiscord(shard_count=3, max_concurrency=2, lifetime=30) as fake:
        cmds = await asyncio.to_thread(login_commands, "c.toml", fake.token, 2, sync_global=True)
        assert [c[c.index("--shard-count") + 1] for c in cmds] == ["3", "3"]
        assert [c[c.index("--shard-ids") + 1] for c in cmds] == ["0,2", "1"]
        assert all(c[c.index("--max-concurrency") + 1] == "2" for c in cmds)
        assert len({c[c.index("--login-at") + 1] for c in cmds}) == 1  # one start time for all
        assert ["--sync-global" in c for c in cmds] == [True, False]
        fixed = await asyncio.to_thread(login_commands, None, fake.token, 2, shard_count=4)
        assert fixed[0][fixed[0].index("--shard-count") + 1] == "4"  # configured: kept
        assert fake.gateway_rules.remaining == 1000  # reading /gateway/bot starts no session


class ShardProcess(ScheduledIdentify, commands.AutoShardedBot):
    def __init__(self, shard_ids: list[int], plan: LoginPlan | None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents(guilds=True), shard_count=2,
                         shard_ids=shard_ids)
        self.login_plan = plan


async def test_two_processes_given_one_login_time_identify_a_bucket_apart_without_op9():
    """gateway.mdx, "Identifying": over max_concurrency Discord answers op 9; the fake enforces one
    IDENTIFY per bucket per 5 s. Two "processes" (shard 0 and shard 1 of 2, max_concurrency 1) with
    one login time IDENTIFY ~5 s apart and no op 9."""
    async with FakeDiscord(shard_count=2, identify_window=IDENTIFY_WINDOW, lifetime=60) as fake:
        fake.add_guild("South", ["strand"], shard=1)
        plan = LoginPlan(time.time(), 1)
        bots = [ShardProcess([0], plan), ShardProcess([1], plan)]
        await asyncio.gather(*(fake.start_bot(b, timeout=20) for b in bots))
        assert fake.gateway_rules.op9_count() == 0
        ready = sorted((when, shard) for when, shard, what in fake.gateway_rules.identifies if what == "ready")
        assert [s for _w, s in ready] == [0, 1] and ready[1][0] - ready[0][0] >= IDENTIFY_WINDOW
        for b in bots:
            await fake.stop_bot(b)


async def test_4011_stops_the_process_with_one_line_and_the_cluster_does_not_restart_it(tmp_path, capfd):
    """opcodes-and-status-codes.mdx: 4011 Sharding required, Reconnect false. A real ``meadhall run``
    process (tests/fakediscord/remote.py) whose shard holds more guilds than the fake allows exits
    FATAL_EXIT after one log line; the cluster stops with it instead of restarting it every minute."""
    async with FakeDiscord(max_guilds_per_shard=1, lifetime=60) as fake:
        fake.add_guild("Second", ["hall"])
        cmd = [sys.executable, "-m", "tests.fakediscord.remote", "run", "--shard-count", "1", "--shard-ids", "0"]
        env = {"FAKEDISCORD_URL": fake.url, "MEADHALL_TOKEN": fake.token, "PYTHONPATH": str(ROOT),
               "MEADHALL_DATABASE": f"sqlite:///{tmp_path / 'm.db'}", "FAKEDISCORD_LIFETIME": "60"}
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            cluster = Cluster([cmd], restart_delay=0.05, stable_after=0.0, poll=0.05)
            deadline = time.monotonic() + 45
            code = await asyncio.to_thread(cluster.run, until=lambda: time.monotonic() > deadline)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        assert code == FATAL_EXIT and cluster.restarts == [0] and cluster.fatal == [0]
        err = capfd.readouterr().err
        lines = [ln for ln in err.splitlines() if "4011 Sharding required" in ln]
        assert len(lines) == 1, err[-3000:]
        assert "--shard-count" in lines[0] and "not restarted" in lines[0]
        assert "Traceback" not in err
        assert [what for _w, _s, what in fake.gateway_rules.identifies] == ["4011"]


@pytest.mark.parametrize("code", [4004])
async def test_a_bad_token_stops_the_run_with_the_4004_line(code, caplog):
    """opcodes-and-status-codes.mdx: 4004 Authentication failed (the token is wrong or was reset)."""
    from bot.discord.login import serve

    async with FakeDiscord(lifetime=30) as fake:
        bot = discord.Client(intents=discord.Intents(guilds=True))
        result = await serve(bot, "wrong-token")
        assert result == FATAL_EXIT
        assert any(f"{code} Authentication failed" in r.getMessage() for r in caplog.records)
        assert not fake.gateway_rules.identifies  # refused at login (401), before any IDENTIFY
