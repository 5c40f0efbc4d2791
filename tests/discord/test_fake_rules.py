"""The fake Discord keeps Discord's rules (issue 24): interaction tokens, rate limits, threads,
permissions. Each test names the behaviour and the page of Discord's docs it comes from
(/work/shared/discord/docs/, a copy of discord/discord-api-docs); the fake is driven by discord.py's
own client and HTTP wherever the rule concerns what a bot does.
"""

from __future__ import annotations

import asyncio
import time

import aiohttp
import discord
import pytest
from aiohttp import ClientSession
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, FakeDiscordError, Limit, RateLimits, ThreadArchived
from tests.fakediscord.models import EMBED_LINKS, MANAGE_THREADS, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS
from tests.fakediscord.server import BOT_ROLE_PERMISSIONS


class RuleBot(commands.Bot):
    """A small bot whose commands do exactly what a rule needs, keeping the interactions it got."""

    def __init__(self, guild_id: int, **options):
        super().__init__(command_prefix="!", intents=discord.Intents.default(), **options)
        self.guild_id = guild_id
        self.gate = asyncio.Event()
        self.errors: list[Exception] = []
        self.seen: list[discord.Interaction] = []

    async def setup_hook(self) -> None:
        bot = self

        @app_commands.command(name="hello", description="Answers at once")
        async def hello(interaction: discord.Interaction) -> None:
            bot.seen.append(interaction)
            await interaction.response.send_message("hello")

        @app_commands.command(name="later", description="Answers once the test opens the gate")
        async def later(interaction: discord.Interaction) -> None:
            bot.seen.append(interaction)
            await bot.gate.wait()
            for attempt in (interaction.response.send_message("late"), interaction.followup.send("later still")):
                try:
                    await attempt
                except discord.HTTPException as e:
                    bot.errors.append(e)

        @app_commands.command(name="busy", description="Posts in the channel before answering")
        async def busy(interaction: discord.Interaction) -> None:
            await interaction.channel.send("working on it")
            await interaction.response.send_message("done")

        @app_commands.command(name="more", description="Answers, then follows up in public")
        async def more(interaction: discord.Interaction) -> None:
            bot.seen.append(interaction)
            await interaction.response.send_message("first")
            for attempt in (interaction.followup.send("second"),
                            interaction.followup.send("only you", ephemeral=True)):
                try:
                    await attempt
                except discord.HTTPException as e:
                    bot.errors.append(e)

        for cmd in (hello, later, busy, more):
            self.tree.add_command(cmd, guild=discord.Object(self.guild_id))
        await self.tree.sync(guild=discord.Object(self.guild_id))


async def started(fake: FakeDiscord) -> RuleBot:
    bot = RuleBot(fake.guild_id)
    await fake.start_bot(bot)
    return bot


async def raw(fake: FakeDiscord, method: str, path: str, json=None, auth: bool = True):
    """One request straight to the fake (no discord.py limiter): status, headers, body."""
    headers = {"Authorization": f"Bot {fake.token}"} if auth else {}
    async with ClientSession() as s, s.request(method, f"{fake.url}/api/v10{path}", json=json, headers=headers) as r:
        return r.status, r.headers, (await r.json() if r.content_type == "application/json" else None)


async def wait_until(predicate, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.01)


# ------------------------------------------------------------------ interaction tokens
async def test_an_initial_response_after_3_s_on_the_clock_is_unknown_interaction_10062():
    """receiving-and-responding.mdx "Interaction Callback": "you must send an initial response within
    3 seconds of receiving the event. If the 3 second deadline is exceeded, the token will be
    invalidated." The callback then gets 404 10062; a follow-up on the dead token 404 10015."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        push = asyncio.create_task(fake.slash("alice", "later"))
        await wait_until(lambda: bot.seen)
        await fake.advance(3.5)
        with pytest.raises(Exception, match="no response within") as caught:
            await push
        assert caught.type.__name__ == "InteractionNotAnswered"
        bot.gate.set()
        await wait_until(lambda: len(bot.errors) == 2)
        late, followup = bot.errors
        assert isinstance(late, discord.NotFound) and late.code == 10062
        assert isinstance(followup, discord.NotFound) and followup.code == 10015
        assert fake.interactions[0].callback is None


async def test_a_second_initial_response_is_refused_40060():
    """opcodes-and-status-codes.mdx "JSON Error Codes": 40060 "Interaction has already been acknowledged"."""
    async with FakeDiscord() as fake:
        await started(fake)
        r = await fake.slash("alice", "hello")
        status, _, body = await raw(fake, "POST", f"/interactions/{r.id}/{r.token}/callback",
                                    {"type": 4, "data": {"content": "again"}}, auth=False)
        assert (status, body["code"]) == (400, 40060)


async def test_follow_ups_work_for_15_minutes_then_the_token_is_invalid_50027():
    """receiving-and-responding.mdx "Followup Messages": "Interaction tokens are valid for 15 minutes";
    opcodes-and-status-codes.mdx: 50027 "Invalid webhook token provided" (401)."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        await fake.slash("alice", "hello")
        interaction = bot.seen[0]
        await fake.advance(14 * 60)
        await interaction.followup.send("still in time")
        await interaction.edit_original_response(content="edited in time")
        await fake.advance(61)
        for late in (interaction.followup.send("too late"), interaction.edit_original_response(content="no")):
            with pytest.raises(discord.HTTPException) as e:
                await late
            assert (e.value.status, e.value.code) == (401, 50027)
        assert [m.content for m in fake.interactions[0].messages] == ["edited in time", "still in time"]


async def test_rest_calls_before_the_initial_response_are_recorded_per_interaction():
    """receiving-and-responding.mdx "Interaction Callback": the user waits (3 s at most) for the
    initial response; REST work the bot does first shows in ``calls_before_answer`` and
    ``fd.late_answers``; with ``strict_answer_order`` (the default) the test fails at the end."""
    fake = FakeDiscord()
    with pytest.raises(FakeDiscordError, match=r"(?s)REST calls before the initial response.*'busy': POST /channels/"):
        async with fake:
            await started(fake)
            quick = await fake.slash("alice", "hello")
            slow = await fake.slash("bob", "busy")
            assert quick.calls_before_answer == []
            assert [(c.method, c.path) for c in slow.calls_before_answer] == [
                ("POST", f"/channels/{fake.channel.id}/messages")]
            assert fake.late_answers == [slow]
    async with FakeDiscord(strict_answer_order=False) as fake:
        await started(fake)
        await fake.slash("bob", "busy")
        assert len(fake.late_answers) == 1


async def test_a_call_already_on_its_way_when_the_bot_reads_the_interaction_is_not_counted_against_it():
    """receiving-and-responding.mdx "Interaction Callback" (issue 24, answer first): a REST call
    the bot made before it read the interaction's event cannot be held back for its answer, even
    when it reaches Discord after the push; one made after the bot read it (the bot's own choice)
    counts."""
    on_its_way, let_go = asyncio.Event(), asyncio.Event()
    trace = aiohttp.TraceConfig()

    async def hold_tavern_posts(_session, _ctx, params) -> None:  # the post is slow on the wire
        if params.method == "POST" and f"/channels/{tavern}/" in str(params.url) and not let_go.is_set():
            on_its_way.set()
            await let_go.wait()

    trace.on_request_start.append(hold_tavern_posts)
    async with FakeDiscord(strict_answer_order=False) as fake:
        tavern = fake.channels["tavern"].id
        bot = RuleBot(fake.guild_id, http_trace=trace)
        await fake.start_bot(bot)
        early = asyncio.create_task(bot.get_channel(tavern).send("made before the click"))
        await on_its_way.wait()
        pressed = asyncio.create_task(fake.slash("alice", "later"))  # answered when the test opens the gate
        await wait_until(lambda: bot.seen)  # the bot has read the interaction
        let_go.set()
        await early  # it reaches Discord after the push, before the answer
        await bot.get_channel(tavern).send("made after the bot read it")
        bot.gate.set()
        r = await pressed
        arrived = [(req.json or {}).get("content") for req in fake.requests[r.first_request:]
                   if req.method == "POST" and req.path == f"/channels/{tavern}/messages"]
        assert arrived == ["made before the click", "made after the bot read it"]
        assert [(c.json or {}).get("content") for c in r.calls_before_answer] == ["made after the bot read it"]
        assert fake.late_answers == [r]


# ------------------------------------------------------------------ rate limits
async def test_every_rest_answer_carries_rate_limit_headers():
    """rate-limits.mdx "Header Format": X-RateLimit-Limit, -Remaining, -Reset, -Reset-After, -Bucket."""
    async with FakeDiscord() as fake:
        status, headers, _ = await raw(fake, "GET", "/users/@me")
        assert status == 200
        assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After",
                "X-RateLimit-Bucket"} <= set(headers)
        assert int(headers["X-RateLimit-Remaining"]) == int(headers["X-RateLimit-Limit"]) - 1
        assert abs(float(headers["X-RateLimit-Reset"]) - time.time() - float(headers["X-RateLimit-Reset-After"])) < 1


async def test_over_a_route_limit_the_fake_answers_429_and_discord_py_waits_and_retries():
    """rate-limits.mdx "Exceeding A Rate Limit": 429 with message, retry_after, global, and a
    Retry-After header; X-RateLimit-Scope says whose limit; channel messages are per channel
    (a top-level resource, rate-limits.mdx intro)."""
    async with FakeDiscord(rate_limits=RateLimits(scale=0.1)) as fake:  # 5 posts per 0.5 s
        bot = await started(fake)
        general, tavern = fake.channels["general"].id, fake.channels["tavern"].id
        answers = [await raw(fake, "POST", f"/channels/{general}/messages", {"content": str(i)}) for i in range(6)]
        assert [a[0] for a in answers] == [200] * 5 + [429]
        status, headers, body = answers[-1]
        assert set(body) >= {"message", "retry_after", "global"} and body["global"] is False
        assert 0 < body["retry_after"] <= 0.5
        assert headers["X-RateLimit-Scope"] == "user" and headers["Via"] and "Retry-After" in headers
        assert (await raw(fake, "POST", f"/channels/{tavern}/messages", {"content": "x"}))[0] == 200
        # the bucket is exhausted: discord.py's own limiter meets the 429, waits retry_after, retries
        sent = await bot.get_channel(general).send("through the limiter")
        assert sent.content == "through the limiter"
        assert [r for r, _ in fake.rate_limited] == [f"POST /channels/{general}/messages"] * 2
        # and, knowing the bucket from the headers now, it waits before the next window by itself
        before = len(fake.rate_limited)
        for i in range(7):
            await bot.get_channel(general).send(f"burst {i}")
        assert len(fake.rate_limited) == before


async def test_the_global_limit_is_per_bot_and_interaction_callbacks_are_not_bound_to_it():
    """rate-limits.mdx "Global Rate Limit": "All bots can make up to 50 requests per second" and
    "Interaction endpoints are not bound to the bot's Global Rate Limit" (receiving-and-responding.mdx
    "Followup Messages > Endpoints" says the same); the 429 says ``global: true``."""
    async with FakeDiscord(rate_limits=RateLimits(global_per_second=4, default=Limit(100, 1.0))) as fake:
        await started(fake)
        await asyncio.sleep(1.05)  # a fresh global second
        answers = [await raw(fake, "GET", "/users/@me") for _ in range(5)]
        assert [a[0] for a in answers] == [200] * 4 + [429]
        _, headers, body = answers[-1]
        assert body["global"] is True and headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        r = await fake.slash("alice", "hello")  # its callback goes through in the same second
        assert r.callback_type == 4 and r.messages[0].content == "hello"


# ------------------------------------------------------------------ threads
async def open_thread(bot: RuleBot, fake: FakeDiscord, minutes: int = 60):
    start = await bot.get_channel(fake.channel.id).send("a new game")
    thread = await start.create_thread(name="game", auto_archive_duration=minutes)
    inside = await thread.send("first move")
    return thread, inside, fake.threads[thread.id]


async def test_a_thread_archives_after_its_auto_archive_duration_without_messages():
    """threads.mdx "Active & Archived Threads": threads archive after a period of inactivity
    (``auto_archive_duration`` minutes); THREAD_UPDATE tells the bot ("Gateway Events"); editing a
    message in an archived thread is refused 50083 (opcodes-and-status-codes.mdx); "Sending a
    message will automatically unarchive the thread"."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        thread, inside, fake_thread = await open_thread(bot, fake)
        await fake.advance(59 * 60)
        assert not fake_thread.archived
        await fake.advance(61)
        assert fake_thread.archived
        assert fake.dispatched[-1][0] == "THREAD_UPDATE" and fake.dispatched[-1][1]["thread_metadata"]["archived"]
        # discord.py reads the THREAD_UPDATE (and drops an archived thread from its cache)
        await wait_until(lambda: (cached := bot.get_channel(thread.id)) is None or cached.archived)
        assert (await bot.fetch_channel(thread.id)).archived  # GET /channels/{thread} agrees
        with pytest.raises(discord.HTTPException) as e:
            await inside.edit(content="changed")
        assert (e.value.status, e.value.code) == (400, 50083)
        await thread.send("a move un-archives it")
        assert not fake_thread.archived and not (await bot.fetch_channel(thread.id)).archived


async def test_the_bot_un_archives_its_thread_by_editing_it():
    """threads.mdx "Editing & Deleting Threads": "Editing a thread to set archived to false only
    requires the current user has already been added to the thread" (the bot opened it)."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        thread, _, fake_thread = await open_thread(bot, fake)
        await fake.archive_thread(thread.id)
        await thread.edit(archived=False)
        assert not fake_thread.archived


async def test_a_locked_thread_stays_locked_without_manage_threads():
    """threads.mdx "Active & Archived Threads": locked threads "can only be unarchived by a user with
    the MANAGE_THREADS permission", and "Sending a message will automatically unarchive the thread,
    unless the thread has been locked"; "Locked Threads": MANAGE_THREADS still may."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        thread, _, fake_thread = await open_thread(bot, fake)
        await fake.archive_thread(thread.id, locked=True)
        for refused in (thread.send("let me in"), thread.edit(archived=False)):
            with pytest.raises(discord.HTTPException) as e:
                await refused
            assert e.value.code == 50083
        with pytest.raises(ThreadArchived):
            await fake.user_says("alice", thread.id, "hello?")
        await fake.user_says("erik", thread.id, "moderator here")  # the admin has MANAGE_THREADS
        assert not fake_thread.archived and fake_thread.locked
        with pytest.raises(discord.HTTPException) as e:
            await thread.send("still locked")
        assert e.value.code == 160005
    async with FakeDiscord(bot_permissions=BOT_ROLE_PERMISSIONS | MANAGE_THREADS) as fake:
        bot = await started(fake)
        thread, _, fake_thread = await open_thread(bot, fake)
        await fake.archive_thread(thread.id, locked=True)
        await thread.send("a moderator bot may")
        assert not fake_thread.archived


async def test_users_cannot_use_commands_in_an_archived_thread_until_someone_posts():
    """threads.mdx "Active & Archived Threads": "Users cannot ... use application commands ... in
    archived threads"; a user's message un-archives the thread (THREAD_UPDATE)."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        thread, _, fake_thread = await open_thread(bot, fake)
        await fake.advance(3601)
        with pytest.raises(ThreadArchived):
            await fake.slash("alice", "hello", channel=thread.id)
        await fake.user_says("alice", thread.id, "back to the game")
        assert not fake_thread.archived and fake.dispatched[-1][0] in ("THREAD_UPDATE", "MESSAGE_CREATE")
        r = await fake.slash("alice", "hello", channel=thread.id)
        assert r.messages[0].channel_id == thread.id


# ------------------------------------------------------------------ permissions
async def test_follow_ups_need_the_bots_channel_permissions_but_the_initial_response_does_not():
    """message.mdx "Create Message": posting needs SEND_MESSAGES; an interaction's initial response
    only needs the interaction, while a public follow-up is the app posting in the channel
    (discord/discord-api-docs#5279: follow-ups use the bot's permissions); ephemeral ones are seen
    by the user only and pass."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        await fake.deny_bot(None, SEND_MESSAGES)
        r = await fake.slash("alice", "more")
        assert r.callback_type == 4 and r.messages[0].content == "first"
        [refused] = bot.errors
        assert isinstance(refused, discord.Forbidden) and refused.code == 50013
        assert [m.content for m in r.ephemeral_messages] == ["only you"]


async def test_in_a_thread_posting_needs_send_messages_in_threads():
    """permissions.mdx "Inherited Permissions (Threads)": SEND_MESSAGES is not inherited by threads;
    SEND_MESSAGES_IN_THREADS is needed."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        thread, _, _ = await open_thread(bot, fake)
        await fake.deny_bot(None, SEND_MESSAGES)
        await thread.send("threads do not need SEND_MESSAGES")
        await fake.deny_bot(None, SEND_MESSAGES_IN_THREADS)
        with pytest.raises(discord.Forbidden):
            await thread.send("refused")


async def test_embeds_without_embed_links_are_dropped_and_an_embed_only_post_is_refused():
    """permissions.mdx: EMBED_LINKS; what Discord does without it (the docs pages are silent):
    embeds are dropped, an embed-only message is refused (discord/discord-api-docs#2601, #5648)."""
    async with FakeDiscord() as fake:
        bot = await started(fake)
        channel = bot.get_channel(fake.channel.id)
        await fake.deny_bot(None, EMBED_LINKS)
        kept = await channel.send("text stays", embed=discord.Embed(title="board"))
        assert kept.embeds == [] and fake.message(kept.id).embeds == []
        with pytest.raises(discord.Forbidden) as e:
            await channel.send(embed=discord.Embed(title="only an embed"))
        assert e.value.code == 50013
        with pytest.raises(discord.HTTPException) as e:
            await kept.edit(content="", embed=discord.Embed(title="now only an embed"))
        assert e.value.code == 50006
        assert len(fake.dropped_embeds) == 3
