"""The progress variant: auction (V-40 … V-43), single sailor (V-44), special tiles (V-45 … V-49)."""

from __future__ import annotations

import pytest

from engine.core import IllegalActionError
from engine.vikings import VikingsGame, normalise_options
from engine.vikings.scoring import Purse, final_scoring, major_scoring, small_scoring
from tests.vikings_helpers import homeland, new_game, set_homeland, set_wheel, snapshot


def texts(actions) -> list[str]:
    return [str(a) for a in actions]


# ---------------------------------------------------------------- options


def test_options_named_and_advanced_is_all_three_V40():
    assert normalise_options({"advanced": True}) == {
        "ships_any_order": True,
        "auction": True,
        "single_sailor": True,
        "specials": True,
    }
    assert normalise_options({"single-sailor": True})["single_sailor"] is True
    with pytest.raises(ValueError, match="unknown Vikings option 'bogus'"):
        normalise_options({"bogus": True})
    g = new_game(3, seed=4, auction=True, specials=True)
    again = VikingsGame.from_json(g.to_json())
    assert again.options == g.options and snapshot(again) == snapshot(g)


# ---------------------------------------------------------------- auction V-40 … V-43


def auction_game(n=3, start=0, seed=2, **opts):
    g = new_game(n, seed=seed, start_seat=start, auction=True, **opts)
    assert g.phase == "bid"
    return g


def test_thirteen_vikings_drawn_sorted_not_laid_V40():
    g = auction_game()
    assert len(g.drawn) == 13 and g.drawn == sorted(g.drawn, key="FGSNWB".index)
    assert g.wheel == [None] * 12  # nothing laid out yet: not the vikings, not the tiles (V-42)
    assert g.viking_count() == 78 and g.tile_count() == 76


def test_tiles_laid_out_only_after_the_removal_V42_V10():
    g = auction_game(start=0)
    stack = list(g.stacks[0])
    assert len(g.stacks) == 6  # round 1's stack is still face down
    for seat in (0, 1, 2):
        g.apply(seat, "pass")
    assert g.phase == "remove" and g.wheel == [None] * 12 and len(g.stacks) == 6
    g.apply(0, f"remove {g.drawn[0]}")
    assert len(g.stacks) == 5 and g.tile_count() == 76
    islands = [t for t in stack if t[0] != "^"]
    ships = [t for t in stack if t[0] == "^"]
    assert [c[0] for c in g.wheel[: len(islands)]] == islands  # V-10: islands from 0 up
    assert [c[0] for c in g.wheel[::-1][: len(ships)]] == ships  # ships from 11 down
    assert all(c[1] == "" for c in g.wheel)  # the vikings follow, kind by kind


def test_start_player_who_opens_by_passing_has_dropped_out_D11_V41():
    g = auction_game(start=0)
    g.apply(0, "pass")
    g.apply(1, "bid 1")
    g.apply(2, "bid 2")
    assert g.turn == 1  # the start player is not asked again
    g.apply(1, "bid 3")
    assert g.turn == 2
    g.apply(2, "pass")
    assert g.start_player == 1 and g.phase == "remove"


def test_other_reading_of_D11_asks_a_passing_start_player_again(monkeypatch):
    from engine.vikings.data import AUCTION

    monkeypatch.setitem(AUCTION, "opening_pass_drops_out", False)
    g = auction_game(start=0)
    g.apply(0, "pass")  # "bid nothing": still in
    g.apply(1, "bid 1")
    g.apply(2, "pass")
    assert g.turn == 0 and g.phase == "bid"
    g.apply(0, "bid 2")
    g.apply(1, "pass")
    assert g.start_player == 0 and g.phase == "remove"
    g2 = auction_game(start=0)
    for seat in (0, 1, 2):
        g2.apply(seat, "pass")
    assert g2.start_player == 0 and g2.phase == "remove"  # nobody bid: stays, free


def test_nobody_bids_start_player_stays_free_V41():
    g = auction_game(start=1)
    gold = list(g.gold)
    assert g.acting_seats() == [1]  # the start player bids first
    for seat in (1, 2, 0):
        g.apply(seat, "pass")
    assert g.start_player == 1 and g.gold == gold and g.phase == "remove" and g.turn == 1


def test_one_bid_then_everyone_drops_V41():
    g = auction_game(start=0)
    g.apply(0, "pass")
    g.apply(1, "bid 3")
    g.apply(2, "pass")
    assert g.start_player == 1 and g.gold[1] == 25 - 3 and g.phase == "remove" and g.turn == 1


def test_several_raising_rounds_V41():
    g = auction_game(start=0)
    g.apply(0, "bid 1")
    g.apply(1, "bid 2")
    g.apply(2, "bid 4")
    g.apply(0, "bid 5")
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(1, "bid 5")  # must be more than the highest bid
    assert e.value.rule == "V-41" and snapshot(g) == before
    g.apply(1, "pass")  # drops out for the rest of this auction
    g.apply(2, "bid 6")
    assert g.turn == 0  # bob is out: alice is asked next
    g.apply(0, "pass")
    assert g.start_player == 2 and g.gold[2] == 19


def test_bid_covered_by_exchanging_vp_V41():
    g = auction_game(start=0)
    g.gold[0] = 2
    assert "bid 12" in texts(g.legal_actions(0)) and "bid 13" not in texts(g.legal_actions(0))
    events = g.apply(0, "bid 12")
    g.apply(1, "pass")
    events += g.apply(2, "pass")
    assert g.gold[0] == 0 and g.vp[0] == 0
    assert any(e.kind == "exchange" and e.data == {"vp": 10} for e in events)


def test_start_player_stays_at_round_end_with_auction_D8():
    g = auction_game(n=2, start=1)
    g.apply(1, "pass")
    g.apply(0, "pass")
    while g.round == 1:
        g.apply(g.turn, g.legal_actions()[-1] if g.phase in ("bid",) else g.legal_actions()[0])
    assert g.start_player == 1  # not passed to the left [D-8]


def test_removed_viking_leaves_game_kinds_laid_high_first_then_buying_V42_V43_D9():
    g = auction_game(start=0)
    for seat in (0, 1, 2):
        g.apply(seat, "pass")
    kinds = sorted(set(g.drawn), key="FGSNWB".index)
    assert texts(g.legal_actions(0)) == [f"remove {k}" for k in kinds]
    k = g.drawn[0]
    g.apply(0, f"remove {k}")
    assert g.out_vikings == [k] and g.removed == [k] and g.viking_count() == 78
    # the start player, then clockwise, each lays one kind on the highest free positions
    first = g.drawn[-1]
    count = g.drawn.count(first)
    g.apply(0, f"lay {first}")
    assert [c[1] for c in g.wheel[12 - count :]] == [first] * count
    assert g.turn == 1
    with pytest.raises(IllegalActionError) as e:
        g.apply(1, f"lay {first}")  # only kinds still on offer
    assert e.value.rule == "V-42"
    while g.phase == "lay":
        g.apply(g.turn, g.legal_actions()[0])
    assert g.phase == "buy" and g.turn == 0  # V-43: buying starts with the start player
    assert all(c[1] for c in g.wheel)


# ---------------------------------------------------------------- single sailor V-44 and boat V-49


def test_boat_lets_one_sailor_move_as_in_basic_game_V44_V49():
    g = new_game(2, single_sailor=True, specials=True)
    set_homeland(g, 0, "N: L Ma R\nS: L R\nbase: N3 S1 B1\nspecials: boat")
    g.round, g.phase, g.turn, g.sail_queue = 2, "sail", 0, [0, 1]
    acts = texts(g.legal_actions(0))
    assert "sail boat N1" in acts and "sail N1" in acts
    g.apply(0, "sail boat N1")
    assert "boat" not in g.homelands[0].specials and "boat" in g.out_specials
    g.apply(0, "sail N2")
    g.apply(0, "sail N3")  # all of one kind with one sailor thanks to the boat
    assert g.homelands[0].rows[2] == ["L*", "Ma*", "R*"]


# ---------------------------------------------------------------- special tiles V-45 … V-49


def specials_game(n=2, seed=3):
    return new_game(n, seed=seed, specials=True)


def test_display_of_four_refilled_each_round_V45():
    g = specials_game()
    assert len([s for s in g.special_display if s]) == 4
    assert sum(len(s) for s in g.special_stacks) == 21
    assert "specials_stacks" in g.view(0) and "special_stacks" not in g.view(0)


def _buy_most_expensive(g, seat=0):
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 4: ("^r", "N")})
    g.apply(seat, "buy 4")


def test_take_special_only_with_most_expensive_combo_V46():
    g = specials_game()
    set_homeland(g, 0, "W: L")
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 4: ("^r", "N")})
    g.apply(0, "buy 1")
    assert g.phase == "place"  # not the most expensive: no special tile
    g2 = specials_game()
    set_homeland(g2, 0, "W: L")
    shown = [s for s in g2.special_display if s]
    _buy_most_expensive(g2)
    assert g2.phase == "special"
    assert texts(g2.legal_actions(0)) == [f"special {s}" for s in sorted(set(shown))] + ["special none"]
    g2.apply(0, "special none")
    assert g2.phase == "place"
    g3 = specials_game()
    set_homeland(g3, 0, "W: L")
    set_wheel(g3, {0: ("L", "F")})  # the last combo stands at 0: no special tile
    g3.apply(0, "buy 0")
    assert g3.phase == "place"


def _take(g, name, seat=0):
    g.special_display[0] = name
    _buy_most_expensive(g, seat)
    return g.apply(seat, f"special {name}")


def test_special_gold5_at_once_V49():
    g = specials_game()
    set_homeland(g, 0, "W: L")
    gold = g.gold[0]
    _take(g, "gold5")
    assert g.gold[0] == gold - 4 + 5 and "gold5" in g.out_specials and not g.homelands[0].specials
    assert g.special_display[0] is None  # stays empty until the next round (V-45)


@pytest.mark.parametrize("name,per", [("goldsmith1", 1), ("goldsmith2", 2)])
def test_special_goldsmith_gold_small_and_major_not_final_V49(name, per):
    h = homeland(f"G: L* R*\nspecials: {name}")
    p = Purse(0, 0)
    small_scoring(h, p)
    assert p.gold == 6 + 2 * per
    p = Purse(0, 0)
    major_scoring(h, p)
    assert p.gold == 6 + 2 * per
    plain = homeland("G: L* R*")
    pa, pb = Purse(0, 0), Purse(0, 0)
    final_scoring([h, plain], [pa, pb])
    assert pa.vp == pb.vp


def test_specials_add_up_V48():
    h = homeland("G: L* R*\nspecials: goldsmith1 goldsmith1 goldsmith2")
    p = Purse(0, 0)
    small_scoring(h, p)
    assert p.gold == 6 + 2 * (1 + 1 + 2)


@pytest.mark.parametrize("name,row", [("noble1", "N"), ("scout1", "S"), ("fisher1", "F")])
def test_special_vp_per_kind_in_major_only_V49(name, row):
    h = homeland(f"{row}: L* R*\nspecials: {name}")
    plain = homeland(f"{row}: L* R*")
    p, q = Purse(0, 0), Purse(0, 0)
    major_scoring(h, p)
    major_scoring(plain, q)
    assert p.vp - q.vp == 2
    p, q = Purse(0, 0), Purse(0, 0)
    small_scoring(h, p)
    small_scoring(plain, q)
    assert (p.vp, p.gold) == (q.vp, q.gold)


def test_special_threatened_vikings_get_no_bonus_V31_V49():
    h = homeland("ships: ^r\nN: L* R\nspecials: noble1")
    p = Purse(0, 0)
    major_scoring(h, p)
    assert p.vp == 0


def test_special_sailor_counts_in_final_majority_only_V49():
    a = homeland("specials: sailor sailor")
    b = homeland("base: B1")
    pa, pb = Purse(0, 20), Purse(0, 20)
    ra, _rb = final_scoring([a, b], [pa, pb])
    assert any("most sailors (2)" in x for x in ra.lines)
    assert pb.vp == 20 - 1  # b: no sailor majority; its sailor still eats (food -1)
    g = specials_game()
    set_homeland(g, 0, "N: L R\nbase: N1\nspecials: sailor")
    assert not g.homelands[0].can_sail()  # cannot move vikings


def test_special_feast_surplus_three_V49():
    h = homeland("F: L* R*\nspecials: feast")
    plain = homeland("F: L* R*")
    p, q = Purse(0, 0), Purse(0, 0)
    final_scoring([h, plain], [p, q])
    assert p.vp == 8 * 3 + 7 + 5 and q.vp == 8 * 2 + 7 + 5
    p2 = Purse(0, 0)
    major_scoring(h, p2)
    assert p2.vp == 0  # nothing outside the final scoring


def test_special_treasury_vp_per_three_gold_V49():
    h = homeland("specials: treasury")
    p = Purse(10, 0)
    final_scoring([h], [p])
    assert (p.vp, p.gold) == (3, 1)


def test_special_building_swapped_at_once_V49():
    g = specials_game()
    set_homeland(g, 0, "W: L Mb* R\nN: L Mb R")
    events = _take(g, "Xb")
    # two middle tiles with building b: the player chooses which one
    assert g.phase == "swap" and texts(g.legal_actions(0)) == ["swap W2", "swap N2"]
    g.apply(0, "swap W2")
    assert g.homelands[0].rows[1] == ["L", "Xb*", "R"]  # the viking stays, now on the special tile
    assert "Mb" in g.out_tiles and "Xb" not in g.homelands[0].specials
    assert g.phase == "place"
    assert events


def test_special_building_waits_for_next_such_tile_V49():
    g = specials_game()
    set_homeland(g, 0, "W: L")
    _take(g, "Xc")
    assert g.homelands[0].specials == ["Xc"]
    g.apply(0, g.legal_actions(0)[0])  # place the ship
    set_wheel(g, {0: ("L", "F"), 1: ("Mc", "W")})
    g.apply(1, "buy 1")
    while g.turn == 1:
        g.apply(1, g.legal_actions(1)[0])
    set_wheel(g, {0: ("L", "F"), 1: ("Mc", "W")})
    g.apply(0, "buy 1")
    g.apply(0, "special none")  # the dearest combo offers a special tile again; decline
    g.apply(0, "place W2")
    assert g.homelands[0].rows[1] == ["L", "Xc*"] and g.homelands[0].specials == []


def test_building_tile_waits_for_a_tile_placed_not_one_that_fits_nowhere_D13_V49_V23():
    g = specials_game()
    closed = "W: L R\nN: L R\nS: L R\nG: L R\nF: L R"
    set_homeland(g, 0, closed)
    _take(g, "Xc")
    g.apply(0, g.legal_actions(0)[0])  # place the ship
    assert g.homelands[0].specials == ["Xc"]  # no middle tile with building c: it waits
    set_wheel(g, {0: ("L", "F"), 1: ("R", "W")})
    g.apply(1, "buy 1")
    while g.turn == 1:
        g.apply(1, g.legal_actions(1)[0])
    set_wheel(g, {0: ("L", "F"), 1: ("Mc", "W"), 2: ("R", "N")})
    events = g.apply(0, "buy 1")  # Mc fits nowhere in the closed rows: it leaves the game (V-23)
    assert any(e.kind == "discarded" for e in events) and not any(e.kind == "swapped" for e in events)
    assert g.homelands[0].specials == ["Xc"]  # acquired, never placed: the building tile still waits
    assert "Mc" in g.out_tiles and "Xc" not in g.out_tiles


def test_building_bonus_is_scored_after_food_D13_V49():
    # 0 VP, food costs more than there is (stops at 0), then the building tile adds its VP
    h = homeland("W: L* Xa* R*\nbase: N20")  # islands +7, longest +5, food -22
    p = Purse(0, 0)
    res = final_scoring([h], [p])[0]
    food = next(i for i, line in enumerate(res.lines) if line.startswith("food:"))
    building = next(i for i, line in enumerate(res.lines) if line.startswith("building tile Xa"))
    assert food < building
    assert p.vp == 3  # food first (floored at 0), then +3 for the building; the other order gives 0


def test_other_order_of_D13_scores_the_building_before_food(monkeypatch):
    from engine.vikings.data import SPECIALS

    monkeypatch.setitem(SPECIALS, "building_after_food", False)
    p = Purse(0, 0)
    final_scoring([homeland("W: L* Xa* R*\nbase: N20")], [p])
    assert p.vp == 0


def test_special_building_neighbourhood_score_unless_threatened_V49():
    h = homeland("W: L* Xa* R*\nN: L* Ma* R\nS: . L*")
    p = Purse(0, 0)
    res = final_scoring([h], [p])[0]
    # on it and around it: W1 W2 W3 N1 N2 (N3 empty, S1 empty, S2 and S3 are not adjacent to W2)
    assert any(line == "building tile Xa at W2: +5 VP" for line in res.lines)
    threatened = homeland("ships: . ^r\nW: L Ma R\nN: L* Xa* R")  # no warrior under the red ship
    p = Purse(0, 0)
    res = final_scoring([threatened], [p])[0]
    assert "building tile Xa at N2 is threatened: nothing" in res.lines


def test_vikings_on_special_tiles_left_out_of_food_V47():
    h = homeland("W: L Xa* R\nF: L* R")
    plain = homeland("W: L Ma* R\nF: L* R")
    p, q = Purse(0, 0), Purse(0, 0)
    final_scoring([h], [p])
    final_scoring([plain], [q])
    # h: 1 eater for 5 food: +8; plain: 2 eaters: +6 (both also score islands/longest);
    # h's building tile also scores the viking on it: +1
    assert p.vp - q.vp == 2 + 1


def test_full_advanced_game_reaches_every_new_decision():
    """Every new decision is reachable from legal_actions() in advanced games (V-40 … V-49)."""
    from engine.core import Rng

    seen: set[str] = set()
    for seed in range(40):
        g = VikingsGame.new(["a", "b", "c", "d"], seed=seed, options={"advanced": True})
        r = Rng(seed)
        while not g.is_over:
            acts = g.legal_actions()
            # prefer the variant's decisions so that they all occur
            pick = [a for a in acts if str(a).split()[0] in ("special", "swap") and str(a) != "special none"]
            if g.phase == "sail":
                pick = [a for a in acts if "boat" in str(a)] or pick
            a = pick[0] if pick else acts[r.randbelow(len(acts))]
            seen.add(str(a).split()[0] + (" boat" if "boat" in str(a) else ""))
            g.apply(g.turn, a)
        assert g.winners()
    assert {"bid", "pass", "remove", "lay", "special", "swap", "buy", "place", "start", "sail", "sail boat"} <= seen
