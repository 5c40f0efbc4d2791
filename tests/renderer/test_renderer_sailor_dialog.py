"""The sailor dialog's picture (issue 25, V-34): the sailing player's homeland with every cell a
viking may sail to named on it, readable, and the planned vikings standing on their cells."""

from __future__ import annotations

from engine.vikings import VikingsGame
from renderer.common import TextLog
from renderer.picture import MIN_TURN_TEXT
from renderer.vikings_turn import draw_vikings_turn


def _sailing() -> tuple[VikingsGame, int, list[str]]:
    g = VikingsGame.new(["alice", "bob"], seed=9)
    while g.phase != "sail":
        seat = g.acting_seats()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    seat = g.acting_seats()[0]
    cells = sorted({str(a).split()[1] for a in g.legal_actions(seat)
                    if str(a).startswith("sail ") and str(a).split()[1][1:].isdigit()})
    return g, seat, cells


def test_sailor_dialog_picture_names_each_free_cell_V34():
    g, seat, cells = _sailing()
    labelled, plain = TextLog(), TextLog()
    draw_vikings_turn(g.view(seat), highlights={"tile": cells, "base": []}, labels=True, log=labelled)
    draw_vikings_turn(g.view(seat), highlights={"tile": cells, "base": []}, log=plain)
    named = [t for t in labelled.texts if t.text in cells]
    assert sorted({t.text for t in named}) == cells  # every free cell names itself …
    assert not [t for t in plain.texts if t.text in cells]  # … only in the dialog's picture
    assert min(t.size for t in named) >= MIN_TURN_TEXT and not labelled.vanished()


def test_sailor_dialog_picture_shows_the_planned_vikings_V34():
    from bot.games.vikings import VikingsAdapter

    g, seat, cells = _sailing()
    state = g.to_json()
    before = VikingsAdapter().plan_dialog(g, seat, (), False, picture=True)
    after = VikingsAdapter().plan_dialog(g, seat, [(False, cells[:1])], False, picture=True)
    assert before is not None and after is not None and before.picture and after.picture
    assert before.picture != after.picture  # the planned viking stands on its cell
    assert g.to_json() == state  # the dialog plays its plan on a copy: nothing moved
