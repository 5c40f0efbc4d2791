"""Durable storage of meadhall tables; see :mod:`bot.storage.base` for the tables and the API.

``Storage.open(database)`` opens a SQLite file (a path or ``sqlite:///path``; the default) or a
PostgreSQL database (``postgresql://…``).
"""

from bot.storage.base import (
    OPEN_STATUSES,
    STATUSES,
    LoggedAction,
    MatchRecord,
    NewTimer,
    Seat,
    StaleVersionError,
    Storage,
    StorageConflict,
    StorageError,
    StorageUnavailable,
    Timer,
    effective_actions,
    parse_database,
    rebuild,
)
from bot.storage.sqlite import MIGRATIONS, SqliteStorage

__all__ = [
    "MIGRATIONS", "OPEN_STATUSES", "STATUSES", "LoggedAction", "MatchRecord", "NewTimer", "Seat",
    "SqliteStorage", "StaleVersionError", "Storage", "StorageConflict", "StorageError",
    "StorageUnavailable", "Timer", "effective_actions", "parse_database", "rebuild",
]
