"""What a QA player minded at the offline table, in the games' own words (adapters, undo):
computer players agree to an undo by themselves, Brian Boru's cards listed in numeric order, the
progress variant's special tiles and viking kinds by name, the V-27 placement prompt, an empty
homeland said so, and English plural and possessive forms."""

from __future__ import annotations

import re

import pytest

from bot.host.seats import add_bot
from bot.offline.table import OfflineTable
from tests.host_helpers import open_service, play_first_legal, say

CH = "offline"


@pytest.fixture
async def service(tmp_path):
    svc, store = await open_service(tmp_path / "w.db")
    yield svc
    await store.close()


async def seated(svc, game: str, bots: tuple[str, ...], options: tuple[str, ...] = (), seed: int = 3,
                 out=None) -> OfflineTable:
    """Ann (a person, seat 0, start player) and computer players at an offline table, started."""
    assert (await svc.join(CH, "ann", "Ann", game=game)).ok
    for level in bots:
        assert (await add_bot(svc, CH, level)).ok
    assert (await svc.start(CH, "ann", game, list(options), seed=seed, start_seat=0)).ok
    return OfflineTable(svc, out, channel=CH)


def listed(out: list[str]) -> list[tuple[int, str]]:
    """The numbered choices printed last: ``(number, label)``."""
    head = max(i for i, line in enumerate(out) if "choose" in line and "type" in line)
    rows = []
    for line in out[head + 1:]:
        m = re.match(r"^(?:\(only \w+ sees\) )?\s+(\d+)  (.+)$", line)
        if not m:
            break
        rows.append((int(m.group(1)), m.group(2)))
    return rows


# ----------------------------------------------------------------------------- f. undo and computer players


async def test_computer_players_agree_to_an_undo_by_themselves_issue17(service, tmp_path):
    """QA: "Ragnar (computer, normal), Freydis (computer, random) moved since and must all
    agree" — they never could. The next players have not acted or agree (issue 17): computer
    players agree at once, so the move is taken back without waiting."""
    from bot.storage import effective_actions

    t = await seated(service, "vikings", ("normal", "random"), out=tmp_path / "out")
    table = await service.table(CH)
    for _ in range(10):  # Ann buys and places; then both computer players move
        out = await say(t, f"ann: {listed(await say(t, 'ann: /choices'))[0][0]}")
        if any(line.startswith("Freydis (computer, random) ") for line in out):
            break
    moves = effective_actions(await service.storage.actions(table.record.id))
    last = max(i for i, a in enumerate(moves) if a.seat == 0)
    assert {a.seat for a in moves[last + 1:]} == {1, 2}, moves  # both computer players moved after Ann
    out = await say(t, "ann: /undo")
    assert not any("must" in line and "agree" in line for line in out), out
    assert any(line.startswith("Ann takes back their last move and the ") for line in out), out
    after = effective_actions(await service.storage.actions(table.record.id))
    assert len(after) <= len(moves) - 3 and after[-1].seat == 0 or not after  # theirs went back with it
    assert table.game.acting_seats() == [0]


async def test_a_person_who_moved_since_must_still_agree_issue17(service, tmp_path):
    """Only computer players agree by themselves: a person who moved since is still asked."""
    assert (await service.join(CH, "ann", "Ann", game="vikings")).ok
    assert (await service.join(CH, "bob", "Bob")).ok
    assert (await add_bot(service, CH, "normal")).ok
    assert (await service.start(CH, "ann", "vikings", [], seed=3, start_seat=0)).ok
    t = OfflineTable(service, tmp_path / "out", channel=CH)
    table = await service.table(CH)
    await play_first_legal(service, lambda g: g.acting_seats() == [0] and all(
        any(p["rows"]) for p in g.view(None)["players"]), channel=CH)  # everyone has placed once
    version = table.record.version
    out = await say(t, "ann: /undo")
    assert any("Bob" in line and "must" in line and "agree" in line for line in out), out
    assert "Ragnar" not in next(line for line in out if "must" in line), out
    assert table.record.version == version  # nothing taken back yet


# ----------------------------------------------------------------------------- g. Brian Boru cards in order


async def test_brian_boru_cards_to_play_are_listed_in_numeric_order_as_hand_shows(service, tmp_path):
    """QA: the play list was sorted as text (1, 14, 2, 22, 3): now by card number, like /hand."""
    t = await seated(service, "brian-boru", ("normal", "normal"), seed=5, out=tmp_path / "out")

    def ann_plays(g) -> bool:
        if g.acting_seats() != [0]:
            return False
        words = [str(a).split() for a in g.legal_actions(0)]
        return all(w[0] in ("play", "lead") for w in words) and any(len(w[1]) > 1 for w in words) \
            and any(len(w[1]) == 1 for w in words)

    await play_first_legal(service, ann_plays, channel=CH)
    rows = listed(await say(t, "ann: /choices"))
    cards = [int(label.split()[1]) for _n, label in rows]
    assert cards == sorted(cards) and len(cards) >= 2, rows
    hand = [int(m.group(1)) for line in await say(t, "ann: /hand") if (m := re.match(r"^\(only ann sees\)   (\d+) ", line))]
    assert [c for c in hand if c in cards] == cards  # the same order as /hand


# ----------------------------------------------------------------------------- h. progress variant by name


async def test_special_tiles_on_display_are_shown_by_name_V45(service, tmp_path):
    t = await seated(service, "vikings", ("normal",), options=("specials",), out=tmp_path / "out")
    text = "\n".join(await say(t, "ann: /board"))
    line = next(x for x in text.splitlines() if x.startswith("Special tiles on display:"))
    assert not re.search(r"\b(fisher1|goldsmith1|goldsmith2|noble1|scout1|gold5|X[a-d])\b", line), line


@pytest.mark.parametrize(("text", "shown"), [
    ("lay dragons", ("fisher", "goldsmith", "scout", "noble", "warrior", "sailor")),
    ("remove x", ("fisher", "sailor")),
    ("special dragon", ("boat", "fisher", "market", "none")),
])
async def test_kinds_and_special_tiles_are_refused_with_their_names_V42_V46(service, tmp_path, text, shown):
    """QA: /lay noble → "'noble' is not a viking kind (F G S N W B)"; /special fisher was refused
    with a list of codes. A refusal now names what may be typed; nothing changes."""
    await seated(service, "vikings", ("normal",), options=("auction", "specials"), out=tmp_path / "out")
    table = await service.table(CH)
    before = (table.record.version, table.game.to_json())
    r = await service.act(CH, "ann", text)
    assert r.code == "malformed", r
    assert all(word in r.private[0] for word in shown), r.private
    assert "(F G S N W B)" not in r.private[0]
    assert (table.record.version, table.game.to_json()) == before


@pytest.mark.parametrize("text", ["lay noble", "lay nobles", "lay N", "remove Warrior", "special fisher",
                                  "special market", "special fisher1", "special boat"])
async def test_kinds_and_special_tiles_are_read_by_name_or_letter_V42_V46(service, tmp_path, text):
    """A kind by name (one or many) or letter, a special tile by its word: read as moves (here
    refused only because it is not their time: the auction comes first, V-41)."""
    await seated(service, "vikings", ("normal",), options=("auction", "specials"), out=tmp_path / "out")
    r = await service.act(CH, "ann", text)
    assert r.code == "illegal", r


# ----------------------------------------------------------------------------- i. V-27 placement prompt


async def test_a_sailor_or_a_viking_bought_with_a_ship_goes_to_the_base_V27(service, tmp_path):
    """QA: after buying a sailor the prompt said "the sailor stands on it when its row matches, or
    add base" — V-27: a sailor, and any viking bought with a ship, goes to the base."""
    seen = 0
    for seed in range(1, 30):
        svc, store = await open_service(tmp_path / f"s{seed}.db")
        try:
            t = await seated(svc, "vikings", ("normal",), options=("manual",), seed=seed, out=tmp_path / "out")
            table = await svc.table(CH)
            wheel = table.game.view(None)["wheel"]
            gold = table.game.view(None)["players"][0]["gold"]
            pos = next((p for p, c in enumerate(wheel) if c and p <= gold
                        and (c["viking"] == "B" or c["tile"].startswith("^"))), None)
            if pos is None:
                continue
            out = await say(t, f"ann: {pos}")
            if not any(line.startswith("@Ann: place ") for line in out):  # V-24: the start tile first
                out = await say(t, "ann: 1")
            prompt = next(line for line in out if line.startswith("@Ann: place "))
            assert "goes to the base" in prompt and "stands on it" not in prompt and "base”" not in prompt, prompt
            seen += 1
        finally:
            await store.close()
        if seen >= 2:
            break
    assert seen >= 2


# ----------------------------------------------------------------------------- j. empty homeland


async def test_an_empty_homeland_is_said_in_the_text_table(service, tmp_path):
    """QA: a player with an empty homeland printed no grid, so the next grid looked like theirs."""
    t = await seated(service, "vikings", ("normal",), out=tmp_path / "out")
    lines = "\n".join(await say(t, "ann: /board")).splitlines()
    heads = [i for i, line in enumerate(lines) if re.match(r"^(Ann|Ragnar \(computer, normal\)): \d+ gold", line)]
    assert len(heads) == 2, lines
    assert all(lines[i + 1].strip() == "empty homeland" for i in heads), lines


# ----------------------------------------------------------------------------- e. English wording


def test_round_six_says_what_comes_at_its_end_V30_V36():
    """QA: "Round 6 of 6 begins; a major and the final scoring follows it" (a plural subject)."""
    from bot.games.vikings import VikingsAdapter
    from engine.core import Event
    from engine.vikings import VikingsGame

    game = VikingsGame.new(["Ann", "Bob"], seed=1, options={})
    lines = VikingsAdapter().narrate(game, [Event("round", None, {"round": 6, "start_player": 1}),
                                            Event("round", None, {"round": 2, "start_player": 0})])
    assert lines == ["Round 6 of 6 begins (at its end: a major and the final scoring). Start player: Bob.",
                     "Round 2 of 6 begins (at its end: a major scoring). Start player: Ann."]


def test_a_tile_that_fits_nowhere_names_the_player_without_a_possessive_V23():
    from bot.games.vikings import VikingsAdapter
    from engine.core import Event
    from engine.vikings import VikingsGame

    game = VikingsGame.new(["Ann", "Ragnar (computer, normal)"], seed=1, options={})
    [line] = VikingsAdapter().narrate(game, [Event("discarded", 1, {"tile": "Mc", "viking": "N"})])
    assert line == ("Ragnar (computer, normal): a middle tile (temple) fits nowhere in the homeland and leaves "
                    "the game; the noble goes to the base.")


async def test_laying_out_a_single_viking_is_said_in_the_singular_V42(service, tmp_path):
    """QA: "lay out the fishers" where one fisher was drawn."""
    await seated(service, "vikings", ("normal",), options=("auction",), out=tmp_path / "out")
    game = await play_first_legal(service, lambda g: g.view(None)["phase"] == "lay", channel=CH)
    table = await service.table(CH)
    drawn = list(game.view(None)["auction"]["drawn"])
    seat = game.acting_seats()[0]
    labels = {str(a).split()[1]: table.adapter.describe_action(game, a) for a in game.legal_actions(seat)}
    from engine.vikings.data import KIND_NAME, KIND_PLURAL

    for kind, label in labels.items():
        word = KIND_NAME[kind] if drawn.count(kind) == 1 else KIND_PLURAL[kind]
        assert label == f"lay out the {word}", (drawn, labels)


def test_brian_boru_player_line_says_coins_without_a_plural_slip_B5():
    """QA: "Ragnar: 10 VP, 1 coins, …"."""
    from bot.games.brianboru import BrianBoruAdapter
    from engine.brianboru import BrianBoruGame

    game = BrianBoruGame.new(["Ann", "Bob", "Cid"], seed=1, options={})
    text = BrianBoruAdapter().text(game)
    assert re.search(r"^Ann: \d+ VP, coins \d+, renown", text, re.M), text
    assert " coins, renown" not in text


def test_marriage_track_stays_when_the_space_is_taken_and_one_coin_is_singular_B22():
    """QA: "moves up the marriage track from 3 to 3 (space 4 was taken)": it stays."""
    from bot.games.brianboru import BrianBoruAdapter
    from engine.brianboru import BrianBoruGame
    from engine.core import Event

    game = BrianBoruGame.new(["Ann", "Bob", "Cid"], seed=1, options={})
    lines = BrianBoruAdapter().narrate(game, [
        Event("marriage", 0, {"frm": 3, "to": 3, "reached": 4, "slid": True, "paid": 0}),
        Event("marriage", 1, {"frm": 2, "to": 4, "reached": 5, "slid": True, "paid": 1}),
        Event("invaders", 2, {"n": 2, "paid": 1}),
    ])
    assert lines == ["Ann stays at 3 on the marriage track (space 4 is taken).",
                     "Bob moves up the marriage track from 2 to 4 (space 5 was taken), paying 1 coin.",
                     "Cid takes 2 invader tokens (paying 1 coin)."]
