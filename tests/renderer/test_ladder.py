"""The ladder picture (issue 30): μ ± σ per level and the head-to-head table, readable inline, in
every language; the CLI; bad ladders refused with a clear message."""

from __future__ import annotations

import copy
import json

import pytest
from PIL import Image

from renderer.common import TextLog
from renderer.ladder import draw_ladder, ladder_picture, main
from renderer.picture import MIN_TURN_TEXT, PICTURE_W
from tests.renderer.test_renderer_i18n import LANGUAGES, check_fits, translator

LEVELS = ("random", "easy", "normal", "hard", "montecarlo")
MU = {"random": 9.5, "easy": 21.0, "normal": 26.5, "hard": 33.0, "montecarlo": 30.2}


def ladder(levels=LEVELS, budget=0.25) -> dict:
    """A ladder as ``meadhall arena --ladder`` writes it: every level and every pair (10 for 5)."""
    rows = {lv: {"mu": MU[lv], "sigma": 1.2 + i / 10, "ordinal": MU[lv] - 3 * (1.2 + i / 10), "games": 128,
                 "wins": 10 + 9 * i, "mean_vp": 20.0 + 8 * i, "mean_decision_ms": [0.01, 1.5, 1.1, 251.0, 249.3][i]}
            for i, lv in enumerate(levels)}
    pairs = [{"a": a, "b": b, "games": 128, "a_wins": 80, "rate": 0.625, "low": 0.54, "high": 0.70}
             for i, a in enumerate(levels) for b in levels[i + 1:]]
    pairs[-1].update(rate=0.48, low=0.39, high=0.57)  # an even pair: its interval spans 50 %
    return {"game": "brian-boru", "games": 128, "seed": 7, "budget": budget, "levels": rows, "pairs": pairs}


def test_the_ladder_picture_draws_every_level_and_pair_readable_inline():
    log = TextLog()
    img = draw_ladder(ladder(), log=log)
    assert img.width == PICTURE_W and 1.6 <= img.width / img.height <= 2.0  # a chat picture's shape
    check_fits(log, img, MIN_TURN_TEXT)  # every text >= 22 px, inside its box, none cut to nothing
    drawn = [t.text for t in log.texts]
    assert drawn[0] == "Ladder of the computer levels: Brian Boru"
    assert "128 games, seed 7, 0.25 s a decision for the searching levels" in drawn
    # strongest first, each with μ ± σ and its figures
    names = [t for t in drawn if t in LEVELS]
    assert names == ["hard", "montecarlo", "normal", "easy", "random"]
    assert "μ 33.0 ± 1.5" in drawn and "won 37 of 128 · 44.0 VP · 251 ms a decision" in drawn
    assert "won 10 of 128 · 20.0 VP · 0.0 ms a decision" in drawn
    # every pair with its share and interval
    assert sum(" - " in t for t in drawn) == 10  # "a – b" (the dash drawn plain)
    # every pair played 128 games: said once above the pairs, not in every row
    assert "head to head: share of 128 games won, 95 % interval" in drawn
    assert drawn.count("62 % (54-70)") == 9 and "48 % (39-57)" in drawn


def test_pairs_of_different_game_counts_say_each_count_in_the_row():
    data = ladder()
    data["pairs"][0]["games"] = 60  # a Vikings ladder's window: pairs meet unequally when it is unbalanced
    log = TextLog()
    img = draw_ladder(data, log=log)
    check_fits(log, img, MIN_TURN_TEXT)
    drawn = [t.text for t in log.texts]
    assert "head to head: games won, 95 % interval" in drawn
    assert "62 % of 60 (54-70)" in drawn and drawn.count("62 % of 128 (54-70)") == 8


def test_a_100_percent_pair_is_drawn_whole_beside_its_dot():
    data = ladder()
    data["pairs"][0].update(rate=1.0, low=0.94, high=1.0)
    log = TextLog()
    img = draw_ladder(data, log=log)
    check_fits(log, img, MIN_TURN_TEXT)  # nothing cut short ("94-10..", as a 100 % row was before)
    assert "100 % (94-100)" in [t.text for t in log.texts]


def test_the_ladder_png_and_a_small_ladder_keep_the_picture_shape():
    png = ladder_picture(ladder(("random", "easy", "normal"), budget=None))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    log = TextLog()
    img = draw_ladder(ladder(("random", "easy", "normal"), budget=None), log=log)
    assert img.size == (PICTURE_W, 560)
    assert "128 games, seed 7" in [t.text for t in log.texts]  # no budget: none said


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_ladder_picture_in_every_language_keeps_each_text_in_its_box(lang):
    tr, ntr = translator(lang)
    log = TextLog()
    png = ladder_picture(ladder(), tr=tr, ntr=ntr, log=log)
    check_fits(log, Image.open(__import__("io").BytesIO(png)), MIN_TURN_TEXT)
    if lang == "pseudo":
        assert any("Ŵ" in t.text for t in log.texts)  # the texts went through the translator


@pytest.mark.parametrize("broken, message", [
    ({"levels": {}}, "no levels"),
    ({"levels": {"hard": {"mu": "high", "sigma": 1.0}}}, "level 'hard' has no number 'mu'"),
    ({"pairs": [{"a": "hard", "b": "easy", "rate": 1.4, "low": 0.9, "high": 1.0}]}, "'rate' is not a share"),
])
def test_a_broken_ladder_is_refused_by_name(broken, message):
    data = {**copy.deepcopy(ladder()), **broken}
    with pytest.raises(ValueError, match=message):
        draw_ladder(data)


def test_the_cli_writes_the_picture_and_refuses_a_bad_file(tmp_path, capsys):
    src, out = tmp_path / "ladder.json", tmp_path / "ladder.png"
    src.write_text(json.dumps(ladder()))
    assert main([str(src), "-o", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG" and Image.open(out).size[0] == PICTURE_W
    bad, none = tmp_path / "bad.json", tmp_path / "none.png"
    bad.write_text(json.dumps({"game": "vikings", "levels": {}}))
    assert main([str(bad), "-o", str(none)]) == 2
    assert "bad.json: the ladder has no levels" in capsys.readouterr().err and not none.exists()
