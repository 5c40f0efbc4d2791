"""Fixtures shared by the Discord end-to-end tests, and the PostgreSQL ones (tests/pgserver.py)."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile

import pytest

from tests.fakediscord import FakeDiscord
from tests.pgserver import backend, database, pg_server, pg_url  # noqa: F401  (fixtures)
from tests.watchdog import HANG_DIR, LEAD, Watchdog, bounded_cancel_all_tasks

LIFETIME = 240.0  # the fake's own safety net (s): a minute under pytest's timeout of 300 s
LIFETIME_LEAD = 60.0


@pytest.fixture
async def fd(request):
    """A fake Discord on 127.0.0.1 that must end the test with no unhandled or broken request, and
    no second initial response to an interaction. It shuts itself down a minute before the test's
    timeout (``@pytest.mark.timeout(N)``, else pytest's 300 s): a whole game with its pictures,
    recap and analysis can take four minutes on a loaded machine, and a safety net shorter than the
    test's own time made it fail midway (the fake gone, the game unfinished)."""
    marker = request.node.get_closest_marker("timeout")
    lifetime = max(LIFETIME, float(marker.args[0]) - LIFETIME_LEAD) if marker and marker.args else LIFETIME
    async with FakeDiscord(lifetime=lifetime) as fake:
        yield fake
        assert fake.internal_errors == [] and fake.unhandled == []
        # issue 29: answer first never answers twice (opcodes-and-status-codes.mdx 40060)
        assert [(i.type, i.data.get("name") or i.data.get("custom_id")) for i in fake.second_answers] == []
        fake.assert_schema_clean()  # issue 12: requests and answers as Discord's schema says


def pytest_configure(config):
    """A test's event loop closes in bounded time (tests/watchdog.py); the controller (or a run
    without xdist) makes the folder hung tests report into."""
    asyncio.runners._cancel_all_tasks = bounded_cancel_all_tasks  # type: ignore[attr-defined]
    if not hasattr(config, "workerinput"):
        os.environ[HANG_DIR] = tempfile.mkdtemp(prefix="meadhall-hangs-")  # workers inherit it


def pytest_sessionfinish(session):
    """Under pytest-xdist each worker counts its own traffic: hand the counts to the controller."""
    from tests.fakediscord.schema import SchemaChecker

    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["schema_totals"] = dict(SchemaChecker.totals)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """The controller adds up what each xdist worker validated (the summary below shows the sum)."""
    from tests.fakediscord.schema import SchemaChecker

    for key, value in getattr(node, "workeroutput", {}).get("schema_totals", {}).items():
        SchemaChecker.totals[key] = SchemaChecker.totals.get(key, 0) + value


def pytest_terminal_summary(terminalreporter):
    """What hung tests waited for (tests/watchdog.py), and how much traffic Discord's schema checked."""
    from tests.fakediscord.schema import SchemaChecker

    folder = os.environ.get(HANG_DIR)
    if folder and os.path.isdir(folder) and not hasattr(terminalreporter.config, "workerinput"):
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                terminalreporter.write_line(f.read())
        shutil.rmtree(folder, ignore_errors=True)

    t = SchemaChecker.totals
    if t["requests"] or t["responses"]:
        terminalreporter.write_line(
            f"Discord schema: {t['requests']} requests and {t['responses']} responses validated; "
            f"violations: {t['request_violations']} in requests (the fake's own tests send some on purpose; "
            f"any other fails its test), {t['response_violations']} in answers; "
            f"{t['seconds']:.1f} s spent validating (schema loading and compiling included)"
        )


def _timeout_of(item) -> float:
    """pytest-timeout's limit for this test: its marker, else the command line, else pyproject."""
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0])
    try:
        value = item.config.getoption("timeout", None) or item.config.getini("timeout")
    except ValueError:  # pytest-timeout left out (-p no:timeout): no limit, no watchdog
        return 0.0
    return float(value or 0)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Before pytest-timeout ends a hung test, print what its coroutines wait for (tests/watchdog.py)."""
    limit = _timeout_of(item)
    dog = Watchdog(item.nodeid, limit - LEAD) if limit > LEAD else None
    if dog is not None:
        dog.start()
    try:
        return (yield)
    finally:
        if dog is not None:
            dog.cancel()
