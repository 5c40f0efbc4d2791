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

Discord's rules over time (issue 24; each rule cites its page of ``/work/shared/discord/docs/``
in the code, and ``tests/discord/test_fake_rules.py`` tests each one):

* **One clock.** ``fd.clock`` is the fake's time (real monotonic time plus an offset);
  ``await fd.advance(seconds)`` moves it on and applies what became due (threads archive).
  Every time rule reads it; real waits (``settle``, ``timeout``, ``lifetime``) do not.
* **Interaction tokens** (receiving-and-responding.mdx "Interaction Callback", "Followup
  Messages"): a callback more than ``callback_deadline`` (3 s) after the interaction's creation
  gets ``404 / 10062`` (the token is dead; its follow-ups and ``@original`` get ``404 / 10015``
  Unknown Webhook, as before any initial response); follow-ups, ``@original`` reads and edits work
  for 15 minutes after creation, then ``401 / 50027`` Invalid Webhook Token.
  ``InteractionResult.calls_before_answer`` lists the bot's other REST calls that reached the
  fake between the push and the initial response (not counting other interactions' callbacks
  and webhooks, nor a call an in-process bot made before it had read the interaction's event:
  ``start_bot`` stamps each call with the gateway sequence the bot had read, ``SEEN_HEADER``); interactions with any are in ``fd.late_answers``, and with
  ``strict_answer_order`` (on by default; ``FakeDiscord(strict_answer_order=False)`` or
  ``FAKEDISCORD_STRICT_ANSWER_ORDER=0`` turn it off) the test fails at exit naming them.
* **Rate limits** (rate-limits.mdx; ``ratelimits.py``): every REST answer carries
  ``X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket``; buckets per channel for message
  posts, for message edits and deletes, for thread creation, per interaction for callbacks, per
  webhook token for follow-ups, and per method + route + major parameter for the rest; a global
  50 requests per second per bot that interaction endpoints are exempt from. Over a limit: ``429``
  with ``{"message", "retry_after", "global"}``, ``Retry-After``, ``X-RateLimit-Scope``
  (``user``/``global``), ``X-RateLimit-Global`` and the ``Via`` header discord.py needs, so its
  own limiter waits and retries. By default Discord's counts apply with the per-route windows
  scaled by 0.1 (tests click ten times faster than people; ``FAKEDISCORD_RATE_SCALE=1`` gives
  Discord's own windows). Requests answered by ``fail_next`` count for no bucket.
  ``FakeDiscord(rate_limits=RateLimits(...))`` configures them
  (``Limit(count, window)`` per bucket kind, ``global_per_second``, ``scale`` multiplying the
  per-route windows, ``RateLimits.off()``); ``fd.rate_limited`` lists the 429s served as
  ``("METHOD /path", retry_after)``.
* **Threads** (threads.mdx): a thread archives after ``auto_archive_duration`` minutes without a
  message (on the clock; ``THREAD_UPDATE``, ``thread_metadata.archived``/``archive_timestamp`` in
  every payload and ``GET /channels/{thread}``; GUILD_CREATE lists active threads only). While
  archived, editing a message in it is ``400 / 50083``; a bot post un-archives it
  (``THREAD_UPDATE``); ``PATCH /channels/{thread}`` with ``archived: false`` un-archives it (the
  bot is a member of the threads it opened). Locked threads (``await fd.archive_thread(t,
  locked=True)``, a moderator's act) refuse posts and un-archiving (``50083``; ``160005`` once
  active) unless the bot has MANAGE_THREADS. ``fd.slash``/``fd.click``/``fd.select`` in an
  archived thread raise ``ThreadArchived`` (Discord's client offers no commands there);
  ``await fd.user_says(user, thread, text)`` (or ``fd.say``) posts a user's message, which
  un-archives the thread first (not a locked one, unless the user may manage threads).
* **Permissions on every post and edit** (message.mdx "Create Message", permissions.mdx):
  channel posts and public interaction follow-ups need SEND_MESSAGES (SEND_MESSAGES_IN_THREADS
  in a thread), files ATTACH_FILES; edits need access (and ATTACH_FILES for files). The initial
  callback needs none of the channel's permissions; ephemeral follow-ups are not checked.
  Without EMBED_LINKS embeds are dropped silently (``fd.dropped_embeds``); a post left empty is
  ``403 / 50013``, an edit left empty ``400 / 50006`` (the docs pages are silent: Discord's issue
  tracker, discord/discord-api-docs#2601, #5648). The bot's default permissions stay "what the
  invite grants" plus @everyone's, which in a default guild include EMBED_LINKS.

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

Gateway limits (issue 24, ``gateway_rules.py``): ``FakeDiscord(max_concurrency=2,
identify_window=5.0, session_starts=1000, max_guilds_per_shard=2500)``. ``/gateway/bot`` answers
the ``session_start_limit`` and counts IDENTIFYs down; an IDENTIFY over a bucket's concurrency
gets op 9 (``identify_window=0``, the default, leaves that rule off), at the start limit every
session is closed 4004 (the token is reset), a shard with too many guilds is closed 4011. A RESUME
gets the events after its ``seq`` again, then RESUMED: ``await fd.gateway_rules.drop(shard,
missed=[(event, data)])`` and ``await fd.gateway_rules.reconnect(shard)`` (op 7).

Weather (issue 29, ``weather.py``): ``FakeDiscord(weather=Weather(seed=3))`` gives every REST call
a round trip (50–250 ms), a share of them a 5xx (discord.py retries 500/502, and a 503 only on the
interaction webhooks), and
the gateway an op 7 Reconnect or an op 9 Invalid Session (``d: false``) after a DISPATCH now and
then, all from a seeded RNG; ``fd.weather.report`` counts what was met.

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
from .weather import Weather, WeatherReport

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
    "Weather",
    "WeatherReport",
    "check_autocomplete",
    "check_choice",
    "check_commands",
    "check_message",
]
