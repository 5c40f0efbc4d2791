"""Issue 11 through the real discord.py client and the fake Discord: names are escaped in public
messages, /export answers only the asker and hides the seed of a running game, and three players
keeping cards in the same moment of a Brian Boru draft are all accepted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from tests.discord.test_discord_brianboru import choices_on
from tests.fakediscord import FakeDiscord

SEED = 3
USERS = ("alice", "bob", "carol")


@pytest.fixture
async def host(tmp_path: Path):
    async with FakeDiscord(lifetime=120) as fd:
        store = await Storage.open(tmp_path / "trust.db")
        svc = HostService(store, default_registry(), seed_source=lambda: SEED, images=False)
        bot = MeadhallBot(Config(dev_guild=fd.guild_id, database=tmp_path / "trust.db", threads=False), svc,
                          bot_pause=0.0)
        try:
            await fd.start_bot(bot)
            yield fd, svc
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []
        fd.assert_schema_clean()  # the escaped names and private exports are valid requests too


async def draft_table(fd: FakeDiscord, svc: HostService) -> str:
    """Three people at a Brian Boru table, the start discs placed: everybody keeps cards now."""
    for user in USERS:
        assert (await fd.slash(user, "join", {"game": "brian-boru"})).public_messages
    await fd.slash("alice", "start")
    channel = str(fd.channel.id)
    while True:
        table = await svc.table(channel)
        game = table.game
        if game.s["pending"]["kind"] == "keep":
            return channel
        seat = game.acting_seats()[0]
        assert (await svc.act(channel, table.record.seats[seat].user, str(game.legal_actions(seat)[0]))).ok


async def test_three_players_keeping_at_the_same_moment_are_all_accepted_B14(host):
    fd, svc = host
    channel = await draft_table(fd, svc)
    hands = {}
    for user in USERS:  # each opens their own choices (one ephemeral message at the same version)
        [mine] = (await fd.slash(user, "hand")).ephemeral_messages
        hands[user] = mine
    picks = {user: choices_on(hands[user])[0] for user in USERS}
    results = await asyncio.gather(*(fd.select(user, cid, values, message=hands[user])
                                     for user, (_kind, cid, values) in picks.items()))
    for user, r in zip(USERS, results, strict=True):
        # no "the table has changed"; a choice made while another is published is answered first by a
        # private defer, then "Done." (issue 24: nothing of ours goes before an interaction's answer)
        assert [m.content for m in r.ephemeral_messages] in ([], ["Done."]), (user, r.text)
        # issue 13: the draft is one status message, edited as each player keeps
        assert any(f"{user} has chosen two cards." in m.content for m in fd.messages()), user
    assert (await svc.table(channel)).record.version >= 6  # 3 start discs + 3 kept pairs


async def test_export_answers_only_the_asker_and_hides_the_seed_while_playing(host):
    fd, svc = host
    await draft_table(fd, svc)
    r = await fd.slash("bob", "table export")
    assert r.public_messages == [] and len(r.ephemeral_messages) == 1
    text = r.ephemeral_messages[0].attachments[0].data.decode()
    assert f"# seed: {SEED} " not in text and "# seed: hidden until the game is over" in text


async def test_names_cannot_format_or_mention_in_public_messages(host):
    fd, svc = host
    carol = fd.users["carol"]
    fd.users["alice"].global_name = "# Big Boss"
    fd.users["bob"].global_name = f"<@{carol.id}> ||x||"
    r = await fd.slash("alice", "join", {"game": "brian-boru"})
    [msg] = r.public_messages
    assert msg.content.startswith("\\# Big Boss opens a table"), msg.content
    r = await fd.slash("bob", "join")
    [msg] = r.public_messages
    assert f"<@{carol.id}>" not in msg.content and "\\|\\|x\\|\\|" in msg.content, msg.content
    assert msg.pinged == []
    await fd.slash("carol", "join")
    r = await fd.slash("alice", "start")
    board = r.public_messages[-1]
    assert "\\# Big Boss" in board.content and f"<@{carol.id}> ||" not in board.content
    acting = {fd.users[u].id for u in USERS} & set(board.pinged)
    assert len(acting) == 1 and f"<@{acting.pop()}>: place" in board.content  # the real mention stays
