"""Computer players on Discord (issue 8, host side) through the real discord.py client and the fake.

``/addbot [level]`` seats one before the start; after every reply that changed a table the bot
lets the seated computer players move in a task (never inside the interaction's answer) and posts
each of their moves in the channel like a person's: narration, the next person mentioned, the
board PNG and that person's components. A restart with a computer player to act makes it move.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.adapters import default_registry
from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.seats import bot_level
from bot.service import HostService
from bot.storage import Storage
from tests.fakediscord import FakeDiscord, Message
from tests.test_discord_e2e import action_text, offered, press, refused, slash_move

SEED = 5


class Host:
    """The bot over a service over one database file, with computer players moving at ``pause``."""

    def __init__(self, fd: FakeDiscord, path: Path, pause: float = 0.0, **service_kw) -> None:
        self.fd, self.path, self.pause, self.kw = fd, path, pause, service_kw
        self.store: Storage | None = None
        self.svc: HostService | None = None
        self.bot: MeadhallBot | None = None

    async def start(self, pause: float | None = None) -> MeadhallBot:
        self.store = await Storage.open(self.path)
        self.svc = HostService(self.store, default_registry(), seed_source=lambda: SEED, **self.kw)
        await self.svc.load()
        self.bot = MeadhallBot(Config(dev_guild=self.fd.guild_id, database=self.path), self.svc,
                               bot_pause=self.pause if pause is None else pause)
        await self.fd.start_bot(self.bot)
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.fd.stop_bot(self.bot)
        if self.store is not None:
            await self.store.close()
        self.bot = self.store = None

    async def table(self):
        return await self.svc.table(str(self.fd.channel.id))


@pytest.fixture
async def host(fd, tmp_path):
    host = Host(fd, tmp_path / "bots.db")
    await host.start()
    yield host
    await host.stop()


def since(fd: FakeDiscord, after: int) -> list[Message]:
    """Every message (public or ephemeral) created after the message id ``after``."""
    return [m for m in fd.messages(ephemeral=None) if m.id > after]


def answer(r) -> Message:
    """The public message an interaction itself created (not what was posted in the channel meanwhile)."""
    return [m for m in r.messages if m.public][-1]


def assert_bot_move(msg: Message, human: int) -> None:
    """A computer player's move, posted in the channel like a person's."""
    assert msg.public and msg.origin == "channel" and "(computer, random)" in msg.content
    [png] = msg.attachments
    assert png.is_png and png.size > 10_000
    if msg.pinged:  # the person to act next is mentioned, pinged, and gets the components
        assert msg.pinged == [human] and f"<@{human}>: " in msg.content
        assert msg.custom_ids or "slash command" in msg.content
    else:  # the computer player acts again or the game ended: nothing to press
        assert msg.custom_ids == []


async def test_a_person_plays_vikings_against_a_random_computer_player(fd, host):
    alice = fd.users["alice"].id
    await fd.slash("alice", "join", {"game": "vikings"})
    r = await fd.slash("alice", "addbot", {"level": "random"})
    [seated] = r.public_messages
    assert "Ragnar (computer, random) joins the table (2/4 seats)" in seated.content and not r.ephemeral
    r = await fd.slash("alice", "start")
    assert r.response_time < 3 and r.public_messages[0].content.startswith("Vikings begins")
    last = answer(r).id

    rng = random.Random(SEED)
    human_moves = bot_posts = 0
    while True:
        await host.bot.bots_idle()
        for msg in since(fd, last):
            assert_bot_move(msg, alice)
            bot_posts += 1
        msg = fd.last_message()
        last = msg.id
        if "Final standings" in msg.content:
            break
        assert msg.pinged == [alice], msg.content  # the computer player never leaves its move waiting
        kind, cid, value = rng.choice(offered(msg))
        if human_moves % 4 == 3:  # now and then typed, with the autocomplete's choices
            r = await slash_move(fd, "alice", action_text(kind, cid, value))
        else:
            r = await press(fd, "alice", kind, cid, value, msg)
        assert r.response_time < 3 and r.ephemeral_messages == [], r.text
        mine = answer(r)  # the answer to alice's own move
        assert mine.attachments[0].is_png
        last = mine.id
        human_moves += 1
        assert human_moves < 300
    assert human_moves > 15 and bot_posts > 15, (human_moves, bot_posts)
    assert "Game over" in msg.content and msg.custom_ids == []
    assert await host.table() is None  # finished and stored
    log = (await fd.slash("alice", "export")).files[0].data.decode()
    assert log.count("\n") > human_moves + bot_posts


async def test_addbot_refusals_are_private(fd, host):
    await refused(await fd.slash("alice", "addbot"), "no table")
    r = await fd.slash("alice", "help")  # how to find it
    assert r.ephemeral and "/addbot LEVEL seats a computer player" in r.text
    await fd.slash("alice", "join", {"game": "vikings"})
    await refused(await fd.slash("carol", "addbot"), "Only a player")
    await refused(await fd.slash("alice", "addbot", {"level": "genius"}), "no computer level", "random, heuristic")
    choices = await fd.autocomplete("alice", "addbot", focused="level", value="")
    assert [c["value"] for c in choices] == ["random", "heuristic", "search"]
    assert [c["value"] for c in await fd.autocomplete("alice", "addbot", focused="level", value="heu")] == [
        "heuristic"]
    r = await fd.slash("alice", "addbot")  # the default level
    assert "(computer, heuristic)" in r.public_messages[0].content
    await fd.slash("bob", "join")
    await fd.slash("bob", "addbot", {"level": "RANDOM"})
    table = await host.table()
    assert [bot_level(s.user) for s in table.record.seats] == [None, "heuristic", None, "random"]
    assert len({s.name for s in table.record.seats}) == 4
    await refused(await fd.slash("alice", "addbot", {"level": "random"}), "full (4 seats)")
    r = await fd.slash("bob", "start")
    assert r.public_messages[0].content.startswith("Vikings begins")
    await refused(await fd.slash("bob", "addbot", {"level": "random"}), "already started")
    await host.bot.bots_idle()
    table = await host.table()
    assert len(table.record.seats) == 4
    assert all(bot_level(table.record.seats[s].user) is None for s in table.game.acting_seats())


async def test_a_computer_player_to_act_moves_after_a_restart_and_never_delays_the_answer(fd, tmp_path):
    host = Host(fd, tmp_path / "restart.db", pause=30.0)  # people would read for a while
    await host.start()
    try:
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("alice", "addbot", {"level": "random"})
        msg = answer(await fd.slash("alice", "start"))
        while msg.pinged == [fd.users["alice"].id]:  # alice moves until the computer player must act
            kind, cid, value = offered(msg)[0]
            r = await press(fd, "alice", kind, cid, value, msg)
            assert r.response_time < 3
            msg = answer(r)
        table = await host.table()
        version = table.record.version
        assert bot_level(table.record.seats[table.game.acting_seats()[0]].user) == "random"
        await asyncio.sleep(0.2)
        assert since(fd, msg.id) == [] and (await host.table()).record.version == version  # still pausing
        await host.stop()  # the process ends while the computer player waits
        await host.start(pause=0.0)
        await host.bot.bots_idle()
        moved = since(fd, msg.id)
        assert moved and (await host.table()).record.version > version
        for m in moved:
            assert_bot_move(m, fd.users["alice"].id)
        assert fd.last_message().pinged == [fd.users["alice"].id]
    finally:
        await host.stop()


async def test_a_reminder_due_for_a_computer_player_is_never_posted(fd, tmp_path):
    host = Host(fd, tmp_path / "remind.db", pause=1.0, reminder_delay=0.2, reminder_limit=1)
    await host.start()
    try:
        host.bot.reminder_poll = 0.05
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("alice", "addbot", {"level": "random"})
        msg = answer(await fd.slash("alice", "start"))
        while msg.pinged == [fd.users["alice"].id]:
            kind, cid, value = offered(msg)[0]
            msg = answer(await press(fd, "alice", kind, cid, value, msg))
        first = msg.id
        await host.bot.bots_idle()  # its reminder fell due while it paused: it moved, nobody was reminded
        posted = since(fd, first)
        assert any("(computer, random)" in m.content and m.attachments for m in posted)
        assert not any(m.content.startswith("@Ragnar") or "Reminder" in m.content and not m.pinged
                       for m in fd.messages())
        reminder = await fd.wait_for_message(lambda m: "Reminder" in m.content, after=first, timeout=5)
        assert reminder.pinged == [fd.users["alice"].id]  # a person is reminded as before
    finally:
        await host.stop()
