"""meadhall on Discord (discord.py 2.7): the bot over the host service.

API::

    bot = MeadhallBot(config, service=None, *, sync_global=False, defer_after=1.5,
                      reminder_poll=60.0)
    await run_bot(config, *, sync_global=False)      # what ``meadhall run`` calls; runs until closed

``MeadhallBot.setup_hook`` opens the service (``service`` given: the caller opened and loaded
it and closes it; otherwise the bot opens ``config.database``, builds a
:class:`~bot.service.HostService` over :func:`bot.adapters.default_registry` and closes it on
``close()``), installs the command :class:`~bot.discord_cog.MeadhallTranslator`, adds the one
Cog of app commands (bot.discord_cog), registers the persistent components
(bot.discord_components), starts the reminder loop and syncs the command tree to
``config.dev_guild`` — globally only with ``sync_global=True``.

The bot needs no privileged intents (guilds only). Everything game-specific comes from the
adapters of the service's registry. The token is only passed to discord.py; :func:`run_bot`
also installs a log filter that replaces it wherever it might appear.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord.ext import commands

from bot.config import Config
from bot.discord_cog import MeadhallCog, MeadhallTranslator, allowed_for, mention
from bot.discord_components import DYNAMIC_ITEMS
from bot.i18n import set_language
from bot.service import HostService
from bot.storage import Storage

log = logging.getLogger(__name__)


class MeadhallBot(commands.Bot):
    def __init__(
        self,
        config: Config | None = None,
        service: HostService | None = None,
        *,
        sync_global: bool = False,
        defer_after: float = 1.5,
        reminder_poll: float = 60.0,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.config = config or Config()
        self._given_service = service
        self.service: HostService = service  # type: ignore[assignment]  # set in setup_hook otherwise
        self._storage: Storage | None = None
        self.sync_global = sync_global
        self.defer_after = defer_after
        self.reminder_poll = reminder_poll
        self.cog: MeadhallCog | None = None
        self.synced: list[discord.app_commands.AppCommand] = []
        self._reminder_task: asyncio.Task[None] | None = None
        self._wakeup = asyncio.Event()

    @property
    def component_handler(self) -> MeadhallCog:
        assert self.cog is not None
        return self.cog

    async def setup_hook(self) -> None:
        if self.service is None:
            self._storage = await Storage.open(self.config.database)
            from bot.adapters import default_registry

            self.service = HostService(
                self._storage, default_registry(), reminder_delay=self.config.reminder_delay,
                reminder_limit=self.config.reminder_limit,
            )
            tables = await self.service.load()
            log.info("opened %s: %d unfinished tables", self.config.database, tables)
        await self.tree.set_translator(MeadhallTranslator())
        self.tree.on_error = self._on_app_command_error  # type: ignore[method-assign]
        self.cog = MeadhallCog(self)
        await self.add_cog(self.cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self._reminder_task = asyncio.create_task(self._reminder_loop(), name="meadhall-reminders")
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            self.synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the dev guild %s", len(self.synced), self.config.dev_guild)
        if self.sync_global:
            self.synced = await self.tree.sync()
            log.info("synced %d commands globally (may take a while to show)", len(self.synced))

    async def close(self) -> None:
        if self._reminder_task is not None:
            self._reminder_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reminder_task
            self._reminder_task = None
        await super().close()
        if self._storage is not None:
            await self._storage.close()
            self._storage = None

    async def _on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        log.error("app command %s failed", getattr(interaction.command, "name", "?"), exc_info=error)
        if self.cog is not None:
            await self.cog.fail(interaction)

    # ------------------------------------------------------------------ reminders

    def wake_reminders(self) -> None:
        """Timers changed (an action was committed): recompute when the next reminder is due."""
        self._wakeup.set()

    async def _reminder_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.send_due_reminders()
                due = await self.service.next_reminder_due()
            except Exception:
                log.exception("sending reminders failed")
                due = None
            delay = self.reminder_poll if due is None else max(0.0, min(due - self.service.clock(),
                                                                         self.reminder_poll))
            self._wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), delay)

    async def send_due_reminders(self) -> int:
        """Post every due reminder in its channel, mentioning (and pinging) the player."""
        sent = 0
        for r in await self.service.due_reminders():
            if not r.channel.isdigit():
                continue  # a table of the offline terminal in the same database
            channel = self.get_channel(int(r.channel)) or self.get_partial_messageable(int(r.channel))
            try:
                await channel.send(f"{mention(r.user, r.name)} {r.text}", allowed_mentions=allowed_for([r.user]))
                sent += 1
            except discord.HTTPException as e:
                log.warning("reminder for match %s in channel %s failed: %s", r.match_id, r.channel, e)
        return sent


# --------------------------------------------------------------------------- running


class RedactToken(logging.Filter):
    """Replaces the token in every log record that passes a handler (defence in depth)."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:
            return True
        if self.token and self.token in text:
            record.msg, record.args = text.replace(self.token, "[token]"), None
        return True


def install_redaction(token: str, logger: logging.Logger | None = None) -> RedactToken:
    redact = RedactToken(token)
    for handler in (logger or logging.getLogger()).handlers:
        handler.addFilter(redact)
    return redact


async def run_bot(config: Config, *, sync_global: bool = False, service: HostService | None = None) -> None:
    """Log in with ``config.token`` and serve until the bot is closed (``meadhall run``)."""
    if not config.token:
        raise ValueError("no Discord token: set MEADHALL_TOKEN or [discord] token_file in the configuration")
    if not logging.getLogger().handlers:
        discord.utils.setup_logging(level=config.log_level_number, root=True)
    else:
        logging.getLogger().setLevel(config.log_level_number)
    install_redaction(config.token)
    set_language(config.language)
    bot = MeadhallBot(config, service, sync_global=sync_global)
    log.info("starting meadhall on Discord with %s", config)
    async with bot:
        await bot.start(config.token)
