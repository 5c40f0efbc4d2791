"""Issue 17 on Discord: /records leaderboard|profile|history, the thread's link kept for them,
and /table undo and /table replace, all through the fake Discord."""

from __future__ import annotations

import asyncio

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.games import GameRegistry
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from tests.discord.test_discord_e2e import refused, usable
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
            assert [c["value"] for c in offered] == ["normal"]  # issue 30: the old name offers its level
            offered = await fd.autocomplete("alice", "table replace", "by", "", {"player": "bob"})
            assert [c["value"] for c in offered] == ["random", "easy", "normal", "hard", "me", "yes"]
            r = await fd.slash("carol", "table replace", {"player": "bob", "by": "yes"})
            assert r.ephemeral and r.public_messages == [], r.text  # no request to vote for
            r = await fd.slash("alice", "table replace", {"player": "bob", "by": "heuristic"})
            assert not r.ephemeral and "1/2" in r.public_messages[0].content, r.text
            assert (await store.get_match(1)).seats[1].user == str(fd.users["bob"].id)
            r = await fd.slash("bob", "table replace", {"player": "bob", "by": "yes"})
            assert "now plays" in r.text, r.text
            assert (await store.get_match(1)).seats[1].user.startswith("bot:normal:")
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_table_undo_with_agreement_through_discord(tmp_path):
    """/table undo: the mover asks, whoever moved since agrees with the button (Vikings)."""
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
            [asked] = r.public_messages
            assert "must agree" in asked.content and asked.pinged == [fd.users[other].id], asked.content
            assert [c["custom_id"] for row in asked.components for c in row["components"]] == [
                f"mh:1:{version}:u:yes", f"mh:1:{version}:u:no"]
            r = await fd.click(other, f"mh:1:{version}:u:yes", message=asked)  # the other player agrees
            assert (await svc.table(key)).game.to_json() == mid, r.text  # the placement (and W2) taken back
            assert not usable(fd.message(asked.id))  # the request's buttons are gone
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def _asked(fd: FakeDiscord, svc: HostService, store: Storage) -> tuple[str, str, int]:
    """A Vikings table in the channel where the first player's undo waits for the other's agreement:
    (asker, who must agree, the table's version); the request's message is the channel's last."""
    await fd.slash("alice", "join", {"game": "vikings"})
    await fd.slash("bob", "join")
    await fd.slash("alice", "start")
    key = str(fd.channel.id)
    who = await _actor(fd, svc, key)
    other = "bob" if who == "alice" else "alice"
    await _moved(fd, store, who, "buy", {"choice": "1"})
    await _moved(fd, store, who, "move", {"choice": "start W1"})  # W2 forced
    await _moved(fd, store, other, "buy", {"choice": "2"})
    r = await fd.slash(who, "table undo")
    [asked] = r.public_messages
    assert "must agree" in asked.content, r.text
    return who, other, (await store.get_match(1)).version


async def test_undo_buttons_refuse_strangers_the_asker_and_stale_presses(tmp_path):
    """Only who must agree may press (others are refused privately); a press after the table moved
    is stale; refusing clears the request, pings the asker and strips the buttons."""
    async with FakeDiscord() as fd:
        bot, svc, store = await _start(fd, tmp_path, threads=False, registry=default_registry())
        try:
            who, other, version = await _asked(fd, svc, store)
            asked = fd.last_message()
            rec = await store.get_match(1)
            for user in ("carol", who):  # not seated; the asker agreeing to their own request
                r = await fd.click(user, f"mh:1:{version}:u:yes", message=asked)
                await refused(r, "not a player" if user == "carol" else "Only")
            assert await store.get_match(1) == rec and usable(fd.message(asked.id))
            r = await fd.click(other, f"mh:1:{version}:u:no", message=asked)  # refused: the move stands
            [told] = r.public_messages
            assert "refuses" in told.content and told.pinged == [fd.users[who].id], told.content
            assert not usable(fd.message(asked.id))
            after = await store.get_match(1)
            assert after.version == version and "undo" not in after.options["host"]
            # a new request, then the table moves on: its buttons are stale and change nothing
            r = await fd.slash(who, "table undo")
            [again] = r.public_messages
            table = await svc.table(str(fd.channel.id))
            [seat] = table.game.acting_seats()
            action = str(table.game.legal_actions(seat)[0])
            assert (await svc.act(str(fd.channel.id), table.record.seats[seat].user, action)).ok
            moved = await store.get_match(1)
            r = await fd.click(other, f"mh:1:{version}:u:yes", message=again)
            await refused(r, "changed since")
            assert await store.get_match(1) == moved
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_undo_button_after_a_restart_and_a_double_click_applies_once(tmp_path):
    """The request and its buttons survive a restart of the bot (stored with the table; persistent
    components); two clicks of "Agree" apply the undo once, the second is stale."""
    async with FakeDiscord() as fd:
        bot, svc, store = await _start(fd, tmp_path, threads=False, registry=default_registry())
        try:
            who, other, version = await _asked(fd, svc, store)
            asked = fd.last_message()
        finally:
            await fd.stop_bot(bot)
            await store.close()
        bot, svc, store = await _start(fd, tmp_path, threads=False, registry=default_registry())
        try:
            clicks = await asyncio.gather(*(fd.click(other, f"mh:1:{version}:u:yes", message=asked)
                                             for _i in range(2)))  # a double click: both sent at once
            assert (await store.get_match(1)).version == version + 1, [c.text for c in clicks]
            stale = [c for c in clicks if "changed since" in c.text]
            assert len(stale) == 1, [c.text for c in clicks]
            await refused(stale[0], "changed since")
            assert not usable(fd.message(asked.id))
            assert [a.action for a in await store.actions(1)].count("#undo 3") == 1
            assert (await store.get_match(1)).version == version + 1
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []
