"""The host's trust defects of issue 11: exports, parse failures, quoting, names, the cache and
simultaneous decisions — each with the game (or toy) position that showed it."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from bot.discord.publishing.messages import escape_name, escape_names, mention, prompt_lines
from bot.host.service import Prompt, Reply
from bot.i18n.text import quote
from bot.offline.table import OfflineTable
from tests.host_helpers import CH, db_rows, live, open_service, play_first_legal, start_game


@pytest.fixture
async def host(tmp_path):
    svc, store = await open_service(tmp_path / "host.db")
    yield svc, tmp_path / "host.db"
    await store.close()


def in_draft(game) -> bool:
    return (game.s["pending"] or {}).get("kind") == "keep"


# ----------------------------------------------------------------------------- 1. export


async def test_export_of_a_running_brian_boru_game_hides_seed_and_kept_cards_B14(host):
    svc, _path = host
    await start_game(svc, "brian-boru", seed=4242)
    game = await play_first_legal(svc, lambda g: in_draft(g) and len(g.acting_seats()) == 3)
    kept = [str(game.legal_actions(s)[0]) for s in game.acting_seats()]
    for s, text in zip(game.acting_seats(), kept, strict=True):
        assert (await svc.act(CH, ("ann", "bob", "cid")[s], text)).ok
    r = await svc.export(CH)
    text = r.file.data.decode()
    assert r.ok and r.status == "active" and not r.public and r.private  # for the asker only
    assert "4242" not in text and "# seed: hidden until the game is over" in text
    assert all(k not in text for k in kept), "a kept pair is in the export of a running game"
    assert text.count("\tkeep (hidden)\t") == 3
    assert "\ttown " in text  # public decisions stay readable


async def test_export_of_a_finished_brian_boru_game_is_the_whole_log(host):
    svc, _path = host
    await start_game(svc, "brian-boru", seed=77)
    table = await svc.table(CH)
    match = table.record.id
    with pytest.raises(AssertionError, match="ended"):
        await play_first_legal(svc, lambda g: False, limit=5_000)
    r = await svc.export(CH, match_id=match)
    text = r.file.data.decode()
    assert r.status == "finished" and "# seed: 77" in text and "keep (hidden)" not in text
    assert "\tkeep " in text


async def test_export_of_a_running_vikings_game_has_no_seed_V6(host):
    svc, _path = host
    await start_game(svc, "vikings", seed=9_876_543)
    await play_first_legal(svc, lambda g: g.round >= 2)
    text = (await svc.export(CH)).file.data.decode()
    assert "9876543" not in text and "seed: hidden" in text


# ----------------------------------------------------------------------------- 3. parse failures


@pytest.mark.parametrize("game,line", [
    ("vikings", "buy ²"), ("vikings", "buy ١"), ("vikings", "buy " + "9" * 5000), ("vikings", "exchange ³"),
    ("brian-boru", "town \x00"), ("brian-boru", "keep ² ³"), ("brian-boru", "extra " + "7" * 5000),
])
async def test_unreadable_numbers_are_malformed_refusals_and_change_nothing(host, game, line):
    svc, path = host
    await start_game(svc, game, seed=5)
    g = await live(svc)
    user = ("ann", "bob", "cid")[g.acting_seats()[0]]
    before, rows = json.dumps(g.to_json(), sort_keys=True), db_rows(path)
    r = await svc.act(CH, user, line)
    assert (r.ok, r.code) == (False, "malformed"), r
    assert json.dumps((await live(svc)).to_json(), sort_keys=True) == before and db_rows(path) == rows


async def test_any_parser_exception_is_a_malformed_refusal(host, monkeypatch, caplog):
    svc, path = host
    await start_game(svc, "vikings", seed=5)
    g = await live(svc)

    def broken(text):
        raise ValueError("invalid literal for int() with base 10: '²'")

    monkeypatch.setattr(g, "parse_action", broken)
    rows = db_rows(path)
    with caplog.at_level(logging.WARNING, logger="bot.host.service"):
        r = await svc.act(CH, "ann", "buy 3")
    assert (r.ok, r.code) == (False, "malformed") and "buy 3" in r.private[0]
    assert db_rows(path) == rows and "parsing" in caplog.text


async def test_the_offline_table_survives_a_line_that_fails(host, tmp_path, monkeypatch):
    svc, _path = host
    table = OfflineTable(svc, tmp_path / "out", user="ann")
    assert any("opens a table" in line for line in await table.handle("ann: /join"))

    async def boom(*a, **kw):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(svc, "command", boom)
    monkeypatch.setattr(svc, "table", boom)
    out = await table.handle("bob: /join")
    assert len(out) == 1 and "went wrong on my side" in out[0] and not table.finished
    hot_seat = OfflineTable(svc, tmp_path / "out", user=None)  # asks the table who must act
    assert await hot_seat.prompt_name() == "player1"  # the input prompt goes on too
    monkeypatch.undo()
    assert any("joins the table" in line for line in await table.handle("bob: /join"))  # it goes on


# ----------------------------------------------------------------------------- 4. quoting


def test_quote_cuts_long_input_and_blanks_control_characters():
    assert quote("a\x00b\u202ec") == "a b c"
    assert len(quote("x" * 6000)) == 100 and quote("x" * 6000).endswith("…")
    assert quote("take 2") == "take 2"


async def test_refusals_quote_at_most_100_characters_of_the_input(host):
    svc, _path = host
    huge = "q" * 6000
    r = await svc.join(CH, "ann", "Ann", game=huge)
    assert r.code == "unknown_game" and len(r.private[0]) < 300
    assert (await svc.join(CH, "ann", "Ann", game="vikings")).ok
    assert (await svc.join(CH, "bob", "Bob")).ok
    r = await svc.start(CH, "ann", options=[huge])
    assert r.code == "bad_options" and len(r.private[0]) < 300, r.private
    assert (await svc.start(CH, "ann", seed=1, start_seat=0)).ok
    for line in ("buy " + huge, huge, "sail " + huge):
        r = await svc.act(CH, "ann", line)
        assert not r.ok and len(r.private[0]) < 400, (r.code, len(r.private[0]))
    r = await svc.command(CH, "ann", huge)
    assert r.code == "unknown_command" and len(r.private[0]) < 200
    r = await svc.rules(CH, huge)
    assert r.code == "unknown_rule" and len(r.private[0]) < 200
    r = await svc.board(CH, "ann", player=huge)
    assert r.code == "unknown_player" and len(r.private[0]) < 200


# ----------------------------------------------------------------------------- 5. names


@pytest.mark.parametrize("name", ["# Boss", "||spoiler||", "<@123456789012345678>", "**bold**", "-# small",
                                  "> quote", "@everyone", "a_b_c"])
def test_escape_name_neutralises_markdown_and_mentions(name):
    shown = escape_name(name)
    assert shown != name
    assert "<@1" not in shown and "@everyone" not in shown
    assert not shown.startswith(("#", "-#", ">"))


def test_escape_names_escapes_only_the_names_once_each():
    names = ["_", "a_b", "Plain"]
    assert escape_names("a_b and _ and Plain_x", names) == "a\\_b and \\_ and Plain\\_x"
    assert escape_names("nothing to do", ["Ann"]) == "nothing to do"
    reply = Reply(prompts=[Prompt("123", 0, "**Ann**", "choose the town **Ann** loses")], names=["**Ann**"])
    assert prompt_lines(reply) == ["<@123>: choose the town \\*\\*Ann\\*\\* loses"]
    assert mention("ann", "<@123456789012345678>") == "@<@\u200b123456789012345678>"


async def test_replies_carry_the_names_they_may_show(host):
    svc, _path = host
    assert (await svc.join(CH, "ann", "# Ann", game="vikings")).names == ["# Ann"]
    r = await svc.join(CH, "bob", "<@1>")
    assert r.names == ["# Ann", "<@1>"]
    assert (await svc.leave(CH, "bob")).names == ["# Ann", "<@1>"]  # the leaver is still named
    await svc.join(CH, "bob", "<@1>")
    await svc.start(CH, "ann", seed=1, start_seat=0)
    r = await svc.act(CH, "bob", "buy 1")
    assert r.code == "not_your_turn" and r.names == ["# Ann", "<@1>"]
    assert (await svc.status(CH)).names == ["# Ann", "<@1>"]


# ----------------------------------------------------------------------------- 6. the cache


class PausingStorage:
    """Wraps a Storage; ``open_match`` of the first reader pauses after reading, until released."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.read = asyncio.Event()
        self.release = asyncio.Event()
        self.pause_next = False

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def open_match(self, channel):
        record = await self.inner.open_match(channel)
        if self.pause_next:
            self.pause_next = False
            self.read.set()
            await self.release.wait()
        return record


async def test_a_slow_reader_never_puts_an_older_table_back_in_the_cache(host):
    svc, _path = host
    await start_game(svc, "vikings", seed=3)
    svc._tables.pop(CH)  # e.g. after a restart or a failed commit: the next reader loads it
    slow = PausingStorage(svc.storage)
    svc.storage = slow
    slow.pause_next = True
    reader = asyncio.create_task(svc.status(CH))  # reads version 0, then waits
    await slow.read.wait()
    g = await live(svc)  # a writer's own read (not paused): caches version 0 …
    seat = g.acting_seats()[0]
    r = await svc.act(CH, ("ann", "bob")[seat], str(g.legal_actions(seat)[0]))  # … and commits version 1
    assert r.ok and r.version == 1
    slow.release.set()
    assert (await reader).ok
    assert (await svc.table(CH)).record.version == 1  # not back at 0
    g = await live(svc)
    seat = g.acting_seats()[0]
    r = await svc.act(CH, ("ann", "bob")[seat], str(g.legal_actions(seat)[0]), version=1)
    assert r.ok, r  # the newest buttons work


# ----------------------------------------------------------------------------- 7. simultaneous decisions


async def test_three_players_keeping_cards_at_once_never_refuse_each_other_B14(host):
    svc, _path = host
    await start_game(svc, "brian-boru", seed=11)
    game = await play_first_legal(svc, lambda g: in_draft(g) and len(g.acting_seats()) == 3)
    version = (await svc.table(CH)).record.version
    users = ("ann", "bob", "cid")
    picks = [(users[s], str(game.legal_actions(s)[0])) for s in game.acting_seats()]
    replies = await asyncio.gather(*(svc.act(CH, u, t, version=version, scoped=True) for u, t in picks))
    assert all(r.ok for r in replies), [r.private for r in replies]
    # a second click of a seat's old choice: its own seat moved since — refused, applied once
    again = await svc.act(CH, picks[0][0], picks[0][1], version=version, scoped=True)
    assert not again.ok and again.code in ("stale", "duplicate")


async def test_unscoped_old_versions_and_changed_own_situations_are_still_stale(host):
    svc, _path = host
    await start_game(svc, "brian-boru", seed=11)
    game = await play_first_legal(svc, lambda g: in_draft(g) and len(g.acting_seats()) == 3)
    version = (await svc.table(CH)).record.version
    users = ("ann", "bob", "cid")
    ann_second = str(game.legal_actions(0)[1])
    assert (await svc.act(CH, "ann", str(game.legal_actions(0)[0]), version=version)).ok
    bob = str(game.legal_actions(1)[0])
    assert (await svc.act(CH, "bob", bob, version=version)).code == "stale"  # a public button: stale
    assert (await svc.act(CH, "bob", "keep 0 0", version=version, scoped=True)).code == "stale"  # not legal
    assert (await svc.act(CH, "bob", bob, version=version, scoped=True)).ok
    assert (await svc.act(CH, users[0], ann_second, version=version, scoped=True)).code == "stale"  # ann already kept since: her situation changed


async def test_names_and_levels_are_cut_too(host):
    svc, _path = host
    r = await svc.join(CH, "ann", "N" * 6000 + "\x00", game="vikings")
    assert r.ok and len(r.names[0]) == 32 and len(r.public[0]) < 200
    r = await svc.join(CH, "bob", "\x01\x02 ")
    assert r.ok and r.names[1] == "bob"  # nothing printable left: the user's id
    from bot.host.seats import add_bot

    r = await add_bot(svc, CH, "L" * 6000)
    assert r.code == "bad_options" and len(r.private[0]) < 200
