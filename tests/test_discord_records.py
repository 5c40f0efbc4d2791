"""Issue 17 on Discord: /records leaderboard|profile|history, the thread's link kept for them,
and /table undo and /table replace, all through the fake Discord."""

from __future__ import annotations

from bot.adapters import default_registry
from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.games import GameRegistry
from bot.service import HostService
from bot.storage import Storage
from tests.fakediscord import FakeDiscord
from tests.toygame import ToyAdapter


async def _start(fd: FakeDiscord, tmp_path, threads: bool = True, registry: GameRegistry | None = None):
    store = await Storage.open(tmp_path / "records.db")
    svc = HostService(store, registry or GameRegistry([ToyAdapter()]), seed_source=lambda: 3)
    bot = MeadhallBot(Config(dev_guild=fd.guild_id, threads=threads), svc)
    await fd.start_bot(bot)
    return bot, svc, store


async def _actor(fd: FakeDiscord, svc: HostService, key: str) -> str:
    table = await svc.table(key)
    [seat] = table.game.acting_seats()
    uid = int(table.record.seats[seat].user)
    return next(n for n, u in fd.users.items() if u.id == uid)


async def _moved(fd: FakeDiscord, store: Storage, user: str, command: str, options: dict) -> None:
    before = (await store.get_match(1)).version
    r = await fd.slash(user, command, options)
    assert (await store.get_match(1)).version > before, r.text


async def test_records_undo_and_thread_link_through_discord(tmp_path):
    async with FakeDiscord() as fd:
        bot, svc, store = await _start(fd, tmp_path)
        try:
            await fd.slash("alice", "join", {"game": "toy"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start", {"options": "pile=5 max=2"})
            [thread] = fd.threads_of("general")
            key = str(thread.id)
            link = f"/channels/{fd.guild_id}/{thread.id}"
            assert link in (await store.get_match(1)).link  # the cog recorded the thread's jump URL
            # /table undo refused privately when the move cannot be taken back; nothing changes
            who = await _actor(fd, svc, key)
            assert not (await fd.slash(who, "move", {"choice": "take 1"}, channel=thread)).ephemeral
            version = (await store.get_match(1)).version
            r = await fd.slash(who, "table undo", channel=thread)
            assert r.ephemeral and r.public_messages == [] and "cannot be taken back" in r.text, r.text
            assert (await store.get_match(1)).version == version
            while await svc.table(key) is not None:
                who = await _actor(fd, svc, key)
                await fd.slash(who, "move", {"choice": "take 1"}, channel=thread)
            # /records history and profile link to the thread, publicly in the channel
            r = await fd.slash("carol", "records history")
            [msg, *_] = r.public_messages
            assert "Finished games:" in msg.content and link in msg.content and not r.ephemeral
            r = await fd.slash("carol", "records profile", {"member": "alice"})
            text = "\n".join(m.content for m in r.public_messages)
            assert "Profile of alice" in text and link in text, text
            r = await fd.slash("alice", "records profile")  # default: yourself
            assert "Profile of alice" in r.public_messages[0].content
            r = await fd.slash("carol", "records leaderboard", {"game": "toy", "scope": "server"})
            assert "leaderboard, this server" in r.public_messages[0].content
            assert "alice" in r.public_messages[0].content and "bob" in r.public_messages[0].content
            assert any(a.is_png for m in r.public_messages for a in m.attachments)
            r = await fd.slash("carol", "records leaderboard", {"scope": "all"})
            assert "all servers" in r.public_messages[0].content
            # refusals privately, nothing posted
            r = await fd.slash("carol", "records profile", {"member": "carol"})
            assert r.ephemeral and r.public_messages == [] and "has not finished" in r.text, r.text
            r = await fd.slash("carol", "records leaderboard", {"game": "nope"})
            assert r.ephemeral and r.public_messages == [], r.text
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_table_replace_vote_through_discord(tmp_path):
    async with FakeDiscord() as fd:
        bot, svc, store = await _start(fd, tmp_path, threads=False)
        try:
            await fd.slash("alice", "join", {"game": "toy"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start", {"options": "pile=9"})
            offered = await fd.autocomplete("alice", "table replace", "by", "he", {"player": "bob"})
            assert [c["value"] for c in offered] == ["heuristic"]
            r = await fd.slash("carol", "table replace", {"player": "bob", "by": "yes"})
            assert r.ephemeral and r.public_messages == [], r.text  # no request to vote for
            r = await fd.slash("alice", "table replace", {"player": "bob", "by": "heuristic"})
            assert not r.ephemeral and "1/2" in r.public_messages[0].content, r.text
            assert (await store.get_match(1)).seats[1].user == str(fd.users["bob"].id)
            r = await fd.slash("bob", "table replace", {"player": "bob", "by": "yes"})
            assert "now plays" in r.text, r.text
            assert (await store.get_match(1)).seats[1].user.startswith("bot:heuristic")
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_table_undo_with_agreement_through_discord(tmp_path):
    """/table undo: the mover asks, whoever moved since agrees by running it too (Vikings)."""
    async with FakeDiscord() as fd:
        bot, svc, store = await _start(fd, tmp_path, threads=False, registry=default_registry())
        try:
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("bob", "join")
            await fd.slash("alice", "start")
            key = str(fd.channel.id)
            who = await _actor(fd, svc, key)
            before = (await svc.table(key)).game.to_json()
            r = await fd.slash(who, "buy", {"choice": "1"})
            assert r.text == "Done.", r.text  # a move: the live message shows it
            other = "bob" if who == "alice" else "alice"
            r = await fd.slash(other, "table undo")  # nothing of theirs to take back
            assert r.ephemeral and r.public_messages == [], r.text
            r = await fd.slash(who, "table undo")
            assert (await svc.table(key)).game.to_json() == before, r.text
            assert any("takes back their last move" in m.content for m in fd.messages(fd.channel)), r.text
            # after the other player moved, the mover's undo waits for their agreement
            await _moved(fd, store, who, "buy", {"choice": "1"})
            mid = (await svc.table(key)).game.to_json()
            await _moved(fd, store, who, "move", {"choice": "start W1"})  # W2 forced
            await _moved(fd, store, other, "buy", {"choice": "2"})
            version = (await store.get_match(1)).version
            r = await fd.slash(who, "table undo")
            assert (await store.get_match(1)).version == version, r.text  # nothing changed yet
            *_, asked, ping = fd.messages(fd.channel)
            assert "must agree" in asked.content and ping.pinged == [fd.users[other].id], ping.content
            r = await fd.slash(other, "table undo")  # the other player agrees
            assert (await svc.table(key)).game.to_json() == mid, r.text  # the placement (and W2) taken back
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []
