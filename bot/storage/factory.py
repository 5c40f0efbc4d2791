"""The one place that knows every storage backend: :func:`open_storage` picks SQLite or PostgreSQL
for a database setting. Importing :mod:`bot.storage` installs it as what :meth:`Storage.open
<bot.storage.base.Storage.open>` calls, so the interface imports no backend and no backend imports
the factory (issue 23).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.base import Storage, set_opener
from bot.storage.records import parse_database


async def open_storage(database: str | Path, **options: Any) -> Storage:
    """Open the database (a path, ``sqlite:///…`` or ``postgresql://…``) and migrate it."""
    kind, where = parse_database(database)
    if kind == "postgresql":
        from bot.storage.postgres import PostgresStorage  # asyncpg only when a PostgreSQL is named

        return await PostgresStorage.connect(str(where), **options)
    from bot.storage.sqlite import SqliteStorage

    return await SqliteStorage.connect(where, **options)


set_opener(open_storage)
