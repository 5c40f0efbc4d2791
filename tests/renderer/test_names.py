"""Issue 24: any string as a player's name draws in every picture. A name with a line break made
every picture of its table fail with Pillow's ``raqm_layout() failed``; the renderer now draws each
name through :func:`renderer.common.display_name`, and :func:`renderer.common.plain` turns control
characters into spaces for every other text."""

from __future__ import annotations

import copy
import io
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games.replay import replay, vp_history
from engine.brianboru import BrianBoruGame
from engine.vikings import VikingsGame
from renderer.brianboru import render_brianboru, render_hand
from renderer.brianboru_turn import render_brianboru_turn
from renderer.common import MAX_DISPLAY_NAME, display_name, encode_png
from renderer.leaderboard import render_leaderboard
from renderer.scoring import draw_brianboru_final, render_vikings_scoring
from renderer.vikings import render_vikings
from renderer.vikings_turn import render_vikings_turn
from tests.renderer.test_renderer_brianboru import game_at
from tests.renderer.test_renderer_pictures import BB_NAMES, NAMES, bb_over, vikings_game
from tests.vikings_views import make_view

NASTY = [
    "Ann\nBob", "\r\n", "\t\tx", "\x00\x01\x1b[31m", "a\u200bb\u200d", "\u202eevil\u202c", "e" + "\u0301" * 300,
    "שלום עליכם", "مرحبا", "x" * 5000, "😀🏳️‍🌈👨‍👩‍👧", "", " ", "\u2028\u2029", "\ud800", "\ue000", "{name}", "{0}",
    "%s %(x)s", "名前", "\U0010ffff", "A\u0000" * 40,
]


def renamed(view: Any, names: dict[str, str]) -> Any:
    """``view`` with every string that is a player's name replaced (names, winners' names)."""
    if isinstance(view, dict):
        return {k: renamed(v, names) for k, v in view.items()}
    if isinstance(view, list):
        return [renamed(v, names) for v in view]
    if isinstance(view, str):
        return names.get(view, view)
    return view


@cache
def vikings_final() -> tuple[dict[str, Any], list[dict[str, Any]], list[list[int]]]:
    game, moves, _ = vikings_game(2)
    rep = replay(VikingsGame, (NAMES[:2], 9, None, None), moves)
    return game.view(None), [s for s in rep.last_scores if s["scoring"] == "final"], rep.history


@cache
def brianboru_final() -> tuple[dict[str, Any], list[list[int]]]:
    game, moves = bb_over(3)
    return game.view(None), vp_history(BrianBoruGame, BB_NAMES[:3], 5, None, None, moves)


def is_png(png: bytes) -> None:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    Image.open(io.BytesIO(png)).load()


def draw_every_picture(a: str, b: str) -> None:
    """Vikings turn, full table and scoring; Brian Boru turn, table, hand and final; the leaderboard."""
    vik = renamed(make_view(2, "late"), {NAMES[0]: a, NAMES[1]: b})
    is_png(render_vikings_turn(vik))
    is_png(render_vikings(vik))
    view, scores, history = vikings_final()
    is_png(render_vikings_scoring(renamed(view, {NAMES[0]: a, NAMES[1]: b}), scores, history=history))
    names = {BB_NAMES[0]: a, BB_NAMES[1]: b}
    bb = renamed(game_at(3, "early").view(None), names)
    is_png(render_brianboru_turn(bb))
    is_png(render_brianboru(bb))
    bb_hand = renamed(game_at(3, "early").view(0), names)
    is_png(render_hand(bb_hand, 0))
    final, hist = brianboru_final()
    is_png(encode_png(draw_brianboru_final(renamed(final, names), history=hist)))
    rows = [{"rank": 1, "name": a, "ordinal": 3.0, "mu": 25.0, "sigma": 8.0, "games": 2},
            {"rank": 2, "name": b, "ordinal": 1.0, "mu": 20.0, "sigma": 6.0, "games": 1}]
    is_png(render_leaderboard("Leaderboard", rows))


@pytest.mark.parametrize("name", NASTY, ids=range(len(NASTY)))
def test_a_nasty_name_draws_in_every_picture(name):
    draw_every_picture(name, "Bob")


# any code point, lone surrogates and unassigned ones included
ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=80)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=ANY_TEXT, b=ANY_TEXT)
def test_any_text_as_a_name_draws_in_every_picture(a, b):
    draw_every_picture(a, b)


@given(ANY_TEXT)
def test_display_name_is_one_short_line_without_controls(name):
    shown = display_name(name)
    assert shown and len(shown) <= MAX_DISPLAY_NAME
    assert shown == shown.strip() and "  " not in shown
    assert all(c == " " or c.isprintable() for c in shown), repr(shown)


def test_display_name_keeps_ordinary_names_and_cleans_the_rest():
    assert display_name("Astrid") == "Astrid"
    assert display_name("Zoë Ó Briain") == "Zoë Ó Briain"
    assert display_name("Ann\nBob") == "Ann Bob"
    assert display_name("a\u200bb") == "ab"                     # zero-width space dropped
    assert display_name("\u202eevil") == "evil"                 # bidi override dropped
    assert display_name("e" + "\u0301" * 50) == "\u00e9\u0301\u0301"  # NFC, then at most two marks a letter
    assert display_name("") == "?" and display_name(" \n ") == "?"
    assert display_name("x" * 500).endswith("..") and len(display_name("x" * 500)) == MAX_DISPLAY_NAME


def test_the_host_takes_a_join_name_on_one_line():
    from bot.i18n.text import player_name

    assert player_name("  Ann\n\n  Bob\t") == "Ann Bob"
    assert player_name("x" * 100, 32) == "x" * 31 + "…"
    assert player_name("\u200b\n") == ""


def test_pictures_are_unchanged_for_plain_names():
    view = make_view(2, "late")
    assert render_vikings_turn(copy.deepcopy(view)) == render_vikings_turn(renamed(view, {}))
