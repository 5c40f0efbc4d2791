"""Slow games live (issue 24): a running game's thread is kept usable, and the slash commands are
synced once per deployment. Through the fake Discord's clock (tests/fakediscord: threads archive
after ``auto_archive_duration`` minutes without a message, THREAD_UPDATE, 50083 for edits in an
archived thread, locked threads) and discord.py's real client.

The thread tests turn ``strict_answer_order`` off: the answer order of the publishing path is
another branch's work (issue 24, publish) and not what these tests are about.
"""

from __future__ import annotations

import asyncio
import logging
import time

import discord
import pytest
from discord import app_commands

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.discord.sync import command_payload, digest, meta_key
from bot.discord.threads import ARCHIVE_MINUTES, unarchived
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from tests.discord.test_discord_e2e import Host, offered, open_thread, press, usable, user_of
from tests.discord.test_fake_rules import open_thread as open_rule_thread
from tests.discord.test_fake_rules import started
from tests.fakediscord import FakeDiscord, ThreadArchived


async def wait_until(predicate, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.01)


async def game_in_a_thread(fd: FakeDiscord):
    for user in ("alice", "bob"):
        await fd.slash(user, "join", {"game": "vikings"})
    _r, thread, first = await open_thread(fd, "alice")
    return thread, fd.threads[thread.id], first


async def one_move(fd: FakeDiscord, host: Host, thread) -> None:
    """The player to act presses the first choice of the live message; the table moves on."""
    key = str(thread.id)
    before = (await host.svc.table(key)).record.version
    [live] = [m for m in fd.messages(thread) if usable(m)]
    kind, cid, value = offered(live)[0]
    r = await press(fd, user_of(fd, live.notified[0] if live.notified else live.mentions[0]), kind, cid, value, live)
    if r.ephemeral_messages and r.ephemeral_messages[0].custom_ids:  # a confirmation, privately
        await fd.click(r.user.name, r.ephemeral_messages[0].custom_ids[0], message=r.ephemeral_messages[0])
    assert (await host.svc.table(key)).record.version > before


def archived_updates(fd: FakeDiscord, thread_id: int) -> list[bool]:
    return [d["thread_metadata"]["archived"] for e, d in fd.dispatched
            if e == "THREAD_UPDATE" and int(d["id"]) == thread_id]


async def test_the_longest_auto_archive_duration_is_seven_days():
    """openapi.json ThreadAutoArchiveDuration: 60, 1440, 4320, 10080 minutes; 7 days is the longest."""
    assert ARCHIVE_MINUTES == 7 * 24 * 60
    async with FakeDiscord() as fd:
        bot = await started(fd)
        thread, _inside, fake_thread = await open_rule_thread(bot, fd, minutes=ARCHIVE_MINUTES)
        assert fake_thread.auto_archive_duration == ARCHIVE_MINUTES


async def test_a_game_thread_archived_by_discord_is_brought_back_and_played_on(tmp_path):
    """threads.mdx "Active & Archived Threads": the thread archives after its auto_archive_duration
    without a message; the bot gets THREAD_UPDATE and un-archives it (the table is unfinished), so
    a person's click and slash command work a day later."""
    async with FakeDiscord(strict_answer_order=False, lifetime=150) as fd:
        host = Host(fd, tmp_path / "alive.db")
        await host.start()
        try:
            thread, fake_thread, _first = await game_in_a_thread(fd)
            await fd.advance(fake_thread.auto_archive_duration * 60 + 3600)  # a day and more: Discord archives it
            assert archived_updates(fd, thread.id)[:1] == [True]
            await wait_until(lambda: not fake_thread.archived)
            assert archived_updates(fd, thread.id)[-1] is False and host.bot.keeper.revived == [thread.id]
            await one_move(fd, host, thread)
            r = await fd.slash("alice", "table status", channel=thread)
            assert r.callback is not None
            await fd.advance(fake_thread.auto_archive_duration * 60 + 1)  # and again the next day
            await wait_until(lambda: len(host.bot.keeper.revived) == 2 and not fake_thread.archived)
            await one_move(fd, host, thread)
        finally:
            await host.stop()


async def test_a_locked_thread_is_left_locked_and_logged_once(tmp_path, caplog):
    """threads.mdx: "Threads that have locked set to true can only be unarchived by a user with the
    MANAGE_THREADS permission" — a moderator's decision: the bot leaves it and logs it once."""
    caplog.set_level(logging.INFO, logger="bot.discord.threads")
    async with FakeDiscord(strict_answer_order=False, lifetime=150) as fd:
        host = Host(fd, tmp_path / "locked.db")
        await host.start()
        try:
            thread, fake_thread, first = await game_in_a_thread(fd)
            patches = len(fd.find_requests("PATCH", rf"^/channels/{thread.id}$"))
            await fd.archive_thread(thread.id, locked=True)
            await fd.archive_thread(thread.id, locked=True)  # a second THREAD_UPDATE: still one log line
            await asyncio.sleep(0.3)
            assert fake_thread.archived and fake_thread.locked
            assert len(fd.find_requests("PATCH", rf"^/channels/{thread.id}$")) == patches
            assert host.bot.keeper.revived == []
            assert caplog.text.count("locked by a moderator") == 1
            with pytest.raises(ThreadArchived):
                await press(fd, "alice", *offered(first)[0], first)
        finally:
            await host.stop()


async def test_a_finished_tables_thread_stays_archived(tmp_path):
    async with FakeDiscord(strict_answer_order=False, lifetime=150) as fd:
        host = Host(fd, tmp_path / "over.db")
        await host.start()
        try:
            thread, fake_thread, _first = await game_in_a_thread(fd)
            await fd.slash("erik", "table abandon", channel=thread)
            await fd.advance(fake_thread.auto_archive_duration * 60 + 1)
            await asyncio.sleep(0.3)
            assert fake_thread.archived and host.bot.keeper.revived == []
        finally:
            await host.stop()


async def test_threads_that_archived_while_the_bot_was_away_come_back_at_start(tmp_path):
    """GUILD_CREATE lists active threads only (threads.mdx "Gateway Events"): at on_ready the bot
    fetches the thread of every unfinished table it does not see and un-archives it."""
    async with FakeDiscord(strict_answer_order=False, lifetime=150) as fd:
        host = Host(fd, tmp_path / "away.db")
        await host.start()
        try:
            thread, fake_thread, _first = await game_in_a_thread(fd)
            await host.stop()
            await fd.advance(fake_thread.auto_archive_duration * 60 + 1)
            assert fake_thread.archived
            await host.start()
            await host.bot.bots_idle()  # on_ready has looked at every unfinished table
            assert not fake_thread.archived and host.bot.keeper.revived == [thread.id]
            await one_move(fd, host, thread)
        finally:
            await host.stop()


async def test_an_edit_refused_50083_is_retried_once_after_un_archiving():
    """opcodes-and-status-codes.mdx 50083 "Tried to perform an operation on an archived thread,
    such as editing a message": ``unarchived`` un-archives the thread (threads.mdx "Editing &
    Deleting Threads") and edits again; a locked thread's refusal stays."""
    async with FakeDiscord() as fd:
        bot = await started(fd)
        thread, inside, fake_thread = await open_rule_thread(bot, fd)
        await fd.archive_thread(thread.id)
        with pytest.raises(discord.HTTPException) as e:
            await inside.edit(content="refused")
        assert e.value.code == 50083
        edited = await unarchived(thread, lambda: inside.edit(content="edited"))
        assert edited.content == "edited" and not fake_thread.archived
        # a PartialMessageable (what the bot has for an uncached thread) works the same way
        await fd.archive_thread(thread.id)
        partial = bot.get_partial_messageable(thread.id)
        await unarchived(partial, lambda: partial.get_partial_message(inside.id).edit(content="again"))
        assert fd.message(inside.id).content == "again" and not fake_thread.archived
        calls = 0

        async def edit():
            nonlocal calls
            calls += 1
            return await inside.edit(content="never")

        await fd.archive_thread(thread.id, locked=True)
        with pytest.raises(discord.HTTPException) as e:
            await unarchived(thread, edit)
        assert e.value.code == 50083 and calls == 1 and fake_thread.archived


# ------------------------------------------------------------------ commands synced once per deployment
@pytest.fixture
async def svc(tmp_path):
    """One database for every start of the bot (a given service: the starts skip opening their own)."""
    async with await Storage.open(tmp_path / "sync.db") as store:
        yield HostService(store, default_registry())


def sync_bot(fd: FakeDiscord, svc: HostService, **kw) -> MeadhallBot:
    return MeadhallBot(Config(dev_guild=fd.guild_id, database=svc.storage.path, reminder_delay=None), svc, **kw)


async def test_commands_are_synced_once_per_deployment_not_at_every_start(fd, svc):
    """opcodes-and-status-codes.mdx 30034: application command creates are capped per day. Two
    restarts on one database sync once; a changed command tree syncs again; ``force_sync``
    (``--sync-commands``) syncs whatever the hash says; ``sync_global`` keeps its meaning."""
    for _start in range(3):
        bot = sync_bot(fd, svc)
        await fd.start_bot(bot)
        await fd.stop_bot(bot)
    assert [g for g, _ in fd.sync_log] == [fd.guild_id]
    bot = sync_bot(fd, svc)

    @app_commands.command(name="ping", description="A new command of the next deployment")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    bot.tree.add_command(ping)
    await fd.start_bot(bot)
    assert [g for g, _ in fd.sync_log] == [fd.guild_id] * 2 and "ping" in {c["name"] for c in fd.synced()}
    payload = await command_payload(bot.tree, discord.Object(fd.guild_id))
    assert {c["name"] for c in payload} == {c["name"] for c in fd.sync_log[-1][1]}
    stored = await bot.service.storage.get_meta(meta_key(bot.application_id, discord.Object(fd.guild_id)))
    assert stored == digest(payload)
    await fd.stop_bot(bot)
    bot = sync_bot(fd, svc, force_sync=True)
    await fd.start_bot(bot)
    await fd.stop_bot(bot)
    assert len(fd.sync_log) == 3
    for _start in range(2):  # globally: once, then only when the commands change
        bot = sync_bot(fd, svc, sync_global=True)
        await fd.start_bot(bot)
        await fd.stop_bot(bot)
    assert [g for g, _ in fd.sync_log] == [fd.guild_id] * 3 + [None]
