"""Durable storage of meadhall tables; see :mod:`bot.storage.base` for the tables and the API.

``Storage.open(database)`` opens a SQLite file (a path or ``sqlite:///path``; the default) or a
PostgreSQL database (``postgresql://…``).

=========================  ====================================================================
``bot.storage.records``    the records, the failures, ``parse_database``, reading the log
``bot.storage.base``       :class:`Storage`: the interface and every query both backends share
``bot.storage.rows``       the tables and schema versions; the rows both backends read and write
``bot.storage.sqlite``     the SQLite backend (the default)
``bot.storage.postgres``   the PostgreSQL backend
``bot.storage.factory``    ``open_storage``: a database setting → its backend (what
                           ``Storage.open`` calls; imported here, so it is always installed)
``bot.storage.migrate``    ``meadhall migrate-db``: copy every match to another database
=========================  ====================================================================
"""

from bot.storage.analyses import AnalysisJob
from bot.storage.base import Storage
from bot.storage.factory import open_storage
from bot.storage.records import (
    OPEN_STATUSES,
    PING_CHOICES,
    STATUSES,
    LoggedAction,
    MatchRecord,
    NewTimer,
    PlayerSettings,
    Seat,
    StaleVersionError,
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
    "AnalysisJob", "MIGRATIONS", "OPEN_STATUSES", "PING_CHOICES", "STATUSES", "LoggedAction", "MatchRecord", "NewTimer",
    "PlayerSettings", "Seat",
    "SqliteStorage", "StaleVersionError", "Storage", "StorageConflict", "StorageError",
    "StorageUnavailable", "Timer", "effective_actions", "open_storage", "parse_database", "rebuild",
]
