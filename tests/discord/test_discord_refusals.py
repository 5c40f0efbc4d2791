"""Never silent when Discord says no (issue 12), through the real discord.py client and the fake.

Each kind of refusal is injected through the fake: 403 Missing Permissions (the bot's Send
Messages is taken away in the channel, so the fake refuses as Discord does), 403 Missing Access,
404 Unknown Channel, 429 after discord.py's retries, 5xx after discord.py's retries. A committed
move is never lost from view: the actor is told privately what happened and where the table
stands; computer players stop moving at that table until a person acts there; the failure is
logged once per table.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
import discord.http
import pytest

from tests.discord.test_discord_bots import Host, answer, since
from tests.discord.test_discord_e2e import offered, press, slash_move
from tests.fakediscord import FakeDiscord, InteractionNotAnswered
from tests.fakediscord.models import ATTACH_FILES, CREATE_PUBLIC_THREADS, SEND_MESSAGES

CHANNEL_POSTS = r"^/channels/\d+/messages$"


class _FastServerErrorRetries:
    """discord.http's asyncio with discord.py's 5xx back-off shortened, and no other wait.

    discord.py retries a 500/502/504/524 after ``1 + tries * 2`` s (1, 3, 5, 7, 9: 25 s a post):
    those sleeps, and only those, take 10 ms here. Every other wait in discord.http is what Discord
    said to wait and stays as said: a 429's ``retry_after`` (rate-limits.mdx "Exceeding A Rate
    Limit": "Your application should rely on the Retry-After header or retry_after field to
    determine when to retry the request") and a bucket's wait for ``X-RateLimit-Reset-After``
    ("Header Format"). Issue 29: this used to shorten every sleep of discord.http, so after the
    5xx, when the computer player's edits filled the fake's per-channel bucket, discord.py retried
    the 429 five times inside one window and raised it, and the bot halted "rate limited" (about
    one run in five).
    """

    def __init__(self) -> None:
        self.shortened = 0

    def __getattr__(self, name):
        return getattr(asyncio, name)

    def sleep(self, delay, result=None):
        # called (not awaited) from discord.http.HTTPClient.request: the caller's ``response`` says
        # which wait this is (its 5xx branch: ``if response.status in {500, 502, 504, 524}``)
        caller = sys._getframe(1)
        response = caller.f_locals.get("response") if caller.f_code.co_name == "request" else None
        if response is not None and response.status >= 500:
            self.shortened += 1
            delay = min(delay, 0.01)
        return asyncio.sleep(delay, result)


FAST_5XX = _FastServerErrorRetries()


async def inject(fd: FakeDiscord, kind: str, monkeypatch, *, path: str = CHANNEL_POSTS) -> str:
    """Make Discord refuse the bot's posts on ``path``; returns the words the actor must read."""
    if kind == "403-permissions":
        await fd.deny_bot(None, SEND_MESSAGES)  # the fake then refuses as Discord does
        return "Missing Permissions"
    if kind == "403-access":
        fd.fail_next("POST", path, 403, code=50001, message="Missing Access", times=100)
        return "Missing Access"
    if kind == "404":
        fd.fail_next("POST", path, 404, code=10003, message="Unknown Channel", times=100)
        return "Unknown Channel"
    if kind == "429":
        fd.rate_limit_next("POST", path, retry_after=0.01, times=5)  # discord.py tries 5 times
        return "rate limit"
    if kind == "5xx":
        FAST_5XX.shortened = 0
        monkeypatch.setattr(discord.http, "asyncio", FAST_5XX)
        fd.fail_next("POST", path, 502, message="Bad Gateway", times=5)  # retried, then raised
        return "error 502"
    raise AssertionError(kind)


KINDS = ["403-permissions", "403-access", "404", "429", "5xx"]


def refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.discord.refusals" and "refused" in r.getMessage()]


def user_of_seat(fd: FakeDiscord, table, seat: int) -> str:
    uid = int(table.record.seats[seat].user)
    return next(name for name, u in fd.users.items() if u.id == uid)


@pytest.mark.parametrize("kind", KINDS)
async def test_a_refused_move_is_told_privately_and_stands_logged_once_per_table(fd, tmp_path, kind, monkeypatch,
                                                                                 caplog):
    host = Host(fd, tmp_path / "refused.db")
    await host.start()
    try:
        host.bot.defer_after = 0  # every answer is deferred, then posted in the channel (channel.send)
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("bob", "join")
        start = (await fd.slash("alice", "start")).public_messages
        assert start, "the start is answered through the deferred post"
        words = await inject(fd, kind, monkeypatch)
        caplog.set_level(logging.INFO, logger="bot.discord.refusals")
        for _move in range(2):
            told = None
            for _step in range(8):  # moves until one hands the turn on (issue 13: the others edit)
                table = await host.table()
                version, seat = table.record.version, table.game.acting_seats()[0]
                actor = user_of_seat(fd, table, seat)
                action = next(str(a) for a in table.game.legal_actions(seat) if len(str(a)) <= 100)
                r = await slash_move(fd, actor, action)
                assert (await host.table()).record.version > version  # the move is committed (forced ones too)
                assert not [m for m in r.messages if m.public]  # a refused post shows nothing publicly
                told = next((m for m in r.ephemeral_messages if "Your move was made" in m.content), None)
                if told is not None:
                    break
                # an edit of the live message (and, once, the missing permission named)
                assert all(m.content == "Done." or "I lack these permissions" in m.content for m in r.ephemeral_messages)
            assert told is not None  # ... and the actor alone is told, in the deferred answer
            assert told.visible_to == fd.users[actor].id and told.pinged == []
            assert words in told.content and "Your move was made and is saved" in told.content, told.content
            assert "Where the table stands:" in told.content
            if kind in ("429", "5xx"):
                break  # those injections are used up by discord.py's retries of one post
        assert len(refusals(caplog)) == 1, refusals(caplog)  # once per table, not once per move
        assert "a move's post" in refusals(caplog)[0]
    finally:
        await host.stop()


async def test_a_refused_answer_to_the_interaction_itself_is_told_by_the_next_answer(fd, tmp_path, caplog):
    host = Host(fd, tmp_path / "callback.db")
    await host.start()
    try:
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("bob", "join")
        msg = answer(await fd.slash("alice", "start"))
        fd.rate_limit_next("POST", r"/callback$", retry_after=0.01, times=5)
        table = await host.table()
        version = table.record.version
        kind, cid, value = offered(msg)[0]
        r = await press(fd, user_of_seat(fd, table, table.game.acting_seats()[0]), kind, cid, value, msg)
        assert (await host.table()).record.version > version
        assert r.ephemeral and r.public_messages == []
        [told] = r.ephemeral_messages
        assert "rate limit" in told.content and "Your move was made and is saved" in told.content
    finally:
        await host.stop()


@pytest.mark.parametrize("kind", KINDS)
async def test_computer_players_stop_when_their_post_is_refused_until_a_person_acts(fd, tmp_path, kind,
                                                                                    monkeypatch, caplog):
    host = Host(fd, tmp_path / "bots.db")
    await host.start()
    try:
        caplog.set_level(logging.INFO, logger="bot.discord.refusals")
        channel = str(fd.channel.id)
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("alice", "table addbot", {"level": "random"})
        msg = answer(await fd.slash("alice", "start"))
        await host.bot.bots_idle()
        msg = fd.last_message()
        words = await inject(fd, kind, monkeypatch)
        for _step in range(100):  # alice moves until the computer player must act (its move's post is refused)
            before = (await host.table()).record.version
            [msg] = [m for m in fd.messages() if any(row["components"] for row in m.components)]
            assert f"<@{fd.users['alice'].id}>: " in msg.content, msg.content
            kind_, cid, value = offered(msg)[0]
            r = await press(fd, "alice", kind_, cid, value, msg)
            await host.bot.bots_idle()
            if host.bot.watch.halted(channel):
                break
            assert (await host.table()).record.version > before, r.text  # every press is a move: no endless retry
        else:
            pytest.fail("the computer player's post was never refused")
        msg = fd.messages()[-1]
        moved = (await host.table()).record.version
        assert moved > before  # alice's move and the computer player's committed
        await asyncio.sleep(0.1)
        await host.bot.bots_idle()
        assert (await host.table()).record.version == moved and since(fd, msg.id) == []  # it stopped
        posts = [p for p in fd.find_requests("POST", CHANNEL_POSTS) if p.status >= 400]
        assert len(posts) == (5 if kind in ("429", "5xx") else 1)  # one post (discord.py retried 429/5xx)
        if kind == "5xx":
            assert FAST_5XX.shortened == 5  # discord.py's back-off (1+3+5+7+9 s) was shortened, each time
        [logged] = refusals(caplog)
        assert "a computer player's move" in logged and channel in logged
        # a person acts (here /status): the computer players go on, and that person is told privately
        r = await fd.slash("alice", "table status")
        [told] = r.ephemeral_messages
        assert told.visible_to == fd.users["alice"].id and told.pinged == []
        assert "Earlier, Discord refused to post a computer player's move here" in told.content
        assert words in told.content and "Where the table stands:" in told.content
        await host.bot.bots_idle()
        # issue 13: the computer player's turn edited the message its turn began with; the refused post
        # was its hand-back, so alice has no buttons: she types her turn, and the computer player answers
        for _ in range(6):
            table = await host.table()
            if table.game.acting_seats() != [0]:
                break
            action = next(str(a) for a in table.game.legal_actions(0) if len(str(a)) <= 100)
            await slash_move(fd, "alice", action)
        await host.bot.bots_idle()
        if kind in ("403-permissions", "403-access", "404"):  # still refused: it stops again
            # (its edits of its turn's message went through in between, so the watch logs each hand-back)
            assert host.bot.watch.halted(channel)
            assert all("a computer player's move" in line for line in refusals(caplog))
        else:  # the injection is used up: its moves are posted again
            assert not host.bot.watch.halted(channel)
            assert any("(computer, random)" in m.content for m in since(fd, msg.id))
            assert any("works again" in r.getMessage() for r in caplog.records)
    finally:
        await host.stop()


async def test_a_missing_permission_is_logged_by_name_and_told_once_to_whoever_opens_the_table(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot.discord.refusals")
    async with FakeDiscord(bot_permissions=SEND_MESSAGES | CREATE_PUBLIC_THREADS | 1 << 10) as fd:
        await fd.deny_bot(None, ATTACH_FILES)  # and @everyone's Attach Files is taken away in the channel
        host = Host(fd, tmp_path / "perms.db")
        await host.start()
        try:
            r = await fd.slash("alice", "join", {"game": "vikings"})
            assert r.public_messages and "opens a table" in r.public_messages[0].content
            [told] = r.ephemeral_messages
            assert told.visible_to == fd.users["alice"].id
            assert "Attach Files, Send Messages In Threads" in told.content
            r = await fd.slash("bob", "join")  # told once: not again
            assert r.ephemeral_messages == []
            logged = [r.getMessage() for r in caplog.records if "missing permission" in r.getMessage()]
            assert logged == [f"a table in this channel: missing permission(s) in channel {fd.channel.id}: "
                              "Attach Files, Send Messages In Threads"]
        finally:
            await host.stop()


async def test_missing_permissions_at_start_up_are_logged_and_told_to_the_next_player(fd, tmp_path, caplog):
    host = Host(fd, tmp_path / "startup.db")
    await host.start()
    try:
        await fd.slash("alice", "join", {"game": "vikings"})
        await host.stop()
        await fd.deny_bot(None, ATTACH_FILES)
        caplog.set_level(logging.INFO, logger="bot.discord.refusals")
        bot = await host.start()
        # on_ready's look at the tables runs in a task of its own after the bot is ready: wait for it
        await asyncio.wait_for(bot.tables_looked_at.wait(), 10)
        logged = [r.getMessage() for r in caplog.records if "missing permission" in r.getMessage()]
        assert logged == [f"at start-up: missing permission(s) in channel {fd.channel.id}: Attach Files"]
        r = await fd.slash("bob", "join")
        assert "Attach Files" in r.ephemeral_messages[0].content
        assert (await fd.slash("alice", "table status")).ephemeral_messages == []  # once
    finally:
        await host.stop()


async def test_a_refused_defer_is_a_dead_token_and_the_move_goes_out_through_the_channel(fd, tmp_path, caplog):
    """Issue 24: 10062 Unknown interaction on the defer says the token is dead, not that the channel
    refused (receiving-and-responding.mdx "Interaction Callback"): the move is committed and
    published through the channel, logged once, and nobody is told of a refusal."""
    host = Host(fd, tmp_path / "defer.db")
    await host.start()
    try:
        caplog.set_level(logging.INFO)
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("bob", "join")
        msg = answer(await fd.slash("alice", "start"))
        host.bot.defer_after = 0  # the answer is deferred first: Discord refuses the defer
        fd.fail_next("POST", r"/callback$", 404, code=10062, message="Unknown interaction")
        table = await host.table()
        version = table.record.version
        kind, cid, value = offered(msg)[0]
        with pytest.raises(InteractionNotAnswered):  # what Discord shows for a dead token
            await press(fd, user_of_seat(fd, table, table.game.acting_seats()[0]), kind, cid, value, msg)
        await host.bot.bots_idle()
        await asyncio.sleep(0.2)
        assert (await host.table()).record.version > version  # the move ran to its end
        assert len(msg.history) >= 1  # the live message was edited through the channel
        assert [m for m in fd.messages(ephemeral=True) if "refused" in m.content] == []
        assert refusals(caplog) == [] and not host.bot.watch.halted(str(fd.channel.id))
        assert len([r for r in caplog.records if "token is gone" in r.getMessage()]) == 1
    finally:
        await host.stop()
