"""The Brian Boru table and hand images, checked on their pixels: what a player must see is there."""

from __future__ import annotations

import io
import json
from functools import cache

import pytest
from PIL import Image

from engine.brianboru import BrianBoruGame
from engine.core import Rng
from renderer import brianboru as rb
from renderer.brianboru import (
    action_words,
    geometry,
    position_view,
    render_brianboru,
    render_hand,
    seat_colour,
    town_centre,
)

MAX_WIDTH = 1600
MAX_BYTES = 500 * 1024
NAMES = ["Aoife", "Brian", "Cormac", "Deirdre", "Eithne"]


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


def close(a, b, tol: int = 10) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def count(img: Image.Image, box, colour, tol: int = 12) -> int:
    crop = img.crop(tuple(int(v) for v in box))
    return sum(n for n, c in crop.getcolors(crop.width * crop.height) if close(c, colour, tol))


@cache
def _game_json(players: int, stage: str) -> dict:
    """A seeded random game stopped early (first trick of round 1) or late (last round's tricks)."""
    game = BrianBoruGame.new(NAMES[:players], seed=10 + players)
    rng = Rng(players * 101)
    while True:
        v = game.view(None)
        if stage == "early" and v["phase"] == "tricks" and len(v["trick"]["cards"]) == 2:
            break
        if (stage == "late" and v["round"] == v["rounds"] and v["phase"] == "tricks"
                and v["trick"]["number"] >= 3 and v["trick"]["cards"]):
            break
        if stage == "over" and v["phase"] == "over":
            break
        seat = game.acting_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game.to_json()


def game_at(players: int, stage: str) -> BrianBoruGame:
    return BrianBoruGame.from_json(_game_json(players, stage))


CASES = [(n, stage) for n in (3, 4, 5) for stage in ("early", "late")]


# --------------------------------------------------------------------------- size and format


@pytest.mark.parametrize("players,stage", [*CASES, (4, "over")])
def test_every_table_decodes_as_png_within_bounds(players, stage):
    view = game_at(players, stage).view(None)
    png = render_brianboru(view)
    img = decode(png)
    assert img.width <= MAX_WIDTH and len(png) <= MAX_BYTES
    g = geometry()
    assert img.height >= g.height  # the whole map is in the picture


@pytest.mark.parametrize("players,stage", CASES)
def test_every_hand_decodes_within_bounds(players, stage):
    game = game_at(players, stage)
    for seat in range(players):
        png = render_hand(game.view(seat), seat)
        img = decode(png)
        assert img.width <= MAX_WIDTH and len(png) <= MAX_BYTES


def test_draft_hand_shows_the_cards_in_front_of_the_player():
    game = BrianBoruGame.new(NAMES[:3], seed=2)
    rng = Rng(3)
    while game.s["phase"] != "draft":
        seat = game.acting_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    you = game.view(0)["you"]
    assert not you["hand"] and len(you["draft"]) == 8
    img = decode(render_hand(game.view(0), 0))
    # every card's colour band is there: count the bands of each colour along the top row of cards
    bands = {c: 0 for c in ("red", "blue", "yellow")}
    # inside the band of each card where the layout puts it, every one in front of the player
    lay = rb.hand_layout([], you["draft"], ["Your hand is empty", "In front of you (keep 2, pass the rest)"])
    assert [v for v, _box, in_front in lay.cards if in_front] == you["draft"] and lay.note
    for v, (_x0, y0, x1, _y1), _in_front in lay.cards:
        colour = rb.card_text(v)[0]
        x, y = x1 - 20, y0 + 30
        if colour in bands:
            assert close(img.getpixel((x, y)), rb.CARD_COLOURS[colour]), (v, colour)
            bands[colour] += 1
    assert sum(bands.values()) == sum(1 for v in you["draft"] if rb.card_text(v)[0] != "white")


# --------------------------------------------------------------------------- the map


@pytest.mark.parametrize("players,stage", CASES)
def test_an_empty_town_shows_its_own_colour(players, stage):
    view = game_at(players, stage).view(None)
    img = decode(render_brianboru(view))
    empty = [t for t in view["towns"] if t["owner"] is None]
    assert empty
    for t in empty:
        x, y = town_centre(t["name"])
        assert close(img.getpixel((x + 4, y + 4)), rb.TOWN_COLOURS[t["colour"]]), t


@pytest.mark.parametrize("players,stage", CASES)
def test_a_controlled_town_shows_its_players_disc(players, stage):
    view = game_at(players, stage).view(None)
    img = decode(render_brianboru(view))
    owned = [t for t in view["towns"] if t["owner"] is not None]
    assert len(owned) >= players  # at least the start towns (B-9)
    r = rb.TOWN_R
    for t in owned:
        x, y = town_centre(t["name"])
        disc_px = count(img, (x - r, y - r, x + r, y + r), seat_colour(t["owner"]))
        assert disc_px >= 40, t
        for other in range(players):
            if other != t["owner"]:
                assert count(img, (x - r, y - r, x + r, y + r), seat_colour(other), tol=6) < 10, (t, other)


def test_viking_marker_monastery_and_active_town_are_drawn():
    game = game_at(4, "early")
    view = game.view(None)
    owned = [t for t in view["towns"] if t["owner"] is not None]
    view["towns"] = [dict(t) for t in view["towns"]]
    by_name = {t["name"]: t for t in view["towns"]}
    vik, mon = owned[0]["name"], owned[1]["name"]
    by_name[vik]["viking"] = True
    by_name[mon]["monastery"] = True
    img = decode(render_brianboru(view))
    plain = decode(render_brianboru(game.view(None)))
    r = rb.TOWN_R
    x, y = town_centre(vik)
    box = (x + r - 8, y - r - 8, x + r + 12, y - r + 12)
    assert count(img, box, rb.VIKING, tol=8) > count(plain, box, rb.VIKING, tol=8) + 30
    x, y = town_centre(mon)
    box = (x - r - 10, y + r - 14, x - r + 6, y + r + 6)
    assert count(img, box, rb.MONASTERY, tol=6) > count(plain, box, rb.MONASTERY, tol=6) + 20
    active = view["active_town"]
    assert active is not None
    x, y = town_centre(active)
    assert close(img.getpixel((x - r - 4, y)), rb.ACTIVE, 25)  # the gold ring of the marker


def test_claim_tokens_show_face_down_face_up_and_owner():
    view = game_at(3, "early").view(None)
    view["claims"] = [dict(c) for c in view["claims"]]
    view["claims"][0].update(face_up=False, owner=None)
    view["claims"][1].update(face_up=True, owner=None)
    view["claims"][2].update(face_up=True, owner=2)
    img = decode(render_brianboru(view))
    g = geometry()
    ox, oy = rb.MARGIN, rb.MARGIN + 30

    def token_box(rid):
        x0, y0, x1, y1 = g.region_label[rid]
        cx, cy = x1 - 15 + ox, (y0 + y1) / 2 + oy
        return (cx - 10, cy - 10, cx + 10, cy + 10)

    assert count(img, token_box(view["claims"][0]["region"]), (150, 140, 125)) > 60
    assert count(img, token_box(view["claims"][1]["region"]), rb.GOLD) > 60
    assert count(img, token_box(view["claims"][2]["region"]), seat_colour(2)) > 60


def test_the_public_image_ignores_the_seat_part_of_a_view():
    """A seat's view carries its hand under "you"; the table image must be the same without it."""
    game = game_at(4, "late")
    public = render_brianboru(game.view(None))
    for seat in range(4):
        assert render_brianboru(game.view(seat)) == public


def test_last_rings_towns_only_when_asked():
    view = game_at(3, "early").view(None)
    town = view["towns"][0]["name"]
    view["last"] = {"towns": [town]}
    x, y = town_centre(town)
    r = rb.TOWN_R
    box = (x - r - 12, y - 4, x - r - 5, y + 4)
    assert count(decode(render_brianboru(view)), box, rb.LAST_MARK, 20) > 5
    assert count(decode(render_brianboru(view, last=False)), box, rb.LAST_MARK, 20) == 0


def test_towns_stay_apart_and_inside_the_map():
    g = geometry()
    pts = list(g.towns.values())
    for i, a in enumerate(pts):
        assert 0 < a[0] < g.width and 0 < a[1] < g.height
        for b in pts[i + 1:]:
            assert ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= rb.MIN_TOWN_GAP - 1


# --------------------------------------------------------------------------- words and bad input


def test_action_words_are_short():
    assert action_words("control coin coin") == "control, 2 coins"
    assert action_words("coin coin coin expand") == "3 coins, expand"
    assert action_words("battle battle") == "2 invaders"
    assert action_words("vp 3 town in leinster") == "3 VP, town in Leinster"
    assert action_words("control pay") == "control, pay a coin"


def test_bad_views_are_refused_clearly():
    with pytest.raises(ValueError, match="Brian Boru view"):
        render_brianboru({"game": "vikings"})
    view = game_at(3, "early").view(None)
    with pytest.raises(ValueError, match="no players"):
        render_brianboru(dict(view, players=[]))
    bad = dict(view, towns=[dict(view["towns"][0], name="Atlantis")])
    with pytest.raises(ValueError, match="Atlantis"):
        render_brianboru(bad)
    bad = dict(view, towns=[dict(view["towns"][0], owner=7)])
    with pytest.raises(ValueError, match="owner 7"):
        render_brianboru(bad)
    with pytest.raises(ValueError, match="seat 1's own view"):
        render_hand(game_at(3, "early").view(0), 1)
    with pytest.raises(ValueError, match="own view"):
        render_hand(view, 0)


# --------------------------------------------------------------------------- CLI and notation

POSITION = """claims-on-board: meath
player: Daria coins=5 vp=20 renown=2 invaders=1 church=3 track=4 marriages=1 marker
towns: Aileach Sligo Tara Dublin+ Cork!
claims: munster
---
player: "Kasia K" coins=3 vp=21 track=2 marriages=2 princess=support
towns: Galway Kells
---
player: Ola
towns: Kilkenny
"""


def test_cli_draws_a_position_in_notation(tmp_path):
    src = tmp_path / "pos.txt"
    src.write_text(POSITION, encoding="utf-8")
    out = tmp_path / "pos.png"
    assert rb.main([str(src), "-o", str(out)]) == 0
    img = decode(out.read_bytes())
    r = rb.TOWN_R
    x, y = town_centre("Dublin")
    assert count(img, (x - r, y - r, x + r, y + r), seat_colour(0)) >= 40
    x, y = town_centre("Galway")
    assert count(img, (x - r, y - r, x + r, y + r), seat_colour(1)) >= 40
    view = position_view(POSITION)
    assert [c["owner"] for c in view["claims"] if c["region"] == "munster"] == [0]
    assert [c["face_up"] for c in view["claims"] if c["region"] == "meath"] == [True]


def test_cli_draws_a_view_json_and_a_hand(tmp_path):
    game = game_at(3, "early")
    src = tmp_path / "view.json"
    src.write_text(json.dumps(game.view(1)), encoding="utf-8")
    out = tmp_path / "hand.png"
    assert rb.main([str(src), "--hand", "1", "-o", str(out)]) == 0
    decode(out.read_bytes())
    assert rb.main([str(src), "-o", str(tmp_path / "table.png")]) == 0


def test_cli_reports_bad_notation_with_line_and_column(tmp_path, capsys):
    src = tmp_path / "bad.txt"
    src.write_text("player: Ann\ntowns: Atlantis\n", encoding="utf-8")
    assert rb.main([str(src), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "Atlantis" in err
    assert not (tmp_path / "x.png").exists()
    assert rb.main([str(tmp_path / "missing.txt"), "-o", str(tmp_path / "x.png")]) == 2
