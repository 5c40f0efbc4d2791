"""The fake Discord: an aiohttp server on 127.0.0.1 speaking the gateway and the REST API.

See the package docstring for how tests use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import WSMsgType, web

from . import limits
from .gateway_rules import GatewayRules
from .lifecycle import LifecycleEvents
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    BOT_ROLE_PERMISSIONS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    HAS_THREAD,
    LOADING,
    MANAGE_THREADS,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    FakeChannel,
    FakeUser,
    InteractionResult,
    Message,
    RecordedRequest,
    iso_now,
    snowflake,
)
from .ratelimits import Limiter, RateLimits
from .schema import SchemaChecker
from .weather import Weather

log = logging.getLogger("fakediscord")

# What an in-process bot had read of the gateway when it made a REST call (``start_bot`` stamps
# each call): "session=sequence;…". A call the bot made before it read an interaction's event
# cannot be held back for that interaction's answer, so it is not counted against it
# (``calls_before_answer``); a call without the stamp (a bot in another process) always counts.
SEEN_HEADER = "X-Fakediscord-Seen"
_SEEN: contextvars.ContextVar[str | None] = contextvars.ContextVar("fakediscord_seen", default=None)

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15

# Names of the tasks discord.py creates to run an interaction's handler. While any of these is
# running, the bot is still answering.
_HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
    "discord.py: on_interaction",
)

_OPTION_TYPES = {3: "string", 4: "integer", 5: "boolean", 6: "user", 7: "channel", 8: "role", 10: "number"}


class FakeDiscordError(AssertionError):
    """The bot did something real Discord would not accept or that leaves a user hanging."""


class InteractionNotAnswered(FakeDiscordError):
    """No response, a late response (> 3 s), or a deferred response never completed.

    ``result`` holds what was recorded for the interaction anyway.
    """

    def __init__(self, message: str, result: InteractionResult):
        super().__init__(message)
        self.result = result


class ThreadArchived(FakeDiscordError):
    """A fake user tried to use a command or a component in an archived (or locked) thread.

    threads.mdx "Active & Archived Threads": "Users cannot edit messages, add reactions, use
    application commands, or join archived threads" -- Discord's client offers neither commands
    nor working buttons there. ``await fd.user_says(user, thread, text)`` first un-archives it as a
    user's message would.
    """


# Discord's own numbers for interaction tokens, receiving-and-responding.mdx "Interaction Callback"
# (Info box): "Interaction tokens are valid for 15 minutes ... you must send an initial response
# within 3 seconds of receiving the event. If the 3 second deadline is exceeded, the token will be
# invalidated." (also "Followup Messages": "Interaction tokens are valid for 15 minutes")
TOKEN_LIFETIME = 15 * 60.0


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Any = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            out["errors"] = self.errors
        return out


def _invalid(problems: list[str]) -> _HTTPError:
    # the schema's ErrorDetails: each error has an integer code and a message (here all on the root)
    return _HTTPError(400, 50035, "Invalid Form Body",
                      {"_errors": [{"code": 50035, "message": p} for p in problems]})


@dataclass
class _Injected:
    method: str
    path: re.Pattern[str]
    status: int
    code: int
    message: str
    retry_after: float | None
    times: int
    when: Callable[[Any], bool] | None = None  # only requests whose JSON body this accepts

    def matches(self, method: str, path: str, body: Any) -> bool:
        return self.method == method and bool(self.path.search(path)) and (self.when is None or self.when(body))


class _Session:
    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws
        self.id = secrets.token_hex(16)
        self.seq = 0
        self.intents = 0
        self.identified = False
        self.shard: tuple[int, int] = (0, 1)  # [shard_id, num_shards] of its IDENTIFY
        self.received: list[dict[str, Any]] = []

    def serves(self, guild_id: int) -> bool:
        """Discord sends a guild's events to shard ``(guild_id >> 22) % num_shards``."""
        return shard_of(guild_id, self.shard[1]) == self.shard[0]


# The rate limits of FakeDiscord() unless a test passes its own (see ratelimits.py): Discord's
# counts, the per-route windows scaled by 0.1 because tests play at machine speed, about ten times
# faster than people click (with Discord's own windows, FAKEDISCORD_RATE_SCALE=1, meadhall's edits
# before an answer wait for the limiter and 11 whole-game tests miss the 3 s deadline: issue 24).
RATE_LIMITS_FOR_TESTS = RateLimits(scale=float(os.environ.get("FAKEDISCORD_RATE_SCALE", "0.1")))


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events (Discord's formula)."""
    return (guild_id >> 22) % shard_count


@dataclass
class FakeGuild:
    """A guild of the fake; its channels are in ``FakeDiscord.channels`` (``guild_id`` says whose)."""

    id: int
    name: str
    owner: FakeUser
    locale: str = "en-US"  # the server's preferred locale (issue 16)

    def shard(self, shard_count: int) -> int:
        return shard_of(self.id, shard_count)


def guild_id_on(shard: int, shard_count: int) -> int:
    """A fresh snowflake whose guild lands on ``shard`` of ``shard_count`` (its time moved back < N ms)."""
    s = snowflake()
    t = s >> 22
    return ((t - (t - shard) % shard_count) << 22) | (s & 0x3FFFFF)


class FakeDiscord(LifecycleEvents):
    """A loopback Discord for one test. Use as ``async with FakeDiscord() as fd:``.

    ``users`` are the guild's members (plus ``admin``, the guild owner with the Admin role);
    ``channels`` its text channels, the first being the default. ``callback_deadline`` is
    Discord's 3 s to answer an interaction; ``settle`` how long the bot must stay quiet before
    an interaction counts as handled; ``lifetime`` when the fake shuts itself and its bots down.
    """

    _active: FakeDiscord | None = None

    def __init__(
        self,
        *,
        token: str = "fake-token.for-tests.only",
        users: Iterable[str] = ("alice", "bob", "carol", "dave"),
        admin: str = "erik",
        channels: Iterable[str] = ("general", "tavern"),
        guild_name: str = "Fake Guild",
        heartbeat_interval: float = 5.0,
        lifetime: float = 120.0,
        callback_deadline: float = 3.0,
        settle: float = 0.05,
        attachment_size_limit: int = 10 * 1024 * 1024,
        bot_permissions: int = BOT_ROLE_PERMISSIONS,
        shard_count: int = 1,
        rate_limits: RateLimits | None = None,
        strict_answer_order: bool | None = None,
        weather: Weather | None = None,
        **gateway_limits: Any,  # tests/fakediscord/gateway_rules.py: max_concurrency, identify_window, …
    ):
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.lifetime = lifetime
        self.callback_deadline = callback_deadline
        self.settle = settle
        self.attachment_size_limit = attachment_size_limit
        # Issue 24: one clock for every time-based rule (3 s answer, 15 min token, rate-limit
        # windows, thread auto-archive): real monotonic time plus what tests ``advance``.
        self._offset = 0.0
        self.rate_limits = RATE_LIMITS_FOR_TESTS if rate_limits is None else rate_limits
        self.limiter = Limiter(self.rate_limits, lambda: self.clock, self.wall_clock)
        self.rate_limited: list[tuple[str, float]] = []  # 429s served: ("METHOD /path", retry_after)
        self.late_answers: list[InteractionResult] = []  # answered after other REST calls of the bot
        # second initial responses refused 40060 (issue 29: the bot must never send one; the fd fixture checks)
        self.second_answers: list[InteractionResult] = []
        # on: a test whose bot made REST calls before an initial response fails at exit
        # (default: on unless the environment says FAKEDISCORD_STRICT_ANSWER_ORDER=0)
        if strict_answer_order is None:
            strict_answer_order = os.environ.get("FAKEDISCORD_STRICT_ANSWER_ORDER", "1") != "0"
        self.strict_answer_order = strict_answer_order
        self.dropped_embeds: list[tuple[int, list[dict[str, Any]]]] = []  # (channel id, embeds) without EMBED_LINKS
        # issue 29: latency, 5xx, op 7 and op 9 from a seeded RNG (weather.py); None: fair weather
        self.weather = weather
        self._storms: set[asyncio.Task[None]] = set()  # op 7 / op 9 the weather has yet to send

        self.bot_user = FakeUser(snowflake(), "meadhall-test", bot=True)
        self.application_id = self.bot_user.id
        if shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        self.shard_count = shard_count  # what /gateway/bot recommends; sessions say their own in IDENTIFY
        self.gateway_rules = GatewayRules(self, **gateway_limits)  # login limits and RESUME replay (issue 24)
        self.guild_id = snowflake()  # the default guild: where channels=… are, and slash/click go by default
        self.guild_name = guild_name
        self.admin_role_id = snowflake()
        self.bot_role_id = snowflake()
        self.bot_permissions = bot_permissions  # of the bot's managed role (what its invite granted)
        self.owner = FakeUser(snowflake(), admin, admin=True)
        self.users: dict[str, FakeUser] = {name: FakeUser(snowflake(), name) for name in users}
        self.users[admin] = self.owner
        self.channels: dict[str, FakeChannel] = {
            name: FakeChannel(snowflake(), name, self.guild_id, position=i) for i, name in enumerate(channels)
        }
        self.guilds: dict[int, FakeGuild] = {self.guild_id: FakeGuild(self.guild_id, guild_name, self.owner)}
        self.threads: dict[int, FakeChannel] = {}  # public threads opened by the bot, by id

        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.internal_errors: list[str] = []
        # Issue 12: every request and answer is checked against Discord's OpenAPI schema.
        # ``request_violations`` are the bot's (refused with 400 as Discord would),
        # ``response_violations`` the fake's own; both must stay empty (checked on exit).
        self.schema = SchemaChecker(count=True)
        self.request_violations: list[str] = []
        self.response_violations: list[str] = []
        self.sync_log: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: list[InteractionResult] = []
        self.identify_payloads: list[dict[str, Any]] = []
        self.presence_updates: list[dict[str, Any]] = []
        self.dispatched: list[tuple[str, dict[str, Any]]] = []  # gateway events sent, in order
        self.dispatched_to: list[tuple[str, tuple[int, int], str]] = []  # event, [shard, count], session id
        self._messages: dict[int, Message] = {}
        self._by_token: dict[str, InteractionResult] = {}
        self._injected: list[_Injected] = []
        self._sessions: list[_Session] = []
        self._current: _Session | None = None
        self._identified: dict[str, tuple[tuple[int, int], int]] = {}  # session id → shard, intents (RESUME)
        self._bots: list[tuple[discord.Client, asyncio.Task[None]]] = []
        self._runner: web.AppRunner | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self._closed = asyncio.Event()
        self._closing = False
        self.port = 0

    # ------------------------------------------------------------------ lifecycle
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, exc_type: object, *exc: object) -> None:
        await self.close()
        if exc_type is None:
            self.assert_schema_clean()
            if self.strict_answer_order:
                self.assert_answers_first()

    def assert_answers_first(self) -> None:
        """Fail if the bot made other REST calls between an interaction and its initial response
        (the user waits meanwhile: receiving-and-responding.mdx "Interaction Callback", 3 s)."""
        if self.late_answers:
            lines = [
                f"{i.user.username}'s interaction {i.type} {i.data.get('name') or i.data.get('custom_id')!r}: "
                + ", ".join(f"{r.method} {r.path}" for r in i.calls_before_answer)
                for i in self.late_answers
            ]
            raise FakeDiscordError(
                "the bot made REST calls before the initial response (FakeDiscord(strict_answer_order=False) "
                "only records them in fd.late_answers):\n" + "\n".join(lines))

    def assert_schema_clean(self) -> None:
        """Fail, naming route, JSON path and reason, if a request or answer broke Discord's schema."""
        if self.request_violations or self.response_violations:
            lines = [f"bot: {v}" for v in self.request_violations] + [f"fake: {v}" for v in self.response_violations]
            lines = list(dict.fromkeys(lines))
            if os.environ.get("FAKEDISCORD_VIOLATIONS"):
                with open(os.environ["FAKEDISCORD_VIOLATIONS"], "a", encoding="utf-8") as f:
                    f.write("\n".join(lines) + "\n")
            more = f"\n... and {len(lines) - 20} more" if len(lines) > 20 else ""
            raise FakeDiscordError("Discord's schema refuses:\n" + "\n".join(lines[:20]) + more)

    async def start(self) -> None:
        if FakeDiscord._active is not None:
            raise RuntimeError("another FakeDiscord is running; discord.py's endpoints are process-wide")
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/api/{version}/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        FakeDiscord._active = self
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"{self.url}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        self._closed.clear()
        self._closing = False
        self._watchdog = asyncio.create_task(self._expire(), name="fakediscord-watchdog")

    async def _expire(self) -> None:
        await asyncio.sleep(self.lifetime)
        log.warning("FakeDiscord lifetime of %.0f s is over: shutting down", self.lifetime)
        await self.close(from_watchdog=True)

    async def close(self, *, from_watchdog: bool = False) -> None:
        if self._closing:  # already shutting down (e.g. the watchdog): wait for that to finish
            if not from_watchdog:
                await asyncio.wait_for(self._closed.wait(), 15)
            return
        self._closing = True
        for storm in list(self._storms):
            storm.cancel()
        for bot, _task in list(self._bots):
            await self.stop_bot(bot)
        for session in list(self._sessions):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.ws.close(code=1000), 1.0)
        if self._runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._runner.cleanup(), 3.0)
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None
        if FakeDiscord._active is self:
            FakeDiscord._active = None
        if self._watchdog is not None and not from_watchdog:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
        self._watchdog = None
        self._closed.set()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    async def wait_closed(self, timeout: float = 10.0) -> None:
        """Wait until the fake has shut down (e.g. when its ``lifetime`` ran out)."""
        await asyncio.wait_for(self._closed.wait(), timeout)

    async def start_bot(
        self, bot: discord.Client, *, timeout: float = 10.0, guild_ready_timeout: float | None = 0.05
    ) -> None:
        """Log ``bot`` in against the fake and wait until it is ready (READY + guild received).

        ``guild_ready_timeout`` replaces the bot's wait for further guilds (2 s by default in
        discord.py) so that start-up is quick; None keeps the bot's own setting.
        """
        if guild_ready_timeout is not None:
            bot._connection.guild_ready_timeout = guild_ready_timeout
        self._stamp_calls(bot)
        task = asyncio.create_task(bot.start(self.token), name="fakediscord-bot")
        self._bots.append((bot, task))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not bot.is_ready():
            if task.done():
                self._bots.remove((bot, task))
                exc = task.exception()
                raise FakeDiscordError(f"the bot stopped before it was ready: {exc!r}") from exc
            if loop.time() > deadline:
                await self.stop_bot(bot)
                raise TimeoutError(f"the bot was not ready within {timeout} s")
            await asyncio.sleep(0.01)

    def _stamp_calls(self, bot: discord.Client) -> None:
        """Stamp each REST call of ``bot`` with what it had read of the gateway when it made the
        call (:data:`SEEN_HEADER`), taken where discord.py's ``HTTPClient.request`` is entered —
        inside the bot's own wrappers, before discord.py's rate-limit waits — and sent as a header
        through an aiohttp trace (discord.py's ``http_trace``, the bot's own one if it has one).
        Once per bot."""
        http = bot.http
        if getattr(http, "_fakediscord_stamped", False):
            return

        async def on_request_start(_session: Any, _ctx: Any, params: aiohttp.TraceRequestStartParams) -> None:
            seen = _SEEN.get()
            if seen is not None:
                params.headers[SEEN_HEADER] = seen

        if http.http_trace is None:
            http.http_trace = aiohttp.TraceConfig()
        http.http_trace.on_request_start.append(on_request_start)
        request = http.request

        def seen() -> str:
            shards = getattr(bot, "_AutoShardedClient__shards", None)  # discord.py's sharded client
            sockets = [s.ws for s in shards.values()] if shards else [getattr(bot, "ws", None)]
            return ";".join(f"{ws.session_id}={ws.sequence or 0}" for ws in sockets
                            if ws is not None and ws.session_id is not None)

        async def stamped(route: Any, **kwargs: Any) -> Any:
            token = _SEEN.set(seen())
            try:
                return await request(route, **kwargs)
            finally:
                _SEEN.reset(token)

        http.request = stamped  # type: ignore[method-assign]
        http._fakediscord_stamped = True  # type: ignore[attr-defined]

    @staticmethod
    def _made_after(rec: RecordedRequest, inter: InteractionResult) -> bool:
        """Whether the bot made the call ``rec`` after it had read ``inter``'s event (unknown: yes)."""
        stamp = rec.headers.get(SEEN_HEADER)
        if stamp is None or inter.session_id is None:
            return True
        seen = dict(part.split("=", 1) for part in stamp.split(";") if "=" in part)
        return inter.session_id in seen and int(seen[inter.session_id]) >= inter.seq

    async def stop_bot(self, bot: discord.Client, *, timeout: float = 5.0) -> None:
        """Close ``bot`` (as a shutdown or crash of the process would) and wait for it to stop."""
        for entry in list(self._bots):
            if entry[0] is bot:
                self._bots.remove(entry)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(bot.close(), timeout)
                task = entry[1]
                if not task.done():
                    task.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(task, timeout)

    @property
    def bot(self) -> discord.Client | None:
        return self._bots[-1][0] if self._bots else None

    # ------------------------------------------------------------------ the clock
    @property
    def clock(self) -> float:
        """The fake's time (seconds, monotonic): real time plus what tests :meth:`advance`.

        Every time-based rule reads it: the 3 s initial response, the 15 min interaction token,
        rate-limit windows and thread auto-archiving."""
        return time.monotonic() + self._offset

    def wall_clock(self) -> float:
        """Epoch seconds on the same clock (for timestamps and ``X-RateLimit-Reset``)."""
        return time.time() + self._offset

    def iso_clock(self) -> str:
        return datetime.fromtimestamp(self.wall_clock(), UTC).isoformat()

    async def advance(self, seconds: float) -> None:
        """Move the fake's clock ``seconds`` ahead, then apply what became due (threads that
        archive send THREAD_UPDATE). Real waits (``settle``, ``timeout``) are not affected."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
        await self._tick()

    # ------------------------------------------------------------------ the world
    @property
    def channel(self) -> FakeChannel:
        """The first (default) text channel."""
        return next(iter(self.channels.values()))

    def add_guild(self, name: str, channels: Iterable[str], *, shard: int | None = None) -> FakeGuild:
        """Another guild the bot is in, owned by the admin, with every user a member and text
        ``channels`` (names unique across the fake). ``shard``: its id lands on that shard of
        ``shard_count``. A bot already connected on that shard gets its GUILD_CREATE when
        :meth:`announce_guild` is awaited."""
        names = list(channels)
        taken = [n for n in names if n in self.channels]
        if taken or not names:
            raise ValueError(f"a new guild needs channels with new names; taken: {taken}")
        if shard is not None and not 0 <= shard < self.shard_count:
            raise ValueError(f"shard {shard} is not one of the {self.shard_count} shards")
        gid = guild_id_on(shard, self.shard_count) if shard is not None else snowflake()
        guild = self.guilds[gid] = FakeGuild(gid, name, self.owner)
        for i, cname in enumerate(names):
            self.channels[cname] = FakeChannel(snowflake(), cname, gid, position=i)
        return guild

    async def announce_guild(self, guild: FakeGuild) -> None:
        """GUILD_CREATE to the session of ``guild``'s shard (the bot was invited to it)."""
        session = self._session_for(guild.id)
        if session is not None:
            await self.dispatch("GUILD_CREATE", self._guild_payload(session.intents, guild), guild_id=guild.id)

    def guild(self, where: int | str | FakeChannel | FakeGuild | None = None) -> FakeGuild:
        """A guild by id or name, the guild of a channel, or the default guild."""
        if isinstance(where, FakeGuild):
            return where
        if where is None:
            return self.guilds[self.guild_id]
        if isinstance(where, int) and where in self.guilds:
            return self.guilds[where]
        for g in self.guilds.values():
            if g.name == where:
                return g
        return self.guilds[self._channel(where).guild_id]

    def guild_channels(self, guild: int | str | FakeGuild | None = None) -> list[FakeChannel]:
        gid = self.guild(guild).id
        return [ch for ch in self.channels.values() if ch.guild_id == gid]

    def user(self, who: str | int | FakeUser) -> FakeUser:
        if isinstance(who, FakeUser):
            return who
        if isinstance(who, int):
            for u in self.all_users():
                if u.id == who:
                    return u
        elif who in self.users:
            return self.users[who]
        raise LookupError(f"no such fake user {who!r}; known: {sorted(self.users)}")

    def _channel(self, where: str | int | FakeChannel | None) -> FakeChannel:
        if where is None:
            return self.channel
        if isinstance(where, FakeChannel):
            return where
        for ch in [*self.channels.values(), *self.threads.values()]:
            if where in (ch.id, ch.name):
                return ch
        raise LookupError(f"no such fake channel {where!r}; known: {sorted(self.channels)}")

    def all_users(self) -> list[FakeUser]:
        return [self.bot_user, *self.users.values()]

    def _users_by_id(self) -> dict[int, FakeUser]:
        return {u.id: u for u in self.all_users()}

    def permissions(self, user: FakeUser, channel: FakeChannel | None = None) -> int:
        """``user``'s permissions (in ``channel``: after its overwrites), computed as Discord does;
        a thread has its parent channel's."""
        if channel is not None and channel.is_thread and channel.parent_id is not None:
            channel = self._channel(channel.parent_id)
        if user.admin:
            return ALL_PERMISSIONS
        perms = EVERYONE_PERMISSIONS | (self.bot_permissions if user is self.bot_user else 0)
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        for o in channel.overwrites if channel is not None else []:
            if int(o["id"]) in (channel.guild_id, user.id) or (user is self.bot_user and int(o["id"]) == self.bot_role_id):
                perms = (perms & ~int(o["deny"])) | int(o["allow"])
        return perms

    async def deny_bot(self, channel: str | int | FakeChannel | None, permissions: int) -> None:
        """A server admin takes ``permissions`` from the bot in ``channel`` (a member overwrite);
        the bot hears of it by CHANNEL_UPDATE, and Discord refuses what it no longer may do."""
        ch = self._channel(channel)
        ch.overwrites = [o for o in ch.overwrites if int(o["id"]) != self.bot_user.id]
        ch.overwrites.append({"id": str(self.bot_user.id), "type": 1, "allow": "0", "deny": str(permissions)})
        if self._session_for(ch.guild_id) is not None:
            await self.dispatch("CHANNEL_UPDATE", ch.payload(), guild_id=ch.guild_id)

    def _may(self, ch: FakeChannel, *, files: bool = False, edit: bool = False) -> None:
        """Refuse like Discord a bot post (or, ``edit``, an edit) in ``ch`` its permissions do not allow.

        message.mdx "Create Message": "When operating on a guild channel, the current user must
        have the SEND_MESSAGES permission"; permissions.mdx "Inherited Permissions (Threads)": in a
        thread SEND_MESSAGES is not inherited, SEND_MESSAGES_IN_THREADS is needed (threads.mdx
        "Permissions" says the same); ATTACH_FILES "Allows for uploading images and files"
        (permissions.mdx, table). An edit is not a new post: message.mdx "Edit Message" names no
        send permission, so an edit only needs access to the channel (and ATTACH_FILES for new
        files). The same checks apply to interaction follow-ups and edits of the original
        response, which post as the app in the channel (see ``_post_followup``).
        """
        perms = self.permissions(self.bot_user, ch)
        if not perms & VIEW_CHANNEL:
            raise _HTTPError(403, 50001, "Missing Access")
        send = SEND_MESSAGES_IN_THREADS if ch.is_thread else SEND_MESSAGES
        if not edit and not perms & send or files and not perms & ATTACH_FILES:
            raise _HTTPError(403, 50013, "Missing Permissions")

    def _embeds_allowed(self, ch: FakeChannel, body: dict[str, Any], files: list[Any], *,
                        msg: Message | None = None) -> dict[str, Any]:
        """``body`` without its embeds when the bot lacks EMBED_LINKS in ``ch``.

        The docs pages only say EMBED_LINKS makes links "auto-embedded" (permissions.mdx, table);
        what Discord does with a bot's rich embeds without it is reported on its issue tracker:
        they are dropped without an error (discord/discord-api-docs#2601, #5648), a new message
        left with nothing else is refused 403 Missing Permissions (#2601: "which is what it sent
        when you try to send an embed only with the permission disabled") and an edit left with
        nothing is refused as empty, 50006 (#5648: "Ignores embed and calls it empty").
        """
        if not body.get("embeds") or self.permissions(self.bot_user, ch) & EMBED_LINKS:
            return body
        self.dropped_embeds.append((ch.id, list(body["embeds"])))
        body = {**body, "embeds": []}
        if msg is None:
            left = body.get("content") or body.get("components") or files or body.get("poll") or body.get("sticker_ids")
            if not left:
                raise _HTTPError(403, 50013, "Missing Permissions")
        else:
            attachments = body["attachments"] if "attachments" in body else msg.attachments
            left = body.get("content", msg.content) or body.get("components", msg.components) or files or attachments
            if not left:
                raise _HTTPError(400, 50006, "Cannot send an empty message")
        return body

    def _member(self, user: FakeUser, *, with_permissions: bool = False, channel: FakeChannel | None = None
                ) -> dict[str, Any]:
        out: dict[str, Any] = {
            "user": user.payload(),
            "nick": None,
            "avatar": None,
            "roles": [str(self.admin_role_id)] if user.admin else [str(self.bot_role_id)] if user is self.bot_user else [],
            "joined_at": iso_now(),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "banner": None,
            "communication_disabled_until": None,
        }
        if with_permissions:
            out["permissions"] = str(self.permissions(user, channel))
        return out

    def _guild_payload(self, intents: int, guild: FakeGuild | None = None) -> dict[str, Any]:
        guild = guild or self.guild()
        gid = guild.id
        members = self.all_users() if intents & INTENT_GUILD_MEMBERS else [self.bot_user]
        return {
            "id": str(gid),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": guild.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "max_members": 500000,
            "max_presences": None,
            "max_stage_video_channel_users": 50,
            "max_video_channel_users": 25,
            "home_header": None,
            "region": "deprecated",
            "widget_enabled": False,
            "widget_channel_id": None,
            "safety_alerts_channel_id": None,
            "incidents_data": None,
            "nsfw": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {"id": str(gid), "name": "@everyone", "permissions": str(EVERYONE_PERMISSIONS),
                 "position": 0, "color": 0, "icon": None, "unicode_emoji": None,
                 "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None}, "hoist": False, "managed": False, "mentionable": False, "flags": 0},
                {"id": str(self.admin_role_id), "name": "Admin", "permissions": str(ADMINISTRATOR),
                 "position": 1, "color": 0, "icon": None, "unicode_emoji": None,
                 "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None}, "hoist": False, "managed": False, "mentionable": False, "flags": 0},
                {"id": str(self.bot_role_id), "name": self.bot_user.username, "permissions": str(self.bot_permissions),
                 "position": 2, "color": 0, "icon": None, "unicode_emoji": None,
                 "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                 "hoist": False, "managed": True, "mentionable": False, "flags": 0,
                 "tags": {"bot_id": str(self.bot_user.id)}},
            ],
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.all_users()),
            "members": [self._member(u) for u in members],
            "channels": [ch.payload() for ch in self.guild_channels(guild)],
            # threads.mdx "Gateway Events": GUILD_CREATE's threads are "all active threads"
            "threads": [t.payload() for t in self.threads.values() if t.guild_id == gid and not t.archived],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------------ gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        session = _Session(ws)
        self._sessions.append(session)
        try:
            await self._send(session, {"op": 10, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_op(session, json.loads(msg.data))
        finally:
            if ws.close_code not in (1000, 1001):  # not closed by the bot: its session may RESUME
                self.gateway_rules.detached(session)
            self._sessions.remove(session)
            if self._current is session:
                self._current = None
            session.identified = False
        return ws

    async def _send(self, session: _Session, payload: dict[str, Any]) -> None:
        self.gateway_rules.sent(session, payload)
        await session.ws.send_str(json.dumps(payload))

    async def drop_connection(self, shard: int = 0, code: int = 4000) -> None:
        """Close the gateway connection of ``shard`` as Discord does now and then (4000: the bot
        reconnects and RESUMEs its session, which keeps its shard)."""
        for session in list(self._sessions):
            if session.identified and session.shard[0] == shard:
                session.identified = False
                await session.ws.close(code=code, message=b"Unknown error.")

    def _session_for(self, guild_id: int | None = None) -> _Session | None:
        """The newest identified session whose shard receives ``guild_id``'s events (None: the
        default guild)."""
        gid = self.guild_id if guild_id is None else guild_id
        for session in reversed(self._sessions):
            if session.identified and session.serves(gid):
                return session
        return None

    async def dispatch(self, event: str, data: dict[str, Any], *, guild_id: int | None = None) -> int:
        """Send a gateway DISPATCH event to the bot session of the event's guild (``guild_id``,
        else the payload's ``guild_id``, else the default guild); returns its sequence number."""
        if guild_id is None and isinstance(data, dict) and data.get("guild_id"):
            guild_id = int(data["guild_id"])
        session = self._session_for(guild_id)
        if session is None:
            gid = self.guild_id if guild_id is None else guild_id
            seq = self.gateway_rules.buffer(event, data, gid)  # for a disconnected session's RESUME
            if seq is not None:
                return seq
            if self.weather is not None and self.gateway_rules.invalidated:
                # gateway.mdx "Preparing to Resume": an invalidated session's events are gone
                self.weather.report.events_lost += 1
                return 0
            raise FakeDiscordError(
                f"no bot is connected to the fake gateway for guild {gid} (shard {shard_of(gid, self.shard_count)})")
        session.seq += 1
        self.dispatched.append((event, data))
        self.dispatched_to.append((event, session.shard, session.id))
        await self._send(session, {"op": 0, "t": event, "s": session.seq, "d": data})
        if self.weather is not None:
            self._storm(session, event)
        return session.seq

    def _storm(self, session: _Session, event: str) -> None:
        """The weather's op 7 or op 9 (d=false) after a DISPATCH, sent once the caller goes on."""
        assert self.weather is not None
        op = self.weather.after_dispatch(event)
        if op is None:
            return
        shard = session.shard[0]

        async def strike() -> None:
            if not session.identified:  # already reconnecting
                return
            if op == 7:
                self.weather.report.reconnects += 1
                await self.gateway_rules.reconnect(shard)
            else:
                self.weather.report.invalid_sessions += 1
                await self.gateway_rules.invalidate(shard)

        task = asyncio.ensure_future(strike())
        self._storms.add(task)
        task.add_done_callback(self._storms.discard)

    async def _online(self, guild_id: int, timeout: float = 10.0) -> None:
        """Weather: a person's click while the bot's session is invalidated (op 9) would fail
        ("This interaction failed"); the person clicks again once the bot is back."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        waited = False
        while self._session_for(guild_id) is None and not self.gateway_rules.resumable(guild_id):
            if loop.time() > deadline:
                raise FakeDiscordError(f"the bot did not come back to the gateway within {timeout} s")
            waited = True
            await asyncio.sleep(0.01)
        if waited and self.weather is not None:
            self.weather.report.clicks_delayed += 1

    async def _on_op(self, session: _Session, msg: dict[str, Any]) -> None:
        op, d = msg.get("op"), msg.get("d")
        session.received.append(msg)
        if op == 1:  # heartbeat
            await self._send(session, {"op": 11})
        elif op == 2:  # identify
            self.identify_payloads.append(d)
            if d.get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = d.get("shard") or [0, 1]
            valid = (isinstance(shard, list) and len(shard) == 2 and all(type(x) is int for x in shard)
                     and 0 <= shard[0] < shard[1])
            if not valid:
                await session.ws.close(code=4010, message=b"Invalid shard.")
                return
            if not await self.gateway_rules.admit(session, (shard[0], shard[1])):
                return
            session.shard = (shard[0], shard[1])
            session.intents = int(d.get("intents") or 0)
            self._identified[session.id] = (session.shard, session.intents)
            session.identified = True
            self._current = session
            mine = [g for g in self.guilds.values() if session.serves(g.id)]
            await self._send_ready(session, {
                "v": 10,
                "user": self.bot_user.private_payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": list(session.shard),
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            })
            for g in mine:
                await self._send_ready(session, self._guild_payload(session.intents, g), "GUILD_CREATE")
        elif op == 6:  # resume: the events after its seq again (gateway_rules.py), then RESUMED
            earlier = self._identified.get(d.get("session_id") or "")
            if d.get("token") != self.token or earlier is None:
                await self._send(session, {"op": 9, "d": False})
                return
            session.id, session.shard, session.intents = d["session_id"], *earlier  # the same shard again
            session.identified = True
            session.seq = int(d.get("seq") or 0)
            self._current = session
            await self.gateway_rules.replay(session, session.seq)
            await self._send_ready(session, {}, "RESUMED")
        elif op == 3:
            self.presence_updates.append(d)
        elif op == 8:  # request guild members
            gid = int(d.get("guild_id") or self.guild_id)
            wanted = {int(u) for u in (d.get("user_ids") or [])}
            query = (d.get("query") or "").lower()
            members = [
                self._member(u) for u in self.all_users()
                if (not wanted or u.id in wanted) and u.username.lower().startswith(query)
            ]
            chunk = {"guild_id": str(gid), "members": members, "chunk_index": 0, "chunk_count": 1}
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            await self._send_ready(session, chunk, "GUILD_MEMBERS_CHUNK")

    async def _send_ready(self, session: _Session, data: dict[str, Any], event: str = "READY") -> None:
        """A DISPATCH on this very session (READY, its shard's GUILD_CREATEs, chunks asked on it)."""
        session.seq += 1
        self.dispatched.append((event, data))
        self.dispatched_to.append((event, session.shard, session.id))
        await self._send(session, {"op": 0, "t": event, "s": session.seq, "d": data})

    @property
    def intents(self) -> int:
        return self._current.intents if self._current else 0

    async def _announce(self, event: str, msg: Message) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for public messages, when the bot asked for them."""
        session = self._session_for(msg.guild_id)
        intents = session.intents if session is not None else 0
        if session is None or msg.ephemeral or not intents & INTENT_GUILD_MESSAGES:
            return
        if event == "MESSAGE_DELETE":
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id), "guild_id": str(msg.guild_id)}
        else:
            data = msg.payload(self._users_by_id())
            if msg.author is not self.bot_user:
                data["member"] = {k: v for k, v in self._member(msg.author).items() if k != "user"}
                no_content = not intents & INTENT_MESSAGE_CONTENT
                if no_content and self.bot_user.id not in msg.mentions:
                    data.update(content="", embeds=[], attachments=[], components=[])
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.dispatch(event, data, guild_id=msg.guild_id)

    # ------------------------------------------------------------------ REST plumbing
    def fail_next(
        self,
        method: str,
        path: str,
        status: int,
        *,
        code: int = 0,
        message: str = "",
        retry_after: float | None = None,
        times: int = 1,
        when: Callable[[Any], bool] | None = None,
    ) -> None:
        """Answer the next ``times`` requests matching ``method`` and the ``path`` regex (and whose
        JSON body ``when`` accepts, if given) with an error.

        With ``status=429`` the answer is a rate limit (with the ``Via`` header and
        ``retry_after`` body discord.py needs to wait and retry).
        """
        self._injected.append(
            _Injected(method.upper(), re.compile(path), status, code, message or f"{status}", retry_after, times, when)
        )

    def rate_limit_next(self, method: str, path: str, *, retry_after: float = 0.05, times: int = 1) -> None:
        self.fail_next(method, path, 429, retry_after=retry_after, times=times, message="You are being rate limited.")

    def _take_injected(self, method: str, path: str, body: Any = None) -> _Injected | None:
        for inj in self._injected:
            if inj.matches(method, path, body):
                inj.times -= 1
                if inj.times <= 0:
                    self._injected.remove(inj)
                return inj
        return None

    @staticmethod
    def _respond(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # discord.py only parses bodies whose Content-Type is exactly "application/json"
        return web.Response(
            status=status, body=json.dumps(body).encode(), headers={**(headers or {}), "Content-Type": "application/json"}
        )

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[int, Attachment]]]:
        files: list[tuple[int, Attachment]] = []
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.filename is not None:
                    m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    index = int(m.group(1)) if m else len(files)
                    files.append((index, Attachment(filename=part.filename, data=bytes(await part.read()))))
            return payload, files
        raw = await request.read()
        if not raw:
            return None, files
        if request.content_type == "application/json":
            return json.loads(raw), files
        return raw.decode(errors="replace"), files

    async def _rest(self, request: web.Request) -> web.Response:
        loop = asyncio.get_running_loop()
        path = "/" + request.match_info["tail"]
        method = request.method
        body, files = await self._read_body(request)
        inter = self._interaction_of(path)
        back, failed = 0.0, None
        if self.weather is not None:  # weather.py: the way there, maybe a failing server
            there, back, failed = self.weather.rest(method, path)
            if inter is not None:
                inter.inflight += 1
            try:
                await asyncio.sleep(there)
            finally:
                if inter is not None:
                    inter.inflight -= 1
        rec = RecordedRequest(
            method=method, path=path, query=dict(request.query), headers=dict(request.headers),
            json=body, files=[a for _, a in files], time=loop.time(),
        )
        self.requests.append(rec)
        if inter is not None:
            inter.requests.append(rec)
            inter.inflight += 1
        try:
            await self._tick()
            # rate-limits.mdx: per-route buckets and the global limit (ratelimits.py); a request
            # counts whether or not it then succeeds, and a 429 is answered before anything else
            # an injected answer (fail_next: Discord failing) stands for Discord's and counts for no bucket
            injected = failed is not None or any(i.matches(method, path, body) for i in self._injected)
            who = rec.headers.get("Authorization") or (request.remote or "ip")
            verdict = None if injected else self.limiter.check(method, path, who)
            problems = self.schema.check_request(method, path, body, multipart=request.content_type.startswith("multipart/"))
            if verdict is not None and verdict.limited:
                status, out, headers = 429, verdict.body(), verdict.limited_headers()
                self.rate_limited.append((f"{method} {path}", float(verdict.retry_after or 0)))
            elif failed is not None:  # opcodes-and-status-codes.mdx "HTTP Response Codes": 502, 5xx
                status, out, headers = failed, {"message": f"{failed}: Server Error", "code": 0}, None
            elif problems:
                self.request_violations.extend(problems)
                status, out, headers = 400, _invalid(problems).body(), None
            else:
                status, out, headers = await self._handle(rec, files)
            if verdict is not None and not verdict.limited:
                headers = {**verdict.headers, **(headers or {})}
            if status < 500:  # 5xx only come from fail_next or the weather: the schema has none
                self.response_violations.extend(self.schema.check_response(method, path, status, out))
            if back:
                await asyncio.sleep(back)  # the way back
        finally:
            if inter is not None:
                inter.inflight -= 1
                inter.last_activity = loop.time()
        rec.status, rec.response = status, out
        return self._respond(status, out, headers)

    async def _handle(self, rec: RecordedRequest, files: list[tuple[int, Attachment]]):
        inj = self._take_injected(rec.method, rec.path, rec.json)
        if inj is not None:
            if inj.status == 429:
                body = {"message": inj.message, "retry_after": inj.retry_after or 0.05, "global": False, "code": 0}
                self.rate_limited.append((f"{rec.method} {rec.path}", body["retry_after"]))
                return 429, body, {"Via": "1.1 google", "Retry-After": "1", "X-RateLimit-Scope": "user"}
            return inj.status, {"message": inj.message, "code": inj.code}, None
        for method, pattern, handler, needs_auth in self._routes:
            if method != rec.method:
                continue
            m = pattern.fullmatch(rec.path)
            if m is None:
                continue
            if needs_auth and rec.headers.get("Authorization") != f"Bot {self.token}":
                return 401, {"message": "401: Unauthorized", "code": 0}, None
            try:
                status, out = await handler(self, rec, files, *m.groups())
            except _HTTPError as e:
                return e.status, e.body(), None
            except Exception as e:  # a bug in the fake: fail fast (a 5xx would make discord.py retry)
                log.exception("fake Discord failed on %s %s", rec.method, rec.path)
                self.internal_errors.append(f"{rec.method} {rec.path}: {e!r}")
                return 400, {"message": f"fake Discord internal error: {e!r}", "code": -1}, None
            return status, out, None
        self.unhandled.append(rec)
        return 404, {"message": "404: Not Found", "code": 0}, None

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["id"])
        for msg in self._messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(body=att.data, content_type=att.content_type)
        return web.Response(status=404)

    # ------------------------------------------------------------------ REST: identity, sync
    async def _get_me(self, rec, files):
        return 200, self.bot_user.private_payload()

    async def _get_user(self, rec, files, uid):
        for u in self.all_users():
            if u.id == int(uid):
                return 200, u.payload()
        raise _HTTPError(404, 10013, "Unknown User")

    async def _get_application(self, rec, files):
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "description": "fake application",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "00" * 32,
            "flags": 0,
            "summary": "",
            "rpc_origins": [],
            "tags": [],
            "interactions_endpoint_url": None,
            "bot": self.bot_user.payload(),
            "type": None,
            "flags_new": "0",
            "redirect_uris": [],
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["applications.commands", "bot"],
        }

    async def _get_gateway(self, rec, files):
        limit = self.gateway_rules.session_start_limit()
        return 200, {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}

    def _check_app(self, app_id: str) -> None:
        if int(app_id) != self.application_id:
            raise _HTTPError(403, 50001, "Missing Access")

    def _store_commands(self, payload: Any, guild_id: int | None) -> list[dict[str, Any]]:
        problems = limits.check_commands(payload)
        if problems:
            raise _invalid(problems)
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        old_ids = {(c.get("type", 1), c["name"]): c["id"] for c in old}
        stored = []
        for cmd in payload:
            key = (cmd.get("type", 1), cmd["name"])
            out = {**cmd, "id": old_ids.get(key) or str(snowflake()), "application_id": str(self.application_id),
                   "version": str(snowflake()), "type": cmd.get("type", 1),
                   "default_member_permissions": cmd.get("default_member_permissions"),
                   # Discord answers a null (unset) with the default: installed to guilds (0)
                   "integration_types": cmd.get("integration_types") or [0]}
            if guild_id is not None:
                out["guild_id"] = str(guild_id)
            stored.append(out)
        self.sync_log.append((guild_id, payload))
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        return stored

    async def _put_global_commands(self, rec, files, app_id):
        self._check_app(app_id)
        return 200, self._store_commands(rec.json, None)

    async def _put_guild_commands(self, rec, files, app_id, gid):
        self._check_app(app_id)
        if int(gid) not in self.guilds:
            raise _HTTPError(403, 50001, "Missing Access")
        return 200, self._store_commands(rec.json, int(gid))

    async def _get_global_commands(self, rec, files, app_id):
        self._check_app(app_id)
        return 200, self.global_commands

    async def _get_guild_commands(self, rec, files, app_id, gid):
        self._check_app(app_id)
        return 200, self.guild_commands.get(int(gid), [])

    # ------------------------------------------------------------------ REST: guild, channels
    async def _get_guild(self, rec, files, gid):
        if int(gid) not in self.guilds:
            raise _HTTPError(404, 10004, "Unknown Guild")
        data = self._guild_payload(0, self.guilds[int(gid)])
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return 200, data

    async def _get_member(self, rec, files, gid, uid):
        for u in self.all_users():
            if u.id == int(uid) and int(gid) in self.guilds:
                return 200, self._member(u)
        raise _HTTPError(404, 10007, "Unknown Member")

    async def _get_channels(self, rec, files, gid):
        if int(gid) not in self.guilds:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return 200, [ch.payload() for ch in self.guild_channels(int(gid))]

    async def _get_channel(self, rec, files, cid):
        return 200, self._channel_or_404(cid).payload()

    def _channel_or_404(self, cid: str) -> FakeChannel:
        try:
            ch = self._channel(int(cid))
        except LookupError:  # never was, or deleted (issue 29, lifecycle.py)
            raise _HTTPError(404, 10003, "Unknown Channel") from None
        if self.guild_removed(ch.guild_id):  # the bot was removed from its guild (lifecycle.py)
            raise _HTTPError(403, 50001, "Missing Access")
        return ch

    def _message_or_404(self, cid: str | None, mid: str) -> Message:
        """A message by id; through the channel routes (``cid`` given) ephemeral ones do not exist."""
        if cid is not None:
            self._channel_or_404(cid)  # a deleted channel's messages are gone with it (issue 29)
        msg = self._messages.get(int(mid))
        if msg is None or msg.deleted or (cid is not None and (msg.channel_id != int(cid) or msg.ephemeral)):
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg

    def _apply(self, msg: Message, body: dict[str, Any], files: list[tuple[int, Attachment]], *, edit: bool) -> None:
        """Write a message body (create or edit) into ``msg``, including kept and new files."""
        problems = limits.check_message(body)
        if problems:
            raise _invalid(problems)
        size = sum(a.size for _, a in files)
        if size > self.attachment_size_limit:
            raise _HTTPError(413, 40005, "Request entity too large")
        if edit:
            msg.history.append(msg.snapshot())
            msg.edited_timestamp = iso_now()
        if "content" in body:
            msg.content = body["content"] or ""
        for key in ("embeds", "components"):
            if key in body:
                setattr(msg, key, body[key] or [])
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        new_files = dict(files)
        if "attachments" in body:
            kept: list[Attachment] = []
            old = {a.id: a for a in msg.attachments}
            for entry in body["attachments"] or []:
                aid = int(entry["id"])
                if aid in old:
                    kept.append(old[aid])
                elif aid in new_files:
                    att = new_files.pop(aid)
                    att.filename = entry.get("filename") or att.filename
                    att.description = entry.get("description")
                    kept.append(att)
            kept.extend(new_files.values())
            msg.attachments = kept
        elif files:
            msg.attachments = [*msg.attachments, *new_files.values()] if edit else list(new_files.values())
        for att in msg.attachments:
            if not att.url:
                att.url = f"{self.url}/attachments/{msg.channel_id}/{att.id}/{att.filename}"
        if not edit and not (msg.content or msg.embeds or msg.components or msg.attachments or body.get("poll")):
            raise _HTTPError(400, 50006, "Cannot send an empty message")
        if not edit:
            msg.notified = msg.pinged

    def _new_message(self, channel_id: int, origin: str, author: FakeUser | None = None, **kw: Any) -> Message:
        return Message(
            id=snowflake(), channel_id=channel_id, guild_id=self._guild_of(channel_id),
            author=author or self.bot_user,
            origin=origin, **kw,
        )

    def _guild_of(self, channel_id: int) -> int:
        for ch in [*self.channels.values(), *self.threads.values()]:
            if ch.id == channel_id:
                return ch.guild_id
        return self.guild_id

    def _store(self, msg: Message) -> Message:
        self._messages[msg.id] = msg
        return msg

    async def _post_message(self, rec, files, cid):
        ch = self._channel_or_404(cid)
        self._may(ch, files=bool(files))
        self._thread_allows(ch, post=True)
        body = self._embeds_allowed(ch, rec.json or {}, files)
        msg = self._new_message(ch.id, "channel", flags=int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING))
        self._apply(msg, body, files, edit=False)
        self._store(msg)
        await self._thread_activity(ch)
        await self._announce("MESSAGE_CREATE", msg)
        return 200, msg.payload(self._users_by_id())

    async def _get_message(self, rec, files, cid, mid):
        return 200, self._message_or_404(cid, mid).payload(self._users_by_id())

    async def _get_messages(self, rec, files, cid):
        ch = self._channel_or_404(cid)
        limit = int(rec.query.get("limit", 50))
        msgs = [m for m in self.messages(ch, ephemeral=False)][::-1][:limit]
        return 200, [m.payload(self._users_by_id()) for m in msgs]

    async def _patch_message(self, rec, files, cid, mid):
        msg = self._message_or_404(cid, mid)
        if msg.author is not self.bot_user:
            raise _HTTPError(403, 50005, "Cannot edit a message authored by another user")
        ch = self._channel(msg.channel_id)
        self._may(ch, files=bool(files), edit=True)
        self._thread_allows(ch, post=False)
        self._apply(msg, self._embeds_allowed(ch, rec.json or {}, files, msg=msg), files, edit=True)
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, msg.payload(self._users_by_id())

    async def _delete_message(self, rec, files, cid, mid):
        msg = self._message_or_404(cid, mid)
        self._thread_allows(self._channel(msg.channel_id), post=False, delete=True)
        msg.deleted = True
        await self._announce("MESSAGE_DELETE", msg)
        return 204, None

    async def _start_thread_from_message(self, rec, files, cid, mid):
        """POST /channels/{id}/messages/{id}/threads: a public thread opened from a message."""
        ch = self._channel_or_404(cid)
        msg = self._message_or_404(cid, mid)
        if ch.is_thread:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
        if not self.permissions(self.bot_user, ch) & CREATE_PUBLIC_THREADS:
            raise _HTTPError(403, 50013, "Missing Permissions")
        if msg.thread_id is not None:
            raise _HTTPError(400, 160004, "A thread has already been created for this message")
        body = rec.json or {}
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise _invalid([f"name: must be 1..100 characters, got {name!r}"])
        duration = body.get("auto_archive_duration", 1440)
        if duration not in (60, 1440, 4320, 10080):
            raise _invalid([f"auto_archive_duration: must be 60, 1440, 4320 or 10080, got {duration!r}"])
        now = self.iso_clock()
        thread = FakeChannel(msg.id, name, ch.guild_id, type=PUBLIC_THREAD, parent_id=ch.id,
                             owner_id=self.bot_user.id, message_id=msg.id, auto_archive_duration=duration,
                             create_timestamp=now, archive_timestamp=now, last_activity=self.clock)
        self.threads[thread.id] = thread
        msg.thread_id = thread.id
        msg.flags |= HAS_THREAD
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True}, guild_id=ch.guild_id)
        return 201, thread.payload()

    # ------------------------------------------------------------------ threads: archiving, locking
    # threads.mdx "Active & Archived Threads": "Threads automatically archive after a period of
    # inactivity"; "Activity is defined as sending a message, unarchiving a thread, or changing the
    # auto-archive time"; "Users cannot edit messages, add reactions, use application commands, or
    # join archived threads. The only operation that should happen within an archived thread is
    # messages being deleted. Sending a message will automatically unarchive the thread, unless the
    # thread has been locked by a moderator." "Locked Threads": without MANAGE_THREADS users "won't
    # be able to create or update messages in locked threads"; deleting messages is "only allowed in
    # locked threads if that thread is also active". Codes: opcodes-and-status-codes.mdx "JSON Error
    # Codes": 50083 "Tried to perform an operation on an archived thread, such as editing a message",
    # 160005 "Thread is locked".
    def _thread_allows(self, ch: FakeChannel, *, post: bool, delete: bool = False) -> None:
        """Refuse a bot post (``post``), edit or ``delete`` in thread ``ch`` as Discord would."""
        if not ch.is_thread:
            return
        manage = bool(self.permissions(self.bot_user, ch) & MANAGE_THREADS)
        if delete:
            if ch.archived and ch.locked and not manage:
                raise _HTTPError(400, 50083, "Thread is archived")
            return
        if ch.archived and (not post or ch.locked and not manage):
            raise _HTTPError(400, 50083, "Thread is archived")
        if ch.locked and not manage:
            raise _HTTPError(403, 160005, "Thread is locked")

    async def _thread_activity(self, ch: FakeChannel) -> None:
        """A message appeared in ``ch``: an archived thread un-archives (THREAD_UPDATE), and the
        auto-archive timer starts again."""
        if not ch.is_thread:
            return
        if ch.archived:
            await self._set_archived(ch, False)
        ch.last_activity = self.clock

    async def _set_archived(self, ch: FakeChannel, archived: bool, *, locked: bool | None = None) -> None:
        ch.archived = archived
        if locked is not None:
            ch.locked = locked
        ch.archive_timestamp = self.iso_clock()  # threads.mdx "Thread Fields"
        if not archived:
            ch.last_activity = self.clock
        # threads.mdx "Gateway Events" / "Unarchiving a Thread": a Thread Update with the full channel
        if self._session_for(ch.guild_id) is not None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.dispatch("THREAD_UPDATE", ch.payload(), guild_id=ch.guild_id)

    async def _tick(self) -> None:
        """Archive the threads whose ``auto_archive_duration`` (minutes) passed without activity."""
        now = self.clock
        for thread in list(self.threads.values()):
            if not thread.archived and now - thread.last_activity >= thread.auto_archive_duration * 60:
                await self._set_archived(thread, True)

    async def archive_thread(self, thread: str | int | FakeChannel, *, locked: bool = False) -> None:
        """A moderator archives ``thread`` (and, ``locked``, locks it); the bot gets THREAD_UPDATE."""
        ch = self._channel(thread)
        if not ch.is_thread:
            raise ValueError(f"{ch.name} is not a thread")
        await self._set_archived(ch, True, locked=locked or ch.locked)

    async def _patch_channel(self, rec, files, cid):
        """PATCH /channels/{id}: the fake models thread edits (threads.mdx "Editing & Deleting Threads")."""
        ch = self._channel_or_404(cid)
        body = rec.json or {}
        perms = self.permissions(self.bot_user, ch)
        if not perms & VIEW_CHANNEL:
            raise _HTTPError(403, 50001, "Missing Access")
        if not ch.is_thread:
            if not perms & (1 << 4):  # MANAGE_CHANNELS
                raise _HTTPError(403, 50013, "Missing Permissions")
            ch.name = body.get("name", ch.name)
            ch.topic = body.get("topic", ch.topic)
            await self.dispatch("CHANNEL_UPDATE", ch.payload(), guild_id=ch.guild_id)
            return 200, ch.payload()
        manage = bool(perms & MANAGE_THREADS)
        creator = ch.owner_id == self.bot_user.id
        member = creator  # the fake's bot is a member of the threads it opened (and only those)
        # "Editing a thread to change rate_limit_per_user or locked requires MANAGE_THREADS"
        if ("locked" in body and bool(body["locked"]) != ch.locked or "rate_limit_per_user" in body) and not manage:
            raise _HTTPError(403, 50013, "Missing Permissions")
        # "... to change the name, archived, auto_archive_duration fields requires MANAGE_THREADS or
        # that the current user is the thread creator"
        if any(k in body for k in ("name", "archived", "auto_archive_duration")) and not (manage or creator):
            raise _HTTPError(403, 50013, "Missing Permissions")
        unarchive = ch.archived and body.get("archived") is False
        if unarchive:
            # "Editing a thread to set archived to false only requires the current user has already
            # been added to the thread"; but "Active & Archived Threads": "Threads that have locked set
            # to true can only be unarchived by a user with the MANAGE_THREADS permission" (the
            # "Editing" section would also let the creator: the fake follows the stricter sentence)
            if not member:
                raise _HTTPError(403, 50001, "Missing Access")
            if ch.locked and not manage:
                raise _HTTPError(400, 50083, "Thread is archived")
        elif ch.archived and not body.get("archived"):
            raise _HTTPError(400, 50083, "Thread is archived")  # only un-archiving changes an archived thread
        if "name" in body:
            ch.name = body["name"]
        if "auto_archive_duration" in body:
            ch.auto_archive_duration = int(body["auto_archive_duration"])
            ch.last_activity = self.clock  # "changing the auto-archive time" is activity
            ch.archive_timestamp = self.iso_clock()
        if "locked" in body:
            ch.locked = bool(body["locked"])
        if "archived" in body and bool(body["archived"]) != ch.archived:
            await self._set_archived(ch, bool(body["archived"]))
        else:
            await self.dispatch("THREAD_UPDATE", ch.payload(), guild_id=ch.guild_id)
        return 200, ch.payload()

    def threads_of(self, channel: str | int | FakeChannel | None = None) -> list[FakeChannel]:
        """The threads opened in ``channel`` (default: the first text channel), oldest first."""
        parent = self._channel(channel)
        return sorted((t for t in self.threads.values() if t.parent_id == parent.id), key=lambda t: t.id)

    async def _no_content(self, rec, files, *args):
        return 204, None

    # ------------------------------------------------------------------ REST: interactions
    def _interaction_of(self, path: str) -> InteractionResult | None:
        m = re.match(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", path)
        return self._by_token.get(m.group(1)) if m else None

    def _response_message(self, inter: InteractionResult, body: dict[str, Any], files, origin: str) -> Message:
        flags = int(body.get("flags") or 0)
        msg = self._new_message(
            inter.channel_id, origin, flags=flags & ~LOADING,
            interaction_id=inter.id, interaction_user=inter.user, interaction_type=inter.type,
            interacted_message_id=inter.source_message.id if inter.source_message is not None else None,
            application_id=self.application_id, webhook_id=self.application_id,
            requested_ephemeral=bool(flags & EPHEMERAL),
        )
        self._apply(msg, body, files, edit=False)
        return self._store(msg)

    async def _callback(self, rec, files, iid, token):
        inter = self._by_token.get(token)
        if inter is None or inter.id != int(iid):
            raise _HTTPError(404, 10062, "Unknown interaction")
        if inter.callback is not None:  # opcodes-and-status-codes.mdx: 40060
            self.second_answers.append(inter)
            raise _HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if self.clock - inter.pushed_at > self.callback_deadline:
            # receiving-and-responding.mdx "Interaction Callback": "you must send an initial response
            # within 3 seconds ... If the 3 second deadline is exceeded, the token will be invalidated"
            raise _HTTPError(404, 10062, "Unknown interaction")
        body = rec.json or {}
        ctype = body.get("type")
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[inter.type]
        if ctype not in allowed:
            raise _invalid([f"callback type {ctype} is not valid for interaction type {inter.type}"])
        resource: dict[str, Any] | None = None
        msg: Message | None = None
        if ctype == 8:
            problems = limits.check_autocomplete(data)
            if problems:
                raise _invalid(problems)
        elif ctype == 4:
            msg = self._response_message(inter, data, files, "callback")
        elif ctype == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            msg = self._store(self._new_message(
                inter.channel_id, "callback", flags=flags,
                interaction_id=inter.id, interaction_user=inter.user, interaction_type=inter.type,
            interacted_message_id=inter.source_message.id if inter.source_message is not None else None,
                application_id=self.application_id, webhook_id=self.application_id,
            ))
        elif ctype == 7:
            msg = inter.source_message
            assert msg is not None
            self._apply(msg, data, files, edit=True)
            if msg not in inter.edited:
                inter.edited.append(msg)
        inter.callback = body
        inter.callback_files = [a for _, a in files]
        inter.callback_at = self.clock
        # issue 24: REST work the bot did while the user waited for the initial response (another
        # interaction's callback or webhook is not this one's work, so it does not count, nor does a
        # call the bot made before it read this interaction's event: _made_after)
        inter.calls_before_answer = [
            r for r in self.requests[inter.first_request:]
            if r is not rec and self._interaction_of(r.path) is None and self._made_after(r, inter)]
        if inter.calls_before_answer:
            self.late_answers.append(inter)
        if msg is not None and ctype in (4, 5):
            inter.original_id = msg.id
            inter.messages.append(msg)
            await self._announce("MESSAGE_CREATE", msg)
        elif ctype == 6 and inter.source_message is not None:
            # receiving-and-responding.mdx, DEFERRED_UPDATE_MESSAGE: "ACK an interaction and edit the
            # original message later": the original response is then the clicked message
            inter.original_id = inter.source_message.id
        elif msg is not None:
            await self._announce("MESSAGE_UPDATE", msg)
        if msg is not None and ctype in (4, 7):  # the schema's resources: CreateMessage (4), UpdateMessage (7)
            resource = {"type": ctype, "message": msg.payload(self._users_by_id())}
        out: dict[str, Any] = {"interaction": {
            "id": str(inter.id), "type": inter.type,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(msg is not None and msg.ephemeral),
        }}
        if msg is not None:
            out["interaction"]["response_message_id"] = str(msg.id)
        if resource is not None:
            out["resource"] = resource
        return 200, out

    def _webhook_interaction(self, app_id: str, token: str) -> InteractionResult:
        if int(app_id) != self.application_id:
            raise _HTTPError(404, 10015, "Unknown Webhook")
        inter = self._by_token.get(token)
        if inter is None:
            raise _HTTPError(401, 50027, "Invalid Webhook Token")
        if self.clock - inter.pushed_at > TOKEN_LIFETIME:
            # receiving-and-responding.mdx "Followup Messages": "Interaction tokens are valid for 15
            # minutes"; opcodes-and-status-codes.mdx: 50027 "Invalid webhook token provided"
            raise _HTTPError(401, 50027, "Invalid Webhook Token")
        if inter.callback is None:
            # no initial response (yet, or ever: after 3 s the token "will be invalidated"): the
            # interaction's webhook does not exist, 10015 "Unknown webhook"
            raise _HTTPError(404, 10015, "Unknown Webhook")
        return inter

    def _webhook_message(self, inter: InteractionResult, mid: str) -> Message:
        if mid == "@original":
            if inter.original_id is None:
                raise _HTTPError(404, 10008, "Unknown Message")
            mid = str(inter.original_id)
        msg = self._message_or_404(None, mid)
        if msg.interaction_id != inter.id and msg is not inter.source_message:
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg

    def _finish_loading(self, msg: Message, body: dict[str, Any], files, inter: InteractionResult) -> None:
        """The first follow-up or edit after a deferred response replaces the "thinking..." message.

        Its ephemeral flag comes from the defer, whatever the follow-up asks for: a follow-up
        after a public ``defer()`` is public.
        """
        msg.requested_ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        self._apply(msg, {k: v for k, v in body.items() if k != "flags"}, files, edit=True)
        msg.history.clear()
        msg.edited_timestamp = None
        msg.flags &= ~LOADING
        msg.notified = msg.pinged  # the follow-up is what appears: it notifies like a new message

    def _webhook_may(self, inter: InteractionResult, body: dict[str, Any], files: list[Any], *, public: bool,
                     post: bool, msg: Message | None = None) -> dict[str, Any]:
        """Follow-ups and edits of an interaction's messages are posts of the app in the channel:
        the fake checks them like channel posts (``_may``, EMBED_LINKS, thread rules), unlike the
        initial callback, which only needs the interaction. The docs pages do not spell this out;
        Discord computes interaction follow-ups with the bot's permissions since 2022
        (discord/discord-api-docs#5279). Ephemeral messages are not checked: only the user sees them.
        """
        ch = self._channel(inter.channel_id)
        self._thread_allows(ch, post=post)
        if not public:
            return body
        self._may(ch, files=bool(files), edit=not post)
        return self._embeds_allowed(ch, body, files, msg=None if post else msg)

    async def _post_followup(self, rec, files, app_id, token):
        inter = self._webhook_interaction(app_id, token)
        body = rec.json or {}
        original = self._messages.get(inter.original_id or 0)
        ch = self._channel(inter.channel_id)
        if original is not None and original.loading and original.interaction_id == inter.id:
            body = self._webhook_may(inter, body, files, public=original.public, post=True)
            self._finish_loading(original, body, files, inter)
            msg = original
            await self._thread_activity(ch)
            await self._announce("MESSAGE_UPDATE", msg)
        else:
            public = not int(body.get("flags") or 0) & EPHEMERAL
            body = self._webhook_may(inter, body, files, public=public, post=True)
            msg = self._response_message(inter, body, files, "followup")
            inter.messages.append(msg)
            await self._thread_activity(ch)
            await self._announce("MESSAGE_CREATE", msg)
        if rec.query.get("wait") in ("1", "true", "True"):
            return 200, msg.payload(self._users_by_id())
        return 204, None

    async def _get_webhook_message(self, rec, files, app_id, token, mid):
        inter = self._webhook_interaction(app_id, token)
        return 200, self._webhook_message(inter, mid).payload(self._users_by_id())

    async def _patch_webhook_message(self, rec, files, app_id, token, mid):
        inter = self._webhook_interaction(app_id, token)
        msg = self._webhook_message(inter, mid)
        body = rec.json or {}
        if msg.loading:  # completing a defer: the message appears now, like a post
            body = self._webhook_may(inter, body, files, public=msg.public, post=True)
            self._finish_loading(msg, body, files, inter)
            await self._thread_activity(self._channel(msg.channel_id))
        else:
            body = self._webhook_may(inter, body, files, public=msg.public, post=False, msg=msg)
            self._apply(msg, body, files, edit=True)
        if msg not in inter.messages and msg not in inter.edited:
            inter.edited.append(msg)
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, msg.payload(self._users_by_id())

    async def _delete_webhook_message(self, rec, files, app_id, token, mid):
        inter = self._webhook_interaction(app_id, token)
        msg = self._webhook_message(inter, mid)
        msg.deleted = True
        await self._announce("MESSAGE_DELETE", msg)
        return 204, None

    _ID = r"(\d+)"
    _routes: list[tuple[str, re.Pattern[str], Callable[..., Any], bool]] = [
        (m, re.compile(p), h, auth)
        for m, p, h, auth in [
            ("GET", r"/users/@me", _get_me, True),
            ("GET", rf"/users/{_ID}", _get_user, True),
            ("GET", r"/applications/@me", _get_application, True),
            ("GET", r"/oauth2/applications/@me", _get_application, True),
            ("GET", r"/gateway/bot", _get_gateway, True),
            ("GET", r"/gateway", _get_gateway, False),
            ("PUT", rf"/applications/{_ID}/commands", _put_global_commands, True),
            ("GET", rf"/applications/{_ID}/commands", _get_global_commands, True),
            ("PUT", rf"/applications/{_ID}/guilds/{_ID}/commands", _put_guild_commands, True),
            ("GET", rf"/applications/{_ID}/guilds/{_ID}/commands", _get_guild_commands, True),
            ("GET", rf"/guilds/{_ID}", _get_guild, True),
            ("GET", rf"/guilds/{_ID}/members/{_ID}", _get_member, True),
            ("GET", rf"/guilds/{_ID}/channels", _get_channels, True),
            ("GET", rf"/channels/{_ID}", _get_channel, True),
            ("PATCH", rf"/channels/{_ID}", _patch_channel, True),
            ("POST", rf"/channels/{_ID}/messages", _post_message, True),
            ("GET", rf"/channels/{_ID}/messages", _get_messages, True),
            ("GET", rf"/channels/{_ID}/messages/{_ID}", _get_message, True),
            ("PATCH", rf"/channels/{_ID}/messages/{_ID}", _patch_message, True),
            ("DELETE", rf"/channels/{_ID}/messages/{_ID}", _delete_message, True),
            ("POST", rf"/channels/{_ID}/messages/{_ID}/threads", _start_thread_from_message, True),
            ("POST", rf"/channels/{_ID}/typing", _no_content, True),
            ("PUT", rf"/channels/{_ID}/messages/{_ID}/reactions/[^/]+/@me", _no_content, True),
            ("POST", rf"/interactions/{_ID}/([^/]+)/callback", _callback, False),
            ("POST", rf"/webhooks/{_ID}/([^/]+)", _post_followup, False),
            ("GET", rf"/webhooks/{_ID}/([^/]+)/messages/(@original|\d+)", _get_webhook_message, False),
            ("PATCH", rf"/webhooks/{_ID}/([^/]+)/messages/(@original|\d+)", _patch_webhook_message, False),
            ("DELETE", rf"/webhooks/{_ID}/([^/]+)/messages/(@original|\d+)", _delete_webhook_message, False),
        ]
    ]

    # ------------------------------------------------------------------ test API: interactions
    def _find_command(self, path: list[str], guild_id: int) -> tuple[dict[str, Any], bool]:
        top = path[0]
        for cmd in self.guild_commands.get(guild_id, []):
            if cmd["name"] == top and cmd.get("type", 1) == 1:
                return cmd, True
        for cmd in self.global_commands:
            if cmd["name"] == top and cmd.get("type", 1) == 1:
                return cmd, False
        known = sorted({c["name"] for c in [*self.global_commands, *self.guild_commands.get(guild_id, [])]})
        raise LookupError(f"/{top} is not a synced command (Discord would not offer it); synced: {known}")

    def _option_value(self, spec: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
        name, otype = spec["name"], spec["type"]
        if otype == 6:
            user = self.user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            member = self._member(user, with_permissions=True)
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        if otype == 7:
            ch = self._channel(value)
            resolved.setdefault("channels", {})[str(ch.id)] = {
                "id": str(ch.id), "name": ch.name, "type": 0, "permissions": str(EVERYONE_PERMISSIONS)}
            return str(ch.id)
        kinds = {3: str, 4: int, 5: bool, 10: (int, float)}
        if otype not in kinds:
            raise ValueError(f"option {name!r}: type {otype} is not supported by the fake")
        if not isinstance(value, kinds[otype]) or (otype in (4, 10) and isinstance(value, bool)):
            raise ValueError(f"option {name!r} is a {_OPTION_TYPES[otype]}, got {value!r}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}")
        if "min_value" in spec and value < spec["min_value"] or "max_value" in spec and value > spec["max_value"]:
            raise ValueError(f"option {name!r}={value!r} is outside {spec.get('min_value')}..{spec.get('max_value')}")
        if otype == 3 and not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", limits.MAX_STRING_OPTION):
            raise ValueError(f"option {name!r} has a wrong length: {value!r}")
        return value

    def _command_data(
        self, command: str, options: dict[str, Any], focused: str | None = None, typed: str = "",
        guild_id: int | None = None,
    ) -> dict[str, Any]:
        guild_id = self.guild_id if guild_id is None else guild_id
        path = command.strip().lstrip("/").split()
        cmd, is_guild = self._find_command(path, guild_id)
        specs = cmd.get("options") or []
        wrappers: list[tuple[int, str]] = []
        for part in path[1:]:
            sub = next((o for o in specs if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise LookupError(f"/{cmd['name']} has no subcommand {part!r}")
            wrappers.append((sub["type"], part))
            specs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in specs):
            raise ValueError(f"/{command} needs a subcommand: {[o['name'] for o in specs]}")
        by_name = {o["name"]: o for o in specs}
        unknown = set(options) - set(by_name) - ({focused} if focused else set())
        if unknown:
            raise ValueError(f"/{command} has no option(s) {sorted(unknown)}; it has {sorted(by_name)}")
        resolved: dict[str, dict[str, Any]] = {}
        given: list[dict[str, Any]] = []
        for spec in specs:
            name = spec["name"]
            if name == focused:
                if not spec.get("autocomplete"):
                    raise ValueError(f"option {name!r} of /{command} has no autocomplete")
                given.append({"name": name, "type": spec["type"], "value": typed, "focused": True})
            elif name in options:
                value = self._option_value(spec, options[name], resolved)
                given.append({"name": name, "type": spec["type"], "value": value})
            elif spec.get("required") and focused is None:
                raise ValueError(f"/{command} needs option {name!r}")
        if focused is not None and focused not in by_name:
            raise ValueError(f"/{command} has no option {focused!r}")
        for wtype, wname in reversed(wrappers):
            given = [{"name": wname, "type": wtype, "options": given}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": given}
        if is_guild:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    async def _push(
        self, itype: int, user: Any, channel: Any, data: dict[str, Any], message: Message | None, timeout: float
    ) -> InteractionResult:
        who = self.user(user)
        ch = self._channel(channel if channel is not None or message is None else message.channel_id)
        if self.guild_removed(ch.guild_id):  # issue 29: the app is no longer in that server
            raise FakeDiscordError(f"the bot was removed from the guild of {ch.name!r}: no interaction comes from it")
        await self._tick()
        if ch.is_thread and ch.archived:
            raise ThreadArchived(
                f"{who.username} cannot use a command or a component in the archived thread {ch.name!r} "
                "(threads.mdx: users cannot use application commands in archived threads); "
                "await fd.user_says(user, thread, text) un-archives it first")
        iid = snowflake()
        token = f"fake-interaction-{iid}-{secrets.token_urlsafe(12)}"
        loop = asyncio.get_running_loop()
        inter = InteractionResult(
            id=iid, token=token, type=itype, user=who, channel_id=ch.id, data=data, pushed_at=self.clock,
            source_message=message, original_id=message.id if message is not None else None,
            first_request=len(self.requests),
        )
        inter.last_activity = loop.time()
        self._by_token[token] = inter
        self.interactions.append(inter)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild_id": str(ch.guild_id),
            "guild": {"id": str(ch.guild_id), "locale": self.guild(ch.guild_id).locale, "features": []},
            "channel_id": str(ch.id),
            "channel": ch.payload(),
            "member": self._member(who, with_permissions=True, channel=ch),
            "token": token,
            "version": 1,
            "app_permissions": str(self.permissions(self.bot_user, ch)),
            "locale": who.locale,
            "guild_locale": self.guild(ch.guild_id).locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(ch.guild_id)},
            "context": 0,
            "attachment_size_limit": self.attachment_size_limit,
        }
        if message is not None:
            payload["message"] = message.payload(self._users_by_id())
        if self.weather is not None:
            await self._online(ch.guild_id)
            pushed_at = self.clock  # the click that reached the bot (after op 9, the second one)
            inter.pushed_at, inter.last_activity = pushed_at, loop.time()
        before = set(self._messages)
        session = self._session_for(ch.guild_id)
        if session is not None:  # known before the push: the bot may answer before dispatch returns
            inter.seq, inter.session_id = session.seq + 1, session.id
        if self.weather is not None:  # the interaction travels to the bot (weather.py)
            await asyncio.sleep(self.weather.to_bot("INTERACTION_CREATE"))
            await self._online(ch.guild_id)  # gone meanwhile (op 9): the person clicks again
            session = self._session_for(ch.guild_id)
            if session is not None:
                inter.seq, inter.session_id = session.seq + 1, session.id
        seq = await self.dispatch("INTERACTION_CREATE", payload, guild_id=ch.guild_id)
        inter.seq = seq
        inter.shard = session.shard if session is not None else None
        try:
            await self._settle(inter, seq, timeout, session)
        finally:
            inter.posted = [
                m for m in self.messages(ephemeral=None, origin="channel", include_deleted=True) if m.id not in before
            ]
        return inter

    def _bot_busy(self) -> bool:
        return any(not t.done() and t.get_name().startswith(_HANDLER_TASKS) for t in asyncio.all_tasks())

    def _bot_websockets(self) -> list[Any]:
        out = []
        for bot, _task in self._bots:
            shards = getattr(bot, "_AutoShardedClient__shards", None)  # discord.py's sharded client
            out += [s.ws for s in shards.values()] if shards else [getattr(bot, "ws", None)]
        return [ws for ws in out if ws is not None]

    def _bot_saw(self, seq: int, session: _Session | None = None) -> bool:
        """Whether the in-process bot connection of ``session`` has read event ``seq``."""
        sockets = self._bot_websockets()
        if session is not None:
            sockets = [ws for ws in sockets if getattr(ws, "session_id", None) == session.id]
        elif self.bot is not None:
            sockets = sockets[-1:]
        return not sockets or all((ws.sequence or 0) >= seq for ws in sockets)

    async def _settle(self, inter: InteractionResult, seq: int, timeout: float, session: _Session | None = None
                      ) -> None:
        """Wait until the bot has answered ``inter`` and gone quiet; complain like Discord would."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = loop.time()
            quiet = (
                self._bot_saw(seq, session) and not self._bot_busy() and inter.inflight == 0
                and now - inter.last_activity >= self.settle
            )
            if not self._bots:  # a bot in another process: its tasks are out of sight, so wait for
                # the answer itself, and for a deferred one to be completed (or time out below)
                quiet = quiet and inter.callback is not None and not any(m.loading for m in inter.messages)
            if quiet:
                break
            if inter.callback is None and self.clock - inter.pushed_at > self.callback_deadline:
                raise InteractionNotAnswered(
                    f"interaction {inter.type} by {inter.user.username} got no response within "
                    f"{self.callback_deadline} s (Discord shows 'This interaction failed')",
                    inter,
                )
            if now > deadline:
                raise TimeoutError(f"the bot was still busy with the interaction after {timeout} s")
            await asyncio.sleep(0.005)
        if inter.callback is None:
            refused = [f"{r.method} {r.path} -> {r.status} {r.response}" for r in inter.requests if r.status >= 400]
            raise InteractionNotAnswered(
                f"the bot finished handling the interaction by {inter.user.username} without responding"
                + (f"; Discord refused: {refused}" if refused else ""),
                inter,
            )
        stuck = [m for m in inter.messages if m.loading and not m.deleted]
        if stuck:
            raise InteractionNotAnswered(
                "the bot deferred but never sent a follow-up or edited the response", inter
            )

    async def slash(
        self,
        user: str | FakeUser,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel: str | int | FakeChannel | None = None,
        timeout: float = 15.0,
    ) -> InteractionResult:
        """``user`` runs ``/command`` (``"game start"`` for subcommands) with ``options``.

        The command must have been synced (guild or global), and the options must fit its
        schema, as Discord's client would enforce. Returns once the bot has answered and gone
        quiet; raises InteractionNotAnswered if it did not answer within 3 s.
        """
        data = self._command_data(command, options or {}, guild_id=self._channel(channel).guild_id)
        return await self._push(2, user, channel, data, None, timeout)

    async def autocomplete(
        self,
        user: str | FakeUser,
        command: str,
        focused: str,
        value: str = "",
        options: dict[str, Any] | None = None,
        *,
        channel: str | int | FakeChannel | None = None,
        timeout: float = 15.0,
    ) -> list[dict[str, Any]]:
        """``user`` types ``value`` into option ``focused`` of ``/command``; returns the choices offered."""
        data = self._command_data(command, options or {}, focused=focused, typed=value,
                                  guild_id=self._channel(channel).guild_id)
        inter = await self._push(4, user, channel, data, None, timeout)
        return inter.choices

    def _component_message(self, custom_id: str, message: Message | int | None, user: FakeUser) -> Message:
        if isinstance(message, int):
            msg = self._messages.get(message)
            if msg is None:
                raise LookupError(f"no message {message}")
        elif message is not None:
            msg = message
        else:
            candidates = [
                m for m in self._messages.values()
                if not m.deleted and m.component(custom_id) is not None and m.visible_to in (None, user.id)
            ]
            if not candidates:
                raise LookupError(f"no message visible to {user.username} has a component {custom_id!r}")
            msg = max(candidates, key=lambda m: m.id)
        if msg.deleted:
            raise LookupError(f"message {msg.id} was deleted")
        if msg.visible_to not in (None, user.id):
            raise PermissionError(f"{user.username} cannot see the ephemeral message {msg.id}")
        comp = msg.component(custom_id)
        if comp is None:
            raise LookupError(f"message {msg.id} has no component {custom_id!r}; it has {msg.custom_ids}")
        if comp.get("disabled"):
            raise PermissionError(f"component {custom_id!r} is disabled")
        return msg

    async def click(
        self,
        user: str | FakeUser,
        custom_id: str,
        *,
        message: Message | int | None = None,
        timeout: float = 15.0,
    ) -> InteractionResult:
        """``user`` clicks the button ``custom_id`` (on ``message``, else the newest message with it)."""
        who = self.user(user)
        msg = self._component_message(custom_id, message, who)
        comp = msg.component(custom_id)
        assert comp is not None
        if comp.get("type") != 2:
            raise ValueError(f"{custom_id!r} is not a button (type {comp.get('type')})")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._push(3, who, None, data, msg, timeout)

    async def select(
        self,
        user: str | FakeUser,
        custom_id: str,
        values: list[str],
        *,
        message: Message | int | None = None,
        timeout: float = 15.0,
    ) -> InteractionResult:
        """``user`` picks ``values`` in the select menu ``custom_id``."""
        who = self.user(user)
        msg = self._component_message(custom_id, message, who)
        comp = msg.component(custom_id)
        assert comp is not None
        ctype = comp.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise ValueError(f"{custom_id!r} is not a select menu (type {ctype})")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        if ctype == 3:
            offered = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in offered]
            if bad:
                raise ValueError(f"select {custom_id!r} does not offer {bad}; it offers {offered}")
        data = {"custom_id": custom_id, "component_type": ctype, "values": list(values)}
        return await self._push(3, who, None, data, msg, timeout)

    async def say(self, user: str | FakeUser, content: str, *, channel: Any = None) -> Message:
        """``user`` types a normal message in ``channel`` (MESSAGE_CREATE to the bot if its intents
        ask for it). In an archived thread the message un-archives it first (THREAD_UPDATE), as
        Discord does (threads.mdx "Active & Archived Threads": "Sending a message will automatically
        unarchive the thread, unless the thread has been locked by a moderator"); in a locked
        thread a user without MANAGE_THREADS cannot post (``ThreadArchived``)."""
        who = self.user(user)
        ch = self._channel(channel)
        await self._tick()
        if ch.is_thread and ch.locked and not self.permissions(who, ch) & MANAGE_THREADS:
            raise ThreadArchived(f"{who.username} cannot post in the locked thread {ch.name!r}")
        msg = self._store(self._new_message(ch.id, "user", author=who, content=content))
        await self._thread_activity(ch)
        await self._announce("MESSAGE_CREATE", msg)
        return msg

    async def user_says(self, user: str | FakeUser, channel: Any, text: str) -> Message:
        """``user`` posts ``text`` in ``channel`` (a thread too, un-archiving it): see :meth:`say`."""
        return await self.say(user, text, channel=channel)

    # ------------------------------------------------------------------ test API: inspection
    def messages(
        self,
        channel: str | int | FakeChannel | None = None,
        *,
        ephemeral: bool | None = False,
        origin: str | None = None,
        include_deleted: bool = False,
    ) -> list[Message]:
        """Messages in creation order. By default: public, not deleted, from every channel.

        ``ephemeral=None`` includes both kinds, ``True`` only ephemeral ones.
        """
        ch = None if channel is None else self._channel(channel)
        out = []
        for msg in sorted(self._messages.values(), key=lambda m: m.id):
            if ch is not None and msg.channel_id != ch.id:
                continue
            if ephemeral is not None and msg.ephemeral != ephemeral:
                continue
            if origin is not None and msg.origin != origin:
                continue
            if msg.deleted and not include_deleted:
                continue
            out.append(msg)
        return out

    def message(self, message_id: int) -> Message:
        return self._messages[message_id]

    def last_message(self, channel: str | int | FakeChannel | None = None) -> Message:
        msgs = self.messages(channel)
        if not msgs:
            raise LookupError("no public message has been posted")
        return msgs[-1]

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] = lambda m: True,
        *,
        channel: str | int | FakeChannel | None = None,
        after: InteractionResult | Message | int | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """Wait for a public message satisfying ``predicate`` created after ``after``.

        ``after`` is an interaction (messages since it was pushed), a message or a snowflake;
        by default only messages created from now on count.
        """
        threshold = snowflake() if after is None else after if isinstance(after, int) else after.id
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            for msg in self.messages(channel):
                if msg.id > threshold and not msg.loading and predicate(msg):
                    return msg
            await asyncio.sleep(0.01)
        raise TimeoutError(f"no matching message within {timeout} s")

    def find_requests(self, method: str | None = None, path: str | None = None) -> list[RecordedRequest]:
        """Recorded requests, filtered by method and a regex searched in the path."""
        return [
            r for r in self.requests
            if (method is None or r.method == method.upper()) and (path is None or re.search(path, r.path))
        ]

    def synced(self, *, guild: bool = True) -> list[dict[str, Any]]:
        """The command JSON the bot last synced to the fake guild (or globally)."""
        return list(self.guild_commands.get(self.guild_id, []) if guild else self.global_commands)
