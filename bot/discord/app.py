"""meadhall on Discord (discord.py 2.7): the bot over the host service.

API::

    bot = MeadhallBot(config, service=None, *, sync_global=False, defer_after=1.5,
                      reminder_poll=60.0, bot_pause=1.5, bot_budget=None, bot_retry=15.0)
    bot.schedule_bots(channel, lang=None)            # let seated computer players move (in a task)
    await bot.bots_idle(retries=False)               # until no computer player is moving (retries:
                                                     # nor waits to try again after a 5xx / 429)
    await run_bot(config, *, sync_global=False)      # what ``meadhall run`` calls; runs until closed

``MeadhallBot.setup_hook`` opens the service (``service`` given: the caller opened and loaded
it and closes it; otherwise the bot opens ``config.database``, builds a
:class:`~bot.host.service.HostService` over :func:`bot.games.registry.default_registry` and closes it on
``close()``), installs the command :class:`~bot.discord.languages.MeadhallTranslator`, adds the one
Cog of app commands (bot.discord.cog), registers the persistent components
(bot.discord.components), starts the reminder loop and syncs the command tree to
``config.dev_guild`` — globally only with ``sync_global=True`` — when the commands changed since
the last sync recorded in the database, or ``force_sync`` (issue 24, bot.discord.sync).

Threads of unfinished games are kept active (issue 24, bot.discord.threads): archived by Discord
(THREAD_UPDATE) or while the bot was away (on ready), they are un-archived unless locked.

Computer players (issue 8; ``/addbot`` seats them, see bot.host.seats): after every reply that
changed a table the cog calls :meth:`MeadhallBot.schedule_bots`, which answers nothing itself: in
a task per channel it waits ``bot_pause`` seconds (so people can follow), then lets every seated
computer player that must act move through :func:`bot.host.seats.play_bots` (``bot_pause`` between
their moves; ``bot_budget`` seconds per decision of the searching levels (``hard``), None: their default) and
publishes each reply like a person's move (``MeadhallCog.post``: the table's live message, in the
game's thread when it has one — "channel" is the table's key). A post Discord refuses stops them
until a person acts there (issue 12); when the refusal is a passing one (a 5xx or a 429 that
discord.py's own retries did not get through: "Wait a bit and retry", opcodes-and-status-codes.mdx)
the refused post is made again after ``bot_retry`` seconds (doubling, ``BOT_RETRIES`` times) and they
go on (issue 29: one 503 on the post handing the turn back to the only person left the game stuck,
the person never pinged). The service's per-channel lock and version
check keep them in order with people's moves. On ready (also after a restart) every unfinished
table is looked at, so a computer player whose turn it was moves again.

The bot needs no privileged intents (guilds only). Everything game-specific comes from the
adapters of the service's registry. The token is only passed to discord.py; :func:`run_bot`
also installs a log filter that replaces it wherever it might appear.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.discord.cog import MeadhallCog
from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.languages import MeadhallTranslator, language_for
from bot.discord.lifecycle import ServerLife
from bot.discord.login import LoginPlan, ScheduledIdentify, serve
from bot.discord.publishing.messages import allowed_for, escape_names, mention, sendable
from bot.discord.refusals import ChannelWatch, passing
from bot.discord.replaying import REPLAY_ITEMS
from bot.discord.sync import sync_if_changed
from bot.discord.threads import ThreadKeeper
from bot.games import table_language
from bot.host.lifecycle import halt_of
from bot.host.seats import bot_level, play_bots
from bot.host.service import HostService, Reply
from bot.i18n import set_language, set_task_language, use_language
from bot.processes.shards import Shards
from bot.storage import Storage

CLOSE_PATIENCE = 5.0  # seconds the bot's cancelled tasks get, in all, to end when the bot closes

log = logging.getLogger(__name__)


class LocaleTree(app_commands.CommandTree):
    """Every slash command and autocomplete is handled in the user's client language (issue 16):
    what only they see (``/hand``, refusals, the autocomplete's choices) speaks it; replies for the
    whole table set the table's language themselves (``MeadhallCog.run``). Each interaction is
    handled in a task of its own, so the language set here stays with that interaction."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        set_task_language(language_for(interaction.locale))
        return True


class MeadhallBot(commands.Bot):
    def __init__(
        self,
        config: Config | None = None,
        service: HostService | None = None,
        *,
        sync_global: bool = False,
        force_sync: bool = False,
        defer_after: float = 1.5,
        reminder_poll: float = 60.0,
        bot_pause: float = 1.5,
        bot_budget: float | None = None,
        bot_retry: float = 15.0,
        shards: Shards | None = None,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        sharding: dict[str, Any] = {} if shards is None else {"shard_count": shards.count,
                                                              "shard_ids": sorted(shards.ids)}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         tree_cls=LocaleTree, **sharding)
        self.shard_plan = shards  # bot.processes.shards.Shards served here (None: every guild)
        self.config = config or Config()
        self.threads = self.config.threads  # a thread per game (issue 13); the cog reads it at /start
        self._given_service = service
        self.service: HostService = service  # type: ignore[assignment]  # set in setup_hook otherwise
        self._storage: Storage | None = None
        self._cpu = None  # bot.processes.cpu.CpuPool of the service made in setup_hook
        self.sync_global = sync_global
        self.force_sync = force_sync  # sync even when the commands' hash is unchanged (--sync-commands)
        self.life = ServerLife(self)  # issue 29: deleted threads and channels, removed and invited back
        self.keeper = ThreadKeeper(self, self._table_open, gone=self.life.gone)  # issue 24: game threads stay active
        self.defer_after = defer_after
        self.reminder_poll = reminder_poll
        self.cog: MeadhallCog | None = None
        self.synced: list[discord.app_commands.AppCommand] = []
        self._reminder_task: asyncio.Task[None] | None = None
        self._analyses_task: asyncio.Task[None] | None = None  # issue 31: unposted analyses, resumed
        self._wakeup = asyncio.Event()
        self.bot_pause = bot_pause
        self.bot_budget = bot_budget
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._bot_again: dict[str, str | None] = {}  # channel → language of the latest request
        self.bot_retry = bot_retry  # first wait after a passing refusal of their post (issue 29)
        self._bot_retries: dict[str, int] = {}  # channel → passing refusals in a row
        self._bot_waits: dict[str, asyncio.Task[None]] = {}  # channel → waiting to try again
        self.watch = ChannelWatch()  # refused posts and missing permissions per channel (issue 12)
        # set once on_ready has looked at every unfinished table (and scheduled their computer
        # players): discord.py runs on_ready in a task of its own, after is_ready() is already true
        self.tables_looked_at = asyncio.Event()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py calls this as it reads each gateway event; an interaction is told to the Cog
        at once (answer first, issue 24: :meth:`Publisher.arrived`), before its handler's task
        runs and before any other task of ours makes another REST call."""
        if event_name == "interaction" and self.cog is not None and args:
            self.cog.arrived(args[0])
        super().dispatch(event_name, *args, **kwargs)

    @property
    def component_handler(self) -> MeadhallCog:
        assert self.cog is not None
        return self.cog

    async def setup_hook(self) -> None:
        if self.service is None:
            self._storage = await Storage.open(self.config.database, **self.config.storage_options)
            from bot.games.registry import default_registry
            from bot.processes.cpu import CpuPool

            self._cpu = CpuPool(self.config.cpu_workers)
            self.service = HostService(
                self._storage, default_registry(), reminder_delay=self.config.reminder_delay,
                reminder_limit=self.config.reminder_limit, cpu=self._cpu, shards=self.shard_plan,
                deadline_takeover=self.config.deadline_takeover,
            )
            self.service.analyse_finished = True  # issue 31: each finished game's analysis in its thread
            from renderer.picture import warm_up

            await asyncio.to_thread(warm_up)  # the first picture of a process would cost 60-130 ms
            tables = await self.service.load()
            log.info("opened %s: %d unfinished tables", self._storage.path, tables)
        await self.tree.set_translator(MeadhallTranslator())
        self.tree.on_error = self._on_app_command_error  # type: ignore[method-assign]
        self.cog = MeadhallCog(self)
        await self.add_cog(self.cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *REPLAY_ITEMS)  # issue 25: a replay's buttons too
        self._reminder_task = asyncio.create_task(self._reminder_loop(), name="meadhall-reminders")
        if self.service.analyse_finished:  # issue 31: analyses a stopped process left unposted
            self._analyses_task = asyncio.create_task(self._resume_analyses(), name="meadhall-analyses")
        if self.config.dev_guild:
            guild = discord.Object(self.config.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await sync_if_changed(self.tree, self.service.storage, guild=guild, force=self.force_sync)
            if synced is not None:
                self.synced = synced
                log.info("synced %d commands to the dev guild %s", len(synced), self.config.dev_guild)
        if self.sync_global:
            synced = await sync_if_changed(self.tree, self.service.storage, force=self.force_sync)
            if synced is not None:
                self.synced = synced
                log.info("synced %d commands globally (may take a while to show)", len(synced))

    async def close(self) -> None:
        """Stop the computer players and the reminders, log out, close the storage. Bounded: the
        cancelled tasks get ``CLOSE_PATIENCE`` s in all to end, and a cancellation of close itself
        (a supervisor's timeout) is never swallowed."""
        tasks = [*self._bot_tasks.values(), *self._bot_waits.values(),
                 *([self._reminder_task] if self._reminder_task else []),
                 *([self._analyses_task] if self._analyses_task else [])]
        for task in tasks:
            task.cancel()
        if tasks:
            _done, stuck = await asyncio.wait(tasks, timeout=CLOSE_PATIENCE)
            if stuck:
                log.warning("closing: %s did not end within %s s of being cancelled",
                            sorted(t.get_name() for t in stuck), CLOSE_PATIENCE)
        self._bot_tasks.clear()
        self._bot_waits.clear()
        self._reminder_task = self._analyses_task = None
        await super().close()
        if self._storage is not None:
            await self._storage.close()
            self._storage = None
        if self._cpu is not None:
            self._cpu.close()
            self._cpu = None

    async def _on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        log.error("app command %s failed", getattr(interaction.command, "name", "?"), exc_info=error)
        if self.cog is not None:
            await self.cog.fail(interaction)

    # ------------------------------------------------------------------ computer players

    async def on_ready(self) -> None:
        """After a (re)start: the bot's permissions in every channel with a table are checked (a
        missing one is logged by name now and told to the next player there), and computer players
        whose turn it is at a loaded table move."""
        try:
            await self._look_at_tables()
        finally:
            self.tables_looked_at.set()

    async def _look_at_tables(self) -> None:
        try:
            records = await self.service.storage.unfinished_matches(snapshots=False)
        except Exception:
            log.exception("looking for tables with computer players failed")
            return
        if self.shard_plan is not None:  # another process serves the other shards' guilds
            records = [r for r in records if self.shard_plan.owns(r.guild)]
        records = await self.life.at_start(records)  # issue 29: paused tables wait for a resume
        for record in records:
            self.check_permissions(record.channel)
        # issue 24: threads of active tables that archived while the bot was away come back
        await self.keeper.at_start([r.channel for r in records if r.status == "active"])
        for record in records:
            if record.status == "active" and record.channel.isdigit() and any(
                    bot_level(s.user) for s in record.seats):
                self.schedule_bots(record.channel)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Discord archived a thread: the thread of an unfinished game is un-archived (issue 24)."""
        await self.keeper.thread_updated(payload)

    async def _table_open(self, key: str) -> bool:
        table = await self.service.table(key)
        return (table is not None and table.game is not None and not table.game.is_over
                and halt_of(table.record) is None)

    # issue 29 (bot.discord.lifecycle): a server's life, translated into host calls
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.life.thread_deleted(payload)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.life.channel_deleted(channel)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.life.removed(guild)  # GUILD_DELETE without unavailable: removed, not an outage

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.life.invited(guild)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.life.available(guild)  # after an outage or at start-up: invited back while away?

    def check_permissions(self, channel: str) -> list[str]:
        """The required permissions (bot.discord.permissions) the bot lacks in ``channel`` as far
        as its cache knows (logged once; told to the next player there by the cog)."""
        if not channel.isdigit():
            return []
        target = self.get_channel(int(channel))
        guild = getattr(target, "guild", None)
        if target is None or isinstance(target, discord.abc.PrivateChannel) or guild is None or guild.me is None:
            return []
        return self.watch.missing_permissions(channel, target.permissions_for(guild.me), where="at start-up")

    def schedule_bots(self, channel: str, lang: str | None = None) -> None:
        """Let the computer players of ``channel`` move, in a task (never inside an interaction's
        answer), in the table's language (``lang`` for a table without one). A request while they
        are moving makes them look again when done. Not while Discord refuses the bot's posts
        there: then they wait until a person acts (issue 12)."""
        if not channel.isdigit() or self.watch.halted(channel):
            return
        self._bot_again[channel] = lang
        task = self._bot_tasks.get(channel)
        if task is None or task.done():
            self._bot_tasks[channel] = asyncio.create_task(self._run_bots(channel),
                                                           name=f"meadhall-bots-{channel}")

    async def bots_idle(self, *, retries: bool = False) -> None:
        """Wait until no computer player is moving (tests; a clean shutdown). Once the bot is
        ready this includes the computer players of the start-up look at the tables (on_ready);
        ``retries``: also until none waits to try a refused post again (issue 29)."""
        if self.is_ready():
            await self.tables_looked_at.wait()
        while True:
            tasks = [t for t in self._bot_tasks.values() if not t.done()]
            if retries:
                tasks += [t for t in self._bot_waits.values() if not t.done()]
            if not tasks:
                return
            await asyncio.wait(tasks)

    async def _bot_must_act(self, channel: str) -> bool:
        table = await self.service.table(channel)
        if table is None or table.game is None or table.game.is_over or halt_of(table.record) is not None:
            return False
        seats = table.record.seats
        return any(bot_level(seats[s].user) for s in table.game.acting_seats())

    async def _run_bots(self, channel: str) -> None:
        while channel in self._bot_again:
            lang = self._bot_again.pop(channel)
            try:
                table = await self.service.table(channel)  # issue 16: their moves speak the table's language
                stored = table_language(table.record.options) if table is not None else None
                with use_language(stored or lang):
                    if not await self._bot_must_act(channel):
                        continue
                    if self.bot_pause:
                        await asyncio.sleep(self.bot_pause)  # let people read the last move first
                    await play_bots(self.service, channel, budget=self.bot_budget, pause=self.bot_pause,
                                    on_reply=functools.partial(self._post_bot_reply, channel))
            except asyncio.CancelledError:
                raise
            except _PostRefused:
                self._bot_again.pop(channel, None)
                return  # logged once by the watch; they wait for a person to act there
            except Exception:
                log.exception("computer players in channel %s failed", channel)

    async def _post_bot_reply(self, channel: str, reply: Reply, *, person: bool = False) -> None:
        """Publish a computer player's move (or one made after a deadline; ``person``: a person's
        move whose own post Discord refused in passing, posted again)."""
        self.wake_reminders()
        if self.cog is None:
            return
        if await self.service.halted(channel):  # issue 29: its place is gone (or the bot removed)
            raise _PostRefused
        target = self.get_channel(int(channel)) or self.get_partial_messageable(int(channel))
        try:
            await self.cog.post(sendable(target), channel, reply)
        except discord.HTTPException as e:
            # the move is committed; the next person to act there is told, and the bots wait for one
            self.watch.refused(channel, reply.match_id, e, "a move's post" if person else "a computer player's move",
                               tell_later=not person)
            self.try_again_later(channel, e, reply, person=person)
            raise _PostRefused from e
        self.watch.posted(channel)
        self._bot_retries.pop(channel, None)

    def try_again_later(self, channel: str, error: discord.HTTPException, reply: Reply, *,
                        person: bool = False) -> None:
        """A passing refusal (:func:`~bot.discord.refusals.passing`) of the post of ``reply`` (a
        computer player's move, one made after a deadline, or a ``person``'s whose answer told them
        privately, bot.discord.publishing.answering): unless a person acts first, it is
        posted again after ``bot_retry`` s (doubling each time in a row, ``BOT_RETRIES`` times; then,
        an outage, they wait for a person as after any refusal) and the computer players go on."""
        tries, waiting = self._bot_retries.get(channel, 0), self._bot_waits.get(channel)
        busy = waiting is not None and not waiting.done() and waiting is not asyncio.current_task()
        if not passing(error) or tries >= BOT_RETRIES or busy:
            return
        self._bot_retries[channel] = tries + 1
        delay = self.bot_retry * 2 ** tries
        log.info("computer players in channel %s try again in %.1f s (Discord answered %s)", channel, delay,
                 error.status)
        self._bot_waits[channel] = asyncio.create_task(self._after(channel, delay, reply, person),
                                                       name=f"meadhall-bots-wait-{channel}")

    async def _after(self, channel: str, delay: float, reply: Reply, person: bool) -> None:
        """The refused post again if the table has not moved since (its news, and the ping of
        whoever acts next: a hand-back to a person must reach them), then the computer players."""
        await asyncio.sleep(delay)
        if not self.watch.halted(channel):
            return  # a person acted meanwhile: their answer published the table as it stands
        self.watch.try_again(channel)  # the next person is still told of the refused post
        table = await self.service.table(channel)
        unmoved = (table.record.id == reply.match_id and table.record.version == reply.version if table is not None
                   else reply.status not in (None, "active"))  # a finished game has no open table: its last post
        if unmoved and reply.version is not None:
            try:
                await self._post_bot_reply(channel, reply, person=person)
            except _PostRefused:
                return  # refused again: it waits again (after BOT_RETRIES, for a person)
        self.schedule_bots(channel)

    # ------------------------------------------------------------------ reminders

    async def _resume_analyses(self) -> None:
        from bot.discord.publishing.analysing import resume_analyses

        await self.wait_until_ready()
        await resume_analyses(self.service, self)

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
            if bot_level(r.user):
                self.schedule_bots(r.channel)  # a computer player never needs reminding: let it move
                continue
            if r.count == 0 and r.reply is not None and self.cog is not None:
                # moves made after a deadline (bot.host.turns), published like a computer player's
                # move (issue 24): the live message moves on, the stale one loses its controls and
                # whoever acts next is pinged; then a computer player may be next
                r.reply.public = [f"{mention(r.user, r.name)} {r.text}"]
                try:
                    await self._post_bot_reply(r.channel, r.reply)
                    sent += 1
                except _PostRefused:
                    continue  # logged once by the watch; the bots wait for a person there
                self.schedule_bots(r.channel)
                continue
            if r.count == 0:  # moves made after a deadline with nothing to publish: a computer player may be next
                self.schedule_bots(r.channel)
            channel = self.get_channel(int(r.channel)) or self.get_partial_messageable(int(r.channel))
            try:
                await sendable(channel).send(f"{mention(r.user, r.name)} {escape_names(r.text, r.names)}",
                                             allowed_mentions=allowed_for([r.user]))
                sent += 1
                self.watch.posted(r.channel)
            except discord.HTTPException as e:
                self.watch.refused(r.channel, r.match_id, e, "a reminder")  # logged once per table
        return sent


BOT_RETRIES = 5  # passing refusals in a row before computer players wait for a person (15 s … 4 min)


class _PostRefused(Exception):
    """Discord refused a computer player's post: stop their moves at that table (logged already)."""


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


async def run_bot(config: Config, *, sync_global: bool = False, service: HostService | None = None,
                  shards: Shards | None = None, login: LoginPlan | None = None, force_sync: bool = False) -> int:
    """Log in with ``config.token`` and serve until the bot is closed (``meadhall run``). Returns
    the process's exit status: FATAL_EXIT after a fatal gateway close (bot.discord.login)."""
    if not config.token:
        raise ValueError("no Discord token: set MEADHALL_TOKEN or [discord] token_file in the configuration")
    if not logging.getLogger().handlers:
        discord.utils.setup_logging(level=config.log_level_number, root=True)
    else:
        logging.getLogger().setLevel(config.log_level_number)
    install_redaction(config.token)
    set_language(config.language)
    if shards is None:
        bot = type("LoginMeadhallBot", (ScheduledIdentify, MeadhallBot), {})(config, service, sync_global=sync_global,
                                                                             force_sync=force_sync)
    else:  # one process over several shards: discord.py's AutoShardedBot with our bot's behaviour
        sharded = type("ShardedMeadhallBot", (ScheduledIdentify, MeadhallBot, commands.AutoShardedBot), {})
        bot = sharded(config, service, sync_global=sync_global, shards=shards, force_sync=force_sync)
    bot.login_plan = login  # IDENTIFY in this shard's max_concurrency slot (issue 24)
    log.info("starting meadhall on Discord with %s", config)
    return await serve(bot, config.token)
