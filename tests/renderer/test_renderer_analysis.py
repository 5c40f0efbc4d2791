"""The picture of a game's analysis (issue 31): within Discord's inline bounds, every text at least
22 px, each person's figures and costliest decisions shown, a computer seat said to be unreviewed."""

from __future__ import annotations

from functools import cache

import pytest

from engine.players.arena import game_class, logged_game
from engine.players.review import Decision, Review, curve, summarise
from renderer.analysis import draw_analysis, letters, render_analysis
from renderer.common import TextLog
from renderer.picture import MIN_TURN_TEXT
from tests.renderer.test_renderer_pictures import BB_NAMES, NAMES, check_bounds, check_texts, decode, words


@cache
def sample_review(game_id: str, players: int) -> Review:
    """A played game's real margin curve, with made-up judged decisions (no search: fast) for every seat
    but the last, which is a computer player."""
    names = (NAMES if game_id == "vikings" else BB_NAMES)[:players]
    moves = logged_game(game_id, names, 9, level="normal")
    line = curve(game_id, game_class(game_id).new(list(names), seed=9), moves)
    persons = list(range(players - 1))
    judged = [Decision(i % (players - 1), i + 1, 1, "a", "b", 0.0, 0.0, cost, cost, False, True)
              for i, cost in enumerate(((k * 37) % 11) * 0.7 for k in range(0, len(moves), 3))]
    return summarise(game_id, names, persons, judged, line)


CASES = [("vikings", 2), ("vikings", 3), ("vikings", 4), ("brian-boru", 3), ("brian-boru", 4), ("brian-boru", 5)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_analysis_picture_bounds_and_every_text_at_least_22px(game_id, players):
    review = sample_review(game_id, players)
    log = TextLog()
    img = draw_analysis(review, title="Game 12", log=log)
    check_bounds(img)
    assert img.size == (1120, 640)
    check_texts(log, img, MIN_TURN_TEXT)
    assert log.overflowing() == [] and log.vanished() == []
    said = words(log)
    marks = letters(review.names)
    assert "Game analysis: Game 12" in said
    for sr in review.seats:  # each person's accuracy, VP lost, and their costliest marked on the graph
        assert sr.accuracy is not None
        assert f"accuracy {round(100 * sr.accuracy)} %" in said
        assert f"{sr.lost:.1f} VP lost per decision" in said
        for rank in range(1, len(sr.costliest) + 1):
            assert f"{marks[sr.seat]}{rank}" in [t.text for t in log.texts]
    assert said.count("computer player: not reviewed") == 1


def test_analysis_picture_encodes_as_png():
    img = decode(render_analysis(sample_review("vikings", 3)))
    assert img.size == (1120, 640)


def test_analysis_picture_refuses_a_review_without_a_curve_for_every_seat():
    review = sample_review("vikings", 3)
    broken = Review(review.game_id, review.names, review.persons, review.decisions,
                    type(review.curve)(review.curve.moves, review.curve.margins[:2]))
    with pytest.raises(ValueError, match="curve for every seat"):
        draw_analysis(broken)


def test_analysis_letters_fall_back_to_seat_numbers_when_initials_repeat():
    assert letters(["Astrid", "Bjorn"]) == ["A", "B"]
    assert letters(["Astrid", "Asa", "Bjorn"]) == ["1", "2", "3"]


def test_analysis_picture_with_every_costly_decision_at_one_spot_keeps_every_tag_on_it():
    """Fifteen tags at the same move (five people, three each): all drawn on the graph, none cut (a
    crowded spot may overlap some); the end letters stay on the picture."""
    from engine.players.review import Curve, Decision, summarise

    names = ["Aoife", "Brian", "Cormac", "Deirdre", "Eithne"]
    line = Curve((0, 10, 20), tuple((0.0, 1.0 * s, -2.0) for s in range(5)), (10,))
    judged = [Decision(s, 10, 1, "a", "b", 0.0, 0.0, 3.0 + k, 3.0 + k, False, True) for s in range(5) for k in range(3)]
    review = summarise("brian-boru", names, range(5), judged, line)
    log = TextLog()
    img = draw_analysis(review, log=log)
    check_texts(log, img, MIN_TURN_TEXT)
    tags = [t.text for t in log.texts if len(t.text) == 2 and t.text[0].isalpha() and t.text[1] in "123"]
    assert len(tags) == 15
