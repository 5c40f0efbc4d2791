"""The Vikings host adapter: options, narration, prompts, labels, text, image, rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import OptionError
from bot.games.registry import default_registry
from bot.games.vikings import VikingsAdapter
from engine.core import Rng
from engine.vikings import VikingsGame
from tests.vikings_helpers import a_whole_plan, set_homeland

AD = VikingsAdapter()


def test_registry_offers_vikings_first():
    reg = default_registry()
    assert reg.default == "vikings" and isinstance(reg["vikings"], VikingsAdapter)


def test_options_words():
    assert AD.parse_options(["advanced"]) == {"advanced": True}
    assert AD.parse_options(["auction", "specials"]) == {"auction": True, "specials": True}
    assert AD.parse_options(["strict-ships"]) == {"ships_any_order": False}
    with pytest.raises(OptionError, match="no option “turbo”"):
        AD.parse_options(["turbo"])
    assert AD.describe_options({}) == "basic game"
    assert AD.describe_options({"advanced": True}) == "progress variant: auction, single-sailor, specials"


@pytest.mark.parametrize("options", [{}, {"advanced": True}])
def test_every_event_narrated_and_every_action_labelled(options):
    """A whole game: every event kind becomes a sentence, every legal action a label ≤ 100 chars."""
    g = VikingsGame.new(["Astrid", "Bjorn", "Cnut"], seed=5, options=options)
    r = Rng(1)
    kinds = set()
    while not g.is_over:
        seat = g.acting_seats()[0]
        prompt = AD.prompt(g, seat)
        assert prompt and prompt != "your move", g.phase
        acts = g.legal_actions(seat)
        for a in acts:
            label = AD.describe_action(g, a)
            assert 0 < len(label) <= 100
        events = g.apply(seat, acts[r.randbelow(len(acts))])
        lines = AD.narrate(g, events)
        narrated = {e.kind for e in events if e.kind not in ("specials",)}
        kinds |= narrated
        assert len(lines) >= len(narrated)
    assert {"bought", "placed", "start_tile", "score", "round", "game_over"} <= kinds


def test_narration_reads_like_a_sentence():
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=2, start_seat=0)
    g.wheel[4] = ["L", "N"]
    lines = AD.narrate(g, g.apply(0, "buy 4"))
    assert lines[0] == "Astrid buys the noble with a left island end for 4 gold."
    lines = AD.narrate(g, g.apply(0, "place W1"))
    assert lines == ["Astrid places the tile at W1; the noble goes to the base."]


def test_text_and_image_of_the_table():
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=2)
    text = AD.text(g)
    assert "round 1 of 6" in text and "Astrid: 30 gold, 10 VP" in text
    png = AD.render(g)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "player: Astrid" in AD.notation(g)


def test_rules_summary_and_by_number():
    assert len(AD.rules(None)) >= 2
    assert AD.rules("V-14")[0].startswith("V-14: The combo at position 0")
    assert AD.rules("14")[0].startswith("V-14:")
    with pytest.raises(KeyError):
        AD.rules("V-99")


def test_packaged_rules_match_shared_copy():
    shared = Path(__file__).resolve().parents[3] / "shared" / "rules" / "vikings.md"
    if not shared.exists():
        pytest.skip("no ../shared beside this checkout")
    packaged = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "rules" / "vikings.md"
    assert packaged.read_text(encoding="utf-8") == shared.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "vp,gold,expect",
    [([30, 30, 12], [4, 3, 4], "Astrid, Bjorn tie on 30 VP; the most gold left decides (V-38)."),
     ([30, 30, 12], [4, 4, 4], "Astrid, Bjorn tie on VP and gold: they share the win (V-38).")],
)
def test_game_end_names_the_tie_break_V38(vp, gold, expect):
    g = VikingsGame.new(["Astrid", "Bjorn", "Cnut"], seed=1)
    g.round, g.vp, g.gold = 6, vp, gold
    for h in g.homelands:
        h.rows = [[] for _ in range(6)]
        h.start_pending = False
    events = []
    g._final(events)
    assert expect in AD.narrate(g, events)


def test_prompt_says_start_tile_first_when_the_tile_cannot_go_yet_V24():
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=2, start_seat=0)
    g.wheel[4] = ["Mb", "N"]
    g.apply(0, "buy 4")
    assert AD.prompt(g, 0).startswith("first place your start tile in column 1")
    g2 = VikingsGame.new(["Astrid", "Bjorn"], seed=2, start_seat=0)
    g2.wheel[4] = ["L", "N"]
    g2.apply(0, "buy 4")
    assert "in either order" in AD.prompt(g2, 0)


def test_prompt_does_not_offer_sail_done_when_the_trip_must_go_on_V35_D12():
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=2, start_seat=0)
    set_homeland(g, 0, "N: L R\nS: L R\nbase: N1 S1 B1")
    g.round, g.phase, g.turn, g.sail_queue = 6, "sail", 0, [0, 1]
    g.apply(0, "sail N1")
    assert AD.prompt(g, 0) == "this sailor must take another viking while one fits: /sail CELL"
    g.round = 4
    assert "/sail done" in AD.prompt(g, 0)


def _to_first_sailing(options: dict | None = None, seed: int = 3) -> VikingsGame:
    import random

    rng = random.Random(seed)
    game = VikingsGame.new(["Astrid", "Bjorn"], seed=seed, options=options or {})
    while not (game.phase == "sail" and game.trip is None):
        [seat] = game.acting_seats()
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        assert not game.is_over
    return game


def test_sailor_dialog_shows_each_planned_trip_and_the_engines_verdict_V34_V44():
    """Issue 25's sailor dialog: the trips so far, the next sailor's "kind → cell" choices, the plan
    as one ``sail plan`` text, and the engine's refusal (naming the sailor and rule) as a warning;
    only for the player to act, and none while a sailor is under way."""
    for seed in range(3, 8):
        game = _to_first_sailing(seed=seed)
        [seat] = game.acting_seats()
        assert AD.plan_dialog(game, 1 - seat, (), False) is None  # only the player to act
        trips = a_whole_plan(game, seat)
        dialog = AD.plan_dialog(game, seat, (), False)
        assert dialog is not None and dialog.action == "sail plan end" and dialog.picture is None
        assert set(trips[0]) <= {v for _l, v in dialog.options}
        assert all("→" in label for label, _v in dialog.options)
        steps = [(False, t) for t in trips]
        dialog = AD.plan_dialog(game, seat, steps, False, picture=True)
        assert dialog is not None and dialog.options == [] and "refused" not in dialog.text  # nobody left
        assert all(f"Sailor {n}: " in dialog.text for n in range(1, len(trips) + 1))
        assert dialog.picture and dialog.picture[:8] == b"\x89PNG\r\n\x1a\n"
        copy = game.copy()
        copy.apply(seat, dialog.action)  # what "Send" makes is legal
        assert copy.phase != "sail" or copy.turn != seat
    single = _to_first_sailing({"single_sailor": True})
    [seat] = single.acting_seats()
    first = AD.plan_dialog(single, seat, (), False)
    assert first is not None
    two = [v for _l, v in first.options][:2]
    dialog = AD.plan_dialog(single, seat, [(False, two)], False)
    assert dialog is not None and "This plan will be refused" in dialog.text and "(V-44)" in dialog.text
    assert dialog.options == []
    single.apply(seat, f"sail {two[0]}")
    if single.sailor_under_way(seat):
        assert AD.plan_dialog(single, seat, (), False) is None  # a sailor under way: finish it first


def test_sailor_dialog_offers_the_boat_under_single_sailor_V44_V49():
    from tests.vikings_helpers import new_game

    g = new_game(2, single_sailor=True, specials=True)
    set_homeland(g, 0, "N: L Ma R\nS: L R\nbase: N3 S1 B2\nspecials: boat")
    g.round, g.phase, g.turn, g.sail_queue = 2, "sail", 0, [0, 1]
    dialog = AD.plan_dialog(g, 0, (), False)
    assert dialog is not None and dialog.extra == "Next sailor with the boat (V-49)"
    dialog = AD.plan_dialog(g, 0, (), True)
    assert dialog is not None and dialog.extra == "The next sailor takes the boat (V-49): undo"
    dialog = AD.plan_dialog(g, 0, [(True, ["N1", "N2", "N3"])], False)
    assert dialog is not None and "Sailor 1 with the boat: " in dialog.text and "refused" not in dialog.text
    assert dialog.extra is None  # the boat left the game with its sailor (V-49)
    assert [v for _l, v in dialog.options] == ["S1", "S2"]
    assert dialog.action == "sail plan boat N1 N2 N3 / end"
    g.apply(0, dialog.action)  # the boat's sailor moved all three nobles
    assert g.homelands[0].rows[2] == ["L*", "Ma*", "R*"]


def test_sailor_dialog_says_when_free_cells_do_not_fit_in_its_list_V34(monkeypatch):
    """Discord offers 25 options a select: when the free cells are more, the dialog offers the
    first ones and says how many are left out and how to use them (typing the plan)."""
    import bot.games.vikings_sailing as sailing

    game = _to_first_sailing(seed=3)
    [seat] = game.acting_seats()
    every = AD.plan_dialog(game, seat, (), False)
    assert every is not None and len(every.options) >= 3 and "free cells" not in every.text
    monkeypatch.setattr(sailing, "MAX_OPTIONS", 2)
    few = AD.plan_dialog(game, seat, (), False)
    assert few is not None and few.options == every.options[:2]
    left = len(every.options) - 2
    more = "more is" if left == 1 else "more are"
    assert f"The list shows the first 2 free cells; {left} {more} not in it" in few.text and "/sail plan" in few.text


def test_text_says_round_6_ends_with_a_major_and_the_final_scoring_V33_V37():
    # V-33: after rounds 2, 4, 6 a major scoring; V-37: after the major scoring of round 6 the final
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=1, start_seat=0)
    assert "round 1 of 6, next scoring: small." in AD.text(g)
    g.round = 6
    assert "round 6 of 6, next scoring: major + final." in AD.text(g)
