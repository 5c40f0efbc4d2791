"""The Vikings table image, checked on its pixels: what a player must be able to see is there."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from renderer import vikings as rv
from renderer.vikings import highlights_from_actions, layout_vikings, render_vikings
from tests.vikings_views import final_view, make_view, placing_view, progress_view

MAX_WIDTH = 1600
MAX_BYTES = 500 * 1024


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


def close(a, b, tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def count(img: Image.Image, box, colour, tol: int = 12) -> int:
    """How many pixels inside ``box`` are (nearly) ``colour``."""
    crop = img.crop(tuple(int(v) for v in box))
    return sum(n for n, c in crop.getcolors(crop.width * crop.height) if close(c, colour, tol))


def at(box, fx: float, fy: float) -> tuple[int, int]:
    x0, y0, x1, y1 = box
    return int(x0 + (x1 - x0) * fx), int(y0 + (y1 - y0) * fy)


def empty_cell(view, seat: int) -> str:
    """An island cell of ``seat`` that is empty and next to nothing drawn (beyond every row)."""
    rows = view["players"][seat]["rows"]
    return f"S{max(len(r) for r in rows) + 1}"


CASES = [(n, stage) for n in (2, 3, 4) for stage in ("early", "late")]


# --------------------------------------------------------------------------- size and format


@pytest.mark.parametrize("players,stage", CASES)
@pytest.mark.parametrize("with_highlights", [False, True])
def test_every_table_decodes_as_png_within_bounds(players, stage, with_highlights):
    view = placing_view(players, stage) if with_highlights else make_view(players, stage)
    hl = None
    if with_highlights:
        seat = view["pending"]["seat"]
        hl = {"tile": [empty_cell(view, seat)], "base": ["F" + empty_cell(view, seat)[1:]]}
    png = render_vikings(view, highlights=hl)
    img = decode(png)
    layout = layout_vikings(view, highlights=hl)
    assert img.size == (layout.width, layout.height)
    assert img.width <= MAX_WIDTH
    assert len(png) <= MAX_BYTES
    # every player has a panel (one under the other, or two a row when short: issue 14), apart, inside
    panels = [layout.panels[p["seat"]] for p in view["players"]]
    assert len(panels) == players
    for i, a in enumerate(panels):
        assert a.x + a.w <= img.width and a.y + a.h <= img.height
        for b in panels[i + 1:]:
            assert a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y


def test_focus_and_progress_and_final_tables_stay_within_bounds():
    for view, kw in [(final_view(4), {"focus": 3}), (progress_view(4), {"focus": 0}),
                     (make_view(4, "late"), {"focus": 1})]:
        png = render_vikings(view, **kw)
        img = decode(png)
        assert img.width <= MAX_WIDTH and len(png) <= MAX_BYTES


def test_very_long_row_shrinks_cells_but_keeps_width():
    view = make_view(2, "late")
    view["players"][0]["rows"][5] = ["L*"] + ["Ma"] * 24 + ["R*"]
    png = render_vikings(view)
    img = decode(png)
    layout = layout_vikings(view)
    assert img.width <= MAX_WIDTH
    assert layout.panels[0].ncols >= 27
    box = layout.cell_box(0, "F26")
    assert box[2] <= layout.panels[0].x + layout.panels[0].w
    assert close(img.getpixel(at(box, 0.2, 0.8)), rv.LAND)


# --------------------------------------------------------------------------- homeland cells


@pytest.mark.parametrize("players", [2, 3, 4])
def test_island_tile_cell_is_land_and_empty_cell_is_sea(players):
    view = make_view(players, "late")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    # seat 0 late: W1 is an L without a viking, W2 an M with one; S4 is empty sea
    assert view["players"][0]["rows"][1][0] == "L"
    assert close(img.getpixel(at(layout.cell_box(0, "W1"), 0.85, 0.5)), rv.LAND)
    assert close(img.getpixel(at(layout.cell_box(0, "W2"), 0.2, 0.82)), rv.LAND)
    assert close(img.getpixel(at(layout.cell_box(0, "S4"), 0.5, 0.5)), rv.SEA)
    # ships row sea has its own shade
    assert close(img.getpixel(at(layout.cell_box(0, "^7"), 0.5, 0.5)), rv.SEA_SHIPS)


def test_early_start_tile_is_drawn_in_its_row():
    view = make_view(3, "early")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    # seat 1 has its start tile at N1 (no viking), seat 2 at S1 with a scout, S2 an R end
    assert close(img.getpixel(at(layout.cell_box(1, "N1"), 0.85, 0.5)), rv.LAND)
    assert close(img.getpixel(at(layout.cell_box(2, "S2"), 0.2, 0.8)), rv.LAND)
    assert close(img.getpixel(at(layout.cell_box(1, "W1"), 0.85, 0.5)), rv.SEA)


def test_viking_on_a_tile_is_a_figure_of_its_kind_colour():
    view = make_view(2, "late")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    # seat 0: G1 holds a goldsmith (yellow), G3 an empty L
    yellow = rv.KIND_COLOURS["G"]
    assert count(img, layout.cell_box(0, "G1"), yellow) > 40
    assert count(img, layout.cell_box(0, "G3"), yellow) == 0


def test_island_ends_read_as_islands_coast_only_at_ends_V25():
    view = make_view(2, "late")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    # seat 0 W row: L Ma* R* L R -> W1 has its coast at the left edge, W3 at the right edge
    l_box, r_box, m_box = layout.cell_box(0, "W1"), layout.cell_box(0, "W3"), layout.cell_box(0, "W2")
    assert close(img.getpixel(at(l_box, 0.05, 0.5)), rv.SEA)      # sea left of the L (past the grid line)
    assert close(img.getpixel(at(l_box, 0.99, 0.5)), rv.LAND)     # land runs on to the M
    assert close(img.getpixel(at(m_box, 0.99, 0.8)), rv.LAND)
    assert close(img.getpixel(at(r_box, 0.98, 0.5)), rv.SEA)      # sea right of the R


def test_ship_shows_its_sail_colour_V3():
    view = make_view(2, "late")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    ships = view["players"][0]["rows"][0]  # ^g ^b ^r ^y
    for i, code in enumerate(ships):
        box = layout.cell_box(0, f"^{i + 1}")
        assert count(img, box, rv.SAIL_COLOURS[code[1]], tol=4) > 60, code


def test_threatened_viking_is_struck_and_defended_ship_marked_V30_V31():
    view = make_view(2, "late")
    p0 = view["players"][0]
    assert "N1" in p0["threatened"] and "^2" in p0["defended"] and "^1" not in p0["defended"]
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    assert count(img, layout.cell_box(0, "N1"), rv.THREAT, tol=20) > 20
    assert count(img, layout.cell_box(0, "N2"), rv.THREAT, tol=20) == 0  # a safe noble is upright
    # defended ship: the warrior's black shield in the cell's right quarter; undefended: red arrow
    def right_quarter(cell):
        x0, y0, x1, y1 = layout.cell_box(0, cell)
        return (x0 + (x1 - x0) * 0.72, y0, x1, y1)

    assert count(img, right_quarter("^2"), rv.KIND_COLOURS["W"], tol=20) > 10
    assert count(img, right_quarter("^1"), rv.THREAT, tol=20) > 10
    assert count(img, right_quarter("^2"), rv.THREAT, tol=20) == 0


def test_base_shows_a_figure_only_for_kinds_present():
    view = make_view(4, "late")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    base = view["players"][0]["base"]
    assert base["S"] == 2 and base["N"] == 0 and base["B"] == 3
    assert count(img, layout.base_box(0, "S"), rv.KIND_COLOURS["S"]) > 30
    assert count(img, layout.base_box(0, "B"), rv.KIND_COLOURS["B"]) > 30
    assert count(img, layout.base_box(0, "N"), rv.KIND_COLOURS["N"]) == 0


# --------------------------------------------------------------------------- offer and track


def test_offer_slot_shows_tile_and_viking_empty_slot_shows_nothing():
    view = make_view(3, "early")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    assert view["wheel"][0]["tile"] == "L" and view["wheel"][3] is None
    full, empty = layout.slot_box(0), layout.slot_box(3)
    assert count(img, full, rv.LAND) > 300
    assert count(img, full, rv.KIND_COLOURS["F"]) > 100
    assert count(img, empty, rv.LAND) == 0
    assert count(img, empty, rv.KIND_COLOURS["F"]) == 0


def test_round_track_marks_the_current_round():
    early = decode(render_vikings(make_view(2, "early")))
    late = decode(render_vikings(make_view(2, "late")))
    # the current round's box is filled with the active gold; round 1 early, round 6 late
    box1 = (rv.MARGIN + 4, 20 + 56, rv.MARGIN + 36, 20 + 88)
    box6 = (rv.MARGIN + 5 * 98 + 4, 20 + 56, rv.MARGIN + 5 * 98 + 36, 20 + 88)
    assert count(early, box1, rv.ACTIVE) > 200 and count(early, box6, rv.ACTIVE) == 0
    assert count(late, box6, rv.ACTIVE) > 200 and count(late, box1, rv.ACTIVE) == 0


def test_pending_combo_shown_beside_the_offer():
    view = placing_view(2, "early")
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    side = (layout.side_x, layout.offer_y + 30, layout.width - rv.MARGIN, layout.offer_y + layout.offer_h)
    assert count(img, side, rv.KIND_COLOURS["S"]) > 100  # the bought scout
    assert count(img, side, rv.LAND) > 300               # the bought L tile
    plain = decode(render_vikings(make_view(2, "early")))
    assert count(plain, side, rv.KIND_COLOURS["S"]) == 0


# --------------------------------------------------------------------------- players


def test_active_player_panel_is_framed_in_gold():
    view = make_view(3, "early")  # seat 2 is active
    img = decode(render_vikings(view))
    layout = layout_vikings(view)
    for seat, panel in layout.panels.items():
        edge = (panel.x + panel.w - 4, panel.y + panel.h // 2)
        assert close(img.getpixel(edge), rv.ACTIVE) == (seat == view["active"])


def test_start_player_marker_follows_start_player():
    view = make_view(2, "early")
    a = decode(render_vikings(view))
    view["start_player"] = 1
    b = decode(render_vikings(view))
    layout = layout_vikings(view)

    def header(img, seat):
        p = layout.panels[seat]
        return img.crop((p.x + 140, p.y + 8, p.x + 400, p.y + 44)).tobytes()

    assert header(a, 0) != header(b, 0) and header(a, 1) != header(b, 1)


def test_focus_seat_gets_a_bigger_homeland():
    view = make_view(4, "late")
    plain = layout_vikings(view)
    focused = layout_vikings(view, focus=2)
    assert focused.panels[2].cell > focused.panels[0].cell
    assert focused.panels[2].cell > plain.panels[2].cell
    img = decode(render_vikings(view, focus=2))
    assert close(img.getpixel(at(focused.cell_box(2, "N9"), 0.85, 0.5)), rv.LAND)


def test_last_action_cells_are_marked_and_can_be_hidden():
    view = make_view(2, "early")  # last: seat 1 placed N1
    layout = layout_vikings(view)
    box = layout.cell_box(1, "N1")
    edge = (box[0] + 2, (box[1] + box[3]) // 2)
    assert close(decode(render_vikings(view)).getpixel(edge), rv.LAST_MARK)
    assert not close(decode(render_vikings(view, last=False)).getpixel(edge), rv.LAST_MARK)


# --------------------------------------------------------------------------- highlights


@pytest.mark.parametrize("players,stage", CASES)
def test_highlighted_cells_take_the_two_colours(players, stage):
    view = placing_view(players, stage)
    seat = view["pending"]["seat"]
    col = max(len(r) for r in view["players"][seat]["rows"]) + 1
    hl = {"tile": [f"S{col}"], "base": [f"G{col}", f"^{col}"]}
    img = decode(render_vikings(view, highlights=hl))
    plain = decode(render_vikings(view))
    layout = layout_vikings(view, highlights=hl)
    for cell, colour in ((f"S{col}", rv.HIGHLIGHT_TILE), (f"G{col}", rv.HIGHLIGHT_BASE),
                         (f"^{col}", rv.HIGHLIGHT_BASE)):
        corner = at(layout.cell_box(seat, cell), 0.1, 0.9)
        assert close(img.getpixel(corner), colour), cell
        assert not close(plain.getpixel(corner), colour), cell
    # other seats are not highlighted
    other = (seat + 1) % players
    assert count(img, layout.cell_box(other, f"S{col}"), rv.HIGHLIGHT_TILE) == 0


def test_highlight_beyond_drawn_columns_widens_the_grid():
    view = placing_view(2, "early")
    hl = {"tile": ["W20"], "base": []}
    layout = layout_vikings(view, highlights=hl)
    seat = view["pending"]["seat"]
    assert layout.panels[seat].ncols >= 20
    img = decode(render_vikings(view, highlights=hl))
    assert close(img.getpixel(at(layout.cell_box(seat, "W20"), 0.1, 0.9)), rv.HIGHLIGHT_TILE)


# --------------------------------------------------------------------------- progress variant and end


def test_progress_extras_drawn_only_when_in_the_view_V45_V42():
    view = progress_view(3)
    layout = layout_vikings(view)
    assert layout.extras_h > 0
    img = decode(render_vikings(view))
    band = (rv.MARGIN, layout.extras_y, layout.width - rv.MARGIN, layout.extras_y + layout.extras_h)
    assert count(img, band, rv.LAND_SPECIAL) > 1000            # three displayed special tiles
    assert count(img, band, rv.KIND_COLOURS["W"], tol=20) > 50  # the auction's vikings
    plain = make_view(3, "early", options={"specials": True, "auction": True})
    assert layout_vikings(plain).extras_h == 0
    decode(render_vikings(plain))


def test_final_scoring_box_after_game_over():
    view = final_view(3)
    layout = layout_vikings(view)
    assert layout.final_h > 0 and layout.offer_h == 0
    img = decode(render_vikings(view))
    edge = (layout.width // 2, layout.final_y + 1)
    assert close(img.getpixel(edge), rv.ACTIVE)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("bad,kw,msg", [
    ({"game": "brianboru", "players": [{}]}, {}, "Vikings view"),
    ("not a dict", {}, "Vikings view"),
    ({"game": "vikings", "players": []}, {}, "no players"),
])
def test_bad_view_is_refused(bad, kw, msg):
    with pytest.raises(ValueError, match=msg):
        render_vikings(bad, **kw)


def test_bad_options_are_refused():
    view = make_view(2, "early")
    with pytest.raises(ValueError, match="focus seat 5"):
        render_vikings(view, focus=5)
    with pytest.raises(ValueError, match="not a cell"):
        render_vikings(view, highlights={"tile": ["Q3"]})
    with pytest.raises(ValueError, match="not a cell"):
        render_vikings(view, highlights={"base": ["W0"]})
    with pytest.raises(ValueError, match="unknown highlight keys"):
        render_vikings(view, highlights={"tiles": ["W1"]})


# --------------------------------------------------------------------------- command line


def test_cli_draws_a_view_saved_as_json(tmp_path, capsys):
    src = tmp_path / "view.json"
    src.write_text(json.dumps(placing_view(3, "late")))
    out = tmp_path / "out.png"
    assert rv.main([str(src), "-o", str(out), "--focus", "1", "--tile", "S9", "--base", "G9,F9"]) == 0
    img = decode(out.read_bytes())
    layout = layout_vikings(placing_view(3, "late"), focus=1, highlights={"tile": ["S9"], "base": ["G9", "F9"]})
    assert close(img.getpixel(at(layout.cell_box(1, "S9"), 0.1, 0.9)), rv.HIGHLIGHT_TILE)
    assert "wrote" in capsys.readouterr().out


def test_cli_reports_bad_input_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "out.png"
    assert rv.main([str(tmp_path / "missing.txt"), "-o", str(out)]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "vikings", "players": []}))
    assert rv.main([str(bad), "-o", str(out)]) == 2
    assert "no players" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert rv.main([str(broken), "-o", str(out)]) == 2
    assert not out.exists()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(make_view(2, "early")))
    assert rv.main([str(good), "-o", str(out), "--tile", "Z1"]) == 2
    assert "not a cell" in capsys.readouterr().err
    assert not out.exists()


# --------------------------------------------------------------------------- with the real engine

EXAMPLE_1 = """\
player: example gold=0 vp=0 start
ships: ^g ^b ^r
W: L  Ma* R*
N: L* R*
S: L* Mb* R*
G: L* R*
F: L*
---
player: second gold=12 vp=10
ships: ^y
W: L*
N: . L* Mc Xa* R
base: F2 B1
specials: boat sailor
"""


def test_cli_draws_the_rulebook_example_written_in_notation_V36(tmp_path, capsys):
    src = tmp_path / "table.txt"
    src.write_text(EXAMPLE_1)
    out = tmp_path / "table.png"
    assert rv.main([str(src), "-o", str(out)]) == 0
    img = decode(out.read_bytes())
    view = rv.table_view(EXAMPLE_1)
    assert view["players"][0]["threatened"] == ["N1", "S1"]  # the green ship of column 1 (V-31)
    assert view["players"][0]["defended"] == ["^2", "^3"]    # warriors in W2, W3 (V-30)
    layout = layout_vikings(view)
    assert count(img, layout.cell_box(0, "N1"), rv.THREAT, tol=20) > 20
    assert count(img, layout.cell_box(0, "G1"), rv.THREAT, tol=20) == 0
    assert close(img.getpixel(at(layout.cell_box(1, "N1"), 0.5, 0.5)), rv.SEA)
    assert count(img, layout.cell_box(1, "N4"), rv.LAND_SPECIAL) > 100  # building tile Xa
    assert count(img, layout.base_box(1, "F"), rv.KIND_COLOURS["F"]) > 30


def test_cli_reports_notation_errors_with_line_and_column(tmp_path, capsys):
    src = tmp_path / "bad.txt"
    src.write_text("player: x gold=1 vp=2\nships: L\n")
    out = tmp_path / "bad.png"
    assert rv.main([str(src), "-o", str(out)]) == 2
    assert "line 2, column 8" in capsys.readouterr().err
    assert not out.exists()


def _play_and_render(options, seed, players=3):
    """Play a seeded random game with the engine; render the first view of each phase, early and late."""
    import random

    from engine.vikings import VikingsGame

    names = ["Astrid", "Bjorn", "Sigrid", "Ulf"][:players]
    game = VikingsGame.new(names, seed=seed, options=options)
    rng = random.Random(seed)
    seen: set = set()
    checked = 0
    while True:
        seats = game.acting_seats()
        seat = seats[0] if seats else None
        view = game.view(seat)
        key = (view["phase"], view["round"] >= 5)
        if key not in seen:
            seen.add(key)
            acts = [str(a) for a in game.legal_actions(seat)] if seats else []
            hl = highlights_from_actions(acts) if view["phase"] == "place" else None
            png = render_vikings(view, highlights=hl, focus=seat)
            img = decode(png)
            assert img.width <= MAX_WIDTH and len(png) <= MAX_BYTES
            layout = layout_vikings(view, highlights=hl, focus=seat)
            for p in view["players"]:  # every placed island tile is land on the picture
                for r, row in enumerate(p["rows"][1:], start=1):
                    for i, cell in enumerate(row):
                        if cell != "." and cell.rstrip("*") in ("L", "R") and not cell.endswith("*"):
                            box = layout.cell_box(p["seat"], f"{'^WNSGF'[r]}{i + 1}")
                            fx = 0.85 if cell == "L" else 0.15
                            assert close(img.getpixel(at(box, fx, 0.5)), rv.LAND), (p["seat"], r, i, cell)
                            checked += 1
            if hl:
                for key_, colour in (("tile", rv.HIGHLIGHT_TILE), ("base", rv.HIGHLIGHT_BASE)):
                    for cell in hl[key_]:
                        assert close(img.getpixel(at(layout.cell_box(seat, cell), 0.1, 0.9)), colour), cell
        if not seats:
            return seen, checked
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_real_engine_game_renders_in_every_phase():
    seen, checked = _play_and_render(None, seed=11, players=4)
    assert {"buy", "place", "sail", "over"} <= {p for p, _ in seen}
    assert checked > 20


def test_real_engine_progress_game_renders_auction_and_specials_V40_V45():
    seen, _ = _play_and_render({"auction": True, "single_sailor": True, "specials": True}, seed=5, players=3)
    assert {"bid", "remove", "lay", "buy", "place"} <= {p for p, _ in seen}


def test_highlights_from_actions_split_stand_and_base_V26_V27():
    acts = ["place N3", "place N3 base", "place G2", "start W1", "buy 3", "place ^4"]
    assert highlights_from_actions(acts) == {"tile": ["N3"], "base": ["^4", "W1", "G2"]}


def test_rendering_leaves_the_view_unchanged():
    view = progress_view(4)
    before = json.dumps(view, sort_keys=True)
    render_vikings(view, highlights={"tile": ["S9"], "base": []}, focus=1, last=False)
    assert json.dumps(view, sort_keys=True) == before
