"""Brian Boru at the table: whole games through the host service, hands kept private (issue 7).

Players only send what they would type (``svc.command`` / ``svc.act`` with texts from
``legal_actions``). Every reply is checked against the engine's hidden cards: no public line, no
prompt, no public image and no reply to another player names a card still in somebody's hand or
in front of them in the draft.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.games.brianboru import BrianBoruAdapter
from bot.games.brianboru_words import card_label
from bot.games.registry import default_registry
from bot.host.service import HostService, Reply
from bot.storage import Storage
from engine.brianboru import BrianBoruGame
from engine.core import Rng

CH = "bb-table"
USERS = ["ann", "bob", "cat"]
NAMES = ["Ann", "Bob", "Cat"]

_COLOUR = r"(?:red|blue|yellow|white)"
CARD_MENTIONS = [
    re.compile(rf"\b{_COLOUR} (\d{{1,2}})\b"),       # "leads red 11", "Trick: Ann red 11"
    re.compile(rf"\b(\d{{1,2}}) {_COLOUR}\b"),       # card labels: "11 red — wins …"
    re.compile(r"\b(?:lead|play|keep) (\d{1,2})\b"),  # action texts
    re.compile(r"\bkeep \d{1,2} (\d{1,2})\b"),
    re.compile(r"\bcard (\d{1,2})\b"),             # "card 5 is not in your hand"
    re.compile(r"\((\d{1,2})\)"),                     # "Bob (6): 2 coins"
]


def cards_named(line: str) -> set[int]:
    return {int(m) for pat in CARD_MENTIONS for m in pat.findall(line)}


def hidden_cards(game: BrianBoruGame, but: int | None = None) -> set[int]:
    """Cards in hands and in front of players (draft), except those of seat ``but``."""
    s = game.s
    return {v for q in range(s["n"]) if q != but for v in [*s["hand"][q], *s["pile"][q]]}


def with_hands_shuffled(game: BrianBoruGame, rng: Rng) -> BrianBoruGame:
    """A copy whose hidden cards (hands, draft piles, the cards set aside) are dealt differently."""
    c = game.copy()
    s = c.s
    pool = [v for h in s["hand"] for v in h] + [v for p in s["pile"] for v in p] + list(s["aside"])
    rng.shuffle(pool)
    it = iter(pool)
    s["hand"] = [sorted(next(it) for _ in h) for h in s["hand"]]
    s["pile"] = [sorted(next(it) for _ in p) for p in s["pile"]]
    s["aside"] = [next(it) for _ in s["aside"]]
    s["choice"] = [None if ch is None else sorted(s["pile"][q][:2]) for q, ch in enumerate(s["choice"])]
    return c


class Watch:
    """Which cards are secret around one reply: held or in front of a player before or after it,
    and not played face up (B-17, B-18) since the last deal (a played card is public until the next
    round deals it out again)."""

    def __init__(self, game: BrianBoruGame) -> None:
        self.game = game
        self.face_up: set[int] = set()

    def before(self) -> dict[int | None, set[int]]:
        game = self.game
        return {q: hidden_cards(game, but=q) for q in [None, *range(game.s["n"])]}

    def check(self, reply: Reply, before: dict[int | None, set[int]], actor: int | None, typed: str = "") -> None:
        """Nothing public, and nothing private to ``actor``, names a card another seat holds."""
        assert reply.image is None or reply.image.data[:8] == b"\x89PNG\r\n\x1a\n"
        allowed = set(self.face_up)
        for e in reply.events:
            if e.kind == "dealt":
                self.face_up = set()
            elif e.kind == "played":
                self.face_up.add(e.data["card"])
                allowed.add(e.data["card"])
        after = hidden_cards(self.game)
        everybody = (before[None] | after) - allowed
        for line in [*reply.public, *(p.text for p in reply.prompts)]:
            leaked = cards_named(line) & everybody
            assert not leaked, f"public line names hidden cards {leaked}: {line!r}"
        others = (before[actor] | hidden_cards(self.game, but=actor)) - allowed
        others -= {int(x) for x in re.findall(r"\d+", typed)}
        for line in reply.private:
            leaked = cards_named(line) & others
            assert not leaked, f"reply to seat {actor} names another seat's cards {leaked}: {line!r}"


def check_public_outputs_ignore_hands(adapter: BrianBoruAdapter, game: BrianBoruGame, rng: Rng,
                                      images: bool = False) -> None:
    """Prompts, the table text and the table image are the same whoever holds which card."""
    other = with_hands_shuffled(game, rng)
    assert adapter.text(other) == adapter.text(game)
    for seat in game.acting_seats():
        assert adapter.prompt(other, seat) == adapter.prompt(game, seat)
    if images:
        assert adapter.render(other) == adapter.render(game)


@pytest.fixture
async def store(tmp_path: Path):
    s = await Storage.open(tmp_path / "bb.db")
    yield s
    await s.close()


async def open_table(store: Storage, *, seed: int, images: bool = False) -> HostService:
    svc = HostService(store, default_registry(), images=images, seed_source=lambda: seed)
    for user, name in zip(USERS, NAMES):
        r = await svc.command(CH, user, "join brian-boru", name=name)
        assert r.ok, r
    r = await svc.command(CH, USERS[1], "start brian-boru")
    assert r.ok, r
    assert r.public[0].startswith("Brian Boru begins")
    return svc


async def live_game(svc: HostService) -> BrianBoruGame:
    table = await svc.table(CH)
    assert table is not None and isinstance(table.game, BrianBoruGame)
    return table.game


def test_brian_boru_is_registered():
    reg = default_registry()
    assert "brian-boru" in reg and isinstance(reg["brian-boru"], BrianBoruAdapter)


@pytest.mark.parametrize("seed", [3, 11])
async def test_a_whole_three_player_game_keeps_every_hand_private(store, seed):
    svc = await open_table(store, seed=seed)
    adapter = default_registry()["brian-boru"]
    game = await live_game(svc)
    watch = Watch(game)
    rng = Rng(seed * 7 + 1)
    checker = Rng(seed)
    orders: set[tuple[int, ...]] = set()
    drafts = 0
    probed = False
    last: Reply | None = None
    while not game.is_over:
        acting = game.acting_seats()
        check_public_outputs_ignore_hands(adapter, game, checker)
        if len(acting) > 1:  # the draft (B-14): every seat chooses, in a random order
            order = list(acting)
            rng.shuffle(order)
            orders.add(tuple(order))
            chosen = {}
            for k, seat in enumerate(order):
                action = rng.choice(game.legal_actions(seat))
                chosen[seat] = list(action.args)
                b = watch.before()
                last = await svc.command(CH, USERS[seat], str(action))
                assert last.ok, last
                watch.check(last, b, seat, str(action))
                if k == 0:
                    b = watch.before()
                    again = await svc.command(CH, USERS[seat], str(action))
                    assert (again.ok, again.code) == (False, "not_your_turn")
                    watch.check(again, b, seat)
                    b = watch.before()
                    status = await svc.status(CH)
                    watch.check(status, b, None)
                    text = "\n".join(status.public)
                    assert f"{NAMES[seat]}: " in text and "(has chosen)" in text and "(to act, choosing)" in text
                if k < len(order) - 1:
                    assert seat not in game.acting_seats() and game.acting_seats()
            for seat, cards in chosen.items():  # the kept cards are in the hand now (B-15)
                assert set(cards) <= set(game.s["hand"][seat])
            drafts += 1
            continue
        seat = acting[0]
        action = rng.choice(game.legal_actions(seat))
        if not probed and action.verb == "play":
            # somebody else tries to play now, naming a card of the player to act: refused, nothing leaks
            intruder = (seat + 1) % 3
            card = game.s["hand"][seat][0]
            b = watch.before()
            r = await svc.command(CH, USERS[intruder], f"play {card}")
            assert (r.ok, r.code) == (False, "not_your_turn")
            watch.check(r, b, intruder)
            # the player to act names a card they do not hold: refused without saying who holds it
            foreign = game.s["hand"][intruder][0]
            b = watch.before()
            r = await svc.act(CH, USERS[seat], f"play {foreign}")
            assert (r.ok, r.code) == (False, "illegal")
            watch.check(r, b, seat, f"play {foreign}")
            assert not any(n in line for line in r.private for n in NAMES)
            probed = True
        version = (await svc.table(CH)).record.version
        b = watch.before()
        last = await svc.act(CH, USERS[seat], str(action), version=version)
        assert last.ok, last
        watch.check(last, b, seat, str(action))
        if not game.is_over and game.s["phase"] == "tricks" and action.verb in ("lead", "play"):
            b = watch.before()
            mine = await svc.command(CH, USERS[seat], "board private")
            assert mine.ok and not mine.public
            watch.check(mine, b, seat)
            for v in game.s["hand"][seat]:
                assert any(card_label(v) in line for line in mine.private)
    assert probed and drafts == 3 * 3  # 3 rounds (B-10) × 3 keeps of 8 cards (B-13, B-14)
    assert len(orders) > 1  # the draft took the choices in several different orders
    assert last is not None and any(line.startswith("Game over. The winner") for line in last.public)
    assert any(line.startswith("Final scoring:") for line in last.public)
    winners = game.winners()
    assert winners and all(NAMES[w] in last.public[-1] for w in winners)
    history = await svc.history(CH)
    assert history[0].status == "finished"


async def test_public_images_show_no_hand_and_private_hands_are_the_players_own(store):
    svc = await open_table(store, seed=5, images=True)
    adapter = default_registry()["brian-boru"]
    game = await live_game(svc)
    watch = Watch(game)
    rng, checker = Rng(9), Rng(10)
    moves = 0
    while moves < 30:  # set-up, the first draft, the first tricks
        seat = game.acting_seats()[0]
        action = rng.choice(game.legal_actions(seat))
        b = watch.before()
        r = await svc.act(CH, USERS[seat], str(action))
        assert r.ok and r.image is not None
        watch.check(r, b, seat, str(action))
        # the posted image (the turn picture, issue 14) is the same picture whoever holds which card
        assert r.image.data == adapter.picture(with_hands_shuffled(game, checker), events=r.events)
        moves += 1
    for seat in range(3):
        board = await svc.board(CH, USERS[seat], private=True)
        assert board.ok and not board.public and board.image is not None
        assert board.image.data == adapter.render(game)  # the map never carries the hand
        text = adapter.private_text(game, seat)
        for v in game.s["hand"][seat]:
            assert card_label(v) in text
        assert not cards_named(text) & hidden_cards(game, but=seat)
        png = adapter.private_image(game, seat)
        assert Image.open(io.BytesIO(png)).format == "PNG"
    public_text = adapter.text(game)
    assert not cards_named(public_text) & hidden_cards(game)
    assert adapter.text(game, 0).startswith(public_text)


async def test_command_words_reach_the_engine_and_bad_input_changes_nothing(store):
    svc = await open_table(store, seed=4)
    game = await live_game(svc)
    seat = game.acting_seats()[0]
    before = game.to_json()
    r = await svc.command(CH, USERS[seat], "town Atlantis")
    assert (r.ok, r.code) == (False, "malformed") and "Atlantis" in r.private[0]
    r = await svc.command(CH, USERS[seat], "keep 1 2")
    assert (r.ok, r.code) == (False, "illegal") and "B-9" in r.private[0]
    assert game.to_json() == before
    town = str(game.legal_actions(seat)[0]).split()[1]
    r = await svc.command(CH, USERS[seat], f"TOWN {town.lower()}")
    assert r.ok and r.public == [f"{NAMES[seat]} places a start disc on {town}."]


# ----------------------------------------------------------------------------- adapter pieces


def _game_in(phase_kind: str, seed: int = 2) -> BrianBoruGame:
    game = BrianBoruGame.new(NAMES, seed=seed)
    rng = Rng(seed)
    while (game.s["pending"] or {}).get("kind") != phase_kind:
        seat = game.acting_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_the_draft_is_a_multiselect_of_exactly_two_cards_B14():
    from bot.games.widgets import widgets_for

    adapter = BrianBoruAdapter()
    game = _game_in("keep")
    (w,) = widgets_for(adapter, game, 1)
    assert (w.kind, w.min_values, w.max_values) == ("multiselect", 2, 2)
    assert [int(v) for _label, v in w.options] == sorted(game.s["pile"][1])
    a, b = w.options[3][1], w.options[0][1]
    text = w.action([a, b])
    assert text == f"keep {b} {a}" and game.is_legal(1, text)
    assert adapter.private_choices(game, 1)
    with pytest.raises(ValueError):
        w.action([a])


def test_labels_fit_a_select_and_name_what_they_do():
    adapter = BrianBoruAdapter()
    game = _game_in("lead")
    seat = game.acting_seats()[0]
    for a in game.legal_actions(seat):
        label = adapter.describe_action(game, a)
        assert label.startswith(f"lead {a.args[0]} ") and "wins:" in label and len(label) <= 100
    assert adapter.private_choices(game, seat) and not adapter.private_choices(game, (seat + 1) % 3)
    town = BrianBoruGame.new(NAMES, seed=1)
    labels = [adapter.describe_action(town, a) for a in town.legal_actions(town.acting_seats()[0])]
    assert "Tara (yellow, Meath)" in labels
    assert not adapter.private_choices(town, town.acting_seats()[0])  # start towns are public


def test_rules_by_number_B_and_D():
    adapter = BrianBoruAdapter()
    assert adapter.rules("B-19")[0].startswith("B-19: The trick is won by the highest card")
    assert adapter.rules("19") == adapter.rules("b-19")
    assert adapter.rules("D-1")[0].startswith("D-1: If the leader holds no card")
    assert len(adapter.rules(None)) == 3
    for bad in ("B-99", "Z-1"):
        with pytest.raises(KeyError):
            adapter.rules(bad)


def test_packaged_rules_match_shared_copy_and_every_decision_is_quoted_D4_to_D12():
    packaged = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "rules" / "brian-boru.md"
    shared = Path(__file__).resolve().parents[3] / "shared" / "rules" / "brian-boru.md"
    if shared.exists():
        assert packaged.read_text(encoding="utf-8") == shared.read_text(encoding="utf-8")
    adapter = BrianBoruAdapter()
    assert adapter.rules("D-5")[0].startswith("D-5: The rulebook settles only")
    assert "only a player who placed one takes back all their church discs" in adapter.rules("B-30")[0]
    assert "D-1 to D-12" in adapter.rules(None)[-1]
    for n in range(1, 13):
        assert adapter.rules(f"D-{n}")[0].startswith(f"D-{n}: ")
    with pytest.raises(KeyError):
        adapter.rules("D-13")


def test_notation_is_the_engines_position():
    game = _game_in("keep")
    assert BrianBoruAdapter().notation(game) == game.notation()


async def test_demo_writes_a_map_per_trick_and_upkeep_and_a_hand_per_player_per_round(tmp_path):
    from bot.demos.brianboru import demo_brianboru

    paths = await demo_brianboru(tmp_path, seed=2, players=3)
    names = [p.name for p in paths]
    assert len([n for n in names if "-hand-" in n]) == 3 * 3  # 3 players × 3 rounds
    tricks = [n for n in names if re.search(r"-t\d+", n)]
    assert len(tricks) == 3 * 7  # 7 tricks a round with 3 players (B-16)
    assert any("upkeep-marriage" in n for n in names) and names[-1] == "final.png"
    for p in paths:
        Image.open(p).verify()
    assert "game over" in (tmp_path / "final.txt").read_text(encoding="utf-8")
