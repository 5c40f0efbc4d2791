"""The chat pictures of issue 14: turn and scoring pictures within Discord's inline bounds, every text
measured against its minimum (the renderer records each text it draws in a ``TextLog``)."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from bot.games.brianboru import BrianBoruAdapter
from bot.games.replay import replay, vp_history
from bot.games.vikings import VikingsAdapter, _finished_scoring, scored_round
from engine.brianboru import BrianBoruGame
from engine.core import Rng
from engine.vikings import VikingsGame
from renderer.brianboru_turn import decision_words, draw_brianboru_turn, render_brianboru_turn
from renderer.common import TextLog
from renderer.picture import FRAME, MIN_TURN_TEXT, PAD
from renderer.scoring import (
    draw_brianboru_final,
    draw_vikings_scoring,
    merge_lines,
    render_vikings_scoring,
    split_line,
)
from renderer.vikings import highlights_from_actions
from renderer.vikings_turn import combo_cost, cost_words, draw_vikings_turn, render_vikings_turn
from tests.renderer.test_renderer_brianboru import game_at
from tests.vikings_views import make_view, placing_view, progress_view

NAMES = ["Astrid", "Bjorn", "Sigrid", "Ulf"]
BB_NAMES = ["Aoife", "Brian", "Cormac", "Deirdre", "Eithne"]


def check_bounds(img: Image.Image) -> None:
    """Landscape, 1000-1200 px wide, aspect 1.6 : 1 ... 2 : 1; opaque and framed (issue 14)."""
    w, h = img.size
    assert 1000 <= w <= 1200, img.size
    assert 1.6 <= w / h <= 2.0, img.size
    assert img.mode == "RGB"  # no alpha: opaque on Discord's dark and light themes
    for xy in ((0, 0), (w - 1, h - 1), (w // 2, 1), (1, h // 2)):
        assert img.getpixel(xy) == FRAME


def check_texts(log: TextLog, img: Image.Image, minimum: int = MIN_TURN_TEXT) -> None:
    assert log.texts, "the picture recorded no text"
    assert log.below(minimum) == [], [(t.text, t.size) for t in log.below(minimum)]
    w, h = img.size
    for t in log.texts:  # every text lies on the picture
        x0, y0, x1, y1 = t.box
        assert 0 <= x0 and 0 <= y0 and x1 <= w and y1 <= h, t


def words(log: TextLog) -> str:
    return " | ".join(t.text for t in log.texts)


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


VIK = [(n, stage) for n in (2, 3, 4) for stage in ("early", "late")]
BB = [(n, stage) for n in (3, 4, 5) for stage in ("early", "late")]


# --------------------------------------------------------------------------- Vikings turn


@pytest.mark.parametrize("players,stage", VIK)
def test_vikings_turn_picture_bounds_and_every_text_at_least_22px(players, stage):
    view = make_view(players, stage)
    log = TextLog()
    img = draw_vikings_turn(view, log=log)
    check_bounds(img)
    check_texts(log, img)
    said = words(log)
    active = view["players"][view["active"]]
    assert f"{active['name']} to buy" in said                      # whose turn
    for p in view["players"]:                                       # everybody's gold and VP
        assert f"{p['gold']} gold  {p['vp']} VP" in said
    assert f"round {view['round']} of 6" in said


@pytest.mark.parametrize("players,stage", VIK)
def test_vikings_placing_marks_legal_cells_and_explains_the_marks(players, stage):
    view = placing_view(players, stage)
    seat = view["pending"]["seat"]
    rows = view["players"][seat]["rows"]
    free = f"S{max(len(r) for r in rows) + 1}"
    hl = {"tile": [free], "base": []}
    log = TextLog()
    img = draw_vikings_turn(view, highlights=hl, log=log)
    check_bounds(img)
    check_texts(log, img)
    assert "viking stands" in words(log) and "viking to base" in words(log)
    plain = draw_vikings_turn(view)
    assert img.tobytes() != plain.tobytes()  # the mark is drawn


def test_combo_cost_pays_the_shortfall_in_vp_V13_V16():
    assert combo_cost(3, 5, 0) == (3, 0)
    assert combo_cost(7, 5, 4) == (5, 2)      # V-16: 2 VP exchanged
    assert combo_cost(7, 5, 1) is None        # cannot pay: too dear
    assert cost_words((0, 0)) == "free" and cost_words((5, 2)) == "5g + 2 VP" and cost_words(None) == "too dear"


def test_vikings_turn_shows_each_combo_cost_for_the_buyer():
    view = make_view(4, "late")
    buyer = view["players"][view["active"]]
    log = TextLog()
    draw_vikings_turn(view, log=log)
    said = [t.text for t in log.texts]
    for combo in filter(None, view["wheel"]):
        assert cost_words(combo_cost(combo["price"], buyer["gold"], buyer["vp"])) in said


def test_vikings_turn_marks_combos_the_rules_forbid_now_V14():
    view = make_view(4, "late")
    log = TextLog()
    draw_vikings_turn(view, legal=["buy 2", "buy 5"], log=log)
    assert "not now" in [t.text for t in log.texts]


def test_vikings_turn_draws_an_offer_without_tiles_V42():
    # during the auction (bidding, removal) the offer has vikings but no tiles yet
    view = progress_view(4)
    view["phase"] = "bid"
    view["wheel"] = [{"tile": None, "viking": v, "price": i} for i, v in enumerate("FFGGSSNNWWBB")]
    log = TextLog()
    img = draw_vikings_turn(view, log=log)
    check_bounds(img)
    check_texts(log, img)
    assert "no tile yet" in words(log)
    assert "Auction" in words(log)  # V-41: the bid and the drawn vikings are shown


def test_vikings_turn_png_is_palette_and_small():
    png = render_vikings_turn(make_view(4, "late"))
    img = decode(png)
    assert img.mode == "P" and img.size[0] <= 1200 and len(png) < 200 * 1024


@pytest.mark.parametrize("bad", [None, {}, {"game": "brian-boru", "players": [{}]}, {"game": "vikings"}])
def test_vikings_turn_refuses_bad_views(bad):
    with pytest.raises(ValueError):
        draw_vikings_turn(bad)


# --------------------------------------------------------------------------- Brian Boru turn


@pytest.mark.parametrize("players,stage", BB)
def test_brianboru_turn_picture_bounds_and_every_text_at_least_22px(players, stage):
    game = game_at(players, stage)
    view = game.view(None)
    log = TextLog()
    img = draw_brianboru_turn(view, log=log)
    check_bounds(img)
    check_texts(log, img)
    said = words(log)
    assert f"Trick for {view['active_town']}" in said
    for c in view["trick"]["cards"]:                                # the cards played so far
        assert str(c["card"]) in [t.text for t in log.texts]
    for p in view["players"]:
        assert p["name"] in said
    assert decision_words(view).split(":")[0] in said               # what must be decided
    assert "Marriage track" in said


@pytest.mark.parametrize("players,stage", BB)
def test_brianboru_turn_picture_never_shows_a_hand(players, stage):
    # hidden information: the picture of a seat's view equals the public one
    game = game_at(players, stage)
    seat = game.acting_seats()[0]
    assert render_brianboru_turn(game.view(seat)) == render_brianboru_turn(game.view(None))


def test_brianboru_turn_refuses_bad_views():
    with pytest.raises(ValueError):
        draw_brianboru_turn({"game": "vikings", "players": []})


# --------------------------------------------------------------------------- scoring


@cache
def vikings_game(players: int, seed: int = 9):
    """A seeded random Vikings game played to the end: the moves and each scoring's events."""
    game = VikingsGame.new(NAMES[:players], seed=seed)
    rng = Rng(seed * 31 + players)
    moves, scorings = [], []
    while game.phase != "over":
        seat = game.acting_seats()[0]
        action = rng.choice(game.legal_actions(seat))
        moves.append((seat, str(action)))
        events = game.apply(seat, action)
        if any(e.kind == "score" for e in events):
            scorings.append((len(moves), events))
    return game, moves, scorings


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", ["small", "major", "final"])
def test_vikings_scoring_pictures_show_every_players_lines_V32_V37(players, kind):
    game, moves, _ = vikings_game(players)
    setup = (NAMES[:players], 9, None, None)
    # replay to the last move that finished a scoring of this kind (the adapter's own test)
    live = VikingsGame.new(NAMES[:players], seed=9)
    cut, view = 0, None
    for i, (seat, action) in enumerate(moves, 1):
        events = live.apply(seat, action)
        done = _finished_scoring(live, events)
        if done and done[0]["scoring"] == kind:
            cut, view = i, live.view(None)
    rep = replay(VikingsGame, setup, moves[:cut])
    scores = [s for s in rep.last_scores if s["scoring"] == kind]
    log = TextLog()
    img = draw_vikings_scoring(view, scores, history=rep.history, log=log)
    check_bounds(img)
    check_texts(log, img)
    said = words(log)
    assert {s["seat"] for s in scores} == set(range(players))   # a major scoring gathered across moves
    for p in view["players"]:
        assert p["name"] in said
    if kind == "final":
        winners = ", ".join(NAMES[s] for s in view["final"]["winners"])
        assert winners in said and "VP after each round" in said
    else:
        assert "VP after each round" not in said


def test_vp_history_replays_the_log_to_the_final_vp():
    game, moves, _ = vikings_game(3)
    hist = vp_history(VikingsGame, NAMES[:3], 9, None, None, moves)
    assert len(hist) == 7  # start and six rounds
    assert hist[-1] == [p["vp"] for p in game.view(None)["players"]]
    assert hist[0] == [p["vp"] for p in VikingsGame.new(NAMES[:3], seed=9).view(None)["players"]]


@cache
def bb_over(players: int):
    game = BrianBoruGame.new(BB_NAMES[:players], seed=5)
    rng = Rng(players)
    moves = []
    while game.view(None)["phase"] != "over":
        seat = game.acting_seats()[0]
        action = rng.choice(game.legal_actions(seat))
        moves.append((seat, str(action)))
        game.apply(seat, action)
    return game, moves


@pytest.mark.parametrize("players", [3, 4, 5])
def test_brianboru_final_picture_names_winner_lines_and_chart_B33_B34(players):
    game, moves = bb_over(players)
    view = game.view(None)
    hist = vp_history(BrianBoruGame, BB_NAMES[:players], 5, None, None, moves)
    assert hist[-1] == [p["vp"] for p in view["final"]["players"]]
    log = TextLog()
    img = draw_brianboru_final(view, history=hist, log=log)
    check_bounds(img)
    check_texts(log, img)
    said = words(log)
    assert ", ".join(view["final"]["winners"]) in said and "VP after each round" in said
    for p in view["final"]["players"]:
        assert f"{p['vp']} VP" in said


def test_scoring_lines_split_into_what_and_how_much():
    assert split_line("3 unthreatened nobles × 2 VP: +6 VP") == ("3 unthreatened nobles × 2 VP", "+6 VP")
    assert split_line("gold: 10 gold → +2 VP (1 VP per 5 gold), 1 gold kept") == ("gold", "+2 VP")
    assert split_line("claim Meath: +5 (B-33.4)") == ("claim Meath", "+5")
    assert split_line("1 threatened noble: nothing") == ("1 threatened noble", "nothing")
    assert merge_lines(["undefended yellow ship in column 1: -2 VP", "undefended yellow ship in column 4: -2 VP",
                        "longest island (5): +5 VP"]) == [("2 x undefended yellow ship", "-4 VP"),
                                                         ("longest island (5)", "+5 VP")]


def test_structured_scoring_lines_split_by_their_parts_not_their_words():
    """Issue 16: the engines' lines are messages; the picture takes what and the signed change."""
    from engine.core import msg, score_line
    from engine.vikings.data import COLOUR_WORD

    def ship(col: int) -> dict:
        what = msg("undefended {colour} ship in column {col}", colour=COLOUR_WORD["yellow"], col=col)
        return score_line(what, msg("-{vp} VP", vp=2), vp=-2).to_json()

    gold = score_line(msg("gold"), msg("{spent} gold → +{vp} VP (1 VP per {per} gold), {kept} gold kept",
                                       spent=10, vp=2, per=5, kept=1), gold=-10, vp=2)
    assert split_line(gold.to_json()) == ("gold", "-10 gold +2 VP")
    assert split_line(score_line(msg("1 threatened noble"), msg("nothing"))) == ("1 threatened noble", "nothing")
    assert merge_lines([ship(1), ship(4), score_line(msg("longest island ({n})", n=5), msg("+{vp} VP", vp=5),
                                                     vp=5).to_json()]) == [
        ("2 undefended yellow ships", "-4 VP"), ("longest island (5)", "+5 VP")]
    # the grouped label is its own message, so a language need not be cut at "in column"
    from renderer.common import translating

    def pl(message: str, /, **fields: object) -> str:
        return {"yellow": "żółty"}.get(message, message).format(**fields)

    def npl(singular: str, plural: str, n: int, /, **fields: object) -> str:
        words = {"{n} undefended {colour} ship": ("{n} niebroniony {colour} statek",
                                                  "{n} niebronione {colour} statki")}
        one, many = words.get(singular, (singular, plural))
        return (one if n == 1 else many).format(n=n, **fields)

    with translating(pl, npl):
        assert merge_lines([ship(1), ship(4)])[0] == ("2 niebronione żółty statki", "-4 VP")


def test_scoring_picture_refuses_nothing_to_draw():
    with pytest.raises(ValueError):
        draw_vikings_scoring(make_view(2, "late"), [])
    with pytest.raises(ValueError):
        draw_brianboru_final(game_at(3, "late").view(None))


# --------------------------------------------------------------------------- the host's choice


def test_vikings_adapter_posts_the_scoring_picture_when_a_scoring_ends():
    game, moves, scorings = vikings_game(2)
    adapter = VikingsAdapter()
    live = VikingsGame.new(NAMES[:2], seed=9)
    small_at = next(i for i, ev in scorings if any(e.data.get("scoring") == "small" for e in ev))
    for seat, action in moves[: small_at - 1]:
        live.apply(seat, action)
    seat, action = moves[small_at - 1]
    events = live.apply(seat, action)
    scores = [dict(e.data, seat=e.seat) for e in events if e.kind == "score"]
    assert not adapter.needs_replay(live, events)
    assert adapter.picture(live, events=events) == render_vikings_scoring(live.view(None), scores, after_round=1)
    log = TextLog()
    draw_vikings_scoring(live.view(None), scores, after_round=scored_round(live, events), log=log)
    assert "Small scoring  after round 1" in words(log)  # V-32: small scoring after round 1
    # the next move: the turn picture again
    seat, action = moves[small_at]
    events = live.apply(seat, action)
    png = adapter.picture(live, events=events)
    assert decode(png).size == (1120, 640) and png != render_vikings_scoring(live.view(None), scores)


def test_adapters_replay_the_log_at_the_end():
    game, moves, _ = vikings_game(2)
    assert VikingsAdapter().needs_replay(game, [])
    bb, bb_moves = bb_over(3)
    from engine.core import Event

    assert BrianBoruAdapter().needs_replay(bb, [Event("game_over", None, {})])
    png = BrianBoruAdapter().picture(bb, events=[Event("game_over", None, {})],
                                     replay=((BB_NAMES[:3], 5, None, None), bb_moves))
    assert decode(png).size == (1120, 640)


def test_placing_highlights_come_from_the_legal_actions():
    game, moves, _ = vikings_game(2)
    live = VikingsGame.new(NAMES[:2], seed=9)
    for seat, action in moves:
        if live.phase == "place":
            break
        live.apply(seat, action)
    hl = highlights_from_actions(live.legal_actions(live.acting_seats()[0]))
    log = TextLog()
    draw_vikings_turn(live.view(None), highlights=hl, log=log)
    assert "viking stands" in words(log) or "viking to base" in words(log)


# --------------------------------------------------------------------------- Brian Boru hand


@pytest.mark.parametrize("players,stage", BB)
def test_brianboru_hand_every_text_at_least_22px_and_both_actions_shown(players, stage):
    from renderer.brianboru import card_text, draw_hand
    from renderer.picture import MIN_HAND_TEXT

    game = game_at(players, stage)
    for seat in range(players):
        view = game.view(seat)
        log = TextLog()
        img = draw_hand(view, seat, log=log)
        assert img.width == 1120 and img.mode == "RGB" and img.getpixel((0, 0)) == FRAME
        check_texts(log, img, MIN_HAND_TEXT)
        said = [t.text for t in log.texts]
        for v in view["you"]["hand"]:
            colour, main, secondary = card_text(v)
            assert str(v) in said and colour.upper() in said
            assert main.split(",")[0] in words(log) and all(s.split(",")[0] in words(log) for s in secondary)


# --------------------------------------------------------------------------- the full table (/board)


@pytest.mark.parametrize("players,stage", VIK)
def test_full_vikings_table_texts_at_least_16px_and_homelands_cropped(players, stage):
    from renderer.picture import MIN_TABLE_TEXT
    from renderer.vikings import draw_vikings, layout_vikings

    view = make_view(players, stage)
    log = TextLog()
    img = draw_vikings(view, log=log)
    check_texts(log, img, MIN_TABLE_TEXT)
    layout = layout_vikings(view)
    for p in view["players"]:  # cropped to the columns in use plus one (at least 3)
        used = max(len(r) for r in p["rows"])
        assert layout.panels[p["seat"]].ncols == max(3, used + 1)


def test_full_table_focus_draws_one_homeland_large():
    from renderer.vikings import layout_vikings

    view = make_view(4, "late")
    layout = layout_vikings(view, focus=2)
    assert layout.panels[2].cell > max(layout.panels[s].cell for s in (0, 1, 3))


@pytest.mark.parametrize("players,stage", BB)
def test_brianboru_table_names_every_town_and_texts_at_least_16px(players, stage):
    from renderer.brianboru import draw_brianboru
    from renderer.picture import MIN_TABLE_TEXT

    view = game_at(players, stage).view(None)
    log = TextLog()
    img = draw_brianboru(view, log=log)
    check_texts(log, img, MIN_TABLE_TEXT)
    said = {t.text for t in log.texts}
    assert {t["name"] for t in view["towns"]} <= said


def test_sailing_marks_where_a_sailor_may_bring_a_viking_V34():
    game, moves, _ = vikings_game(2)
    live = VikingsGame.new(NAMES[:2], seed=9)
    for seat, action in moves:
        if live.phase == "sail":
            break
        live.apply(seat, action)
    assert live.phase == "sail"
    seat = live.acting_seats()[0]
    cells = [str(a).split()[1] for a in live.legal_actions(seat)
             if str(a).startswith("sail ") and str(a).split()[1][1:].isdigit()]
    assert cells
    png = VikingsAdapter().picture(live, events=[])
    assert png == render_vikings_turn(live.view(None), highlights={"tile": cells, "base": []})
    log = TextLog()
    draw_vikings_turn(live.view(None), highlights={"tile": cells, "base": []}, log=log)
    assert "a sailor may bring a viking" in words(log) and "Major scoring" in words(log)


async def test_a_table_with_host_options_still_pictures_its_vp_history(tmp_path, caplog):
    """QA found it: a table with ``deadline:12h`` keeps host options beside the engine's, and the
    picture's replay passed both to the engine, which refused the host key — so every major and
    final scoring of such a table lost its VP chart (and logged a traceback)."""
    from tests.host_helpers import CH, open_service, play_first_legal, start_game

    svc, store = await open_service(tmp_path / "t.db")
    try:
        await start_game(svc, "vikings", seed=3, options=("deadline:12h",))
        game = await play_first_legal(svc, lambda g: g.view(None)["round"] >= 6)
        table = await svc.table(CH)
        assert table is not None and "host" in table.record.options  # host options beside the engine's
        svc.images = True  # only from here: the last round's pictures, the final one with its chart
        with caplog.at_level("WARNING"):
            while table is not None and table.game is not None and not table.game.is_over:
                game = table.game
                seat = game.acting_seats()[0]
                r = await svc.act(CH, table.record.seats[seat].user, str(game.legal_actions(seat)[0]))
                assert r.ok, r
                table = await svc.table(CH)
        assert r.status == "over" or "final" in " ".join(r.public).lower(), r.public
        assert r.image is not None
        assert "does not replay" not in caplog.text
    finally:
        await store.close()


# --------------------------------------------------------------------------- read on a phone (550 x 350)
# QA (issue 13/14 follow-up) looked at the pictures scaled to 550 x 350, the size Discord shows inline.

INLINE_W, INLINE_H = 550, 350
INLINE_TEXT = MIN_TURN_TEXT * INLINE_W / 1120  # a turn picture's smallest text at inline size


def inline_scale(img: Image.Image) -> float:
    return min(INLINE_W / img.width, INLINE_H / img.height)


def wide_view(phase: str, tiles: int = 11) -> dict:
    """A late view whose acting (placing: buying) player has ``tiles`` tiles in a row: ``tiles + 1``
    columns, the homeland QA found unreadable at 12 columns."""
    from tests.vikings_views import player

    view = placing_view(2, "late") if phase == "place" else make_view(2, "late", phase=phase)
    seat = view["active"]
    long_row = ["L", "Ma*", "R*", "L", "Mb*", "Mc", "R*", "L*", "R", ".", "L", "R*", "L*"][:tiles]
    rows = [["^g", "^b", "^r", "^y", "^r", "^g"], long_row, ["L*", "R", ".", "L", "Mc", "R"],
            [".", ".", "L", "R*"], ["L", "R", "L", "R"], ["L*", "Mc*", "Md*", "R*"]]
    p = view["players"][seat]
    view["players"][seat] = player(seat, p["name"], p["gold"], p["vp"], rows, {"S": 5, "G": 2, "F": 6, "B": 3})
    return view


@pytest.mark.parametrize("phase", ["buy", "place"])
def test_a_12_column_homeland_uses_the_panel_height_cells_readable_inline(phase):
    from renderer.vikings_turn import OFFER_W, turn_layout

    view = wide_view(phase)
    hl = {"tile": ["S5"], "base": ["W10"]} if phase == "place" else None
    lay = turn_layout(view, hl)
    # before: 32 px cells (15 px inline, the building letters unreadable); now 48 px (23 px inline)
    assert lay.cell >= 48 and lay.cell * INLINE_W / 1120 >= 23
    assert lay.offer_w < OFFER_W  # the room came from the offer ...
    log = TextLog()
    img = draw_vikings_turn(view, highlights=hl, log=log)
    check_bounds(img)
    check_texts(log, img)
    assert log.overflowing() == [] and log.vanished() == []
    said = words(log)  # ... which still names every combo's price and tile, and the buyer's cost
    for pos, combo in enumerate(view["wheel"]):
        if combo:
            assert str(combo.get("price", pos)) in [t.text for t in log.texts]
    if phase == "buy":
        assert "gold" in said and "free" in said
    else:
        assert "viking stands" in said and "viking to base" in said


def test_a_narrow_homeland_keeps_the_offer_wide():
    from renderer.vikings_turn import OFFER_W, turn_layout

    for players, stage in VIK:
        assert turn_layout(make_view(players, stage)).offer_w == OFFER_W
    # 13 columns while buying: the offer keeps room for the costs, the cells still grow
    lay = turn_layout(wide_view("buy", 12))
    assert lay.offer_w >= 400 and lay.cell >= 40


def test_the_sailing_panel_is_headed_by_what_it_shows_V34():
    view = make_view(2, "late", phase="sail", wheel=[None] * 8)
    log = TextLog()
    img = draw_vikings_turn(view, log=log)
    check_texts(log, img)
    heads = [t.text for t in log.texts if t.size >= 24 and t.box[1] < 110 and t.box[0] < 560]
    assert "Sailors before the major scoring" in heads and "Offer" not in heads
    assert "moves sailors first" in words(log)


CPU_NAMES = ["Ragnar (computer, heuristic)", "Freydis (computer, search)", "Astrid", "Ulf (computer, random)"]


def _cut_names(log: TextLog) -> list[str]:
    return [t.text for t in log.texts if t.text.endswith("..") and t.text != t.wanted
            and any(n.split(" (")[0] in t.wanted for n in CPU_NAMES)]


@pytest.mark.parametrize("stage", ["early", "late"])
def test_a_computer_players_name_drops_its_suffix_before_it_is_cut(stage):
    view = make_view(4, stage, names=CPU_NAMES)
    log = TextLog()
    draw_vikings_turn(view, log=log)
    assert _cut_names(log) == []
    game = game_at(4, stage)
    bb = game.view(None)
    for p, name in zip(bb["players"], CPU_NAMES, strict=False):
        p["name"] = name
    log = TextLog()
    draw_brianboru_turn(bb, log=log)
    assert _cut_names(log) == [], [t.text for t in log.texts]
    shortened = [t.text for t in log.texts if t.text != t.wanted and "(computer," in t.wanted]
    assert shortened and all("(CPU)" in t or "\u2699" in t for t in shortened)
    assert "Ragnar (CPU)" in [t.text.split(" - ")[0] for t in log.texts]  # the players' table


def test_the_computer_suffix_is_found_in_the_pictures_language():
    from renderer.common import name_forms, translating

    def de(message: str, /, **fields: object) -> str:
        words = {"{name} (computer, {level})": "{name} (Computer, {level})", "{name} (CPU)": "{name} (KI)"}
        return words.get(message, message).format(**fields)

    with translating(de):
        assert name_forms("Zug: Ragnar (Computer, heuristisch) legt") == ["Zug: Ragnar (KI) legt",
                                                                           "Zug: Ragnar \u2699 legt"]
        assert name_forms("Ragnar (computer, heuristic)")[0] == "Ragnar (KI)"  # seated in English
    assert name_forms("Astrid (start)") == [] and name_forms("Ragnar (computer)") == []


def draft_views(players: int = 3, seed: int = 2) -> list[dict]:
    """Seat 0's view at each step of a draft (B-13, B-14): 0 + 8, 2 + 6, ... cards, keeps pending."""
    game = BrianBoruGame.new(BB_NAMES[:players], seed=seed)
    rng = Rng(seed)
    out = []
    while game.s["phase"] != "tricks":
        if game.s["phase"] == "draft":
            out.append(game.view(0))
        seat = game.acting_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    out.append(game.view(0))
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_brianboru_hand_reads_at_inline_size_like_a_turn_picture_B13(players):
    from renderer.brianboru import draw_hand

    views = draft_views(players) + [game_at(players, stage).view(s) for stage in ("early", "late")
                                    for s in range(players)]
    shapes = set()
    for view in views:
        seat = view["seat"]
        log = TextLog()
        img = draw_hand(view, seat, log=log)
        you = view["you"]
        shapes.add((len(you.get("hand") or []), len(you.get("draft") or [])))
        # the smallest word at 550 x 350 is no smaller than a turn picture's (before: 8 px)
        assert log.smallest * inline_scale(img) >= INLINE_TEXT - 0.01, (img.size, log.smallest)
        assert log.overflowing() == [] and log.vanished() == []
        assert [t for t in log.texts if t.text != t.wanted] == []  # nothing shrunk or cut in English
        on_cards = [t for t in log.texts if t.box[1] > 60]
        assert on_cards and min(t.size for t in on_cards) >= MIN_TURN_TEXT
    assert any(d for _h, d in shapes) and any(h and d for h, d in shapes)  # the draft was seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_draft_picture_shows_every_players_cards_face_down_and_who_chose_B13_B14(players):
    from PIL import ImageChops

    from renderer.brianboru import PANEL_BG

    game = BrianBoruGame.new(BB_NAMES[:players], seed=players)
    rng = Rng(players)
    seen = 0
    while game.s["phase"] != "tricks":
        if game.s["phase"] == "draft":
            view = game.view(None)
            log = TextLog()
            img = draw_brianboru_turn(view, log=log)
            check_bounds(img)
            check_texts(log, img)
            assert log.overflowing() == [] and log.vanished() == []
            said = [t.text for t in log.texts]
            assert "The draft" in said and "chosen" in said
            for p in view["players"]:  # each group of backs is counted on its last card
                for n in (p["hand_size"], p["draft_size"]):
                    assert not n or str(n) in said
            # the left panel is used (before: 2 % of it drawn on, 'No active town yet')
            panel = img.crop((PAD + 10, 80, 560, 500))
            drawn = ImageChops.difference(panel, Image.new("RGB", panel.size, PANEL_BG)).convert("L")
            assert drawn.point(lambda v: 255 if v else 0).histogram()[255] > 0.25 * panel.width * panel.height
            # hidden information: the kept cards and the cards in front stay hidden from everybody
            for seat in range(players):
                assert render_brianboru_turn(game.view(seat)) == render_brianboru_turn(view)
            seen += 1
        seat = game.acting_seats()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert seen >= 2
