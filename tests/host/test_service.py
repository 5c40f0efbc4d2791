"""The host service driven the way players use it, with the toy game; plus i18n and config."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import i18n
from bot.config import TOKEN_ENV, Config, ConfigError, load_config
from bot.games import BaseAdapter, GameRegistry, OptionError
from bot.host.service import REFUSALS, HostService, Reply
from bot.i18n import _, catalogs
from bot.storage import Storage
from engine.core import Rng
from tests.toygame import ToyAdapter, ToyGame

ROOT = Path(__file__).resolve().parents[2]
CH = "chan-1"


class Clock:
    def __init__(self, t: float = 1_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Host:
    """A service over one database file that can be closed and reopened (a restart)."""

    def __init__(self, path: Path, clock: Clock, **kw) -> None:
        self.path, self.clock, self.kw = path, clock, kw
        self.adapter = ToyAdapter()
        self.svc: HostService | None = None
        self.store: Storage | None = None

    async def open(self) -> HostService:
        self.store = await Storage.open(self.path)
        self.adapter = ToyAdapter()
        self.svc = HostService(self.store, GameRegistry([self.adapter]), clock=self.clock, **self.kw)
        await self.svc.load()
        return self.svc

    async def close(self) -> None:
        await self.store.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def host(database, clock):
    """A host on SQLite, then on PostgreSQL (the ``database`` fixture, tests/pgserver.py)."""
    h = Host(database, clock)
    await h.open()
    yield h
    await h.close()


@pytest.fixture
def svc(host):
    return host.svc


def refused(reply: Reply, code: str) -> str:
    assert code in REFUSALS
    assert (reply.ok, reply.code) == (False, code), reply
    assert reply.private and not reply.public and reply.image is None
    return reply.private[0]


async def seat(svc: HostService, *names: str, channel: str = CH) -> None:
    for n in names:
        r = await svc.join(channel, n, n.title(), guild="g")
        assert r.ok, r


async def started(svc: HostService, *names: str, seed: int = 7, start_seat: int | None = 0,
                  options: tuple[str, ...] = ("pile=10",), channel: str = CH) -> Reply:
    await seat(svc, *names, channel=channel)
    r = await svc.start(channel, names[0], options=options, seed=seed, start_seat=start_seat)
    assert r.ok, r
    return r


async def to_move(svc: HostService, channel: str = CH) -> str:
    table = await svc.table(channel)
    return table.record.seats[table.game.acting_seats()[0]].user


# ----------------------------------------------------------------------------- lobby


async def test_join_opens_a_table_and_others_take_seats(svc):
    r = await svc.join(CH, "ann", "Ann", guild="g")
    assert r.ok and r.status == "lobby" and r.game == "toy"
    assert r.public == ["Ann opens a table for Take-away (1/4 seats). Others may join; then /start."]
    r = await svc.join(CH, "bob", "Bob")
    assert r.public == ["Bob joins the table (2/4 seats)."]
    table = await svc.table(CH)
    assert table.record.names == ["Ann", "Bob"] and table.record.creator == "ann" and table.game is None


async def test_join_twice_is_refused(svc):
    await seat(svc, "ann")
    assert "already have a seat" in refused(await svc.join(CH, "ann", "Ann"), "already_seated")


async def test_full_table_is_refused(svc):
    await seat(svc, "a", "b", "c", "d")
    assert "full (4 seats)" in refused(await svc.join(CH, "e", "E"), "table_full")
    assert (await svc.table(CH)).record.names == ["A", "B", "C", "D"]


async def test_same_display_name_gets_a_number(svc):
    await svc.join(CH, "u1", "Sven")
    await svc.join(CH, "u2", "Sven")
    assert (await svc.table(CH)).record.names == ["Sven", "Sven (2)"]


async def test_join_an_unknown_game_is_refused(svc):
    msg = refused(await svc.join(CH, "ann", "Ann", game="chess"), "unknown_game")
    assert "chess" in msg and "toy" in msg
    assert await svc.table(CH) is None


async def test_join_naming_another_game_than_the_lobby_is_refused(host, tmp_path):
    class Other(ToyGame):
        GAME_ID = "other"

    class OtherAdapter(ToyAdapter):
        game_cls = Other
        title = "Other"

    host.svc.games.register(OtherAdapter())
    await host.svc.join(CH, "ann", "Ann", game="other")
    assert "Other" in refused(await host.svc.join(CH, "bob", "Bob", game="toy"), "other_game")
    assert (await host.svc.join(CH, "bob", "Bob", game="other")).ok


async def test_join_after_the_start_is_refused(svc):
    await started(svc, "ann", "bob")
    refused(await svc.join(CH, "cat", "Cat"), "already_started")


async def test_leave_before_the_start(svc):
    await seat(svc, "ann", "bob", "cat")
    r = await svc.leave(CH, "bob")
    assert r.public == ["Bob leaves the table (2/4 seats)."]
    assert (await svc.table(CH)).record.names == ["Ann", "Cat"]


async def test_creator_leaving_hands_the_table_on_and_the_last_closes_it(svc):
    await seat(svc, "ann", "bob")
    await svc.leave(CH, "ann")
    assert (await svc.table(CH)).record.creator == "bob"
    r = await svc.leave(CH, "bob")
    assert r.public == ["Bob leaves; no person is left at the table, so it is closed."]
    assert await svc.table(CH) is None
    assert [m.status for m in await svc.history(CH)] == ["abandoned"]
    assert (await svc.join(CH, "cat", "Cat")).ok  # a new table can open


async def test_leave_refusals(svc):
    refused(await svc.leave(CH, "ann"), "no_table")
    await seat(svc, "ann")
    refused(await svc.leave(CH, "zed"), "not_player")
    await seat(svc, "bob")
    await svc.start(CH, "ann", seed=1)
    assert "abandon" in refused(await svc.leave(CH, "bob"), "already_started")
    assert (await svc.table(CH)).record.names == ["Ann", "Bob"]


# ----------------------------------------------------------------------------- start


async def test_start_begins_the_game_and_asks_the_start_player(host):
    svc = host.svc
    await seat(svc, "ann", "bob", "cat")
    r = await svc.start(CH, "bob", options=["pile=10", "max=2"], seed=11, start_seat=1)
    assert r.ok and r.status == "active" and r.version == 0
    assert r.public == ["Take-away begins (max=2, pile=10): Ann, Bob, Cat."]
    assert [(p.user, p.name, p.text) for p in r.prompts] == [("bob", "Bob", "take 1–2 stones")]
    assert r.mentions == ["bob"]
    assert r.image is not None and r.image.data == b"TOY pile=10 turn=1" and r.image.filename.endswith("-0.png")
    assert r.lines() == ["Take-away begins (max=2, pile=10): Ann, Bob, Cat.", "@Bob: take 1–2 stones"]
    rec = (await svc.table(CH)).record
    # the table's language is stored with it (issue 16): the one the start was made in
    assert (rec.seed, rec.options, rec.start_seat) == (11, {"pile": 10, "max": 2, "host": {"language": "en"}}, 1)


async def test_start_draws_the_seed_and_start_player_when_not_given(tmp_path, clock):
    seeds = iter([12345])
    store = await Storage.open(tmp_path / "d.db")
    svc = HostService(store, GameRegistry([ToyAdapter()]), clock=clock, seed_source=lambda: next(seeds))
    await seat(svc, "ann", "bob")
    await svc.start(CH, "ann")
    table = await svc.table(CH)
    assert table.record.seed == 12345 and table.record.start_seat is None
    assert table.game.to_json() == ToyGame.new(["Ann", "Bob"], seed=12345).to_json()
    await store.close()


async def test_start_refusals(svc):
    refused(await svc.start(CH, "ann"), "no_table")
    await seat(svc, "ann")
    assert "at least 2" in refused(await svc.start(CH, "ann"), "too_few_players")
    await seat(svc, "bob")
    refused(await svc.start(CH, "zed"), "not_player")
    refused(await svc.start(CH, "ann", "chess"), "unknown_game")
    assert "pile=N" in refused(await svc.start(CH, "ann", options=["huge"]), "bad_options")
    refused(await svc.start(CH, "ann", start_seat=5), "bad_options")
    assert (await svc.table(CH)).game is None  # nothing changed
    assert (await svc.start(CH, "ann", seed=3)).ok
    refused(await svc.start(CH, "ann", seed=3), "already_started")


async def test_options_the_engine_rejects_are_refused(host):
    class LaxAdapter(ToyAdapter):
        """Passes option words through unchecked, so the engine's own check must catch them."""

        game_cls = type("Lax", (ToyGame,), {"GAME_ID": "lax"})
        title = "Lax"

        def parse_options(self, words):
            return {"pile": int(words[0])} if words else {}

    host.svc.games.register(LaxAdapter())
    await seat(host.svc, "ann", "bob")
    msg = refused(await host.svc.start(CH, "ann", "lax", ["-4"]), "bad_options")
    assert msg == "These options do not work: pile and max must be at least 1"
    assert (await host.svc.table(CH)).game is None


async def test_start_with_too_many_players_for_the_chosen_game(host):
    class Duel(ToyGame):
        GAME_ID = "duel"
        MAX_PLAYERS = 2

    class DuelAdapter(ToyAdapter):
        game_cls = Duel
        title = "Duel"

    host.svc.games.register(DuelAdapter())
    await seat(host.svc, "ann", "bob", "cat")
    assert "at most 2" in refused(await host.svc.start(CH, "ann", "duel"), "too_many_players")
    r = await host.svc.start(CH, "ann", "toy", seed=2)
    assert r.ok and r.game == "toy"


async def test_a_game_with_no_options_refuses_option_words(host):
    class Plain(ToyGame):
        GAME_ID = "plain"

    class PlainAdapter(BaseAdapter):
        game_cls = Plain
        title = "Plain"

    host.svc.games.register(PlainAdapter())
    await seat(host.svc, "ann", "bob")
    assert refused(await host.svc.start(CH, "ann", "plain", ["fast"]), "bad_options") == "Plain has no options."
    r = await host.svc.start(CH, "ann", "plain", seed=4, start_seat=0)
    # the base adapter's defaults: generic prompt listing legal moves, no image
    assert r.prompts[0].text.startswith("your move (take 1, take 2, take 3)") and r.image is None
    assert "basic game" in r.public[0]


# ----------------------------------------------------------------------------- playing


async def test_a_move_is_narrated_committed_and_the_next_player_asked(host):
    svc = host.svc
    await started(svc, "ann", "bob")
    r = await svc.act(CH, "ann", "take 3")
    assert r.ok and r.version == 1
    assert r.public == ["Ann takes 3 (7 left)"]
    assert [e.kind for e in r.events] == ["took"]
    assert r.mentions == ["bob"] and r.prompts[0].text == "take 1–3 stones"
    assert r.image.data == b"TOY pile=7 turn=1"
    rec = await host.store.get_match(r.match_id)  # committed before the reply
    assert rec.version == 1 and rec.snapshot["pile"] == 7
    assert [(a.seat, a.action) for a in await host.store.actions(r.match_id)] == [(0, "take 3")]


async def test_move_refusals_change_nothing(host):
    svc = host.svc
    refused(await svc.act(CH, "ann", "take 1"), "no_table")
    await seat(svc, "ann", "bob")
    refused(await svc.act(CH, "ann", "take 1"), "not_started")
    await svc.start(CH, "ann", options=["pile=10"], seed=7, start_seat=0)
    refused(await svc.act(CH, "zed", "take 1"), "not_player")
    assert "waiting for Ann" in refused(await svc.act(CH, "bob", "take 1"), "not_your_turn")
    assert "take N" in refused(await svc.act(CH, "ann", "grab 2"), "malformed")
    assert "whole number" in refused(await svc.act(CH, "ann", "take two"), "malformed")
    assert "(T-1)" in refused(await svc.act(CH, "ann", "take 4"), "illegal")
    rec = (await svc.table(CH)).record
    assert rec.version == 0 and await host.store.actions(rec.id) == []
    assert (await host.store.get_match(rec.id)).snapshot == ToyGame.new(
        ["Ann", "Bob"], seed=7, options={"pile": 10}, start_seat=0).to_json()


async def test_illegal_move_without_a_rule_and_engine_rules_named(svc):
    await started(svc, "ann", "bob", options=("pile=2", "max=3"))
    assert "only 2 stones are left (T-2)" in refused(await svc.act(CH, "ann", "take 3"), "illegal")


async def test_a_free_action_from_a_seat_not_to_move(host):
    """Like Vikings' exchange: allowed any time, does not pass the turn."""
    svc = host.svc
    await started(svc, "ann", "bob")
    r = await svc.act(CH, "bob", "taunt")
    assert r.ok and r.public == ["Bob taunts the table"] and r.version == 1
    assert r.mentions == ["ann"]
    assert await to_move(svc) == "ann"


async def test_simultaneous_decisions_prompt_every_seat_that_must_act(database, clock):
    host = Host(database, clock, reminder_delay=600)
    svc = await host.open()
    r = await started(svc, "ann", "bob", "cat", options=("ready", "pile=10"))
    assert [(p.user, p.text) for p in r.prompts] == [("ann", "say ready"), ("bob", "say ready"),
                                                     ("cat", "say ready")]
    assert r.mentions == ["ann", "bob", "cat"]
    r = await svc.act(CH, "bob", "ready")
    assert r.public == ["Bob is ready"] and r.mentions == ["ann", "cat"]
    assert "waiting for Ann, Cat" in refused(await svc.act(CH, "bob", "ready"), "not_your_turn")
    assert "say ready first" in refused(await svc.act(CH, "ann", "take 1"), "illegal")
    assert sorted(r.user for r in await svc.due_reminders(clock.t + 600)) == ["ann", "cat"]
    await svc.act(CH, "cat", "ready")
    r = await svc.act(CH, "ann", "ready")
    assert r.mentions == ["ann"] and r.prompts[0].text == "take 1–3 stones"
    assert "has begun" in refused(await svc.act(CH, "ann", "ready"), "illegal")
    await host.close()


async def test_a_button_of_an_old_version_is_refused_politely(svc):
    await started(svc, "ann", "bob")
    await svc.act(CH, "ann", "take 1", version=0)
    await svc.act(CH, "bob", "take 1", version=1)
    msg = refused(await svc.act(CH, "ann", "take 2", version=1), "stale")
    assert "changed" in msg
    refused(await svc.act(CH, "ann", "take 2", version=7), "stale")
    assert (await svc.table(CH)).record.version == 2
    assert (await svc.act(CH, "ann", "take 2", version=2)).ok


async def test_two_quick_identical_clicks_apply_once(host):
    svc = host.svc
    await started(svc, "ann", "bob")
    first, second = await asyncio.gather(svc.act(CH, "ann", "take 1", version=0),
                                         svc.act(CH, "ann", "take 1", version=0))
    assert first.ok
    assert "already made" in refused(second, "duplicate")
    rec = (await svc.table(CH)).record
    assert rec.version == 1 and len(await host.store.actions(rec.id)) == 1


async def test_one_action_per_channel_at_a_time(host):
    """Concurrent moves in one channel are serialised; other channels are independent."""
    svc = host.svc
    await started(svc, "ann", "bob")
    await started(svc, "cat", "dan", channel="chan-2")
    replies = await asyncio.gather(
        svc.act(CH, "ann", "take 1"), svc.act(CH, "ann", "take 1"), svc.act("chan-2", "cat", "take 2"))
    assert [r.code for r in replies] == ["ok", "not_your_turn", "ok"]
    assert (await svc.table(CH)).record.version == 1 and (await svc.table("chan-2")).record.version == 1


async def test_a_whole_game_to_the_end(host):
    svc = host.svc
    await started(svc, "ann", "bob", options=("pile=5",))
    await svc.act(CH, "ann", "take 3")
    r = await svc.act(CH, "bob", "take 2")
    assert r.public == ["Bob takes 2 (0 left)", "Bob takes the last stone", "Game over. The winner: Bob."]
    assert r.status == "finished" and r.prompts == [] and r.mentions == [] and r.image is not None
    assert await svc.table(CH) is None
    refused(await svc.act(CH, "ann", "take 1"), "no_table")
    st = await svc.status(CH)
    assert st.public == ["There is no table in this channel. Use /join to open one.",
                         "The last game of Take-away was won by Bob."]
    board = await svc.board(CH)
    assert board.ok and board.image.data == b"TOY pile=0 turn=1" and board.status == "finished"
    assert [(m.status, m.version) for m in await svc.history(CH)] == [("finished", 2)]
    assert await host.store.timers() == []
    assert (await svc.join(CH, "ann", "Ann")).ok  # the channel is free for a new table


async def test_an_engine_crash_leaves_the_stored_game_intact(host):
    """A bug (not an EngineError) inside apply: the half-changed live game is dropped and reloaded."""
    svc = host.svc
    await started(svc, "ann", "bob")
    game = (await svc.table(CH)).game

    def crash(seat, action):
        game._d["pile"] = -99
        raise RuntimeError("engine bug")

    game.apply = crash
    with pytest.raises(RuntimeError, match="engine bug"):
        await svc.act(CH, "ann", "take 1")
    table = await svc.table(CH)
    assert table.game is not game and table.game.pile == 10 and table.record.version == 0
    assert (await svc.act(CH, "ann", "take 1")).ok


def test_the_host_core_imports_neither_discord_nor_pil():
    code = ("import sys, bot.host.service, bot.storage, bot.games, bot.i18n, bot.config; "
            "bad = [m for m in ('discord', 'PIL') if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


async def test_a_broken_renderer_does_not_lose_the_move(host):
    svc = host.svc

    def boom(game, *, seat=None):
        raise RuntimeError("no fonts")

    host.adapter.render = boom
    await started(svc, "ann", "bob")
    r = await svc.act(CH, "ann", "take 1")
    assert r.ok and r.image is None and r.version == 1


async def test_images_can_be_switched_off(tmp_path, clock):
    host = Host(tmp_path / "i.db", clock, images=False)
    svc = await host.open()
    r = await started(svc, "ann", "bob")
    assert r.image is None and host.adapter.renders == 0
    await host.close()


# ----------------------------------------------------------------------------- abandon


async def test_abandon_by_the_creator(svc):
    await started(svc, "ann", "bob")
    r = await svc.abandon(CH, "ann")
    assert r.ok and r.public == ["The table is abandoned."] and r.status == "abandoned"
    assert await svc.table(CH) is None
    refused(await svc.act(CH, "bob", "take 1"), "no_table")
    refused(await svc.abandon(CH, "ann"), "no_table")


async def test_abandon_a_lobby_by_the_creator_or_admin_only(svc):
    await seat(svc, "ann", "bob")
    assert "creator" in refused(await svc.abandon(CH, "bob"), "not_allowed")
    assert (await svc.abandon(CH, "mod", is_admin=True)).ok
    assert await svc.table(CH) is None


async def test_abandon_by_a_non_creator_outsider_is_refused(svc):
    await started(svc, "ann", "bob")
    refused(await svc.abandon(CH, "zed"), "not_allowed")
    assert (await svc.table(CH)).record.status == "active"


async def test_players_vote_to_abandon(host):
    svc = host.svc
    await started(svc, "ann", "bob", "cat", "dan")
    r = await svc.abandon(CH, "bob")
    assert r.ok and r.public == ["Bob votes to abandon (1/3 votes)."]
    refused(await svc.abandon(CH, "bob"), "already_voted")
    await svc.act(CH, "ann", "take 1")  # votes survive moves ...
    await host.close()
    svc = await host.open()  # ... and restarts
    assert (await svc.status(CH)).public[-1] == "Votes to abandon: 1/3."
    assert (await svc.abandon(CH, "cat")).public == ["Cat votes to abandon (2/3 votes)."]
    r = await svc.abandon(CH, "dan")
    assert r.public == ["The players voted to abandon (3/3); the table is abandoned."]
    assert await svc.table(CH) is None


# ----------------------------------------------------------------------------- looking


async def test_status_of_no_table_lobby_and_game(svc):
    assert (await svc.status(CH)).public == ["There is no table in this channel. Use /join to open one."]
    await seat(svc, "ann")
    assert (await svc.status(CH)).public == ["Take-away table waiting to start: Ann (1/4 seats, at least 2)."]
    await seat(svc, "bob")
    await svc.start(CH, "ann", options=["pile=10"], seed=7, start_seat=0)
    await svc.act(CH, "ann", "take 2")
    r = await svc.status(CH)
    assert r.public == ["Take-away (pile=10), 1 move played: Ann, Bob.", "pile: 8"]
    assert [p.user for p in r.prompts] == ["bob"] and r.mentions == []  # looking pings nobody


async def test_board_public_and_private(svc):
    refused(await svc.board(CH), "no_table")
    await seat(svc, "ann", "bob")
    refused(await svc.board(CH), "not_started")
    await svc.start(CH, "ann", options=["pile=10"], seed=7, start_seat=0)
    r = await svc.board(CH, "zed")
    assert r.public == ["pile: 10"] and r.image.data == b"TOY pile=10 turn=0"
    r = await svc.board(CH, "bob", private=True)
    assert r.private == ["pile: 10"] and r.public == []
    refused(await svc.board(CH, "zed", private=True), "not_player")


async def test_board_player_names_a_seated_player_or_is_refused(svc):
    # issue 14: /board player:NAME draws that player's part large; a wrong name changes nothing
    await seat(svc, "ann", "bob")
    await svc.start(CH, "ann", options=["pile=10"], seed=7, start_seat=0)
    assert (await svc.board(CH, "zed", player="BOB")).ok
    assert (await svc.command(CH, "zed", "/board bob")).ok
    assert "carl" in refused(await svc.board(CH, "zed", player="carl"), "unknown_player")
    assert "carl" in refused(await svc.command(CH, "zed", "/board carl"), "unknown_player")


async def test_rules(svc):
    assert (await svc.rules(CH)).public == ["Take 1 to max stones in turn; who takes the last stone wins."]
    assert (await svc.rules(CH, "t-1")).public == ["T-1: take between 1 and max stones."]
    assert "no rule T-9" in refused(await svc.rules(CH, "T-9"), "unknown_rule")
    refused(await svc.rules(CH, game="chess"), "unknown_game")


async def test_export_the_action_log(svc, clock):
    refused(await svc.export(CH), "no_table")
    await seat(svc, "ann", "bob")
    refused(await svc.export(CH), "not_started")
    await svc.start(CH, "ann", options=["pile=10"], seed=7, start_seat=0)
    clock.t = 86_400.0
    await svc.act(CH, "ann", "take 2")
    await svc.act(CH, "ann", "taunt")
    r = await svc.export(CH)
    assert r.ok and r.file.filename == f"meadhall-toy-{r.match_id}.txt"
    text = r.file.data.decode()
    # a running game: everything but the seed (from it anyone rebuilds the hidden state)
    assert '# options: {"host": {"language": "en"}, "pile": 10}\n# seed: hidden until the game is over  start seat: 0' in text
    assert "# seed: 7" not in text and "# seat 1: Bob" in text
    assert "1\t0\tAnn\ttake 2\t1970-01-02T00:00:00Z\n2\t0\tAnn\ttaunt\t1970-01-02T00:00:00Z" in text
    assert text.endswith("# notation\ntoy pile 8\n")
    refused(await svc.export(CH, match_id=r.match_id + 1), "no_table")
    refused(await svc.export("elsewhere", match_id=r.match_id), "no_table")


async def test_export_of_a_finished_game(svc):
    await started(svc, "ann", "bob", options=("pile=1",))
    await svc.act(CH, "ann", "take 1")
    r = await svc.export(CH)
    text = r.file.data.decode()
    assert "status: finished  moves: 1" in text and "# seed: " in text and "seed: hidden" not in text
    assert r.private == [f"The action log of game {r.match_id}."] and not r.public  # to the asker


# ----------------------------------------------------------------------------- typed commands


async def test_typed_commands_drive_a_game(svc):
    async def say(user: str, line: str) -> Reply:
        return await svc.command(CH, user, line, name=user.title())

    assert (await say("ann", "/join")).ok
    assert (await say("bob", "join toy")).ok
    assert (await say("cat", "JOIN")).ok
    assert (await say("cat", "leave")).ok
    assert (await say("ann", "start toy pile=4")).public == ["Take-away begins (pile=4): Ann, Bob."]
    first = await to_move(svc)
    r = await say(first, "take 3")
    assert r.ok and r.public[0].endswith("takes 3 (1 left)")
    assert (await say("ann", "status")).ok and (await say("ann", "board")).image is not None
    assert (await say("bob", "board private")).private == ["pile: 1"]
    assert (await say("bob", "rules")).ok and (await say("bob", "export")).file is not None
    assert (await say("bob", "help")).public == [
        "Table commands: join, leave, start, abandon, status, board, rules, export, undo, replace, hint, help.",
        "Take-away moves: take, taunt.",
        "Records: leaderboard, profile, history, recap, replay."]
    second = await to_move(svc)
    r = await say(second, "take 1")
    assert r.status == "finished"


async def test_typed_command_refusals(svc):
    assert "fly 3" in refused(await svc.command(CH, "ann", "fly 3"), "unknown_command")
    refused(await svc.command(CH, "ann", "   "), "unknown_command")
    refused(await svc.command(CH, "ann", "take 1"), "no_table")  # a move with no table
    await svc.command(CH, "ann", "join")
    refused(await svc.command(CH, "ann", "take 1"), "not_started")
    refused(await svc.command(CH, "ann", "start"), "too_few_players")
    await svc.command(CH, "bob", "join")
    refused(await svc.command(CH, "bob", "abandon"), "not_allowed")
    assert (await svc.command(CH, "mod", "abandon", is_admin=True)).ok


# ----------------------------------------------------------------------------- restart & replay


async def _play_to_end(svc: HostService, chooser: Rng, limit: int | None = None) -> int:
    moves = 0
    while (table := await svc.table(CH)) is not None and (limit is None or moves < limit):
        seat_ = table.game.acting_seats()[0]
        action = chooser.choice(table.game.legal_actions(seat_))
        r = await svc.act(CH, table.record.seats[seat_].user, str(action), version=table.record.version)
        assert r.ok, r
        moves += 1
    return moves


@pytest.mark.parametrize("seed", [3, 8])
async def test_restart_mid_game_equals_an_uninterrupted_run(tmp_path, seed):
    async def run(path: Path, restart_after: int | None) -> tuple[dict, list]:
        host = Host(path, Clock())
        svc = await host.open()
        await started(svc, "ann", "bob", "cat", seed=seed, start_seat=None, options=())
        chooser = Rng(seed)
        if restart_after is not None:
            await _play_to_end(svc, chooser, limit=restart_after)
            await host.close()
            svc = await host.open()  # everything in memory is gone
            assert (await svc.table(CH)).record.version == restart_after
        await _play_to_end(svc, chooser)
        [rec] = await svc.history(CH)
        log = [(a.seq, a.seat, a.action) for a in await host.store.actions(rec.id)]
        await host.close()
        return rec.snapshot, log

    straight = await run(tmp_path / "a.db", None)
    interrupted = await run(tmp_path / "b.db", 3)
    assert interrupted == straight
    assert straight[0]["winner"] is not None


async def test_load_brings_back_lobbies_and_games(database, clock):
    host = Host(database, clock)
    svc = await host.open()
    await started(svc, "ann", "bob")
    await svc.act(CH, "ann", "take 1")
    await seat(svc, "cat", channel="chan-2")
    await host.close()
    await host.open()
    assert len(host.svc._tables) + len(host.svc._resumed) == 2  # load() brought both back
    assert (await host.svc.table("chan-2")).record.names == ["Cat"]
    assert (await host.svc.act(CH, "bob", "take 1", version=1)).ok
    await host.close()


async def test_a_game_no_adapter_knows_is_skipped_at_load(tmp_path, clock):
    host = Host(tmp_path / "u.db", clock)
    svc = await host.open()
    await started(svc, "ann", "bob")
    await host.close()
    store = await Storage.open(tmp_path / "u.db")
    svc = HostService(store, GameRegistry([]), clock=clock)
    assert await svc.load() == 0
    assert await svc.table(CH) is None
    for reply in (await svc.status(CH), await svc.join(CH, "cat", "Cat"), await svc.act(CH, "ann", "take 1"),
                  await svc.command(CH, "ann", "help")):
        assert "plays toy, which this host does not offer" in refused(reply, "unknown_game")
    assert "# seat 0: Ann" in (await svc.export(CH)).file.data.decode()  # the log stays exportable
    await store.close()


async def test_replay_of_a_whole_game_equals_the_snapshot(host):
    svc = host.svc
    await started(svc, "ann", "bob", "cat", seed=21, start_seat=None, options=())
    await svc.act(CH, "cat", "taunt")
    await _play_to_end(svc, Rng(5))
    [rec] = await svc.history(CH)
    assert (await svc.replay(rec.id)).to_json() == rec.snapshot


# ----------------------------------------------------------------------------- reminders


async def test_reminder_after_the_delay_then_rearmed_up_to_the_limit(database, clock):
    host = Host(database, clock, reminder_delay=600, reminder_limit=2)
    svc = await host.open()
    await started(svc, "ann", "bob")
    assert await svc.due_reminders(clock.t + 599) == []
    [rem] = await svc.due_reminders(clock.t + 600)
    assert (rem.channel, rem.user, rem.name, rem.count) == (CH, "ann", "Ann", 1)
    assert rem.text == "Reminder: it is still your turn in Take-away: take 1–3 stones"
    assert await svc.next_reminder_due() == clock.t + 1200
    assert [r.count for r in await svc.due_reminders(clock.t + 1200)] == [2]
    assert await svc.due_reminders(clock.t + 99_999) == []  # the limit is reached
    await host.close()


async def test_a_move_moves_the_reminder_to_the_next_player(database, clock):
    host = Host(database, clock, reminder_delay=600)
    svc = await host.open()
    await started(svc, "ann", "bob")
    clock.t += 500
    await svc.act(CH, "ann", "take 1")
    assert await svc.due_reminders(clock.t + 599) == []
    assert [r.user for r in await svc.due_reminders(clock.t + 600)] == ["bob"]
    await host.close()


async def test_a_free_action_does_not_reset_the_turn_reminder(database, clock):
    host = Host(database, clock, reminder_delay=600)
    svc = await host.open()
    await started(svc, "ann", "bob")
    start = clock.t
    clock.t += 300
    await svc.act(CH, "bob", "taunt")
    assert [r.user for r in await svc.due_reminders(start + 600)] == ["ann"]
    await host.close()


async def test_reminders_survive_a_restart(tmp_path, clock):
    host = Host(tmp_path / "r.db", clock, reminder_delay=600)
    svc = await host.open()
    await started(svc, "ann", "bob")
    await svc.act(CH, "ann", "take 1")
    await host.close()
    clock.t += 3600
    svc = await host.open()
    assert [(r.user, r.count) for r in await svc.due_reminders()] == [("bob", 1)]
    await host.close()


async def test_no_reminders_after_the_end_or_abandon_or_when_off(tmp_path, clock):
    host = Host(tmp_path / "r.db", clock, reminder_delay=600)
    svc = await host.open()
    await started(svc, "ann", "bob", options=("pile=1",))
    await svc.act(CH, "ann", "take 1")
    await started(svc, "cat", "dan", channel="chan-2")
    await svc.abandon("chan-2", "cat")
    assert await svc.due_reminders(clock.t + 10_000) == []
    await host.close()
    off = Host(tmp_path / "o.db", clock)
    svc = await off.open()
    await started(svc, "ann", "bob")
    assert await off.store.timers() == [] and await svc.next_reminder_due() is None
    await off.close()


# ----------------------------------------------------------------------------- i18n


def test_the_catalog_template_lists_every_message():
    """Run `python -m bot.i18n extract` after adding or changing a user-facing sentence."""
    in_pot = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.load_catalog(catalogs.pot_path()) if m.id}
    in_code = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.extract_messages() if m.id}
    assert "Game over. The winners: {names}." not in in_code  # plural forms are keyed by the singular
    assert "Game over. The winner: {names}." in in_code
    missing = in_code - in_pot
    assert not missing, f"not in bot/i18n/locale/meadhall.pot (run python -m bot.i18n.catalogs extract): {sorted(missing)}"
    stale = in_pot - in_code
    assert not stale, f"in bot/i18n/locale/meadhall.pot but no longer in the code (extract again): {sorted(stale)}"


def test_every_committed_catalog_is_complete_and_compiled():
    """A language ships only finished: nothing empty or fuzzy, the placeholders of the English, as
    many plural forms as the language has, and its .mo compiled from the .po as committed."""
    for po in catalogs.po_files():
        assert catalogs.catalog_problems(po) == [], po
        # the messages, read back from both files: not the bytes, which change with Babel's version
        assert catalogs.mo_differences(po) == [], f"{po}: run python -m bot.i18n.catalogs compile"


def test_a_stale_mo_is_found_by_its_messages_not_its_bytes(tmp_path):
    """The .mo check compares meaning (issue 22): a .mo written by another Babel, with another
    header, still passes; one that lacks a message or translates it otherwise fails, naming it."""
    lc = tmp_path / "xx" / "LC_MESSAGES"
    lc.mkdir(parents=True)
    po = lc / "meadhall.po"
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    po.write_text(header + '\nmsgid "Hello"\nmsgstr "Hei"\n\nmsgid "Bye"\nmsgstr "Moi"\n', encoding="utf-8")
    catalogs.compile_po(po, po.with_suffix(".mo"))
    assert catalogs.mo_differences(po) == []
    # another writer: another Generated-By header and another layout, the same messages
    po.with_suffix(".mo").write_bytes(catalogs.compiled_bytes(po).replace(b"Babel", b"Lebab"))
    assert catalogs.mo_differences(po) == []
    po.write_text(header + '\nmsgid "Hello"\nmsgstr "Terve"\n\nmsgid "Bye"\nmsgstr "Moi"\n\n'
                  'msgid "New"\nmsgstr "Uusi"\n', encoding="utf-8")
    assert catalogs.mo_differences(po) == ["not in meadhall.mo: 'New'", "translated otherwise in meadhall.mo: 'Hello'"]


async def test_a_new_language_needs_only_a_catalog(tmp_path, svc):
    lc = tmp_path / "locale" / "xx" / "LC_MESSAGES"
    lc.mkdir(parents=True)
    po = lc / "meadhall.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        "#, python-brace-format\n"
        'msgid "You are not a player at this table."\n'
        'msgstr "Du sitzt nicht "\n"an diesem Tisch."\n\n'
        "#, fuzzy\n"
        'msgid "There is no table in this channel. Use /join to open one."\n'
        'msgstr "unfertig"\n\n'
        'msgid "Game over. The winner: {names}."\nmsgid_plural "Game over. The winners: {names}."\n'
        'msgstr[0] "Aus. Sieger: {names}."\nmsgstr[1] "Aus. Sieger*innen: {names}."\n',
        encoding="utf-8")
    catalogs.compile_po(po, lc / "meadhall.mo")
    i18n.set_locale_dir(tmp_path / "locale")
    try:
        assert "xx" in i18n.available_languages()
        await seat(svc, "ann", "bob")
        with i18n.use_language("xx"):
            assert i18n.current_language() == "xx"
            assert refused(await svc.start(CH, "zed"), "not_player") == "Du sitzt nicht an diesem Tisch."
            # fuzzy entries are not used; untranslated ones stay English
            assert (await svc.status("other")).public == [
                "There is no table in this channel. Use /join to open one."]
            assert i18n.ngettext("Game over. The winner: {names}.", "Game over. The winners: {names}.", 2,
                                 names="A, B") == "Aus. Sieger*innen: A, B."
        assert refused(await svc.start(CH, "zed"), "not_player") == "You are not a player at this table."
        i18n.set_language("xx")
        assert _("You are not a player at this table.") == "Du sitzt nicht an diesem Tisch."
    finally:
        i18n.set_language("en")
        i18n.set_locale_dir(None)
    assert "xx" not in i18n.available_languages()


def test_a_broken_po_file_is_reported_with_its_line(tmp_path):
    po = tmp_path / "bad.po"
    po.write_text('msgid "a"\nmsgfoo "b"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.po: .*misformatted keyword on 1"):
        catalogs.load_catalog(po)


def _catalog(tmp_path, lang: str, body: str):
    po = tmp_path / "locale" / lang / "LC_MESSAGES" / "meadhall.po"
    po.parent.mkdir(parents=True)
    po.write_text(body, encoding="utf-8")
    return po


def test_catalog_problems_name_each_unfinished_entry(tmp_path, monkeypatch):
    pot = tmp_path / "meadhall.pot"
    pot.write_text('msgid "Hello {name}."\nmsgstr ""\n\nmsgid "Bye."\nmsgstr ""\n\n'
                   'msgid "{n} stone"\nmsgid_plural "{n} stones"\nmsgstr[0] ""\nmsgstr[1] ""\n\n'
                   'msgid "Left."\nmsgstr ""\n', encoding="utf-8")
    monkeypatch.setattr(catalogs, "pot_path", lambda: pot)
    po = _catalog(tmp_path, "pl", 'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : '
                  'n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"\n\n'
                  'msgid "Hello {name}."\nmsgstr "Cześć {imie}."\n\n'
                  '#, fuzzy\nmsgid "Bye."\nmsgstr "Pa."\n\n'
                  'msgid "{n} stone"\nmsgid_plural "{n} stones"\nmsgstr[0] "{n} kamień"\nmsgstr[1] "{n} kamienie"\n\n'
                  'msgid "Gone."\nmsgstr "Nie ma."\n')
    problems = catalogs.catalog_problems(po)
    assert "missing from the catalog: 'Left.'" in problems
    assert "not in the template any more: 'Gone.'" in problems
    assert "fuzzy: 'Bye.'" in problems
    assert "untranslated: '{n} stone'" in problems  # Polish needs a third plural form
    assert any(p.startswith("placeholders ['imie']") for p in problems)
    assert len(problems) == 5


def test_the_extract_command_writes_the_template(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    assert catalogs.main(["extract"]) == 0
    text = (tmp_path / "meadhall.pot").read_text(encoding="utf-8")
    assert 'msgid_plural "Game over. The winners: {names}."' in text
    assert "#: bot/host/play.py:" in text  # locations relative to the repository (the host split, issue 18)
    assert catalogs.main(["nonsense"]) == 2


def test_init_update_compile_and_check_a_new_language(tmp_path, monkeypatch):
    """The translator's round: init → translate → compile → check, all through Babel."""
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    pot = tmp_path / "meadhall.pot"
    pot.write_text('msgid "Hello {name}."\nmsgstr ""\n\nmsgid "{n} stone"\nmsgid_plural "{n} stones"\n'
                   'msgstr[0] ""\nmsgstr[1] ""\n', encoding="utf-8")
    assert catalogs.main(["init", "cs"]) == 0
    po = tmp_path / "cs" / "LC_MESSAGES" / "meadhall.po"
    cat = catalogs.load_catalog(po, locale="cs")
    assert cat.num_plurals == 3  # Czech: 1 / 2–4 / 5+
    assert catalogs.main(["check"]) == 1  # nothing translated yet
    text = po.read_text(encoding="utf-8").replace('msgid "Hello {name}."\nmsgstr ""', 'msgid "Hello {name}."\nmsgstr "Ahoj {name}."')
    text = text.replace('msgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""',
                        'msgstr[0] "{n} kámen"\nmsgstr[1] "{n} kameny"\nmsgstr[2] "{n} kamenů"')
    po.write_text(text, encoding="utf-8")
    assert catalogs.main(["check"]) == 0
    assert catalogs.main(["compile"]) == 0
    i18n.set_locale_dir(tmp_path)
    try:
        with i18n.use_language("cs"):
            assert [i18n.ngettext("{n} stone", "{n} stones", k) for k in (1, 3, 5)] == [
                "1 kámen", "3 kameny", "5 kamenů"]
            assert _("Hello {name}.", name="Jana") == "Ahoj Jana."
    finally:
        i18n.set_locale_dir(None)


def test_option_error_is_a_user_message():
    with pytest.raises(OptionError, match="pile=N"):
        ToyAdapter().parse_options(["pile=x"])
    assert ToyAdapter().parse_options(["pile=9", "max=2"]) == {"pile": 9, "max": 2}


def test_registry_refuses_a_game_twice():
    reg = GameRegistry([ToyAdapter()])
    with pytest.raises(ValueError, match="twice"):
        reg.register(ToyAdapter())
    assert reg.default == "toy" and "toy" in reg and reg.ids() == ["toy"] and GameRegistry().default is None


# ----------------------------------------------------------------------------- config


def test_the_example_config_loads(monkeypatch):
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    cfg = load_config(ROOT / "config.example.toml", env={})
    assert cfg.token is None and cfg.database == ROOT / "meadhall.db" and cfg.dev_guild is None
    assert (cfg.log_level, cfg.reminder_delay, cfg.reminder_limit, cfg.language) == ("INFO", 3600.0, 3, "en")
    assert cfg.threads is True


def test_threads_can_be_switched_off_in_the_config(tmp_path):
    """A game per thread is the default; ``[discord] threads = false`` plays in the channel (issue 13)."""
    path = tmp_path / "c.toml"
    path.write_text("[discord]\nthreads = false\n")
    cfg = load_config(path, env={})
    assert cfg.threads is False and "threads=False" in repr(cfg)
    assert load_config(None, env={}).threads is True


def test_defaults_without_a_file():
    cfg = load_config(None, env={})
    assert cfg.database == Path.cwd() / "meadhall.db" and cfg.token is None and cfg.log_level_number == 20


def test_token_sources_and_it_never_shows(tmp_path):
    secret = "MTIz.very-secret-token"
    (tmp_path / "token.txt").write_text(secret + "\n")
    path = tmp_path / "c.toml"
    path.write_text('[discord]\ntoken = "from-file"\ntoken_file = "token.txt"\ndev_guild = 42\n'
                    '[storage]\ndatabase = "/var/lib/mh.db"\n[host]\nreminder_delay_minutes = 0\n'
                    '[logging]\nlevel = "debug"\n')
    cfg = load_config(path, env={})
    assert cfg.token == secret and cfg.dev_guild == 42 and cfg.database == Path("/var/lib/mh.db")
    assert cfg.reminder_delay is None and cfg.log_level == "DEBUG"
    assert load_config(path, env={TOKEN_ENV: "env-token"}).token == "env-token"
    path.write_text('[discord]\ntoken = "from-file"\n')
    assert load_config(path, env={}).token == "from-file"
    for shown in (repr(cfg), str(cfg), f"{cfg}", repr(Config(token=secret))):
        assert secret not in shown and "token=<set>" in shown
    assert "token=<unset>" in repr(Config())


@pytest.mark.parametrize(("text", "message"), [
    ("[discrod]\n", "unknown section"),
    ("[discord]\ntokn = 'x'\n", "unknown key discord.tokn"),
    ("[discord]\ndev_guild = '12'\n", "discord.dev_guild must be int"),
    ("[discord]\ndev_guild = -3\n", "positive"),
    ("[host]\nreminder_delay_minutes = true\n", "must be int or float"),
    ("[discord]\nthreads = 'yes'\n", "discord.threads must be bool"),
    ("[discord]\nthreads = 1\n", "discord.threads must be bool"),
    ("[host]\nreminder_delay_minutes = -1\n", "0 \\(off\\) or more"),
    ("[host]\nreminder_limit = 0\n", "at least 1"),
    ("[logging]\nlevel = 'loud'\n", "logging.level"),
    ("storage = 3\n", "must be a table"),
    ("[storage\n", "not valid TOML"),
    ("[discord]\ntoken_file = 'missing.txt'\n", "token_file"),
])
def test_bad_config_is_refused_clearly(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(path, env={})


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml", env={})


def test_environment_is_read_by_default(monkeypatch):
    monkeypatch.setitem(os.environ, TOKEN_ENV, "tok")
    assert load_config().token == "tok"


async def test_a_table_moves_to_another_channel_and_frees_the_first(host):
    """The Discord transport keys a game by the thread it opens for it (issue 13)."""
    svc = host.svc
    await started(svc, "ann", "bob")
    assert await svc.move(CH, "thread-1")
    assert await svc.table(CH) is None and (await svc.table("thread-1")).record.channel == "thread-1"
    assert (await svc.act("thread-1", "ann", "take 1")).ok
    await seat(svc, "cid", "dan", channel=CH)  # the channel takes a new table meanwhile
    # refusals change nothing: no table to move, or the target already has one
    assert not await svc.move("nowhere", "thread-2")
    assert not await svc.move(CH, "thread-1")
    assert (await svc.table(CH)).record.names == ["Cid", "Dan"]
    await host.close()
    svc = await host.open()  # after a restart the game is found in its thread
    table = await svc.table("thread-1")
    assert table is not None and table.record.version == 1 and (await svc.table(CH)).record.status == "lobby"
