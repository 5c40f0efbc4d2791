"""Pictures in the table's language (issue 16): every word a picture draws goes through the host's
translator, and every text stays inside its box at or above the picture's minimum size, in a
pseudo-language 40 % longer than English and in every catalog in ``bot/i18n/locale/*/``."""

from __future__ import annotations

import gettext
import math
import re
from functools import cache
from pathlib import Path
from string import Formatter

import pytest
from PIL import Image

from bot.games.replay import replay
from bot.games.vikings import _finished_scoring
from bot.i18n import DEFAULT_LOCALE_DIR, DOMAIN
from bot.i18n.catalogs import extract_messages, load_catalog, pot_path
from engine.vikings import VikingsGame
from renderer.brianboru import draw_brianboru, draw_hand
from renderer.brianboru_turn import draw_brianboru_turn
from renderer.common import TextLog
from renderer.picture import MIN_HAND_TEXT, MIN_TABLE_TEXT, MIN_TURN_TEXT
from renderer.scoring import draw_brianboru_final, draw_vikings_scoring
from renderer.vikings import draw_vikings
from renderer.vikings_turn import draw_vikings_turn
from tests.renderer.test_renderer_brianboru import game_at
from tests.renderer.test_renderer_pictures import NAMES, bb_over, draft_views, vikings_game, wide_view
from tests.vikings_views import make_view, placing_view, progress_view

# --------------------------------------------------------------------------- translators

_ACCENTS = str.maketrans("aceilnorsuyzACEILNORSUYZ", "ąćęïłńőřšůýžĄĆĘÏŁŃŐŘŠŮÝŽ")
_PAD = "ŴŎĦŘĐ"


def _pseudo_text(message: str) -> str:
    """Accented letters, 40 % longer (wide accented capitals appended), placeholders kept."""
    out, letters = [], 0
    for literal, field, spec, conv in Formatter().parse(message):
        out.append(literal.translate(_ACCENTS))
        letters += len(literal)
        if field is not None:
            out.append("{" + field + ("!" + conv if conv else "") + (":" + spec if spec else "") + "}")
    pad = math.ceil(0.4 * letters)
    return "".join(out) + (" " + (_PAD * pad)[:pad] if pad else "")


def pseudo_tr(message: str, /, **fields: object) -> str:
    return _pseudo_text(message).format(**fields)


def pseudo_ntr(singular: str, plural: str, n: int, /, **fields: object) -> str:
    return _pseudo_text(singular if n == 1 else plural).format(n=n, **fields)


def catalog_languages() -> list[str]:
    """Every language with a compiled catalog now (Polish, German ... as they land)."""
    return sorted(mo.parent.parent.name for mo in DEFAULT_LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))


def catalog_translator(lang: str):  # type: ignore[no-untyped-def]
    t = gettext.translation(DOMAIN, DEFAULT_LOCALE_DIR, languages=[lang])

    def tr(message: str, /, **fields: object) -> str:
        text = t.gettext(message)
        return text.format(**fields) if fields else text

    def ntr(singular: str, plural: str, n: int, /, **fields: object) -> str:
        return t.ngettext(singular, plural, n).format(n=n, **fields)

    return tr, ntr


LANGUAGES = ["pseudo", *catalog_languages()]


def translator(lang: str):  # type: ignore[no-untyped-def]
    return (pseudo_tr, pseudo_ntr) if lang == "pseudo" else catalog_translator(lang)


# --------------------------------------------------------------------------- the pictures


def setup_views(players: int) -> list[dict]:
    """The public view before each start town is placed (B-9), the first placement's move first."""
    from engine.brianboru import BrianBoruGame
    from tests.renderer.test_renderer_pictures import BB_NAMES

    game = BrianBoruGame.new(BB_NAMES[:players], seed=5)
    views = [game.view(None)]
    while game.view(None)["phase"] == "setup":
        seat = game.acting_seats()[0]
        game.apply(seat, game.legal_actions(seat)[-1])
        views.append(game.view(None))
    return views


@cache
def _vikings_final():  # type: ignore[no-untyped-def]
    game, moves, _ = vikings_game(4)
    return game, moves


def _vikings_scoring(kind: str):  # type: ignore[no-untyped-def]
    _game, moves = _vikings_final()
    live = VikingsGame.new(NAMES[:4], seed=9)
    cut, view = 0, None
    for i, (seat, action) in enumerate(moves, 1):
        done = _finished_scoring(live, live.apply(seat, action))
        if done and done[0]["scoring"] == kind:
            cut, view = i, live.view(None)
    rep = replay(VikingsGame, (NAMES[:4], 9, None, None), moves[:cut])
    return view, [s for s in rep.last_scores if s["scoring"] == kind], rep.history


def _sailing_view():  # type: ignore[no-untyped-def]
    view = make_view(3, "late")
    view["phase"], view["wheel"] = "sail", []
    return view


def _auction_view():  # type: ignore[no-untyped-def]
    view = progress_view(4)
    view["phase"] = "bid"
    view["wheel"] = [{"tile": None, "viking": v, "price": i} for i, v in enumerate("FFGGSSNNWWBB")]
    return view


def _placing():  # type: ignore[no-untyped-def]
    view = placing_view(4, "late")
    rows = view["players"][view["pending"]["seat"]]["rows"]
    return view, {"tile": [f"S{max(len(r) for r in rows) + 1}"], "base": ["N1"]}


def picture(kind: str, tr, ntr, log: TextLog) -> tuple[Image.Image, int]:  # type: ignore[no-untyped-def]
    """Draw picture ``kind`` in the given language; (image, that picture's minimum text size)."""
    t = {"tr": tr, "ntr": ntr, "log": log}
    if kind == "vikings turn early":
        return draw_vikings_turn(make_view(2, "early"), **t), MIN_TURN_TEXT
    if kind == "vikings turn late":
        view = make_view(4, "late")
        return draw_vikings_turn(view, legal=["buy 2", "buy 5"], **t), MIN_TURN_TEXT
    if kind == "vikings turn placing":
        view, hl = _placing()
        return draw_vikings_turn(view, highlights=hl, **t), MIN_TURN_TEXT
    if kind == "vikings turn auction":
        return draw_vikings_turn(_auction_view(), **t), MIN_TURN_TEXT
    if kind == "vikings turn sailing":
        return draw_vikings_turn(_sailing_view(), highlights={"tile": ["S4"], "base": []}, **t), MIN_TURN_TEXT
    if kind == "vikings table late":
        return draw_vikings(make_view(4, "late"), **t), MIN_TABLE_TEXT
    if kind == "vikings table placing":
        view, hl = _placing()
        return draw_vikings(view, highlights=hl, **t), MIN_TABLE_TEXT
    if kind == "vikings table auction":
        return draw_vikings(_auction_view(), **t), MIN_TABLE_TEXT
    if kind == "vikings table over":
        game, _ = _vikings_final()
        return draw_vikings(game.view(None), **t), MIN_TABLE_TEXT
    if kind in ("vikings scoring small", "vikings scoring major", "vikings scoring final"):
        view, scores, history = _vikings_scoring(kind.rsplit(" ", 1)[1])
        return draw_vikings_scoring(view, scores, history=history, after_round=2, **t), MIN_TURN_TEXT
    if kind == "brian boru turn late":
        return draw_brianboru_turn(game_at(5, "late").view(None), **t), MIN_TURN_TEXT
    if kind == "brian boru turn draft":
        return draw_brianboru_turn(draft_views(5)[1], **t), MIN_TURN_TEXT
    if kind == "brian boru turn setup":
        return draw_brianboru_turn(setup_views(5)[3], **t), MIN_TURN_TEXT
    if kind == "vikings turn wide":
        return draw_vikings_turn(wide_view("place"), highlights={"tile": ["S5"], "base": ["W10"]}, **t), MIN_TURN_TEXT
    if kind == "brian boru turn early":
        return draw_brianboru_turn(game_at(3, "early").view(None), **t), MIN_TURN_TEXT
    if kind == "brian boru table late":
        return draw_brianboru(game_at(5, "late").view(None), **t), MIN_TABLE_TEXT
    if kind == "brian boru table over":
        return draw_brianboru(bb_over(4)[0].view(None), **t), MIN_TABLE_TEXT
    if kind == "brian boru hand":
        game = game_at(4, "late")
        return draw_hand(game.view(1), 1, **t), MIN_HAND_TEXT
    if kind == "brian boru hand draft":
        game = game_at(3, "early")
        return draw_hand(game.view(0), 0, **t), MIN_HAND_TEXT
    if kind == "vikings turn over":
        game, _ = _vikings_final()
        return draw_vikings_turn(game.view(None), **t), MIN_TURN_TEXT
    if kind == "brian boru turn over":
        return draw_brianboru_turn(bb_over(5)[0].view(None), **t), MIN_TURN_TEXT
    if kind == "brian boru final scoring":
        return draw_brianboru_final(bb_over(4)[0].view(None), **t), MIN_TURN_TEXT
    if kind in ("vikings analysis", "brian boru analysis"):  # issue 31
        from renderer.analysis import draw_analysis
        from tests.renderer.test_renderer_analysis import sample_review

        review = sample_review("vikings" if kind.startswith("vikings") else "brian-boru", 4)
        return draw_analysis(review, title="12", **t), MIN_TURN_TEXT
    raise AssertionError(kind)


KINDS = ["vikings turn early", "vikings turn late", "vikings turn placing", "vikings turn auction",
         "vikings turn sailing", "vikings turn over", "vikings table late", "vikings table placing", "vikings table auction",
         "vikings table over", "vikings scoring small", "vikings scoring major", "vikings scoring final",
         "vikings turn wide", "brian boru turn setup", "brian boru turn draft", "brian boru turn early", "brian boru turn late", "brian boru turn over", "brian boru table late", "brian boru table over",
         "brian boru hand", "brian boru hand draft", "brian boru final scoring", "vikings analysis",
         "brian boru analysis"]


def check_fits(log: TextLog, img: Image.Image, minimum: int) -> None:
    assert log.texts, "the picture recorded no text"
    w, h = img.size
    for t in log.texts:
        x0, y0, x1, y1 = t.box
        assert 0 <= x0 and 0 <= y0 and x1 <= w and y1 <= h, f"off the picture: {t}"
    assert log.overflowing() == [], [(t.text, t.box, t.container) for t in log.overflowing()]
    assert log.below(minimum) == [], [(t.text, t.size) for t in log.below(minimum)]
    assert log.vanished() == [], [(t.wanted, t.container) for t in log.vanished()]


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", KINDS)
def test_every_picture_in_every_language_keeps_each_text_in_its_box_at_its_minimum_size(kind, lang):
    tr, ntr = translator(lang)
    log = TextLog()
    img, minimum = picture(kind, tr, ntr, log)
    check_fits(log, img, minimum)


@pytest.mark.parametrize("kind", KINDS)
def test_every_picture_in_english_keeps_each_text_in_its_box(kind):
    log = TextLog()
    img, minimum = picture(kind, None, None, log)
    check_fits(log, img, minimum)


# Words a picture may draw untranslated: names, notation and what the engines write (scoring lines:
# the engines' messages become structured elsewhere, see renderer.scoring.line_text).
_ENGINE_KINDS = ("scoring", "table over")


@pytest.mark.parametrize("kind", [k for k in KINDS if not any(e in k for e in _ENGINE_KINDS)])
def test_pseudo_language_reaches_every_word_the_picture_composes(kind):
    """No English word of a picture message is left on a pseudo-language picture: every word went
    through the translator (names, numbers, rule numbers and notation codes are not words of it)."""
    english = TextLog()
    picture(kind, None, None, english)
    log = TextLog()
    picture(kind, pseudo_tr, pseudo_ntr, log)
    assert any("Ŵ" in t.text or "ŴŎ" in t.text for t in log.texts), "the translator never reached the picture"
    message_words = _message_words()
    leaks = sorted({w for t in log.texts for w in re.findall(r"(?<!\w)[A-Za-z]{3,}(?!\w)", t.text)
                    if w in message_words}
                   - _names_and_codes())
    assert leaks == [], leaks


@cache
def _message_words() -> frozenset[str]:
    words: set[str] = set()
    for m in extract_messages():
        if not any(loc.startswith("renderer/") for loc, _ in m.locations):
            continue
        for s in (m.id,) if isinstance(m.id, str) else m.id:
            literal = "".join(lit for lit, *_ in Formatter().parse(s))
            words |= set(re.findall(r"[A-Za-z]{3,}", literal))
    return frozenset(words)


@cache
def _names_and_codes() -> frozenset[str]:
    """Player, town and region names of the test games, and the notation's words."""
    from engine.brianboru.data import DATA
    from engine.vikings.data import SPECIAL_TILES

    names = {*NAMES, "Aoife", "Brian", "Cormac", "Deirdre", "Eithne", "Boru", *DATA.town_index,
             *(w for r in DATA.region_names for w in r.split()), "place", "buy", "sail", "bid", "pass", "base",
             "CELL", *SPECIAL_TILES}
    names |= {w for m in DATA.marriage.values() for w in str(getattr(m, "title", "")).split()}
    # a special tile without a structured effect shows the engine's own text (the engines' seam)
    effects = ("gold", "vp", "building", "surplus_vp", "gold_per_vp")
    names |= {w for info in SPECIAL_TILES.values() if not any(k in info for k in effects)
              for w in re.findall(r"[A-Za-z]{3,}", str(info.get("text", "")).split(":")[0])}
    return frozenset(names)


def test_no_picture_message_is_both_a_plain_and_a_plural_entry():
    """One msgid is one catalog entry: a word drawn with ``tr`` somewhere and ``ntr`` elsewhere would
    lose its plain translation (gettext keeps only the plural one)."""
    kinds: dict[str, set[bool]] = {}
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    from bot.i18n.catalogs import KEYWORDS, MAPPING_FILE, REPO_DIR

    with MAPPING_FILE.open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    for _fn, _ln, msg, _c, _ctx in extract_from_dir(REPO_DIR, method_map, options_map, keywords=KEYWORDS):
        kinds.setdefault(msg if isinstance(msg, str) else msg[0], set()).add(isinstance(msg, tuple))
    assert sorted(k for k, v in kinds.items() if len(v) > 1) == []


def test_the_template_holds_every_message_the_pictures_draw():
    """``python -m bot.i18n.catalogs extract`` (keywords tr/ntr) put the renderer's messages in the pot."""
    pot = {m.id if isinstance(m.id, str) else m.id[0]: m for m in load_catalog(pot_path()) if m.id}
    drawn = [m for m in extract_messages() if any(loc.startswith("renderer/") for loc, _ in m.locations)]
    assert len(drawn) > 150
    missing = [m.id for m in drawn if (m.id if isinstance(m.id, str) else m.id[0]) not in pot]
    assert missing == []
    for sample in ("Offer - cost for {name}", "{name}'s homeland", "Trick for {town}", "VP after each round",
                   "if it wins:", "Special tiles"):
        assert sample in pot
    plural = pot["{n} invader waiting"]
    assert isinstance(plural.id, tuple) and plural.id[1] == "{n} invaders waiting"  # ntr: singular and plural
    assert all(Path(loc).parts[0] in ("bot", "renderer", "engine") for m in drawn for loc, _ in m.locations)


def test_a_text_too_wide_for_its_room_shrinks_to_the_minimum_then_is_cut():
    from PIL import ImageDraw

    from renderer.common import recording, text, text_width, translating

    img = Image.new("RGB", (400, 100))
    d = ImageDraw.Draw(img)
    log = TextLog()
    words = "Ŏƒƒęř - ćőšŧ ƒőř Astrid"
    room = text_width(words, 24) * 0.95  # a little too wide at 24 px: 23 or 22 px fits
    with recording(log), translating(minimum=22):
        text(d, (10, 10), words, 24, max_width=room)
        text(d, (10, 50), words, 24, max_width=120)                       # far too wide: cut at 22 px
        text(d, (390, 50), "x", 24, anchor="ra", within=(300, 40, 390, 90))
    shrunk, cut, right = log.texts
    assert shrunk.text == words and 22 <= shrunk.size < 24 and not shrunk.overflows
    assert cut.text.endswith("..") and cut.size == 22 and not cut.overflows and cut.wanted == words
    assert right.container[0] == 300 and not right.overflows
    assert log.overflowing() == [] and log.vanished() == []


def test_overflow_is_reported_when_a_text_leaves_its_container():
    from renderer.common import DrawnText

    inside = DrawnText("a", 22, (10, 10, 20, 30), (0, 0, 100, 100), "a")
    outside = DrawnText("abc", 22, (90, 10, 120, 30), (0, 0, 100, 100), "abc")
    log = TextLog([inside, outside])
    assert log.overflowing() == [outside]


def test_pictures_default_to_english_and_take_the_hosts_plural_forms():
    from renderer.brianboru import action_words
    from renderer.common import translating

    assert action_words("coin coin coin expand") == "3 coins, expand"
    calls = []

    def ntr(singular, plural, n, /, **fields):  # a language with its own plural rule
        calls.append((singular, plural, n))
        return f"<{n}:{plural}>".format(n=n, **fields)

    with translating(pseudo_tr, ntr):
        assert action_words("coin coin coin") == "<3:3 coins>"
    assert calls == [("{n} coin", "{n} coins", 3)]


# --------------------------------------------------------------------------- whole labels (issue 18)


@cache
def _bb_final(players: int):  # type: ignore[no-untyped-def]
    from bot.games.replay import vp_history
    from engine.brianboru import BrianBoruGame
    from tests.renderer.test_renderer_pictures import BB_NAMES

    game, moves = bb_over(players)
    return game.view(None), vp_history(BrianBoruGame, BB_NAMES[:players], 5, None, None, moves)


@pytest.mark.parametrize("chart", [True, False])
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("lang", ["en", *catalog_languages()])
def test_no_text_of_the_brian_boru_final_scoring_is_cut_in_any_language_B33(lang, players, chart):
    """Issue 18: "active-town mark..", "towns in 8 regio.." were cut. In English and every catalog's
    language (the pseudo-language, 40 % longer, may send lines to the chat) every text is drawn whole
    (not cut, not shortened) at 22 px or more, and every scoring line's label is on the picture
    (wrapped onto more rows where its column is narrow), none sent to the chat."""
    from engine.core import as_msg
    from renderer.common import ntr as picture_ntr
    from renderer.common import plain, translating
    from renderer.scoring import merge_lines

    tr, ntr = translator(lang) if lang != "en" else (None, None)
    view, history = _bb_final(players)
    log = TextLog()
    img = draw_brianboru_final(view, history=history if chart else None, tr=tr, ntr=ntr, log=log)
    check_fits(log, img, MIN_TURN_TEXT)
    assert [(t.wanted, t.text) for t in log.texts if t.text != t.wanted] == []
    drawn = " ".join(t.text for t in log.texts)
    with translating(tr, ntr):
        labels = [w for p in view["final"]["players"] for w, _a in merge_lines(
            [ln for ln in p["lines"] if not as_msg(ln).id.startswith(("total", "before final scoring"))])]
        note = picture_ntr("{n} more line in the chat", "{n} more lines in the chat", 2).replace("2", "")
    assert labels
    for label in labels:
        assert " ".join(plain(label).split()) in drawn, label
    assert note not in drawn


def test_a_final_scoring_too_long_for_its_band_points_to_the_chat_and_cuts_nothing_away():
    """The fallback of the whole-label layout: more lines than two columns hold keep their first
    lines, the last row says how many the chat has, and nothing leaves its box."""
    from renderer.scoring import draw_scoring

    players = [{"seat": s, "name": n, "colour": (120, 120, 120), "letter": n[0], "total": ["9 VP"],
                "lines": [f"claim number {k} of a very long list: +1 VP" for k in range(30)]}
               for s, n in enumerate(["Aoife", "Brian", "Cormac", "Deirdre", "Eithne"])]
    log = TextLog()
    img = draw_scoring("Final scoring", players, log=log)
    check_fits(log, img, MIN_TURN_TEXT)
    notes = [t.text for t in log.texts if "more lines in the chat" in t.text]
    assert len(notes) == 5 and all(n.split()[0].isdigit() and int(n.split()[0]) > 20 for n in notes), notes
    assert "claim number 0 of a very long list" in [t.text for t in log.texts]


def _with_computer_on_the_marker(view: dict, tr) -> dict:  # type: ignore[no-untyped-def]
    from renderer.common import COMPUTER_SEAT

    view = {**view, "players": [dict(p) for p in view["players"]]}
    seat = view["marker"]
    view["players"][seat]["name"] = (tr or (lambda m, **f: m.format(**f)))(COMPUTER_SEAT, name="Ragnar", level="heuristic")
    return view


@pytest.mark.parametrize("stage", ["draft", "late", "over", "computer"])
@pytest.mark.parametrize("lang", ["en", *catalog_languages()])
def test_brian_boru_players_table_cuts_no_heading_and_no_name_in_any_language(lang, stage):
    """Issue 18: "Poważanie", "stupnice" and "Ragnar ⚙ (marker)" were cut in the Brian Boru
    players' table. Its number columns are as wide as their headings; the names get the rest, and
    the marker goes on the line below a name it would cut. Nothing on the table's right-hand panel
    is cut, and the marker holder is named as such."""
    tr, ntr = translator(lang) if lang != "en" else (None, None)
    view = {"draft": lambda: draft_views(5)[1], "late": lambda: game_at(5, "late").view(None),
            "over": lambda: bb_over(5)[0].view(None),
            "computer": lambda: _with_computer_on_the_marker(bb_over(5)[0].view(None), tr)}[stage]()
    log = TextLog()
    img = draw_brianboru_turn(view, tr=tr, ntr=ntr, log=log)
    check_fits(log, img, MIN_TURN_TEXT)
    panel = [t for t in log.texts if t.box[0] >= 560 + 16]
    assert panel and [t.wanted for t in panel if t.text.endswith("..")] == []
    (marker_word,) = {(tr or (lambda m, **f: m.format(**f)))("{name} (marker)", name="").strip(" ()")}
    holder = (tr or (lambda m, **f: m))("holds the marker")
    if view.get("marker") is not None:
        assert any(marker_word in t.text or holder in t.text for t in panel)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("lang", ["en", *catalog_languages()])
def test_brian_boru_set_up_picture_shows_the_start_towns_not_an_empty_trick_B9(lang, players):
    """Issue 18: the set-up showed an empty "No active town yet" panel. It shows the rule (B-9),
    every player in placing order (clockwise from the start player) with the start town they took,
    and who places now; whole, in every language. All of it is on the public board."""
    _ = (translator(lang) if lang != "en" else (None, None))
    tr = _[0] or (lambda m, **f: m.format(**f) if f else m)
    for view in setup_views(players):
        if view["phase"] != "setup":
            continue
        log = TextLog()
        img = draw_brianboru_turn(view, tr=_[0], ntr=_[1], log=log)
        check_fits(log, img, MIN_TURN_TEXT)
        left = [t for t in log.texts if t.box[2] <= 580 and t.box[1] > 60]
        assert [t.wanted for t in left if t.text != t.wanted] == []
        said = [t.text for t in left]
        assert tr("No active town yet") not in said and tr("no trick now") not in said
        assert tr("Start towns") in said
        order = [(view["start_player"] + k) % players for k in range(players)]
        names = [t for t in left if t.text in {p["name"] for p in view["players"]}]
        assert [t.text for t in sorted(names, key=lambda t: t.box[1])] == [view["players"][s]["name"] for s in order]
        for town in view["towns"]:
            assert (town["name"] in said) == (town["owner"] is not None), town
        assert (tr("place a disc") in said) == bool(view["acting"])


@pytest.mark.parametrize("kind", ["brian boru turn setup", "brian boru turn draft", "brian boru turn late",
                                  "brian boru turn over", "brian boru final scoring"])
@pytest.mark.parametrize("lang", ["en", *catalog_languages()])
def test_brian_boru_turn_pictures_cut_no_text_in_any_language(kind, lang):
    """Issue 18: whole words in the Brian Boru turn pictures, the draft's legend ("przed gracz..")
    included: no text is cut or shortened in English or any catalog's language."""
    tr, ntr = translator(lang) if lang != "en" else (None, None)
    log = TextLog()
    picture(kind, tr, ntr, log)
    assert [(t.wanted, t.text) for t in log.texts if t.text != t.wanted] == []
