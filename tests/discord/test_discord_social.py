"""Issue 25 through the fake Discord: turn times (``/table status``, ``/records profile``,
``/records history``) on the fake's clock, the per-person ping setting (``/table settings``) honoured
by the turn notifications, and a finished game's thread archived after its result line.

The host's clock is the fake's (``fd.wall_clock``): ``fd.advance`` moves both, so a turn of three
hours lasts three hours to the bot. The toy game (tests/toygame.py) keeps games short."""

from __future__ import annotations

import asyncio

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.games import GameRegistry
from bot.host.service import HostService
from bot.storage import PlayerSettings, Storage
from tests.discord.test_discord_e2e import Host
from tests.discord.test_threads_alive import archived_updates
from tests.fakediscord import FakeDiscord
from tests.toygame import ToyAdapter

HOUR = 3600.0
MIN = 60.0
JITTER = 20.0  # seconds added to every wait: the real time the test itself takes never shows


class ToyHost(Host):
    """The e2e tests' Host with the toy game, on the fake's clock; reminders sent by the test."""

    def __init__(self, fd: FakeDiscord, path, **kw) -> None:
        super().__init__(fd, path, seed=3, clock=fd.wall_clock, **kw)
        self.bot_kw = {"bot_pause": 0.0, "reminder_poll": 3600.0}

    async def start(self) -> MeadhallBot:
        self.store = await Storage.open(self.path)
        self.svc = HostService(self.store, GameRegistry([ToyAdapter()]), seed_source=lambda: self.seed, **self.kw)
        await self.svc.load()
        self.bot = MeadhallBot(Config(dev_guild=self.fd.guild_id, database=self.path), self.svc, **self.bot_kw)
        await self.fd.start_bot(self.bot)
        await self.bot.bots_idle()
        return self.bot


def name_of(fd: FakeDiscord, uid: str) -> str:
    return next(n for n, u in fd.users.items() if str(u.id) == uid)


async def toy_thread(fd: FakeDiscord, *players: str, options: str = "pile=5 max=2"):
    for user in players:
        await fd.slash(user, "join", {"game": "toy"})
    await fd.slash(players[0], "start", {"options": options})
    [thread] = fd.threads_of("general")[-1:]
    return thread


async def actor(fd: FakeDiscord, host: ToyHost, thread) -> str | None:
    table = await host.svc.table(str(thread.id))
    if table is None or table.game is None:
        return None
    [seat] = table.game.acting_seats()
    return name_of(fd, table.record.seats[seat].user)


async def take(fd: FakeDiscord, host: ToyHost, thread, who: str) -> None:
    before = (await host.svc.table(str(thread.id))).record.version
    r = await fd.slash(who, "move", {"choice": "take 1"}, channel=thread)
    table = await host.svc.table(str(thread.id))
    assert table is None or table.record.version == before + 1, r.text


# ----------------------------------------------------------------------------- turn times


async def test_turn_time_status_profile_and_history_on_the_fake_clock(tmp_path):
    """/table status says how long the table has waited for whom; at the end /records profile
    gives each person's median and longest time per turn, /records history each game's."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = ToyHost(fd, tmp_path / "turns.db")
        await host.start()
        try:
            thread = await toy_thread(fd, "alice", "bob")
            first = await actor(fd, host, thread)
            second = "bob" if first == "alice" else "alice"
            r = await fd.slash("carol", "table status", channel=thread)
            assert "Waiting for" not in r.text, r.text  # a wait of seconds is no news
            await fd.advance(3 * HOUR + 12 * MIN + JITTER)
            r = await fd.slash("carol", "table status", channel=thread)  # anyone may look
            assert f"Waiting for {first} for 3 hours 12 minutes." in r.text, r.text
            # five takes of one stone: first, second, first, second, first (who takes the last wins)
            waits = {first: [3 * HOUR + 12 * MIN, HOUR, 20 * MIN], second: [2 * HOUR, 4 * HOUR]}
            await take(fd, host, thread, first)
            for who, wait in [(second, 2 * HOUR), (first, HOUR), (second, 4 * HOUR), (first, 20 * MIN)]:
                await fd.advance(wait + JITTER)
                r = await fd.slash("carol", "table status", channel=thread)
                assert f"Waiting for {who} for " in r.text and f"Waiting for {'alice' if who == 'bob' else 'bob'}" \
                    not in r.text, r.text
                await take(fd, host, thread, who)
            assert await host.svc.table(str(thread.id)) is None  # the game is over
            assert len(waits[first]) == 3
            r = await fd.slash(first, "records profile", channel="general")
            assert "time per turn: median 1 hour, longest 3 hours 12 minutes (3 turns)" in r.text, r.text
            r = await fd.slash(first, "records profile", {"member": second}, channel="general")
            assert "time per turn: median 3 hours, longest 4 hours (2 turns)" in r.text, r.text
            r = await fd.slash("carol", "records history", channel="general")
            assert (f"time per turn: {first}: median 1 hour, longest 3 hours 12 minutes; "
                    f"{second}: median 3 hours, longest 4 hours") in r.text, r.text
        finally:
            await host.stop()


async def test_turn_time_status_names_no_computer_player(tmp_path):
    """A computer player's turn is no person's wait: /table status names only people (Vikings,
    alice and a computer player, which moves at once)."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = Host(fd, tmp_path / "bots.db", clock=fd.wall_clock)
        host.bot_kw = {"bot_pause": 0.0, "reminder_poll": 3600.0}
        await host.start()
        try:
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("alice", "table addbot", {"level": "random"})
            await fd.slash("alice", "start")
            [thread] = fd.threads_of("general")
            await host.bot.bots_idle()
            table = await host.svc.table(str(thread.id))
            assert [table.record.seats[s].user for s in table.game.acting_seats()] == [str(fd.users["alice"].id)]
            await fd.advance(2 * HOUR + JITTER)
            r = await fd.slash("alice", "table status", channel=thread)
            assert "Waiting for alice for 2 hours." in r.text and r.text.count("Waiting for") == 1, r.text
        finally:
            await host.stop()


# ----------------------------------------------------------------------------- ping setting


async def test_ping_setting_shown_saved_privately_and_bad_input_changes_nothing(tmp_path):
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = ToyHost(fd, tmp_path / "settings.db")
        await host.start()
        try:
            bob = str(fd.users["bob"].id)
            r = await fd.slash("bob", "table settings")
            assert r.ephemeral and "You are pinged at every turn (the default)." in r.text, r.text
            r = await fd.slash("bob", "table settings", {"pings": "after", "hours": 6})
            assert r.ephemeral and r.public_messages == [], r.text
            assert "Saved. You are pinged for your turn only when you have not acted 6 hours after it began." in r.text
            for bad, words in [({"pings": "after"}, "Give hours"), ({"pings": "after", "hours": 0}, "Give hours"),
                               ({"pings": "after", "hours": 500}, "from 1 to 168"),
                               ({"pings": "reminders", "hours": 3}, "nothing was changed"),
                               ({"hours": 3}, "nothing was changed")]:
                r = await fd.slash("bob", "table settings", bad)
                assert r.ephemeral and words in r.text, (bad, r.text)
                assert await host.store.player_settings([bob]) == {bob: PlayerSettings(bob, "after", 6)}
            refused = await host.svc.settings(bob, "sometimes")  # not a choice Discord would offer
            assert not refused.ok and refused.code == "malformed" and "sometimes" in refused.private[0]
            r = await fd.slash("bob", "table settings", {"pings": "reminders"})
            assert "Saved. You are pinged only by reminders" in r.text
            await host.restart()  # stored durably
            r = await fd.slash("bob", "table settings")
            assert "You are pinged only by reminders" in r.text, r.text
            help_ = await fd.slash("bob", "help")
            assert "/table settings pings:" in str(help_.callback), "reachable from /help"
        finally:
            await host.stop()


async def test_ping_setting_reminders_only_names_the_player_without_pinging(tmp_path):
    """A person who chose "reminders only" is named by their turn's message but not pinged by it
    (allowed_mentions); the other player, by default, is pinged at every turn."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = ToyHost(fd, tmp_path / "quiet.db")
        await host.start()
        try:
            await fd.slash("bob", "table settings", {"pings": "reminders"})
            thread = await toy_thread(fd, "alice", "bob", options="pile=6 max=2")
            alice, bob = fd.users["alice"].id, fd.users["bob"].id
            while (who := await actor(fd, host, thread)) is not None:
                await take(fd, host, thread, who)
                nxt = await actor(fd, host, thread)
                if nxt is None:
                    break
                [live] = [m for m in fd.messages(thread) if m.components and f"<@{fd.users[nxt].id}>" in m.content][-1:]
                if nxt == "bob":
                    assert bob in live.mentions and bob not in live.notified, live
                else:
                    assert alice in live.notified, live
            assert not any(bob in m.notified for m in fd.messages(thread)), "bob was never pinged"
            assert any(alice in m.notified for m in fd.messages(thread))
        finally:
            await host.stop()


async def test_ping_setting_after_n_hours_pings_once_if_the_turn_is_still_theirs(tmp_path):
    """Only after 2 hours: no ping as the turn begins; one ping 2 hours later if it is still their
    turn (a durable timer, which survives a restart); none for a turn they finished in time."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = ToyHost(fd, tmp_path / "later.db")
        await host.start()
        try:
            bob_id = fd.users["bob"].id
            await fd.slash("bob", "table settings", {"pings": "after", "hours": 2})
            thread = await toy_thread(fd, "alice", "bob", options="pile=9 max=2")
            if await actor(fd, host, thread) == "alice":
                await take(fd, host, thread, "alice")
            assert await actor(fd, host, thread) == "bob"

            def pings() -> list:
                return [m for m in fd.messages(thread) if bob_id in m.notified]

            assert pings() == []
            await fd.advance(HOUR)
            await host.bot.send_due_reminders()
            assert pings() == []
            await host.restart()  # the timer is durable
            await fd.advance(HOUR + JITTER)
            assert await host.bot.send_due_reminders() == 1
            [ping] = pings()
            assert "It has been your turn in Take-away for 2 hours" in ping.content, ping.content
            await fd.advance(2 * HOUR)
            assert await host.bot.send_due_reminders() == 0 and len(pings()) == 1  # once per turn
            await take(fd, host, thread, "bob")
            await take(fd, host, thread, "alice")
            await fd.advance(30 * MIN)
            await take(fd, host, thread, "bob")  # in time: no ping for this turn
            await fd.advance(3 * HOUR)
            assert await host.bot.send_due_reminders() == 0 and len(pings()) == 1
        finally:
            await host.stop()


# ----------------------------------------------------------------------------- archive


async def test_archive_finished_thread_after_the_result_line_and_it_stays_archived(tmp_path):
    """threads.mdx: "guilds are capped at a certain number of active threads". The finished game's
    thread is archived (not locked) after the result line in the channel; the keep-alive does not
    bring it back, nor does a restart; its messages are all still there."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = ToyHost(fd, tmp_path / "archive.db")
        await host.start()
        try:
            thread = await toy_thread(fd, "alice", "bob")
            fake_thread = fd.threads[thread.id]
            while (who := await actor(fd, host, thread)) is not None:
                await take(fd, host, thread, who)
            await asyncio.sleep(0.2)
            assert fake_thread.archived and not fake_thread.locked
            assert archived_updates(fd, thread.id) == [True]
            [result] = [m for m in fd.messages("general") if f"<#{thread.id}>" in m.content]
            [patch] = [r for r in fd.find_requests("PATCH", rf"^/channels/{thread.id}$") if r.json.get("archived")]
            posts = fd.find_requests("POST", rf"^/channels/{fd.channel.id}/messages$")
            assert fd.requests.index(posts[-1]) < fd.requests.index(patch), "archived after the result line"
            assert fd.requests.index(patch) == max(fd.requests.index(r) for r in fd.requests
                                                   if r.path.startswith((f"/channels/{thread.id}", "/webhooks"))
                                                   or r.path == f"/channels/{fd.channel.id}/messages")
            assert "won" in result.content.lower() or "winner" in result.content.lower()
            shown = len(fd.messages(thread))
            await fd.advance(8 * 24 * HOUR)
            await host.restart()
            await asyncio.sleep(0.2)
            assert fake_thread.archived and host.bot.keeper.revived == []
            assert not [r for r in fd.find_requests("PATCH", rf"^/channels/{thread.id}$") if r.json.get("archived") is False]
            assert len(fd.messages(thread)) == shown and shown > 0  # still readable
        finally:
            await host.stop()


async def test_archive_abandoned_thread_too_and_unfinished_threads_are_kept(tmp_path):
    """An abandoned game is over too: its thread is archived; a running game's is not."""
    async with FakeDiscord(strict_answer_order=False) as fd:
        host = ToyHost(fd, tmp_path / "abandon.db")
        await host.start()
        try:
            over = await toy_thread(fd, "alice", "bob")
            running = await toy_thread(fd, "carol", "dave") if "dave" in fd.users else None
            await fd.slash("alice", "table abandon", channel=over)
            await asyncio.sleep(0.2)
            assert fd.threads[over.id].archived and not fd.threads[over.id].locked
            if running is not None:
                assert not fd.threads[running.id].archived
        finally:
            await host.stop()


async def test_ping_setting_with_a_database_that_cannot_write_or_read(tmp_path, monkeypatch):
    """A setting that cannot be stored is refused privately (storage_failed) and changes nothing; a
    setting that cannot be read pings as by default: nobody misses a turn for it."""
    from bot.storage import StorageUnavailable

    async with FakeDiscord(strict_answer_order=False) as fd:
        host = ToyHost(fd, tmp_path / "broken.db")
        await host.start()
        try:
            bob = str(fd.users["bob"].id)
            await fd.slash("bob", "table settings", {"pings": "reminders"})

            async def cannot(*_a, **_k):
                raise StorageUnavailable(f"could not write to the database {host.store.path}: disk full", writing=True)

            monkeypatch.setattr(host.store, "set_player_settings", cannot)
            r = await fd.slash("bob", "table settings", {"pings": "every"})
            assert r.ephemeral and r.public_messages == [] and "could not be saved, so nothing changed" in r.text, r.text
            monkeypatch.undo()
            assert await host.store.player_settings([bob]) == {bob: PlayerSettings(bob, "reminders")}

            async def unreadable(*_a, **_k):
                raise StorageUnavailable(f"could not read from the database {host.store.path}", writing=False)

            monkeypatch.setattr(host.store, "player_settings", unreadable)
            thread = await toy_thread(fd, "alice", "bob", options="pile=6 max=2")
            if await actor(fd, host, thread) == "bob":
                await take(fd, host, thread, "bob")
            await take(fd, host, thread, "alice")
            assert any(int(bob) in m.notified for m in fd.messages(thread)), "pinged as by default"
        finally:
            await host.stop()
