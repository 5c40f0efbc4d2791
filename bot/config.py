"""meadhall's configuration: a TOML file (see ``config.example.toml``) plus the environment.

API::

    config = load_config(path=None, env=os.environ)   # path None: defaults + environment only
    config.token            # str | None — MEADHALL_TOKEN, else [discord] token_file, else token
    config.database         # Path of a SQLite file (relative paths are relative to the config file's
                            # folder), or a "postgresql://…" URL: MEADHALL_DATABASE, else
                            # [storage] database ("path", "sqlite:///path" or "postgresql://…")
    config.storage_options  # dict for Storage.open: busy_timeout (s), pool_size (PostgreSQL)
    config.dev_guild        # int | None — slash commands are synced to this guild
    config.log_level        # "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL"
    config.reminder_delay   # seconds before a player to act is reminded; None = no reminders
    config.reminder_limit   # reminders per turn at most
    config.language         # default language of the host's messages ("en")
    config.cpu_workers      # worker processes for pictures and search players (0: a thread)
    config.threads          # Discord: each game in its own thread ([discord] threads, default true)

``repr(config)`` and ``str(config)`` never show the token. Unknown sections or keys and values
of the wrong type raise :class:`ConfigError` naming the file and the key.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOKEN_ENV = "MEADHALL_TOKEN"
DATABASE_ENV = "MEADHALL_DATABASE"
DEFAULT_DATABASE = "meadhall.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A configuration file or value meadhall cannot use; the message names the file and key."""


@dataclass(frozen=True)
class Config:
    token: str | None = field(default=None, repr=False)
    database: Path | str = Path(DEFAULT_DATABASE)
    busy_timeout: float = 5.0
    pool_size: int = 4
    dev_guild: int | None = None
    application_id: int | None = None  # for ``meadhall invite`` (the bot's user id on Discord)
    log_level: str = "INFO"
    reminder_delay: float | None = 3600.0
    reminder_limit: int = 3
    deadline_takeover: int = 3  # missed turn deadlines before the computer takes the seat (issue 17)
    language: str = "en"
    cpu_workers: int = 0
    threads: bool = True

    def __repr__(self) -> str:
        token = "<set>" if self.token else "<unset>"
        return (f"Config(token={token}, database={_redacted(self.database)!r}, dev_guild={self.dev_guild}, "
                f"log_level={self.log_level!r}, reminder_delay={self.reminder_delay}, "
                f"reminder_limit={self.reminder_limit}, language={self.language!r}, threads={self.threads})")

    __str__ = __repr__

    @property
    def storage_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"busy_timeout": self.busy_timeout}
        if isinstance(self.database, str):
            options["pool_size"] = self.pool_size
        return options

    @property
    def log_level_number(self) -> int:
        return logging.getLevelName(self.log_level)


# section → key → accepted Python types
_SCHEMA: dict[str, dict[str, tuple[type, ...]]] = {
    "discord": {"token": (str,), "token_file": (str,), "dev_guild": (int,), "application_id": (int,),
                "threads": (bool,)},
    "storage": {"database": (str,), "busy_timeout_seconds": (int, float), "pool_size": (int,)},
    "host": {"reminder_delay_minutes": (int, float), "reminder_limit": (int,), "deadline_takeover": (int,),
             "language": (str,),
             "cpu_workers": (int,)},
    "logging": {"level": (str,)},
}


def _redacted(database: Path | str) -> str:
    if isinstance(database, Path):
        return str(database)
    from bot.storage.postgres import redacted

    return redacted(database)


def _check(where: str, data: Mapping[str, Any]) -> None:
    for section, values in data.items():
        if section not in _SCHEMA:
            raise ConfigError(f"{where}: unknown section [{section}] (known: {', '.join(_SCHEMA)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{where}: [{section}] must be a table")
        for key, value in values.items():
            types = _SCHEMA[section].get(key)
            if types is None:
                raise ConfigError(f"{where}: unknown key {section}.{key} "
                                  f"(known: {', '.join(_SCHEMA[section])})")
            if isinstance(value, bool) != (bool in types) or not isinstance(value, types):
                names = " or ".join(t.__name__ for t in types)
                raise ConfigError(f"{where}: {section}.{key} must be {names}, not {type(value).__name__}")


def load_config(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Config:
    """Read ``path`` (TOML) and the environment; a missing ``path`` is an error."""
    env = os.environ if env is None else env
    data: dict[str, Any] = {}
    base = Path.cwd()
    where = "configuration"
    if path is not None:
        path = Path(path)
        where = str(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such configuration file") from None
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"{path}: not valid TOML: {e}") from None
        base = path.resolve().parent
        _check(where, data)
    discord = data.get("discord", {})
    storage = data.get("storage", {})
    host = data.get("host", {})
    logging_ = data.get("logging", {})

    token = env.get(TOKEN_ENV) or None
    if token is None and discord.get("token_file"):
        token_path = base / discord["token_file"]
        try:
            token = token_path.read_text(encoding="utf-8").strip() or None
        except OSError as e:
            raise ConfigError(f"{where}: discord.token_file {token_path}: {e.strerror}") from None
    if token is None:
        token = discord.get("token") or None

    dev_guild = discord.get("dev_guild") or None
    if dev_guild is not None and dev_guild < 0:
        raise ConfigError(f"{where}: discord.dev_guild must be a positive guild id")

    application_id = discord.get("application_id") or None
    if application_id is not None and application_id < 0:
        raise ConfigError(f"{where}: discord.application_id must be a positive application id")

    from bot.storage.records import StorageError, parse_database

    setting = env.get(DATABASE_ENV) or None
    database_base = Path.cwd()
    if setting is None:
        setting, database_base = storage.get("database", DEFAULT_DATABASE), base
    try:
        kind, database = parse_database(setting)
    except StorageError as e:
        source = DATABASE_ENV if env.get(DATABASE_ENV) else f"{where}: storage.database"
        raise ConfigError(f"{source}: {e}") from None
    if kind == "sqlite" and isinstance(database, Path) and not database.is_absolute():  # SQLite: a Path
        database = database_base / database
    busy_timeout = storage.get("busy_timeout_seconds", 5.0)
    if not busy_timeout > 0:
        raise ConfigError(f"{where}: storage.busy_timeout_seconds must be more than 0")
    pool_size = storage.get("pool_size", 4)
    if pool_size < 1:
        raise ConfigError(f"{where}: storage.pool_size must be at least 1")

    level = str(logging_.get("level", "INFO")).upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"{where}: logging.level must be one of {', '.join(LOG_LEVELS)}, not {level!r}")

    minutes = host.get("reminder_delay_minutes", 60)
    if minutes < 0:
        raise ConfigError(f"{where}: host.reminder_delay_minutes must be 0 (off) or more")
    cpu_workers = host.get("cpu_workers", 0)
    if cpu_workers < 0:
        raise ConfigError(f"{where}: host.cpu_workers must be 0 (a thread) or more worker processes")
    limit = host.get("reminder_limit", 3)
    if limit < 1:
        raise ConfigError(f"{where}: host.reminder_limit must be at least 1")

    takeover = host.get("deadline_takeover", 3)
    if takeover < 1:
        raise ConfigError(f"{where}: host.deadline_takeover must be at least 1")

    return Config(
        token=token, database=database, busy_timeout=float(busy_timeout), pool_size=pool_size,
        dev_guild=dev_guild, application_id=application_id, log_level=level,
        reminder_delay=minutes * 60.0 if minutes else None, reminder_limit=limit,
        language=host.get("language", "en"), cpu_workers=cpu_workers, deadline_takeover=takeover,
        threads=discord.get("threads", True),
    )
