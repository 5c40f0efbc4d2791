"""The offline table as a hot seat (issue 13): plain lines speak for whoever must act, every
decision is listed with numbers and a number decides, the table is shown again after computer
players move, and the text table has column numbers and a key."""

from __future__ import annotations

import re

import pytest

from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.offline.table import OfflineTable
from bot.storage import Storage
from engine.vikings import VikingsGame
from tests.host_helpers import say

README_LINES = ["alice: /join", "bob: /join", "alice: /start vikings", "/buy 3"]


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "t.db")
    yield s
    await s.close()


def offline(storage, tmp_path, seed: int = 1, **kw) -> OfflineTable:
    svc = HostService(storage, default_registry(), images=False, seed_source=lambda: seed)
    return OfflineTable(svc, tmp_path / "out", channel=f"offline-{seed}", **kw)


async def test_the_readme_example_works_whoever_is_drawn_to_start(storage, tmp_path):
    starters = set()
    for seed in range(1, 12):
        t = offline(storage, tmp_path, seed)
        out = await say(t, *README_LINES)
        table = await t.service.table(t.channel)
        starters.add(table.record.seats[table.game.view(None)["start_player"]].user)
        assert not any("not your turn" in line for line in out), out
        assert any(" buys the " in line and " for 3 gold" in line for line in out), out
    assert starters == {"alice", "bob"}  # both cases were played


async def test_every_decision_is_numbered_and_a_number_decides(storage, tmp_path):
    t = offline(storage, tmp_path)
    out = await say(t, *README_LINES[:3])
    table = await t.service.table(t.channel)
    first = table.record.seats[table.game.acting_seats()[0]]
    head = out.index(f"{first.name}, choose — type a number:")
    listed = out[head + 1:head + 1 + len(table.game.legal_actions(table.game.acting_seats()[0]))]
    assert all(re.match(r"^ +\d+  \w.+ — \d+ gold$", line) for line in listed), listed
    version = table.record.version
    out = await say(t, "2")
    assert table.record.version > version and any(" buys the " in line for line in out)
    assert await t.prompt_name() == first.user  # the same player now places the tile


async def test_a_buy_is_listed_under_its_wheel_position_which_is_its_price_V13(storage, tmp_path):
    """QA: "1  0: fisher … — 0 gold" listed two numbers and "2" bought position 1. A buy's number is
    now its wheel position (= its price, V-13), and no second number is shown."""
    t = offline(storage, tmp_path)
    out = await say(t, *README_LINES[:3])
    table = await t.service.table(t.channel)
    seat = table.game.acting_seats()[0]
    positions = sorted(a.pos for a in table.game.legal_actions(seat))
    head = next(i for i, line in enumerate(out) if line.endswith("choose — type a number:"))
    listed = out[head + 1:head + 1 + len(positions)]
    assert [int(line.split()[0]) for line in listed] == positions
    assert not any(re.match(r"^ +\d+  \d+:", line) for line in listed), listed  # one number a line
    assert all(line.endswith(f"— {line.split()[0]} gold") for line in listed), listed
    pos = positions[2]
    gold = table.game.gold[seat]
    out = await say(t, str(pos))
    assert table.game.gold[seat] == gold - pos, out  # the typed number was the position and price


@pytest.mark.parametrize("line", ["99", "1 2", "1,1", "100"])
async def test_a_number_that_is_no_choice_changes_nothing(storage, tmp_path, line):
    t = offline(storage, tmp_path)
    await say(t, *README_LINES[:3])
    table = await t.service.table(t.channel)
    before = (table.record.version, table.game.to_json())
    out = await say(t, line)
    assert out[0] == "Type one of the numbers listed."
    assert any(re.match(r"^ +\d+  \w", x) for x in out[1:])  # the list again
    assert (table.record.version, table.game.to_json()) == before


async def test_a_missing_wheel_position_is_no_choice_V13(storage, tmp_path):
    """A number between the listed positions (a position not offered) buys nothing."""
    t = offline(storage, tmp_path)
    await say(t, *README_LINES[:3])
    table = await t.service.table(t.channel)
    offered = {a.pos for a in table.game.legal_actions(table.game.acting_seats()[0])}
    missing = next(n for n in range(0, 40) if n not in offered)
    before = (table.record.version, table.game.to_json())
    out = await say(t, str(missing))
    assert out[0] == "Type one of the numbers listed."
    assert (table.record.version, table.game.to_json()) == before


async def test_counted_choices_still_say_the_range(storage, tmp_path):
    """Lists without numbers of their own (a place to put the tile) are counted from 1."""
    t = offline(storage, tmp_path)
    await say(t, *README_LINES[:3], "2")
    table = await t.service.table(t.channel)
    before = (table.record.version, table.game.to_json())
    out = await say(t, "0")
    assert out[0].startswith("Type one number from 1 to "), out
    assert any(re.match(r"^ +1  ", x) for x in out)
    assert (table.record.version, table.game.to_json()) == before


async def test_a_number_from_someone_with_nothing_to_decide(storage, tmp_path):
    t = offline(storage, tmp_path)
    await say(t, *README_LINES[:3])
    table = await t.service.table(t.channel)
    idle = table.record.seats[1 - table.game.acting_seats()[0]]
    before = table.record.version
    assert await say(t, f"{idle.user}: 1") == [f"{idle.user} has nothing to decide now."]
    assert table.record.version == before


async def test_brian_boru_draft_is_picked_by_two_numbers_privately(storage, tmp_path):
    t = offline(storage, tmp_path)
    out = await say(t, "ann: /join brian-boru", "bob: /join", "cat: /join", "ann: /start brian-boru")
    table = await t.service.table(t.channel)
    for _ in range(20):  # the public set-up choices (starting towns) until the draft
        if table.game.s["pending"]["kind"] == "keep":
            break
        user = table.record.seats[table.game.acting_seats()[0]].user
        out = await say(t, f"{user}: 1")
    assert table.game.s["pending"]["kind"] == "keep"
    choice_lines = [x for x in out if "choose 2" in x or re.match(r"^\(only \w+ sees\) +\d+  ", x)]
    assert {x.split(")")[0] for x in choice_lines} == {"(only ann sees", "(only bob sees", "(only cat sees"}
    assert not any(re.match(r"^ +\d+  ", x) for x in out)  # no card is listed publicly
    before = table.record.version
    hand = len(table.adapter.widgets(table.game, 0)[0].options)
    assert (await say(t, "ann: 1"))[0] == f"Type 2 different numbers from 1 to {hand}."
    assert (await say(t, "ann: 2 2"))[0] == f"Type 2 different numbers from 1 to {hand}."
    assert table.record.version == before
    out = await say(t, "ann: 1 2")
    assert table.record.version == before + 1 and 0 not in table.game.acting_seats()


async def test_the_table_is_shown_again_after_computer_players_move(storage, tmp_path):
    t = offline(storage, tmp_path)
    await say(t, "alice: /join", "/addbot normal")
    out = await say(t, "alice: /start vikings")
    table = await t.service.table(t.channel)
    out += await say(t, "1") if table.game.acting_seats() == [0] else []
    bot_moves = [i for i, x in enumerate(out) if x.startswith("Ragnar (computer, normal) buys")]
    assert bot_moves
    tables = [i for i, x in enumerate(out) if x.startswith("Vikings — round")]
    assert tables and tables[-1] > bot_moves[-1]  # the table as it is after the computer moved


def test_the_text_table_has_column_numbers_and_a_key():
    adapter = default_registry()["vikings"]
    game = VikingsGame.new(["ann", "bob"], seed=3)
    for _ in range(12):
        seat = game.acting_seats()[0]
        game.apply(seat, game.legal_actions(seat)[-1])
    text = adapter.text(game).splitlines()
    grid = [i for i, x in enumerate(text) if re.match(r"^ +1( +\d+)*$", x)]
    assert grid, text
    assert [text[grid[0] + k].split()[0] for k in range(1, 7)] == ["ships", "W", "N", "S", "G", "F"]
    assert adapter.text_key().startswith("Key: L, R island ends")


async def test_the_key_comes_once_and_again_on_board(storage, tmp_path):
    t = offline(storage, tmp_path)
    out = await say(t, *README_LINES)
    assert sum(x.startswith("Key: ") for x in out) == 1
    assert sum(x.startswith("Key: ") for x in await say(t, "1")) == 0
    board = await say(t, "/board")
    assert sum("Key: L, R island ends" in x for x in board) == 1


async def test_addbot_offline_takes_old_names_and_lists_the_levels(storage, tmp_path):
    """Issue 30: /addbot heuristic seats a normal player; /addbot alone seats one of the default level
    and lists every level with its line; /help lists them too; an unknown level changes nothing."""
    from bot.host.seats import levels_text

    t = offline(storage, tmp_path)
    await say(t, "alice: /join")
    out = await say(t, "alice: /addbot heuristic")
    assert any("Ragnar (computer, normal)" in line for line in out), out
    out = await say(t, "alice: /addbot")
    assert any("Freydis (computer, normal)" in line for line in out), out
    i = out.index("Computer levels (/addbot LEVEL):")
    assert out[i + 1:i + 5] == levels_text().splitlines() == [
        "random — moves at random, no real opponent; moves at once",
        "easy — makes a person's mistakes, moves at once",
        "normal — plays like a sensible person, moves at once",
        "hard — searches deeply, about 1 s a move"]
    out = await say(t, "alice: /addbot genius")
    assert out == ["(only alice sees) There is no computer level “genius”. Levels: random, easy, normal, hard."], out
    assert len((await t.service.table(t.channel)).record.seats) == 3
    out = await say(t, "alice: /help")
    assert "hard — searches deeply, about 1 s a move" in out
