"""Brian Boru rules B-5 … B-34, one or more tests per rule, named with the rule.

Positions are set up through the JSON state (``scenario``) and then played through ``apply`` with
the action texts a player types.
"""

from __future__ import annotations

import pytest

from engine.brianboru import DATA, BrianBoruGame
from engine.core import IllegalActionError, NotYourTurnError, WrongPhaseError, msg_text

NAMES = ["Daria", "Kasia", "Jerzy", "Piotr", "Ewa"]
TI = DATA.town_index


def english(lines: list) -> list[str]:
    """Scoring lines are structured messages (issue 16); the rules are checked on their English."""
    return [msg_text(x) for x in lines]


def owners(mapping: dict[str, int]) -> list[int]:
    out = [-1] * len(DATA.town_names)
    for town, seat in mapping.items():
        out[TI[town]] = seat
    return out


def flags(towns: list[str] | tuple[str, ...]) -> list[bool]:
    return [name in towns for name in DATA.town_names]


def scenario(n: int = 4, tasks: list | tuple = (), towns: dict[str, int] | None = None,
             vikings: tuple[str, ...] = (), monasteries: tuple[str, ...] = (), **fields) -> BrianBoruGame:
    """A game of ``n`` players whose state fields are replaced, then the given steps are run."""
    g = BrianBoruGame.new(NAMES[:n], seed=7, start_seat=0)
    d = g.to_json()
    d["owner"] = owners(towns or {})
    d["viking"] = flags(vikings)
    d["monastery"] = flags(monasteries)
    d["marker"] = 0
    d["active"] = -1
    d["trick"] = []
    d["round"] = 1  # as if round 1 was prepared (B-11, B-12)
    d["marriage_revealed"] = d["marriage_stack"].pop()
    d["viking_revealed"] = [d["viking_deck"].pop()]
    for k, v in fields.items():
        assert k in d, k
        d[k] = v
    d["pending"] = None
    d["tasks"] = [list(t) for t in reversed(tasks)]
    g = BrianBoruGame.from_json(d)
    g._run()
    return g


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def legal(g: BrianBoruGame, seat: int | None = None) -> list[str]:
    return [str(a) for a in g.legal_actions(seat)]


def assert_unchanged(g: BrianBoruGame, seat: int, text: str, error: type) -> Exception:
    before = g.to_json()
    with pytest.raises(error) as info:
        g.apply(seat, text)
    assert g.to_json() == before
    return info.value


def trick_game(hands: list[list[int]], **kw) -> BrianBoruGame:
    kw.setdefault("phase", "tricks")
    return scenario(len(hands), tasks=[["lead"]], hand=hands, pile=[[] for _ in hands], **kw)


# --------------------------------------------------------------------------- set-up B-5 … B-9


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_player_supplies_B5(n):
    g = BrianBoruGame.new(NAMES[:n], seed=3)
    v = g.view()
    for p in v["players"]:
        assert (p["coins"], p["renown"], p["track"], p["vp"]) == (3, 1, 1, 10)


def test_claim_tokens_face_down_on_board_B6():
    v = BrianBoruGame.new(NAMES[:4], seed=3).view()
    assert len(v["claims"]) == 8
    assert all(not c["face_up"] and c["owner"] is None for c in v["claims"])


@pytest.mark.parametrize("n,cards", [(3, 3), (4, 4), (5, 4)])
def test_marriage_stack_princess_at_bottom_B7(n, cards):
    g = BrianBoruGame.new(NAMES[:n], seed=11)
    stack = g.s["marriage_stack"]
    # still in set-up (B-9): the stack holds 2 or 3 ordinary cards on the Princess, the rest left unseen
    assert g.s["round"] == 0
    assert len(stack) == cards and stack[0] == DATA.princess_id
    assert len(g.s["marriage_out"]) == 9 - cards and DATA.princess_id not in g.s["marriage_out"]
    assert g.s["rounds"] == cards
    assert len(g.s["viking_deck"]) == 7
    # face-down stacks are visible to nobody
    for seat in (None, 0):
        v = g.view(seat)
        assert "marriage_stack" not in str(v) and v["marriage"]["stack_left"] == len(stack)


def test_start_player_random_or_given_and_holds_marker_B8():
    starts = {BrianBoruGame.new(NAMES[:4], seed=s).s["start"] for s in range(30)}
    assert starts == {0, 1, 2, 3}
    g = BrianBoruGame.new(NAMES[:4], seed=1, start_seat=2)
    assert g.view()["start_player"] == 2 and g.view()["marker"] == 2
    assert g.acting_seats() == [2]


def test_start_towns_clockwise_one_region_each_B9():
    g = BrianBoruGame.new(NAMES[:4], seed=1, start_seat=2)
    assert g.acting_seats() == [2]
    ev = g.apply(2, "town Tara")
    assert ev[0].kind == "placed" and ev[0].data["town"] == "Tara"
    assert g.acting_seats() == [3]
    meath = {DATA.town_names[t] for t in DATA.region_towns[DATA.region_index["meath"]]}
    assert not meath & {s.split()[1] for s in legal(g, 3)}
    err = assert_unchanged(g, 3, "town Kells", IllegalActionError)
    assert err.rule == "B-9" and "Meath" in err.reason
    err = assert_unchanged(g, 3, "town Tara", IllegalActionError)
    assert err.rule == "B-9"
    g.apply(3, "town Cork")
    g.apply(0, "town Dublin")
    assert g.acting_seats() == [1]
    g.apply(1, "town Sligo")
    assert g.view()["phase"] == "draft"  # the first round starts
    assert [g.s["owner"][TI[t]] for t in ("Tara", "Cork", "Dublin", "Sligo")] == [2, 3, 0, 1]


# --------------------------------------------------------------------------- rounds B-10 … B-15


def finish_setup(g: BrianBoruGame) -> None:
    while g.view()["phase"] == "setup":
        seat = g.acting_seats()[0]
        g.apply(seat, g.legal_actions(seat)[0])


@pytest.mark.parametrize("n,rounds", [(3, 3), (4, 4), (5, 4)])
def test_game_ends_after_round_of_last_marriage_card_B10_B32(n, rounds):
    from engine.core import Rng

    g = BrianBoruGame.new(NAMES[:n], seed=5)
    rng = Rng(1)
    seen = set()
    while not g.is_over:
        seen.add(g.s["round"])
        seat = rng.choice(g.acting_seats())
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert g.s["round"] == rounds and max(seen) == rounds
    assert g.s["marriage_stack"] == [] and g.acting_seats() == []
    with pytest.raises(WrongPhaseError):
        g.apply(0, "play 3")


def test_preparation_vikings_and_marriage_card_B11_B12():
    g = BrianBoruGame.new(NAMES[:3], seed=2, start_seat=0)
    top_viking = g.s["viking_deck"][-1]
    top_marriage = g.s["marriage_stack"][-1]
    finish_setup(g)
    v = g.view()
    assert v["battle"] == top_viking and v["viking_cards_left"] == 6
    assert v["viking_cards_revealed"] == [top_viking]
    assert v["marriage"]["revealed"]["id"] == top_marriage
    assert v["marriage"]["stack_left"] == 2


def test_last_round_announced_when_stack_empty_B12():
    g = scenario(3, tasks=[["round"]], marriage_stack=["princess"], round=2)
    assert g.s["marriage_revealed"] == "princess" and g.view()["marriage"]["stack_left"] == 0


@pytest.mark.parametrize("n,deal,aside", [(3, 8, 1), (4, 6, 1), (5, 5, 0)])
def test_deal_and_card_aside_hidden_B13(n, deal, aside):
    g = BrianBoruGame.new(NAMES[:n], seed=4, start_seat=0)
    finish_setup(g)
    s = g.s
    assert all(len(p) == deal for p in s["pile"]) and len(s["aside"]) == aside
    dealt = sorted(c for p in s["pile"] for c in p) + s["aside"]
    assert sorted(dealt) == list(range(1, 26))
    for seat in [None, *range(n)]:
        v = g.view(seat)
        assert "aside" not in v and "discard" not in v
        if seat is not None:
            assert v["you"]["draft"] == sorted(s["pile"][seat])


def test_draft_is_simultaneous_and_passes_left_B14():
    g = BrianBoruGame.new(NAMES[:4], seed=4, start_seat=0)
    finish_setup(g)
    assert g.acting_seats() == [0, 1, 2, 3]
    piles = [list(p) for p in g.s["pile"]]
    keep2 = piles[2][:2]
    g.apply(2, f"keep {keep2[1]} {keep2[0]}")  # order does not matter
    assert g.acting_seats() == [0, 1, 3]
    assert g.view(0)["players"][2]["chosen"] is True
    assert g.view(0)["you"]["choice"] is None and "choice" not in g.view(0)["players"][2]
    err = assert_unchanged(g, 2, f"keep {piles[2][2]} {piles[2][3]}", NotYourTurnError)
    assert "waiting for" in err.reason
    bad = next(c for c in range(1, 26) if c not in piles[0])
    err = assert_unchanged(g, 0, f"keep {piles[0][0]} {bad}", IllegalActionError)
    assert err.rule == "B-14"
    for seat in (0, 1, 3):
        g.apply(seat, f"keep {piles[seat][0]} {piles[seat][1]}")
    # the rest moved to the left (next seat)
    for seat in range(4):
        assert g.s["pile"][(seat + 1) % 4] == piles[seat][2:]
        assert g.view(seat)["you"]["hand"] == sorted(piles[seat][:2])
    assert g.acting_seats() == [0, 1, 2, 3]


@pytest.mark.parametrize("n,hand", [(3, 8), (4, 6), (5, 5)])
def test_kept_cards_form_the_hand_B15(n, hand):
    g = BrianBoruGame.new(NAMES[:n], seed=9, start_seat=0)
    finish_setup(g)
    while g.view()["phase"] == "draft":
        for seat in g.acting_seats():
            g.apply(seat, g.legal_actions(seat)[-1])
    assert [len(h) for h in g.s["hand"]] == [hand] * n
    for seat in range(n):
        v = g.view(seat)
        assert v["you"]["hand"] == sorted(g.s["hand"][seat]) and v["players"][seat]["hand_size"] == hand


# --------------------------------------------------------------------------- tricks B-16 … B-24


def test_tricks_until_one_card_each_B16():
    g = trick_game([[1, 2], [3, 4], [5, 6]])
    g.apply(0, "active Dublin")  # red: the leader's red 2 is led automatically
    assert g.s["trick"] == [[0, 2]]
    # one trick only: every player holds 2 cards, so after it they hold 1 and those are discarded
    while g.view()["phase"] == "tricks":
        seat = g.acting_seats()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert all(h == [] for h in g.s["hand"]) and g.s["trick_no"] == 1
    assert len(g.s["discard"]) == 6


def test_leader_places_marker_on_town_without_disc_B17():
    g = trick_game([[2, 4], [3, 6], [5, 9]], towns={"Galway": 1})
    err = assert_unchanged(g, 0, "active Galway", IllegalActionError)
    assert err.rule == "B-17" and "already holds a disc" in err.reason
    # only red or blue towns: the leader has no yellow or white card
    opts = {s.split()[1] for s in legal(g)}
    assert "Tara" not in opts and "Dublin" in opts and "Kells" in opts
    err = assert_unchanged(g, 0, "active Tara", IllegalActionError)
    assert err.rule == "B-17" and "yellow" in err.reason
    g.apply(0, "active Dublin")
    assert g.view()["active_town"] == "Dublin" and g.view()["marker"] is None
    # lead-colour rule: red 2 is the only red or white card, so it is led without a question
    assert g.s["trick"] == [[0, 2]] and g.acting_seats() == [1]


def test_lead_colour_or_white_B17():
    g = trick_game([[2, 4, 7], [3, 6, 8], [5, 9, 10]])
    g.apply(0, "active Kells")
    assert legal(g) == ["lead 4", "lead 7"]
    err = assert_unchanged(g, 0, "lead 2", IllegalActionError)
    assert err.rule == "B-17" and "blue" in err.reason
    err = assert_unchanged(g, 0, "play 4", WrongPhaseError)
    assert "lead a card" in err.reason
    g.apply(0, "lead 7")
    assert g.acting_seats() == [1]


def test_no_matching_card_any_town_any_card_D1():
    # the leader holds only yellow cards; every empty town is red or blue
    empty_yellow = {t: 2 for t in DATA.town_names if DATA.town_colour[TI[t]] == 2}
    g = trick_game([[3, 6, 10], [1, 2, 4], [5, 8, 9]], towns=empty_yellow)
    opts = [s.split()[1] for s in legal(g)]
    assert "Dublin" in opts and "Kells" in opts
    g.apply(0, "active Dublin")
    assert legal(g) == ["lead 10", "lead 3", "lead 6"]
    g.apply(0, "lead 6")
    g.apply(1, "play 1")  # blue
    g.apply(2, "play 5")  # red: the only card matching Dublin
    assert g.s["winner"] == 2


def test_free_lead_nothing_matches_highest_card_wins_D4():
    empty_yellow = {t: 2 for t in DATA.town_names if DATA.town_colour[TI[t]] == 2}
    g = trick_game([[3, 6, 10], [1, 4, 9], [14, 17, 21]], towns=empty_yellow)
    g.apply(0, "active Dublin")  # red; nobody plays red or white
    g.apply(0, "lead 6")
    g.apply(1, "play 9")
    ev = g.apply(2, "play 14")
    won = next(e for e in ev if e.kind == "trick_won")
    assert (won.seat, won.data["card"]) == (2, 14)


def test_no_town_without_disc_trick_without_active_town_D1():
    full = {t: i % 3 for i, t in enumerate(DATA.town_names)}
    g = trick_game([[3, 6, 10], [1, 2, 4], [5, 8, 9]], towns=full, marker=0)
    assert g.view()["active_town"] is None
    assert legal(g) == ["lead 10", "lead 3", "lead 6"]
    g.apply(0, "lead 3")
    g.apply(1, "play 4")
    ev = g.apply(2, "play 5")
    # every card counts as matching, so the highest card wins
    won = next(e for e in ev if e.kind == "trick_won")
    assert won.seat == 2 and won.data["card"] == 5
    assert g.s["owner"] == owners(full)  # control only hands over the marker


def test_followers_play_any_card_clockwise_B18():
    g = trick_game([[2, 4, 11], [3, 6, 8], [5, 9, 10]], marker=1)
    assert g.acting_seats() == [1]
    g.apply(1, "active Tara")
    g.apply(1, "lead 3")
    assert g.acting_seats() == [2]
    assert legal(g) == ["play 10", "play 5", "play 9"]
    err = assert_unchanged(g, 0, "play 2", NotYourTurnError)
    assert err.rule is None
    err = assert_unchanged(g, 2, "play 2", IllegalActionError)
    assert err.rule == "B-18" and "not in your hand" in err.reason
    g.apply(2, "play 9")
    assert g.acting_seats() == [0]


def test_highest_matching_or_white_wins_B19():
    g = trick_game([[3, 4, 11], [19, 13, 6], [25, 9, 10]])
    g.apply(0, "active Tara")  # yellow: the leader must lead 3
    g.apply(1, "play 19")  # red, higher but not matching
    ev = g.apply(2, "play 9")  # blue
    won = next(e for e in ev if e.kind == "trick_won")
    assert won.seat == 0 and won.data["card"] == 3
    g = trick_game([[3, 4, 11], [19, 13, 6], [25, 9, 10]])
    g.apply(0, "active Tara")
    g.apply(1, "play 13")  # white beats yellow 3
    ev = g.apply(2, "play 25")  # yellow 25 beats white 13
    assert next(e for e in ev if e.kind == "trick_won").seat == 2


def test_resolution_lowest_first_losers_choose_B20():
    g = trick_game([[3, 4, 11], [19, 13, 6], [25, 9, 10]], coins=[0, 0, 0])
    g.apply(0, "active Tara")
    g.apply(1, "play 6")
    g.apply(2, "play 9")
    # yellow 6 beats yellow 3; resolution starts with card 3 (Daria, secondary)
    assert g.s["winner"] == 1
    assert g.acting_seats() == [0] and g.view()["pending"] == {"kind": "option", "seat": 0, "rule": "B-20",
                                                               "card": 3}
    assert legal(g) == ["option 1", "option 2"]
    err = assert_unchanged(g, 0, "extra 1", WrongPhaseError)
    assert err.rule == "B-20"
    ev = g.apply(0, "option 2")  # coin coin coin expand: 3 coins, expand impossible (no town)
    assert g.s["coins"][0] == 3
    assert [e.kind for e in ev if e.kind in ("main", "secondary")] == ["secondary", "main"]
    assert g.acting_seats() == [2]  # card 9: church church / free coin
    assert g.view()["pending"]["card"] == 9
    assert kinds(ev).count("gain") >= 1


def test_winner_leads_next_trick_B21():
    g = trick_game([[3, 4, 11], [19, 13, 6], [25, 9, 10]], coins=[0, 0, 0])
    g.apply(0, "active Tara")
    g.apply(1, "play 13")
    g.apply(2, "play 9")
    while g.view()["pending"]["kind"] not in ("active",):
        seat = g.acting_seats()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert g.s["owner"][TI["Tara"]] == 1 and g.view()["marker"] == 1
    assert g.acting_seats() == [1] and g.view()["leader"] == 1


def test_rulebook_trick_example_B24():
    # Daria leads red 11 for a red town of Connaught; Kasia red 2, Jerzy white 13, Piotr yellow 17
    g = trick_game([[11, 7, 1], [2, 5, 8], [13, 9, 12], [17, 10, 14]], towns={"Kildare": 1},
                   battle=5, coins=[4, 3, 3, 3])
    g.apply(0, "active Galway")
    g.apply(0, "lead 11")
    g.apply(1, "play 2")
    g.apply(2, "play 13")
    ev = g.apply(3, "play 17")
    assert next(e for e in ev if e.kind == "trick_won").seat == 2
    order = []
    # red 2 (Kasia, secondary): 3 coins then expand
    assert g.acting_seats() == [1] and g.view()["pending"]["card"] == 2
    ev = g.apply(1, "option 1")
    order += [(e.data["card"], e.kind) for e in ev if e.kind in ("main", "secondary")]
    assert g.s["coins"][1] == 6 and legal(g, 1) == ["expand Clonard", "expand Kilkenny", "expand Naas", "expand no"]
    ev = g.apply(1, "expand Naas")
    assert g.s["coins"][1] == 1 and g.s["owner"][TI["Naas"]] == 1
    # red 11 (Daria, secondary): take 2 invaders, pays 2 coins for one more
    assert g.view()["pending"]["card"] == 11
    ev = g.apply(0, "option 2")
    order += [(e.data["card"], e.kind) for e in ev if e.kind in ("main", "secondary")]
    assert legal(g, 0) == ["extra 0", "extra 1", "extra 2"]
    ev = g.apply(0, "extra 1")
    assert g.s["invaders"][0] == 3 and g.s["battle"] == 2 and g.s["coins"][0] == 2
    order += [(e.data["card"], e.kind) for e in ev if e.kind in ("main", "secondary")]
    # white 13 (Jerzy, main: control + 1 coin) resolved automatically, then yellow 17 (Piotr)
    assert g.s["owner"][TI["Galway"]] == 2 and g.view()["marker"] == 2 and g.s["coins"][2] == 4
    assert g.view()["pending"]["card"] == 17
    ev = g.apply(3, "option 1")
    order += [(e.data["card"], e.kind) for e in ev if e.kind in ("main", "secondary")]
    assert order == [(2, "secondary"), (11, "secondary"), (13, "main"), (17, "secondary")]


# --------------------------------------------------------------------------- symbols B-22, B-23


def sym_game(symbols: list, seat: int = 0, **kw) -> BrianBoruGame:
    """Run one action's symbols for ``seat`` (as a card would)."""
    return scenario(kw.pop("n", 4), tasks=[["sym", seat, name, k, arg] for name, k, arg in symbols], **kw)


def test_coin_renown_vp_symbols_B22():
    g = sym_game([("coin", 2, None), ("renown", 1, None), ("vp", 3, None)])
    assert (g.s["coins"][0], g.s["renown"][0], g.s["vp"][0]) == (5, 2, 13)


def test_pay_coin_then_vp_then_nothing_B22_B23():
    g = sym_game([("pay", 1, None)], coins=[1, 3, 3, 3], vp=[10] * 4)
    assert (g.s["coins"][0], g.s["vp"][0]) == (0, 10)
    g = sym_game([("pay", 1, None)], coins=[0, 3, 3, 3], vp=[10] * 4)
    assert (g.s["coins"][0], g.s["vp"][0]) == (0, 8)
    g = sym_game([("pay", 1, None)], coins=[0, 3, 3, 3], vp=[1, 10, 10, 10])
    assert (g.s["coins"][0], g.s["vp"][0]) == (0, 0)  # B-23 never below zero
    g = sym_game([("pay", 1, None)], coins=[0, 3, 3, 3], vp=[0, 10, 10, 10])
    assert (g.s["coins"][0], g.s["vp"][0]) == (0, 0)


def test_church_extra_discs_for_two_coins_each_B22():
    g = sym_game([("church", 2, None)], coins=[5, 0, 0, 0])
    assert legal(g) == ["extra 0", "extra 1", "extra 2"]
    err = assert_unchanged(g, 0, "extra 3", IllegalActionError)
    assert err.rule == "B-22" and "0 to 2" in err.reason
    g.apply(0, "extra 2")
    assert g.s["church"][0] == 4 and g.s["coins"][0] == 1
    g = sym_game([("church", 1, None)], coins=[1, 0, 0, 0])  # cannot pay: no question
    assert g.acting_seats() == [] and g.s["church"][0] == 1


def test_battle_takes_invaders_only_while_any_left_B22():
    g = sym_game([("battle", 2, None)], coins=[9, 0, 0, 0], battle=3)
    assert legal(g) == ["extra 0", "extra 1"]  # only 1 more is left to take
    g.apply(0, "extra 1")
    assert (g.s["invaders"][0], g.s["battle"], g.s["coins"][0]) == (3, 0, 7)
    g = sym_game([("battle", 3, None)], coins=[9, 0, 0, 0], battle=2)
    assert g.acting_seats() == [] and g.s["invaders"][0] == 2 and g.s["coins"][0] == 9
    g = sym_game([("battle", 1, None)], coins=[9, 0, 0, 0], battle=0)
    assert g.s["invaders"][0] == 0


def test_marriage_moves_up_nothing_at_top_B22():
    g = sym_game([("marriage", 2, None)], coins=[4, 0, 0, 0], track=[3, 1, 1, 1])
    assert legal(g) == ["extra 0", "extra 1", "extra 2"]
    g.apply(0, "extra 2")
    assert g.s["track"][0] == 7 and g.s["coins"][0] == 0
    g = sym_game([("marriage", 3, None)], coins=[9, 0, 0, 0], track=[7, 1, 1, 1])
    assert g.acting_seats() == [] and g.s["track"][0] == 9 and g.s["coins"][0] == 9
    g = sym_game([("marriage", 1, None)], coins=[9, 0, 0, 0], track=[9, 1, 1, 1])
    assert g.s["track"][0] == 9 and g.s["coins"][0] == 9


def test_marriage_track_slide_example_B22():
    # Piotr (seat 3) on 3 moves 3 spaces to 6 where Kasia stands; Jerzy is on 5 just below.
    base = dict(track=[1, 6, 5, 3], coins=[0, 0, 0, 4])
    g = sym_game([("marriage", 3, None)], seat=3, **base)
    assert legal(g, 3) == ["extra 0", "extra 1", "extra 2"]
    ev = g.apply(3, "extra 0")
    mv = next(e for e in ev if e.kind == "marriage")
    assert mv.data["reached"] == 6 and mv.data["slid"] and g.s["track"][3] == 4  # past Jerzy too
    g = sym_game([("marriage", 3, None)], seat=3, **base)
    g.apply(3, "extra 1")  # two more coins: one space beyond Kasia
    assert g.s["track"][3] == 7 and g.s["coins"][3] == 2


def test_marriage_slide_to_space_one_holds_any_B22():
    g = sym_game([("marriage", 1, None)], seat=0, track=[1, 2, 1, 1], coins=[0] * 4)
    assert g.s["track"][0] == 1  # 2 is taken, space 1 holds any number


def test_marriage_drop_checked_once_when_whole_action_is_resolved_B22(monkeypatch):
    # A data file may split marriage symbols inside one action ("marriage coin marriage"). The drop
    # is checked once, at the end (rulebook: "if at the end of resolving the action your disc would
    # stop on a taken space"), not after each symbol: 2 -> 3 (Kasia's space, no drop yet) -> 4.
    from engine.brianboru.data import Card, compile_symbols

    old = DATA.cards[17]
    split = compile_symbols("marriage coin marriage", DATA.region_index)
    assert [sym[0] for sym in split] == ["marriage", "coin", "marriage"]
    monkeypatch.setitem(DATA.cards, 17, Card(17, old.colour, old.main, (split,), old.main_text,
                                             ("marriage coin marriage",)))
    g = scenario(4, tasks=[["card", 0, 17]], winner=1, track=[2, 3, 1, 1], coins=[0] * 4)
    moves = [e.data for e in g._events if e.kind == "marriage"]  # the automatic steps' events
    assert g.s["track"][0] == 4 and g.s["coins"][0] == 1
    assert [(m["frm"], m["to"], m["slid"]) for m in moves] == [(2, 3, False), (3, 4, False)]
    # a disc that ends the action on a taken space still drops: 2 -> 3 -> 4 (Kasia's) -> 3
    g = scenario(4, tasks=[["card", 0, 17]], winner=1, track=[2, 4, 1, 1], coins=[0] * 4)
    moves = [e.data for e in g._events if e.kind == "marriage"]
    assert g.s["track"][0] == 3 and moves[-1]["reached"] == 4 and moves[-1]["slid"]
    # reaching the top space (Kasia's) first: the last symbol does nothing, but the drop is checked
    g = scenario(4, tasks=[["card", 0, 17]], winner=1, track=[8, 9, 1, 1], coins=[0] * 4)
    assert g.s["track"][0] == 8 and "nothing" in kinds(g._events)
    # with the house cards the marriage symbols of an action are adjacent: one move, one drop
    g = sym_game([("marriage", 3, None)], seat=0, track=[3, 6, 5, 4], coins=[0] * 4)
    assert g.s["track"][0] == 3


def test_expand_pays_five_for_road_neighbour_B22():
    g = sym_game([("expand", 1, None)], towns={"Tara": 0, "Kells": 1, "Dublin": 0},
                 vikings=("Dublin",), coins=[5, 0, 0, 0], active=TI["Drogheda"])
    # Tara's roads: Drogheda (active-town marker), Kells (disc), Dublin (own, but Viking)
    assert legal(g) == []  # no target: nothing asked
    g = sym_game([("expand", 1, None)], towns={"Tara": 0, "Kells": 1}, coins=[5, 0, 0, 0])
    assert legal(g) == ["expand Drogheda", "expand Dublin", "expand no"]
    g2 = sym_game([("expand", 1, None)], towns={"Tara": 0}, coins=[5, 0, 0, 0], active=TI["Drogheda"])
    err = assert_unchanged(g2, 0, "expand Drogheda", IllegalActionError)
    assert "active-town marker" in err.reason
    err = assert_unchanged(g, 0, "expand Cork", IllegalActionError)
    assert err.rule == "B-22" and "road" in err.reason
    g.apply(0, "expand Dublin")
    assert g.s["owner"][TI["Dublin"]] == 0 and g.s["coins"][0] == 0
    g = sym_game([("expand", 1, None)], towns={"Tara": 0}, coins=[4, 0, 0, 0])
    assert g.acting_seats() == []  # fewer than 5 coins
    g = sym_game([("expand", 1, None)], towns={"Tara": 0}, coins=[7, 0, 0, 0])
    g.apply(0, "expand no")
    assert g.s["coins"][0] == 7


def test_free_removes_chosen_viking_marker_B22():
    g = sym_game([("free", 1, None)], towns={"Tara": 1, "Cork": 2}, vikings=("Tara", "Cork"))
    assert legal(g) == ["free Cork", "free Tara"]
    err = assert_unchanged(g, 0, "free Dublin", IllegalActionError)
    assert "no Viking" in err.reason
    ev = g.apply(0, "free Cork")
    assert not g.s["viking"][TI["Cork"]] and g.s["owner"][TI["Cork"]] == 2
    assert ev[0].kind == "freed" and ev[0].data["owner"] == 2
    g = sym_game([("free", 1, None), ("coin", 1, None)])
    assert g.acting_seats() == [] and g.s["coins"][0] == 4  # no marker: nothing, then the coin


def test_any_town_and_town_in_region_B22():
    g = sym_game([("any town", 1, None)], towns={"Tara": 1})
    assert "town Tara" not in legal(g) and len(legal(g)) == 37
    g.apply(0, "town Cork")
    assert g.s["owner"][TI["Cork"]] == 0
    ossory = DATA.region_index["ossory"]
    g = sym_game([("town in", 1, ossory)], towns={"Kilkenny": 1})
    assert legal(g) == ["town Aghaboe", "town Gowran"]
    err = assert_unchanged(g, 0, "town Cork", IllegalActionError)
    assert err.rule == "B-26" and "Ossory" in err.reason
    g = sym_game([("town in", 1, ossory)], towns={"Kilkenny": 1, "Aghaboe": 2, "Gowran": 2})
    assert g.acting_seats() == []  # none left: nothing


def test_single_choice_taken_automatically_B22():
    g = sym_game([("free", 1, None)], towns={"Tara": 1}, vikings=("Tara",))
    assert g.acting_seats() == [] and not g.s["viking"][TI["Tara"]]


# --------------------------------------------------------------------------- upkeep B-25 … B-31


def test_marriage_highest_takes_card_others_bonus_B25():
    g = scenario(4, tasks=[["marriage"]], track=[2, 5, 8, 1], marriage_revealed="royal-feast")
    # Kasia (5) is not highest: Jerzy on 8 takes it, gains 4 VP + renown, back to space 1
    assert g.s["marriages"][2] == ["royal-feast"] and g.s["track"][2] == 1
    assert g.s["vp"][2] == 14 and g.s["renown"][2] == 2
    assert g.s["coins"][0] == 4  # space 2: coin
    assert g.s["renown"][1] == 2  # space 5: renown
    assert g.s["coins"][3] == 3 and g.s["renown"][3] == 1  # space 1: nothing


def test_marriage_all_on_space_one_card_leaves_B25():
    g = scenario(4, tasks=[["marriage"]], track=[1, 1, 1, 1], marriage_revealed="bards")
    assert all(m == [] for m in g.s["marriages"]) and "bards" in g.s["marriage_out"]


def test_marriage_track_any_town_bonus_B25():
    g = scenario(4, tasks=[["marriage"]], track=[9, 7, 1, 1], marriage_revealed="bards")
    assert g.acting_seats() == [1] and g.view()["pending"]["why"] == "any town"
    g.apply(1, "town Cork")
    assert g.s["owner"][TI["Cork"]] == 1 and g.s["track"][0] == 1 and g.s["track"][1] == 7


def test_marriage_card_rewards_town_in_region_B26():
    g = scenario(4, tasks=[["marriage"]], track=[3, 1, 1, 1], marriage_revealed="northern-match")
    assert g.acting_seats() == [0] and legal(g) == ["town Antrim", "town Bangor", "town Downpatrick",
                                                    "town Newry"]
    g.apply(0, "town Bangor")
    assert legal(g) == ["town Armagh", "town Clogher", "town Monaghan"]
    g.apply(0, "town Armagh")
    assert g.s["owner"][TI["Bangor"]] == 0 and g.s["owner"][TI["Armagh"]] == 0


def test_princess_refuse_gives_four_vp_B27():
    g = scenario(4, tasks=[["marriage"]], track=[1, 4, 1, 1], marriage_revealed="princess")
    assert legal(g, 1) == ["princess refuse", "princess support", "princess trade"]
    g.apply(1, "princess refuse")
    assert g.s["vp"][1] == 14 and g.s["marriages"][1] == [] and g.s["princess"] is None


def test_princess_military_support_counts_viking_towns_B27_B31():
    towns = {"Cork": 1, "Limerick": 1, "Kincora": 1, "Emly": 0, "Cashel": 0}
    g = scenario(4, tasks=[["marriage"], ["regions"]], track=[5, 1, 1, 1], marriage_revealed="princess",
                 towns=towns, vikings=("Cork", "Limerick", "Kincora"))
    g.apply(0, "princess support")
    munster = DATA.region_index["munster"]
    assert g.s["claim_up"][munster] and g.s["claim_owner"][munster] == 0  # 2 own + 3 Viking towns
    assert g.view()["players"][0]["princess"] == "support" and g.view()["players"][0]["marriages"] == ["princess"]


def test_princess_trade_not_for_region_control_B27_B31():
    towns = {"Cork": 1, "Limerick": 1, "Kincora": 1, "Emly": 0, "Cashel": 0}
    g = scenario(4, tasks=[["regions"]], towns=towns, vikings=("Cork", "Limerick", "Kincora"),
                 princess=[0, "trade"])
    munster = DATA.region_index["munster"]
    assert g.s["claim_up"][munster] and g.s["claim_owner"][munster] == -1  # Vikings 3 v 2: stays on the board


def test_princess_trade_counts_for_region_score_only_B27():
    from engine.brianboru import PlayerPosition, Position, final_scoring

    def pos(choice):
        return Position(players=[PlayerPosition("A", towns=["Tara"], princess=choice),
                                 PlayerPosition("B", towns=["Cork", "Dublin", "Sligo"])],
                        vikings={"Cork", "Dublin", "Sligo"}, claims_on_board=set())
    trade = final_scoring(pos("trade"))["players"][0]
    none = final_scoring(pos(None))["players"][0]
    assert trade["vp"] - none["vp"] == 1  # 4 regions (1 VP) instead of 1
    assert "towns in 4 regions: +1 (B-33.6)" in english(trade["lines"])


def test_battle_fewest_lose_town_most_chooses_B28():
    g = scenario(4, tasks=[["battle"]], battle=3, invaders=[5, 1, 1, 2],
                 towns={"Tara": 1, "Kells": 1, "Cork": 2}, marker=0)
    # Kasia and Jerzy (1 each) lose a town; Daria (single most) chooses both
    assert g.acting_seats() == [0] and g.view()["pending"]["victim"] == 1
    assert legal(g) == ["raid Kells", "raid Tara"]
    err = assert_unchanged(g, 0, "raid Cork", IllegalActionError)
    assert err.rule == "B-28"
    g.apply(0, "raid Tara")
    # Jerzy's only town goes without a question
    assert g.s["viking"][TI["Tara"]] and g.s["viking"][TI["Cork"]] and g.s["battle"] == 0


def test_battle_tie_for_most_losers_choose_own_B28():
    g = scenario(4, tasks=[["battle"]], battle=2, invaders=[3, 3, 0, 1],
                 towns={"Tara": 2, "Kells": 2, "Cork": 0})
    assert g.acting_seats() == [2] and g.view()["pending"]["victim"] == 2
    g.apply(2, "raid Kells")
    assert g.s["viking"][TI["Kells"]] and not g.s["viking"][TI["Tara"]]


def test_battle_loser_without_town_loses_nothing_and_repelled_B28():
    g = scenario(4, tasks=[["battle"]], battle=2, invaders=[3, 1, 0, 1], towns={"Tara": 1})
    assert g.acting_seats() == [] and not any(g.s["viking"]) and g.s["battle"] == 0
    g = scenario(4, tasks=[["battle"]], battle=0, invaders=[3, 1, 0, 1], towns={"Tara": 2})
    assert not any(g.s["viking"])


def test_spoils_single_most_then_all_tied_most_B29():
    g = scenario(4, tasks=[["spoils"]], invaders=[4, 2, 2, 1], renown=[2, 1, 1, 1], vp=[10] * 4)
    # Daria: renown 3 then +3 VP, returns all 4; then Kasia and Jerzy tie on 2: +1 VP, return 1
    assert g.s["renown"] == [3, 1, 1, 1]
    assert g.s["vp"] == [13, 11, 11, 10] and g.s["invaders"] == [0, 1, 1, 1]


def test_spoils_tie_for_most_skips_first_step_B29():
    g = scenario(4, tasks=[["spoils"]], invaders=[3, 3, 0, 1], renown=[1] * 4, vp=[10] * 4)
    assert g.s["renown"] == [1] * 4 and g.s["vp"] == [11, 11, 10, 10] and g.s["invaders"] == [2, 2, 0, 1]
    g = scenario(4, tasks=[["spoils"]], invaders=[0] * 4, vp=[10] * 4)
    assert g.s["vp"] == [10] * 4


def test_church_single_most_monastery_and_marker_B30():
    g = scenario(4, tasks=[["church"], ["church_most"], ["church_four"]], church=[3, 2, 2, 0],
                 towns={"Tara": 0, "Cork": 0, "Dublin": 1}, monasteries=("Cork",), marker=3)
    # only Tara can take a monastery: taken automatically
    assert g.s["monastery"][TI["Tara"]] and g.view()["marker"] == 0
    # then Kasia and Jerzy tie for most (2): 1 VP and 1 disc back each
    assert g.s["church"] == [0, 1, 1, 0] and g.s["vp"] == [10, 11, 11, 10]


def test_church_tie_for_most_then_four_discs_clockwise_B30():
    g = scenario(4, tasks=[["church"], ["church_most"], ["church_four"]], church=[5, 5, 4, 1],
                 towns={"Tara": 0, "Kells": 0, "Cork": 2, "Dublin": 1}, marker=2)
    # tie on 5: nobody; all with 5 get 1 VP and return 1 -> [4, 4, 4, 1];
    # then clockwise from Jerzy (marker): Jerzy (auto Cork), Piotr (<4), Daria chooses, Kasia (auto)
    assert g.s["vp"] == [11, 11, 10, 10]
    assert g.s["monastery"][TI["Cork"]]
    assert g.acting_seats() == [0] and legal(g) == ["monastery Kells", "monastery Tara"]
    err = assert_unchanged(g, 0, "monastery Cork", IllegalActionError)
    assert err.rule == "B-30"
    g.apply(0, "monastery Kells")
    assert g.s["church"] == [0, 0, 0, 1] and g.s["monastery"][TI["Dublin"]]


def test_church_four_without_town_keeps_discs_B30():
    g = scenario(4, tasks=[["church_four"]], church=[4, 0, 0, 0], towns={"Tara": 0}, monasteries=("Tara",))
    assert g.s["church"][0] == 4
    g = scenario(4, tasks=[["church"]], church=[4, 0, 0, 0], towns={})
    assert g.s["church"][0] == 0 and g.view()["marker"] == 0  # first step returns them anyway


def test_region_threshold_reveals_claim_B31():
    meath = DATA.region_index["meath"]  # threshold 3
    g = scenario(4, tasks=[["regions"]], towns={"Tara": 0, "Kells": 1})
    assert not g.s["claim_up"][meath]
    g = scenario(4, tasks=[["regions"]], towns={"Tara": 0, "Kells": 1, "Drogheda": 1})
    assert g.s["claim_up"][meath] and g.s["claim_owner"][meath] == 1


def test_region_monastery_counts_two_B31():
    meath = DATA.region_index["meath"]
    g = scenario(4, tasks=[["regions"]], towns={"Tara": 0, "Kells": 1, "Drogheda": 1}, monasteries=("Tara",))
    assert g.s["claim_up"][meath] and g.s["claim_owner"][meath] == -1  # 2 v 2: tie, stays on the board
    g = scenario(4, tasks=[["regions"]], towns={"Tara": 0, "Kells": 1}, monasteries=("Tara",))
    assert g.s["claim_owner"][meath] == 0  # 3 reached with the monastery; 2 v 1


def test_region_tie_keeps_token_vikings_return_it_B31():
    meath = DATA.region_index["meath"]
    up = [False] * 8
    up[meath] = True
    owner = [-1] * 8
    owner[meath] = 2
    g = scenario(4, tasks=[["regions"]], towns={"Tara": 0, "Kells": 1}, claim_up=up, claim_owner=owner)
    assert g.s["claim_owner"][meath] == 2  # tie 1 v 1 (and Jerzy 0): stays with Jerzy
    g = scenario(4, tasks=[["regions"]], towns={"Tara": 0, "Kells": 1, "Clonard": 1}, vikings=("Kells", "Clonard"),
                 claim_up=up, claim_owner=owner)
    assert g.s["claim_owner"][meath] == -1  # the Vikings control strictly the most: back to the board


# --------------------------------------------------------------------------- final scoring B-33, B-34


def test_final_scoring_steps_in_order_B33():
    from engine.brianboru import parse_position
    from engine.brianboru.scoring import final_scoring

    pos = parse_position(
        "claims-on-board: meath\n"
        "player: A coins=5 vp=20 renown=2 marker\n"
        "towns: Tara Cork Dublin Sligo Aileach\n"
        "claims: munster\n"
        "---\n"
        "player: B coins=3 vp=21\n"
        "towns: Kells Galway\n"
    )
    res = final_scoring(pos)
    a, b = res["players"]
    assert english(a["lines"]) == [
        "before final scoring: 20 VP",
        "most coins (5): +1 (B-33.1)",
        "active-town marker: +1 (B-33.2)",
        "renown x2: +2 (B-33.3)",
        "claim Munster: +8 (B-33.4)",
        "half claim Meath (tied, 1 towns): +2 (B-33.5)",
        "towns in 5 regions: +3 (B-33.6)",
        "total: 37 VP",
    ]
    assert a["vp"] == 37 and b["vp"] == 21 + 2  # B: half Meath, 2 regions (0)
    assert res["winners"] == ["A"]


def test_half_claim_nothing_when_vikings_lead_D2():
    from engine.brianboru import parse_position
    from engine.brianboru.scoring import final_scoring

    pos = parse_position("claims-on-board: meath\nplayer: A\ntowns: Tara Kells! Clonard!\n---\nplayer: B\n")
    assert final_scoring(pos)["players"][0]["vp"] == 0
    pos = parse_position("claims-on-board: meath\nplayer: A princess=support\ntowns: Tara Kells! Clonard!\n"
                         "---\nplayer: B\ntowns: Drogheda\n")
    assert final_scoring(pos)["players"][0]["vp"] == 2  # support: the Viking towns count as A's


def test_coins_tie_gives_nobody_B33():
    from engine.brianboru import parse_position
    from engine.brianboru.scoring import final_scoring

    res = final_scoring(parse_position("player: A coins=4\n---\nplayer: B coins=4\n"))
    assert all(p["vp"] == 0 for p in res["players"])


def test_tie_breaks_claims_then_marriages_then_shared_B34():
    from engine.brianboru import parse_position
    from engine.brianboru.scoring import final_scoring

    def winners(text):
        res = final_scoring(parse_position(text))
        assert len({p["vp"] for p in res["players"]}) == 1  # all tied on VP
        return res["winners"]

    # 5 + Ulaid (5) = 10 against 10: the claim token decides
    assert winners("player: A vp=5\nclaims: ulaid\n---\nplayer: B vp=10 marriages=4\n") == ["A"]
    # same VP, no claims: most marriage cards
    assert winners("player: A vp=10 marriages=1\n---\nplayer: B vp=10 marriages=2\n") == ["B"]
    # still tied: shared
    assert winners("player: A vp=10 marriages=1\n---\nplayer: B vp=10 marriages=1\n") == ["A", "B"]


def test_game_winners_are_scored_seats_B34():
    g = scenario(3, tasks=[["round_end"]], marriage_stack=[], vp=[12, 9, 12], renown=[0, 0, 0],
                 coins=[0, 0, 0], marriages=[["bards"], [], []], marker=1)
    assert g.is_over and g.winners() == [0]
    final = g.view()["final"]
    assert [p["vp"] for p in final["players"]] == [12, 10, 12] and final["winners"] == ["Daria"]


# --------------------------------------------------------------------------- corrected rules and [D-4] … [D-12]


def test_pay_without_coin_and_one_vp_costs_that_vp_B23_D5():
    g = sym_game([("pay", 1, None)], coins=[0, 3, 3, 3], vp=[1, 10, 10, 10])
    assert (g.s["coins"][0], g.s["vp"][0]) == (0, 0)
    assert [(e.kind, e.data) for e in g._events] == [("pay", {"vp": 1})]
    g = sym_game([("pay", 2, None)], coins=[1, 3, 3, 3], vp=[3, 10, 10, 10])  # a coin, then 2 of 3 VP
    assert (g.s["coins"][0], g.s["vp"][0]) == (0, 1)
    g = sym_game([("pay", 1, None)], coins=[0, 3, 3, 3], vp=[0, 10, 10, 10])  # no VP: no effect
    assert (g.s["coins"][0], g.s["vp"][0]) == (0, 0) and kinds(g._events) == []


def test_all_discs_on_space_one_revealed_card_leaves_and_no_bonus_B25_D6():
    g = scenario(4, tasks=[["marriage"]], track=[1, 1, 1, 1], marriage_revealed="royal-feast")
    stack = list(g.s["marriage_stack"])
    before = {k: list(g.s[k]) for k in ("coins", "vp", "renown", "owner")}
    assert g.s["marriage_revealed"] is None and g.s["marriage_out"][-1] == "royal-feast"
    assert g.s["marriage_stack"] == stack  # the revealed card leaves, not the next one of the stack
    assert all(m == [] for m in g.s["marriages"]) and g.acting_seats() == []
    assert {k: list(g.s[k]) for k in before} == before and kinds(g._events) == ["marriage_lost"]


def test_raid_on_player_without_town_takes_nothing_B28_D7():
    # Kasia's only disc is already under a Viking marker, Piotr has no disc: both lose nothing;
    # Jerzy, with the same fewest invaders, still loses his town.
    g = scenario(4, tasks=[["battle"]], battle=2, invaders=[3, 0, 0, 0],
                 towns={"Tara": 1, "Cork": 2, "Sligo": 0}, vikings=("Tara",), marker=0)
    assert g.acting_seats() == [] and g.s["battle"] == 0
    assert [TI[t] for t in ("Tara", "Cork")] == [x for x in range(len(DATA.town_names)) if g.s["viking"][x]]
    assert [e.seat for e in g._events if e.kind == "raid_nothing"] == [1, 3]
    assert g.s["owner"][TI["Tara"]] == 1 and not g.s["viking"][TI["Sligo"]]


def test_raids_settled_clockwise_from_marker_holder_D11():
    towns = {"Tara": 1, "Kells": 1, "Cork": 3, "Lismore": 3}
    g = scenario(4, tasks=[["battle"]], battle=2, invaders=[2, 0, 2, 0], towns=towns, marker=2)
    # tie for most (Daria, Jerzy): each loser chooses their own, clockwise from Jerzy: Piotr, then Kasia
    assert g.acting_seats() == [3] and g.view()["pending"]["victim"] == 3
    g.apply(3, "raid Cork")
    assert g.acting_seats() == [1] and g.view()["pending"]["victim"] == 1
    g.apply(1, "raid Kells")
    assert g.s["viking"][TI["Cork"]] and g.s["viking"][TI["Kells"]]


def test_any_town_track_bonuses_clockwise_from_the_takers_D11():
    g = scenario(4, tasks=[["marriage"]], track=[7, 1, 9, 8], marriage_revealed="bards")
    assert g.s["marriages"][2] == ["bards"]  # Jerzy (9) takes it
    assert g.acting_seats() == [3]  # then Piotr (8), then Daria (7): clockwise from Jerzy
    g.apply(3, "town Cork")
    assert g.acting_seats() == [0]
    g.apply(0, "town Tara")
    assert g.acting_seats() == [] and g.s["owner"][TI["Cork"]] == 3 and g.s["owner"][TI["Tara"]] == 0


def test_church_most_discs_takes_back_all_without_monastery_B30():
    # Daria has the single most discs but no town: no monastery, yet the marker and all discs back
    g = scenario(4, tasks=[["church"]], church=[5, 2, 0, 0], towns={"Cork": 1}, marker=3)
    assert g.acting_seats() == [] and not any(g.s["monastery"])
    assert g.s["church"][0] == 0 and g.view()["marker"] == 0
    # ... also when every town she controls already has one
    g = scenario(4, tasks=[["church"]], church=[5, 2, 0, 0], towns={"Tara": 0}, monasteries=("Tara",), marker=3)
    assert g.s["church"][0] == 0 and g.view()["marker"] == 0


def test_church_second_step_needs_at_least_one_disc_D8():
    g = scenario(4, tasks=[["church_most"]], church=[0, 0, 0, 0], vp=[10] * 4)
    assert g.s["vp"] == [10] * 4 and g.s["church"] == [0] * 4
    g = scenario(4, tasks=[["church_most"]], church=[1, 0, 1, 0], vp=[10] * 4)
    assert g.s["vp"] == [11, 10, 11, 10] and g.s["church"] == [0] * 4


def test_church_only_placer_takes_back_discs_B30():
    # step 1: Daria (6) alone; step 2: Kasia and Jerzy (5) tie: +1 VP, 4 left each;
    # step 3 clockwise from Daria (now the marker holder): Kasia places and takes back all,
    # Jerzy has no town without a monastery and keeps his 4.
    g = scenario(4, tasks=[["church"], ["church_most"], ["church_four"]], church=[6, 5, 5, 0],
                 towns={"Tara": 0, "Cork": 1, "Dublin": 2}, monasteries=("Dublin",), marker=3, vp=[10] * 4)
    assert g.acting_seats() == []
    assert g.s["monastery"][TI["Tara"]] and g.s["monastery"][TI["Cork"]]
    assert g.s["church"] == [0, 0, 4, 0] and g.s["vp"] == [10, 11, 11, 10]
    assert [e.seat for e in g._events if e.kind == "no_monastery"] == [2]


def test_claim_tie_between_vikings_and_players_leaves_token_D9():
    meath = DATA.region_index["meath"]
    up = [False] * 8
    up[meath] = True
    owner = [-1] * 8
    owner[meath] = 2
    towns = {"Tara": 0, "Kells": 1}
    g = scenario(4, tasks=[["regions"]], towns=towns, vikings=("Kells",), claim_up=up, claim_owner=owner)
    assert g.s["claim_owner"][meath] == 2  # Vikings 1 v Daria 1: stays in front of Jerzy
    g = scenario(4, tasks=[["regions"]], towns=towns, vikings=("Kells",), claim_up=up, claim_owner=[-1] * 8)
    assert g.s["claim_owner"][meath] == -1  # ... or on the board
    assert not any(e.kind == "claim" for e in g._events)


def test_half_claim_tie_counts_monastery_as_two_D10():
    from engine.brianboru import parse_position
    from engine.brianboru.scoring import final_scoring

    text = "claims-on-board: meath\nplayer: A\ntowns: {a}\n---\nplayer: B\ntowns: Kells Drogheda\n"
    res = final_scoring(parse_position(text.format(a="Tara+")))  # 2 v 2: both tied for most
    assert [p["vp"] for p in res["players"]] == [2, 2]
    assert "half claim Meath (tied, 2 towns): +2 (B-33.5)" in english(res["players"][0]["lines"])
    res = final_scoring(parse_position(text.format(a="Tara")))  # 1 v 2: B alone
    assert [p["vp"] for p in res["players"]] == [0, 2]


@pytest.mark.parametrize("choice,cards", [("support", 1), ("trade", 1), ("refuse", 0)])
def test_kept_princess_is_a_marriage_card_refused_is_not_B34_D12(choice, cards):
    refuse_vp = 4 if choice == "refuse" else 0  # B-27.3: refusing gives 4 VP
    g = scenario(3, tasks=[["marriage"], ["round_end"]], track=[1, 5, 1], marriage_revealed="princess",
                 marriage_stack=[], vp=[14, 14 - refuse_vp, 0], renown=[0, 0, 0], coins=[0, 0, 0],
                 marriages=[["bards"], [], []], marker=2)
    g.apply(1, f"princess {choice}")
    assert g.is_over and g.position().players[1].marriages == cards
    assert ("princess" in g.s["marriage_out"]) == (choice == "refuse")
    final = g.view()["final"]
    assert [p["vp"] for p in final["players"]][:2] == [14, 14]  # tied on VP, no claims:
    assert g.winners() == ([0, 1] if cards else [0])  # 1 v 1 marriage cards: shared; 1 v 0: Daria
