"""A fake Discord on 127.0.0.1 for end-to-end tests through the real discord.py client.

The fake serves the gateway (websocket) and the REST API with aiohttp on an ephemeral loopback
port. While it runs, ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` point at
it (restored on exit), so an unmodified ``commands.Bot`` logs in, receives READY and one guild,
syncs its commands, and answers interactions the test pushes. Every request is recorded.

Usage::

    from tests.fakediscord import FakeDiscord

    async def test_join():
        async with FakeDiscord() as fd:                    # users alice, bob, carol, dave; admin erik
            bot = make_bot()                                # any discord.Client / commands.Bot
            await fd.start_bot(bot)                         # login, READY, GUILD_CREATE, bot.is_ready()
            await bot.tree.sync(guild=discord.Object(fd.guild_id))   # recorded in fd.sync_log
            r = await fd.slash("alice", "join", {"seats": 3})         # waits until the bot answered
            assert r.callback_type == 4 and not r.ephemeral
            assert fd.users["alice"].id in r.messages[0].mentions
            choices = await fd.autocomplete("bob", "buy", focused="position", value="")
            r = await fd.click("alice", "meadhall:cell:12:3")           # newest message with that button
            r = await fd.select("alice", "meadhall:pick:12:3", ["B4"])
            board = fd.last_message("general").attachment("board.png").data   # exact PNG bytes

What the fake does like Discord (and so catches bugs a mock would hide):

* ``slash``/``autocomplete`` build the interaction from the *synced* command JSON: an unsynced
  command, an unknown or missing required option, a wrong type or a value outside the
  choices raises before anything is sent, as Discord's client would refuse it.
* Interactions must be answered within 3 s (``InteractionNotAnswered``); a second callback gets
  ``400 / 40060``; a deferred response never completed is reported.
* The first follow-up after ``defer()`` *replaces* the "thinking..." message and keeps the
  defer's visibility: after a public defer it is public even with ``ephemeral=True``
  (``Message.requested_ephemeral`` shows what the bot asked for).
* Every REST request and every answer of the fake is validated against Discord's own OpenAPI
  schema (``schema.py``, a copy of ``../shared/discord/openapi.json``; issue 12): an unknown
  route or method, or a body the schema refuses, is recorded in ``fd.request_violations`` (and
  answered ``400 Invalid Form Body``), an answer of the fake outside the schema in
  ``fd.response_violations``; either fails the test at exit, naming route, JSON path and reason.
* The bot has a managed role (``bot_permissions``, by default what its invite grants) and channel
  overwrites: ``await fd.deny_bot(channel, bits)`` takes permissions away (CHANNEL_UPDATE to the
  bot), and channel posts it no longer may make are refused ``403`` (50001/50013) as by Discord.
* Bodies are also checked against Discord's documented limits (``limits.py``: 2000 characters, 5 rows of 5,
  25 choices/options, names and descriptions of commands, ...) and refused with
  ``400 Invalid Form Body``; an empty message gets ``50006``; files above the
  ``attachment_size_limit`` get ``413``.
* Members are only in GUILD_CREATE with the members intent; MESSAGE_CREATE/UPDATE/DELETE are
  sent for public messages when the bot has the guild-messages intent.
* REST calls need ``Authorization: Bot <token>`` (401 otherwise); interaction callbacks and
  follow-up webhooks are accepted without it, as discord.py sends none.
* ``fd.fail_next(method, path_regex, status)`` / ``fd.rate_limit_next(...)`` inject errors and
  429s (with the ``Via`` header discord.py requires before it retries).

Inspecting: ``fd.requests`` (every ``RecordedRequest``: method, path, query, headers, json,
files), ``fd.find_requests("POST", r"/callback$")``, ``fd.unhandled`` (routes the fake does not
know, answered 404), ``fd.internal_errors`` (bugs of the fake itself, answered 400), ``fd.sync_log`` / ``fd.synced()``, ``fd.messages(channel, ephemeral=...)``,
``fd.last_message()``, ``fd.dispatched`` (gateway events sent), ``await fd.wait_for_message(pred)`` (for things the bot posts on its own,
e.g. reminders), ``fd.interactions``. An ``InteractionResult`` has ``callback``,
``callback_type``, ``deferred``, ``ephemeral``, ``messages`` (created), ``edited``,
``public_messages``, ``ephemeral_messages``, ``text``, ``files``, ``choices``, ``requests``.
A ``Message`` has ``content``, ``attachments`` (``filename``, ``data`` bytes), ``components``,
``custom_ids``, ``embeds``, ``ephemeral``, ``visible_to``, ``mentions`` (ids written as
``<@id>``), ``pinged`` (those ``allowed_mentions`` lets through), ``history`` (before edits).

Shards (issue 15): ``FakeDiscord(shard_count=N)`` (what ``/gateway/bot`` recommends) and
``fd.add_guild(name, channels, shard=k)`` (an id on shard k: ``(guild_id >> 22) % N``). A session
IDENTIFYing with ``shard: [k, N]`` gets READY and GUILD_CREATE for exactly its shard's guilds, and
every event of a guild (interactions, messages, channel updates) goes to the newest session of
that guild's shard; none connected raises ``FakeDiscordError``. ``InteractionResult.shard`` and
``fd.dispatched_to`` say which session got what. An impossible shard is closed with 4010. Bots
in other processes (``tests/fakediscord/remote.py``) work too: then an interaction counts as
handled once answered (a defer completed) and quiet for ``settle`` seconds.

Restarting: ``await fd.stop_bot(bot)`` then ``await fd.start_bot(new_bot)``; the fake keeps its
messages, so a click on a button posted before the restart reaches the new bot.

Bounds: the server binds 127.0.0.1 only, every wait has a timeout, and the fake shuts itself
(and the bots it started) down after ``lifetime`` seconds (120 by default). Only one FakeDiscord
may run at a time, since discord.py's endpoints are process-wide. Not modelled: DMs, private
threads, roles beyond @everyone/Admin, modals submits, reactions beyond an accepted PUT.

Threads: the bot opens a public thread from a message (``POST /channels/{id}/messages/{id}/threads``;
the thread's id is the message's, as on Discord; ``THREAD_CREATE`` is dispatched; refused with
``403 / 50013`` when the bot lacks ``CREATE_PUBLIC_THREADS`` in the channel, ``160004`` for a
second thread from one message). ``fd.threads_of(channel)`` lists them; every test API that takes
a ``channel`` also takes a thread (``fd.slash("alice", "board", channel=thread)``), and
``fd.messages(thread)`` are the thread's messages. ``Message.notified`` is whom a message pinged
when it appeared (an edit notifies nobody, whatever its content).
"""

from .limits import check_autocomplete, check_choice, check_commands, check_message
from .models import (
    EPHEMERAL,
    LOADING,
    Attachment,
    FakeChannel,
    FakeUser,
    InteractionResult,
    Message,
    RecordedRequest,
)
from .ratelimits import Limit, RateLimits
from .server import FakeDiscord, FakeDiscordError, InteractionNotAnswered, ThreadArchived

__all__ = [
    "EPHEMERAL",
    "LOADING",
    "Attachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeUser",
    "InteractionNotAnswered",
    "InteractionResult",
    "Limit",
    "Message",
    "RateLimits",
    "RecordedRequest",
    "ThreadArchived",
    "check_autocomplete",
    "check_choice",
    "check_commands",
    "check_message",
]
