"""Fixtures shared by the Discord end-to-end tests, and the PostgreSQL ones (tests/pgserver.py)."""

from __future__ import annotations

import pytest

from tests.fakediscord import FakeDiscord
from tests.pgserver import backend, database, pg_server, pg_url  # noqa: F401  (fixtures)


@pytest.fixture
async def fd():
    """A fake Discord on 127.0.0.1 that must end the test with no unhandled or broken request."""
    async with FakeDiscord(lifetime=150) as fake:
        yield fake
        assert fake.internal_errors == [] and fake.unhandled == []
        fake.assert_schema_clean()  # issue 12: requests and answers as Discord's schema says


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
    """How much traffic Discord's schema checked in this run (issue 12 asks for the figures)."""
    from tests.fakediscord.schema import SchemaChecker

    t = SchemaChecker.totals
    if t["requests"] or t["responses"]:
        terminalreporter.write_line(
            f"Discord schema: {t['requests']} requests and {t['responses']} responses validated; "
            f"violations: {t['request_violations']} in requests (the fake's own tests send some on purpose; "
            f"any other fails its test), {t['response_violations']} in answers; "
            f"{t['seconds']:.1f} s spent validating (schema loading and compiling included)"
        )
