"""One or more tests per rule V-5 … V-38 of ../shared/rules/vikings.md (basic game)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import IllegalActionError, NotYourTurnError, WrongPhaseError
from engine.vikings import VikingsGame
from engine.vikings.data import KINDS, SHIP_ROW
from engine.vikings.scoring import Purse, final_scoring, major_scoring, small_scoring
from tests.vikings_helpers import homeland, new_game, set_homeland, set_wheel, snapshot

EXAMPLE_1 = """
ships: ^g ^b ^r
W: L  Ma* R*
N: L* R*
S: L* Mb* R*
G: L* R*
F: L*
"""


def texts(actions) -> list[str]:
    return [str(a) for a in actions]


def play_first_tile(g: VikingsGame, seat: int) -> None:
    """Finish the first purchase of a seat whatever tile it got: start tile to W1, tile anywhere."""
    while g.phase == "place" and g.turn == seat:
        acts = g.legal_actions(seat)
        g.apply(seat, acts[0])


# ---------------------------------------------------------------- set-up V-5 … V-8


@pytest.mark.parametrize("n,gold", [(2, 30), (3, 25), (4, 20)])
def test_setup_gold_vp_start_tile_V5(n, gold):
    g = new_game(n)
    assert g.gold == [gold] * n
    assert g.vp == [10] * n  # [D-4]
    assert all(h.start_pending for h in g.homelands)
    assert g.out_tiles.count("L") == 4 - n  # unused start tiles leave the game


def test_six_stacks_of_twelve_V6():
    g = new_game(4, seed=3)
    # round 1 took the first stack: five remain, the whole set is 17 L, 20 M, 21 R, 14 ships
    assert g.round == 1 and len(g.stacks) == 5 and all(len(s) == 12 for s in g.stacks)
    tiles = Counter(t for s in g.stacks for t in s) + Counter(c[0] for c in g.wheel)
    assert tiles["L"] == 17 and tiles["R"] == 21
    assert sum(tiles[m] for m in ("Ma", "Mb", "Mc", "Md")) == 20
    assert sum(v for t, v in tiles.items() if t.startswith("^")) == 14


def test_start_player_random_from_seed_or_chosen_V7():
    starts = {VikingsGame.new(["a", "b", "c", "d"], seed=s).start_player for s in range(30)}
    assert len(starts) > 1
    assert VikingsGame.new(["a", "b", "c"], seed=5).start_player == VikingsGame.new(["a", "b", "c"], seed=5).start_player
    assert VikingsGame.new(["a", "b", "c"], seed=5, start_seat=2).start_player == 2


def test_turn_order_clockwise_from_start_player_V8():
    g = new_game(3, start_seat=1)
    assert g.turn_order() == [1, 2, 0]
    assert g.acting_seats() == [1]


# ---------------------------------------------------------------- the round V-9 … V-12


def test_each_round_uses_next_stack_V9():
    g = new_game(2)
    second = list(g.stacks[0])
    while g.round == 1:
        g.apply(g.turn, g.legal_actions()[0])
    assert g.round == 2
    assert sorted(c[0] for c in g.wheel if c) == sorted(second)


def test_offer_islands_from_zero_ships_from_eleven_V10():
    for seed in range(10):
        g = new_game(2, seed=seed)
        tiles = [c[0] for c in g.wheel]
        ships = [i for i, t in enumerate(tiles) if t.startswith("^")]
        islands = [i for i, t in enumerate(tiles) if not t.startswith("^")]
        assert islands == list(range(len(islands)))
        assert ships == list(range(12 - len(ships), 12))


def test_vikings_laid_sorted_by_kind_V11():
    for seed in range(10):
        g = new_game(3, seed=seed)
        kinds = [c[1] for c in g.wheel]
        assert kinds == sorted(kinds, key=KINDS.index)
        assert len(g.bag) == 78 - 12


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_player_buys_in_turn_twelve_per_round_V12(n):
    g = new_game(n, start_seat=1)
    buyers = []
    while g.round == 1:
        if g.phase == "buy":
            buyers.append(g.turn)
        g.apply(g.turn, g.legal_actions()[-1])
    assert len(buyers) == 12
    assert buyers == [(1 + i) % n for i in range(12)]
    assert Counter(buyers) == {s: 12 // n for s in range(n)}
    assert g.start_player == 2 % n  # passes to the left after the round


@pytest.mark.parametrize("last_round,scoring", [(1, "small"), (2, "major")])
def test_last_purchase_then_the_rounds_scoring_then_marker_left_V12(last_round, scoring):
    g = new_game(2, start_seat=0)
    events = []
    while g.round <= last_round:
        acts = g.legal_actions()
        events += g.apply(g.turn, "sail end" if g.phase == "sail" else acts[-1])
    last_buy = max(i for i, e in enumerate(events) if e.kind == "bought")
    events = events[last_buy:]
    kinds = [e.kind for e in events]
    scores = [e for e in events if e.kind == "score"]
    assert {e.data["scoring"] for e in scores} == {scoring} and len(scores) == 2
    # the scoring comes first, then the marker passes to the left, then the next round begins
    assert kinds.index("score") < kinds.index("start_player") < kinds.index("round")
    assert g.start_player == last_round % 2


# ---------------------------------------------------------------- buying V-13 … V-18


def test_buyer_pays_price_and_takes_combo_V13():
    g = new_game(2)
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 5: ("Ma", "N"), 11: ("^r", "B")})
    g.apply(0, "buy 5")
    assert g.gold[0] == 25
    assert g.pending["tile"] == "Ma" and g.pending["viking"] == "N"
    assert g.wheel[5] is None


def test_position_zero_only_for_last_of_its_kind_V14():
    g = new_game(2)
    set_wheel(g, {0: ("L", "F"), 1: ("R", "F"), 2: ("Ma", "G")})
    assert "buy 0" not in texts(g.legal_actions(0))
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(0, "buy 0")
    assert e.value.rule == "V-14"
    assert snapshot(g) == before
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 2: ("Ma", "G")})
    assert "buy 0" in texts(g.legal_actions(0))


def test_forced_zero_when_gold_below_every_other_price_V15():
    g = new_game(2)
    set_wheel(g, {0: ("L", "F"), 3: ("R", "F"), 4: ("Ma", "G")})
    g.gold[0], g.vp[0] = 2, 10
    acts = texts(g.legal_actions(0))
    assert "buy 0" in acts  # forced zero, even against V-14
    assert "buy 3" in acts  # …but VP may still be exchanged to buy dearer (V-16)
    g.gold[0] = 3
    assert "buy 0" not in texts(g.legal_actions(0))  # 3 gold affords position 3: no forced zero


def test_exchange_vp_any_time_never_below_zero_V16():
    g = new_game(2)
    assert g.turn == 0
    g.apply(1, "exchange 4")  # not their turn: still allowed
    assert (g.gold[1], g.vp[1]) == (34, 6)
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(1, "exchange 7")
    assert e.value.rule == "V-16"
    assert snapshot(g) == before
    assert texts(g.free_actions(1))[-1] == "exchange 6"


def test_buy_exchanges_shortfall_automatically_V16():
    g = new_game(2)
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 9: ("Ma", "N")})
    g.gold[0], g.vp[0] = 4, 10
    assert "buy 9" in texts(g.legal_actions(0))
    events = g.apply(0, "buy 9")
    assert (g.gold[0], g.vp[0]) == (0, 5)
    assert events[0].kind == "exchange" and events[0].data == {"vp": 5}
    g2 = new_game(2)
    set_wheel(g2, {0: ("L", "F"), 1: ("R", "G"), 9: ("Ma", "N")})
    g2.gold[0], g2.vp[0] = 4, 4
    assert "buy 9" not in texts(g2.legal_actions(0))  # gold + VP too little


def test_no_passing_a_buy_is_always_legal_V17():
    for seed in range(20):
        g = new_game(3, seed=seed)
        g.gold = [0, 0, 0]
        g.vp = [0, 0, 0]
        acts = texts(g.legal_actions())
        assert acts and all(a.startswith("buy") for a in acts)
        assert "buy 0" in acts


def test_wheel_turns_after_zero_bought_V18():
    g = new_game(2)
    set_wheel(g, {0: ("L", "G"), 2: ("R", "F"), 3: ("Ma", "S"), 7: ("^r", "N")})
    events = g.apply(0, "buy 0")
    assert [e for e in events if e.kind == "wheel"][0].data == {"turned": 2}
    assert [c[0] if c else None for c in g.wheel][:6] == ["R", "Ma", None, None, None, "^r"]
    # buying elsewhere does not turn the wheel
    g2 = new_game(2)
    set_wheel(g2, {0: ("L", "G"), 2: ("R", "F"), 3: ("Ma", "S")})
    g2.apply(0, "buy 2")
    assert g2.wheel[0][0] == "L" and g2.wheel[3][0] == "Ma"


# ---------------------------------------------------------------- placing V-19 … V-25


def test_tile_placed_before_next_turn_V19():
    g = new_game(2)
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 2: ("Ma", "N")})
    g.apply(0, "buy 1")
    assert g.phase == "place" and g.acting_seats() == [0]
    with pytest.raises(NotYourTurnError):
        g.apply(1, "buy 2")
    with pytest.raises(WrongPhaseError):
        g.apply(0, "buy 2")


def test_first_three_ships_any_order_then_next_column_V20():
    g = new_game(2)
    set_homeland(g, 0, "W: L")
    set_wheel(g, {0: ("L", "F"), 1: ("^b", "G"), 2: ("^r", "N"), 3: ("^g", "N"), 4: ("^y", "W")})
    g.apply(0, "buy 1")
    assert texts(g.legal_actions(0)) == ["place ^1", "place ^2", "place ^3"]
    g.apply(0, "place ^3")
    assert g.homelands[0].rows[SHIP_ROW] == [".", ".", "^b"]
    assert g.homelands[0].ship_cells() == [1, 2]
    h = homeland("ships: ^g ^b ^r")
    assert h.ship_cells() == [4]


@pytest.mark.parametrize(
    "ships,cells",
    [
        ("", [1, 2, 3]),  # the first ship: any of columns 1-3
        ("^g", [2]),
        (". ^g", [1, 3]),  # next to the ship at 2, never the occupied 2
        (". . ^g", [2]),
        ("^g ^b", [3]),
        (". ^g ^b", [1]),  # column 4 waits until 1-3 are full
        ("^g . ^b", [2]),  # a written table with a gap: still 1-3 first
        ("^g ^b ^r", [4]),
        ("^g ^b ^r ^y", [5]),
    ],
)
def test_strict_ships_first_ship_any_of_columns_1_to_3_V20_D6(ships, cells):
    h = homeland(f"ships: {ships}" if ships else "")
    assert h.ship_cells(any_order=False) == cells


def test_strict_ships_in_play_and_refusal_V20_D6():
    g = new_game(2, ships_any_order=False)
    set_homeland(g, 0, "W: L")
    set_homeland(g, 1, "W: L")
    set_wheel(g, {0: ("L", "F"), 1: ("^b", "G"), 2: ("^r", "N"), 3: ("^g", "N"), 4: ("^y", "W")})
    g.apply(0, "buy 1")
    assert texts(g.legal_actions(0)) == ["place ^1", "place ^2", "place ^3"]
    g.apply(0, "place ^2")
    g.apply(1, "buy 2")
    g.apply(1, "place ^1")
    g.apply(0, "buy 3")
    assert texts(g.legal_actions(0)) == ["place ^1", "place ^3"]
    before = snapshot(g)
    for bad in ("place ^2", "place ^4"):
        with pytest.raises(IllegalActionError) as e:
            g.apply(0, bad)
        assert e.value.rule == "V-20"
        assert snapshot(g) == before
    g.apply(0, "place ^3")
    assert g.homelands[0].rows[SHIP_ROW] == [".", "^b", "^g"]


def test_strict_ships_table_option_reaches_the_engine_V20_D6():
    from bot.games.vikings import VikingsAdapter

    options = VikingsAdapter().parse_options(["strict-ships"])
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=1, options=options, start_seat=0)
    set_homeland(g, 0, "ships: . ^g\nW: L")
    set_wheel(g, {0: ("L", "F"), 1: ("^b", "G"), 2: ("^r", "N")})
    g.apply(0, "buy 1")
    assert texts(g.legal_actions(0)) == ["place ^1", "place ^3"]
    assert VikingsAdapter().describe_options(options) == "basic game; strict ships (each next to one already placed)"


def test_island_reachable_from_base_or_island_not_ship_V21():
    h = homeland("ships: ^g ^b ^r\nW: L")
    # W2 next to W1; N1/S1/G1/F1 touch the base; N2 is not reachable (diagonal), ships do not count
    assert h.island_cells_for("R") == [(1, 2)]
    assert (2, 2) not in h.island_cells_for("Ma")
    h2 = homeland("W: L Ma")
    assert (2, 2) in h2.island_cells_for("R")  # below an island tile


def test_edges_match_and_column_one_takes_left_end_V22():
    h = homeland("W: L R")
    # N2 lies under W2: reachable, and with N1 empty no edge constrains it
    assert h.island_cells_for("L") == [(1, 3), (2, 1), (2, 2), (3, 1), (4, 1), (5, 1)]
    assert (1, 3) not in h.island_cells_for("Ma")  # land edge against R's sea edge
    assert h.island_cells_for("R") == [(2, 2)]  # under R: no edge rule above/below
    assert not h.island_fits("R", 2, 1) and not h.island_fits("Mb", 2, 1)


def test_unplaceable_tile_leaves_game_viking_to_base_V23():
    g = new_game(2)
    # every row's column 1 taken by L…R islands closed on the right: an R fits nowhere? it fits
    # right of an L; make a homeland where only sea edges are open
    set_homeland(g, 0, "W: L R\nN: L R\nS: L R\nG: L R\nF: L R")
    set_wheel(g, {0: ("L", "F"), 1: ("Mc", "G"), 2: ("R", "N")})
    events = g.apply(0, "buy 1")
    assert [e.kind for e in events][-1] == "discarded"
    assert g.homelands[0].base["G"] == 1
    assert g.out_tiles[-1] == "Mc"
    assert g.turn == 1 and g.phase == "buy"


def test_start_tile_with_first_tile_either_order_V24():
    g = new_game(2)
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 2: ("Ma", "N"), 3: ("L", "W")})
    # an R cannot be placed before the start tile
    g.apply(0, "buy 1")
    assert texts(g.legal_actions(0)) == ["start W1", "start N1", "start S1", "start G1", "start F1"]
    g.apply(0, "start G1")
    assert texts(g.legal_actions(0)) == ["place G2", "place G2 base"]
    g.apply(0, "place G2")
    assert g.homelands[0].rows[4] == ["L", "R*"]
    # an L may come first, the start tile after it
    g.apply(1, "buy 3")
    assert g.pending["tile"] == "L"
    acts = texts(g.legal_actions(1))
    assert "place W1" in acts and "start W1" in acts
    g.apply(1, "place W1")
    assert texts(g.legal_actions(1)) == ["start N1", "start S1", "start G1", "start F1"]
    g.apply(1, "start F1")
    assert g.homelands[1].rows[1] == ["L*"] and g.homelands[1].rows[5] == ["L"]
    assert not g.homelands[1].start_pending


def test_completed_islands_V25():
    h = homeland("W: L R\nN: L Ma Mb R . L R\nS: L Ma\nG: . R")
    assert sorted(h.completed_islands()) == [2, 2, 4]


def test_completed_island_tiles_need_not_hold_vikings_V25():
    empty = homeland("N: L Ma R")
    full = homeland("N: L* Ma* R*")
    assert empty.completed_islands() == full.completed_islands() == [3]
    # an island of empty tiles wins the islands majority and the longest island (V-37.4, V-37.5)
    purses = [Purse(0, 0), Purse(0, 0)]
    res = final_scoring([empty, homeland("N: L R")], purses)
    assert "most completed islands (1): +7 VP" in res[0].lines and "longest island (3): +5 VP" in res[0].lines


# ---------------------------------------------------------------- vikings V-26 … V-29


def test_viking_on_its_row_tile_or_base_by_choice_V26():
    g = new_game(2)
    set_homeland(g, 0, "N: L")
    set_wheel(g, {0: ("L", "F"), 1: ("R", "N"), 2: ("R", "N")})
    g.apply(0, "buy 1")
    assert texts(g.legal_actions(0)) == ["place N2", "place N2 base"]
    g.apply(0, "place N2 base")
    assert g.homelands[0].rows[2] == ["L", "R"] and g.homelands[0].base["N"] == 1


def test_viking_otherwise_to_base_V27():
    g = new_game(2)
    set_homeland(g, 0, "N: L\nW: L")
    set_wheel(g, {0: ("L", "F"), 1: ("R", "G"), 2: ("^r", "B"), 3: ("R", "B")})
    g.apply(0, "buy 1")  # a goldsmith with a tile that can go to W2 or N2 only
    assert "place W2 base" not in texts(g.legal_actions(0))
    with pytest.raises(IllegalActionError) as e:
        g.apply(0, "place W2 base")
    assert e.value.rule == "V-27"
    g.apply(0, "place W2")
    assert g.homelands[0].rows[1] == ["L", "R"] and g.homelands[0].base["G"] == 1
    g.apply(1, "buy 2")  # ship with a sailor
    play_first_tile(g, 1)
    assert g.homelands[1].base["B"] == 1


def test_one_viking_per_tile_only_its_kind_V28():
    g = _sailing("N: L* R\nW: L\nbase: N2 B1")
    acts = texts(g.legal_actions(0))
    assert "sail N1" not in acts and "sail N2" in acts
    with pytest.raises(IllegalActionError):
        g.apply(0, "sail N1")


def test_nothing_moves_into_another_homeland_V29():
    for seed in range(5):
        g = new_game(3, seed=seed)
        while g.round == 1:
            seat = g.turn
            others = [snapshot_h(g, s) for s in range(3) if s != seat]
            g.apply(seat, g.legal_actions()[-1])
            if g.round == 1:
                assert others == [snapshot_h(g, s) for s in range(3) if s != seat]


def snapshot_h(g, s):
    return g.homelands[s].to_json()


# ---------------------------------------------------------------- threat V-30, V-31


def test_ship_defended_by_warrior_in_its_column_V30():
    h = homeland("ships: ^g ^b\nW: L Ma*")
    assert [(c, d) for c, _s, d in h.ships()] == [(1, False), (2, True)]


@pytest.mark.parametrize(
    "sail,threatened", [("r", ["W", "N"]), ("g", ["W", "N", "S"]), ("y", ["W", "N", "S", "G"]), ("b", "WNSGF")]
)
def test_undefended_ship_threatens_down_to_its_sail_V31(sail, threatened):
    h = homeland(f"ships: ^{sail}\nW: L*\nN: L*\nS: L*\nG: L*\nF: L*")
    # a warrior in W1 defends — so take it off to see the threat
    h.set(1, 1, "L")
    zone_rows = {"WNSGF"[r - 1] for r, c in h.threatened_cells()}
    assert zone_rows == set(threatened) - {"W"}  # W1 holds no viking now
    purse = Purse(0, 0)
    res = small_scoring(h, purse)
    assert purse.gold == (0 if "G" in threatened else 3)
    assert res.lines


# ---------------------------------------------------------------- scoring V-32 … V-38


def test_small_scoring_goldsmiths_on_islands_only_V32():
    h = homeland("G: L* Ma* R\nbase: G3")
    p = Purse(1, 0)
    small_scoring(h, p)
    assert p.gold == 7


def test_major_scoring_steps_V33():
    h = homeland("ships: ^y\nW: L*\nN: L* R*\nS: L*\nG: L*\nF: L*")
    p = Purse(0, 0)
    res = major_scoring(h, p)
    # defended yellow 2 VP; nobles 2×2; scout 1 + goldsmith 1 + fisher 1; goldsmith 3 gold
    assert (p.vp, p.gold) == (2 + 4 + 3, 3)
    assert res.lines[0].startswith("yellow ship")


def test_major_scoring_players_in_turn_order_after_sailing_V33():
    g = new_game(3, start_seat=2)
    g.round = 2
    set_homeland(g, 0, "G: L*")
    set_homeland(g, 1, "G: L* R*")
    set_homeland(g, 2, "N: L R\nbase: N1 B1")
    g.wheel = [None] * 12
    g.purchases = 11
    g.turn = 1
    g.phase = "buy"
    set_wheel(g, {0: ("^r", "F")})
    g.apply(1, "buy 0")
    g.apply(1, "place ^1")
    assert g.phase == "sail" and g.turn == 2  # the start player sails first, then scores
    events = g.apply(2, "sail N2")
    order = [e.seat for e in events if e.kind == "score"]
    assert order == [2, 0, 1]
    assert g.round == 3


def _sailing(homeland_text: str, round_: int = 2, **options):
    g = new_game(2, **options)
    set_homeland(g, 0, homeland_text)
    g.round, g.phase, g.turn, g.sail_queue = round_, "sail", 0, [0, 1]
    return g


def test_sailor_moves_one_of_each_kind_V34():
    g = _sailing("N: L Ma R\nS: L R\nbase: N2 S1 B1")
    assert texts(g.legal_actions(0)) == ["sail N1", "sail N2", "sail N3", "sail S1", "sail S2", "sail end"]
    g.apply(0, "sail N1")
    assert g.homelands[0].base["B"] == 0 and "B" in g.out_vikings  # the sailor leaves the game
    # after one noble: another noble (all of one kind) or the scout (one of each), or stop
    assert texts(g.legal_actions(0)) == ["sail N2", "sail N3", "sail S1", "sail S2", "sail done"]
    g.apply(0, "sail S2")
    # one of each: a second noble may not follow; nothing else is left, so the trip ended by itself
    assert g.trip is None and g.homelands[0].rows[3] == ["L", "R*"]
    assert g.turn == 1 or g.phase != "sail" or g.sail_queue[0] != 0


def test_sailor_all_of_one_kind_as_many_as_fit_V34():
    g = _sailing("N: L Ma R\nS: L R\nbase: N3 S1 B2")
    g.apply(0, "sail N1")
    g.apply(0, "sail N2")  # all of one kind: the rest of the nobles must follow while tiles are free
    assert texts(g.legal_actions(0)) == ["sail N3"]
    before = snapshot(g)
    for text in ("sail done", "sail S1", "sail end"):
        with pytest.raises(IllegalActionError) as e:
            g.apply(0, text)
        assert e.value.rule == "V-34"
        assert snapshot(g) == before
    g.apply(0, "sail N3")
    assert g.trip is None and g.homelands[0].rows[2] == ["L*", "Ma*", "R*"]
    # a second sailor may now take the scout
    assert texts(g.legal_actions(0)) == ["sail S1", "sail S2", "sail end"]


def test_single_sailor_moves_exactly_one_V44():
    g = _sailing("N: L Ma R\nbase: N3 B2", single_sailor=True)
    g.apply(0, "sail N1")
    assert g.trip is None and g.homelands[0].base["B"] == 1
    assert "sail done" not in texts(g.legal_actions(0))


def test_sailors_forced_after_round_six_V35():
    g = _sailing("N: L R\nbase: N1 B2", round_=6)
    assert "sail end" not in texts(g.legal_actions(0))
    with pytest.raises(IllegalActionError) as e:
        g.apply(0, "sail end")
    assert e.value.rule == "V-35"
    g.round = 4
    assert "sail end" in texts(g.legal_actions(0))


def test_all_of_one_kind_is_as_many_as_there_are_empty_tiles_in_their_row_V34():
    g = _sailing("N: L Ma* R\nS: L R\nbase: N4 S1 B1")
    g.apply(0, "sail N1")
    g.apply(0, "sail N3")  # both empty noble tiles filled: the trip is over, two nobles stay home
    assert g.trip is None and g.homelands[0].base["N"] == 2
    assert g.homelands[0].rows[2] == ["L*", "Ma*", "R*"]


def test_last_major_forced_trip_carries_one_of_every_kind_that_fits_V35_D12():
    g = _sailing("N: L R\nS: L R\nG: L R\nbase: N1 S1 G1 B1", round_=6)
    g.apply(0, "sail N1")
    assert "sail done" not in texts(g.legal_actions(0))
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(0, "sail done")
    assert e.value.rule == "V-35" and "[D-12]" in e.value.reason
    assert snapshot(g) == before
    g.apply(0, "sail S1")  # one of each kind: the goldsmith still fits, so the trip goes on
    assert texts(g.legal_actions(0)) == ["sail G1", "sail G2"]
    with pytest.raises(IllegalActionError) as e:
        g.apply(0, "sail done")
    assert e.value.rule == "V-35"
    g.apply(0, "sail G2")  # nothing more fits: the trip ends by itself
    assert g.trip is None and g.sail_queue[:1] != [0]


def test_forced_trip_ends_when_no_kind_left_has_an_empty_tile_V35_D12():
    # the scout in the base has no empty tile in its row: it does not hold the trip open
    g = _sailing("N: L R\nS: L* R*\nbase: N1 S1 B1", round_=6)
    g.apply(0, "sail N1")
    assert g.trip is None and g.homelands[0].base["S"] == 1


def test_before_round_six_a_trip_of_one_of_each_may_stop_early_D12():
    g = _sailing("N: L R\nS: L R\nG: L R\nbase: N1 S1 G1 B1", round_=4)
    g.apply(0, "sail N1")
    g.apply(0, "sail S1")
    assert "sail done" in texts(g.legal_actions(0))
    g.apply(0, "sail done")
    assert g.trip is None and g.homelands[0].base["G"] == 1


def test_other_reading_of_D12_lets_a_last_major_trip_stop_early(monkeypatch):
    from engine.vikings.data import SAILING

    monkeypatch.setitem(SAILING, "last_major_trips_full", False)
    g = _sailing("N: L R\nS: L R\nG: L R\nbase: N1 S1 G1 B1", round_=6)
    g.apply(0, "sail N1")
    assert "sail done" in texts(g.legal_actions(0))


def test_boat_trip_in_the_last_major_is_forced_too_V35_D12_V49():
    g = _sailing("N: L R\nS: L R\nbase: N1 S1 B1\nspecials: boat", round_=6, single_sailor=True, specials=True)
    g.apply(0, "sail boat N1")
    assert texts(g.legal_actions(0)) == ["sail S1", "sail S2"]  # no 'sail done' while the scout fits


def test_worked_example_major_8vp_9gold_small_6gold_V36():
    p = Purse(0, 0)
    major_scoring(homeland(EXAMPLE_1), p)
    assert (p.vp, p.gold) == (8, 9)
    p = Purse(0, 0)
    small_scoring(homeland(EXAMPLE_1), p)
    assert (p.vp, p.gold) == (0, 6)


def _food_homeland(fishers: int, total: int):
    rows = "F: L* " + " ".join(["Ma*"] * (fishers - 1)) if fishers else ""
    h = homeland(rows)
    h.base["W"] = total - fishers
    return h


@pytest.mark.parametrize("fishers,delta", [(5, 4), (3, -8)])
def test_food_examples_V37(fishers, delta):
    h = _food_homeland(fishers, 23)
    assert h.vikings_total() == 23
    p = Purse(0, 20)
    res = final_scoring([h], [p])[0]
    # sailors/islands majorities do not apply (none); food alone changes the VP
    assert p.vp - 20 == delta
    assert any(line.startswith("food") for line in res.lines)


def test_final_scoring_steps_in_order_V37():
    a = homeland("ships: ^g ^y\nW: L Ma* R\nF: L*\nbase: B2")
    b = homeland("W: L Ma R\nN: L R\nbase: B2")
    pa, pb = Purse(3, 10), Purse(12, 1)
    ra, rb = final_scoring([a, b], [pa, pb])
    # a: ship ^g col 1 undefended: -3 gold, -2 VP for the missing; ^y col 2 defended
    assert ra.lines[0] == "undefended green ship in column 1: -3 gold and -2 VP for 2 missing gold"
    # b: 12 gold -> 2 VP, 2 kept
    assert pb.gold == 2
    # sailors tie 2–2: 10 each; islands b 2 vs a 1: 7 to b; longest: both 3: 5 each
    assert any("most sailors (2): +10 VP" == x for x in ra.lines)
    assert any("most completed islands (2): +7 VP" == x for x in rb.lines)
    assert not any("most completed islands" in x for x in ra.lines)
    assert any("longest island (3): +5 VP" == x for x in ra.lines) and any("longest island (3)" in x for x in rb.lines)
    # food: a has 1 fisher (5) for 4 vikings -> +2; b: 0 fishers for 2 sailors -> -2
    assert ra.lines[-1] == "food: 1 fisher feed 5, 4 vikings: +2 VP"
    assert pa.vp == 10 - 2 + 10 + 5 + 2
    assert pb.vp == 1 + 2 + 10 + 7 + 5 - 2


def test_majority_of_nothing_scores_nothing_D10_V37():
    a, b = homeland("W: L"), homeland("N: L")
    pa, pb = Purse(0, 0), Purse(0, 0)
    final_scoring([a, b], [pa, pb])
    assert (pa.vp, pb.vp) == (0, 0)


def test_winner_most_vp_then_gold_then_shared_V38():
    g = new_game(3)
    g.round, g.purchases = 6, 12
    g.vp, g.gold = [30, 30, 12], [4, 3, 4]
    for s in range(3):
        set_homeland(g, s, "")
    g._final([])
    assert g.winners() == [0]
    g2 = new_game(3)
    g2.round = 6
    g2.vp, g2.gold = [30, 30, 12], [4, 4, 4]
    for s in range(3):
        set_homeland(g2, s, "")
    g2._final([])
    assert g2.winners() == [0, 1]
    assert g2.is_over and g2.acting_seats() == []


# ---------------------------------------------------------------- illegal actions change nothing


def _illegal_cases():
    g = new_game(2)
    set_wheel(g, {0: ("L", "F"), 1: ("R", "F"), 7: ("Ma", "G"), 11: ("^r", "N")})
    g.gold[0], g.vp[0] = 2, 3
    yield "wrong player", g, 1, "buy 1", NotYourTurnError, None
    yield "unaffordable", g, 0, "buy 7", IllegalActionError, "V-13"
    yield "V-14", g, 0, "buy 0", IllegalActionError, "V-14"
    yield "empty position", g, 0, "buy 5", IllegalActionError, "V-13"
    yield "wrong phase", g, 0, "place W1", WrongPhaseError, None
    g2 = new_game(2)
    set_homeland(g2, 0, "W: L")
    set_wheel(g2, {0: ("L", "F"), 1: ("R", "F"), 2: ("Ma", "G")})
    g2.apply(0, "buy 1")
    yield "illegal cell", g2, 0, "place N3", IllegalActionError, "V-22"
    yield "ship row", g2, 0, "place ^1", IllegalActionError, "V-21"
    yield "not empty", g2, 0, "place W1", IllegalActionError, "V-21"
    yield "start done", g2, 0, "start N1", IllegalActionError, "V-24"
    yield "wrong phase sail", g2, 0, "sail end", WrongPhaseError, None


@pytest.mark.parametrize("case", list(_illegal_cases()), ids=lambda c: c[0])
def test_illegal_actions_raise_and_change_nothing(case):
    _name, g, seat, text, err, rule = case
    before = snapshot(g)
    with pytest.raises(err) as e:
        g.apply(seat, text)
    if rule:
        assert e.value.rule == rule
    assert text in str(e.value)
    assert snapshot(g) == before
    assert not g.is_legal(seat, text)


def test_actions_after_game_over_refused():
    g = new_game(2)
    g.round = 6
    g._final([])
    before = snapshot(g)
    for text in ("buy 1", "exchange 1"):
        with pytest.raises(WrongPhaseError):
            g.apply(0, text)
    assert snapshot(g) == before


def test_legal_cells_equal_cell_by_cell_check_V21_V22():
    """The row-scanning search for legal cells agrees with the one-cell rule check everywhere."""
    from engine.core import Rng
    from engine.vikings.homeland import Homeland

    r = Rng(3)
    for seed in range(6):
        g = new_game(4, seed=seed)
        while not g.is_over:
            for h in g.homelands:
                for tile in ("L", "R", "Ma"):
                    brute = [(row, c) for row in range(1, 6) for c in range(1, h.width() + 3)
                             if h.island_fits(tile, row, c)]
                    assert Homeland.from_json(h.to_json()).island_cells_for(tile) == brute  # from scratch
                    assert h.island_cells_for(tile) == brute  # kept up to date while playing
            acts = g.legal_actions()
            g.apply(g.turn, acts[r.randbelow(len(acts))])
