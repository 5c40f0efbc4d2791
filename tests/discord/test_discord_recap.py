"""Issue 25 on Discord: ``/records recap ID`` posts a finished game of this server as an animated
picture; an unknown game, another server's and one still running are refused privately, nothing
posted. (The recap posted at a game's end: the whole-game test, tests/discord/test_discord_e2e.py.)"""

from __future__ import annotations

import io

from PIL import Image

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from tests.discord.test_discord_e2e import refused
from tests.fakediscord import FakeDiscord


async def _finish(svc: HostService, channel: str, guild: str) -> int:
    """A 3-player Brian Boru game in ``channel`` of ``guild``, each seat taking its first legal move."""
    for i, user in enumerate(("ann", "ben", "cid")):
        assert (await svc.join(channel, user, user.title(), guild=guild, game="brian-boru" if i == 0 else None)).ok
    started = await svc.start(channel, "ann", "brian-boru", [], seed=4, start_seat=0)
    assert started.ok, started.private
    while (table := await svc.table(channel)) is not None:
        seat = table.game.acting_seats()[0]
        r = await svc.act(channel, table.record.seats[seat].user, str(table.game.legal_actions(seat)[0]))
        assert r.ok, r.private
    return started.match_id


async def test_records_recap_posts_an_animated_picture_of_a_finished_game(tmp_path):
    async with FakeDiscord() as fd:
        store = await Storage.open(tmp_path / "recap.db")
        svc = HostService(store, default_registry(), seed_source=lambda: 3, images=False)
        done = await _finish(svc, "5001", str(fd.guild_id))
        elsewhere = await _finish(svc, "6001", "424242")  # another server's game
        svc.images = True
        bot = MeadhallBot(Config(dev_guild=fd.guild_id), svc)
        await fd.start_bot(bot)
        try:
            # the id is offered: this server's finished games only
            offered = await fd.autocomplete("carol", "records recap", focused="id", value="")
            assert [c["value"] for c in offered] == [done] and "Brian Boru" in offered[0]["name"], offered
            r = await fd.slash("carol", "records recap", {"id": done}, timeout=90)
            [msg] = r.public_messages  # drawing takes seconds: the answer is deferred, the recap public
            assert f"whole game {done}" in msg.content and msg.visible_to is None, r.text
            [att] = msg.attachments
            assert att.filename == f"meadhall-brian-boru-{done}-recap.webp" and att.size <= 8 * 1024 * 1024
            img = Image.open(io.BytesIO(att.data))
            assert img.format == "WEBP" and img.is_animated and img.n_frames > 10
            # refused privately, nothing posted: unknown, another server's, still running
            await refused(await fd.slash("carol", "records recap", {"id": 999}), "There is no finished game 999.")
            await refused(await fd.slash("carol", "records recap", {"id": elsewhere}),
                          f"There is no finished game {elsewhere}.")
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("bob", "join")
            await fd.slash("bob", "start")
            [thread] = fd.threads_of("general")
            running = (await svc.table(str(thread.id))).record.id
            assert (await store.get_match(running)).status == "active"
            await refused(await fd.slash("carol", "records recap", {"id": running}),
                          f"There is no finished game {running}.")
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_records_recap_animated_refuses_a_game_without_pictures(tmp_path):
    async with FakeDiscord() as fd:
        store = await Storage.open(tmp_path / "recap.db")
        svc = HostService(store, default_registry(), seed_source=lambda: 3, images=False)
        done = await _finish(svc, "5001", str(fd.guild_id))
        bot = MeadhallBot(Config(dev_guild=fd.guild_id), svc)
        await fd.start_bot(bot)
        try:  # a host with pictures off has no recap to give: it says so, privately
            await refused(await fd.slash("carol", "records recap", {"id": done}), f"Game {done} has no pictures")
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []
