"""Bad input to the Vikings engine is refused with ActionSyntaxError / NotationError (issue 11).

Never a plain ValueError from ``int()``, and no message quotes more than about 100 characters.
"""

from __future__ import annotations

import re

import pytest

from engine.core import QUOTE_LIMIT, ActionSyntaxError, NotationError
from engine.vikings.actions import parse_action
from engine.vikings.notation import parse_table
from tests.vikings_helpers import new_game, snapshot

HUGE = "9" * 5000


def quoted_at_most_limit(message: str) -> bool:
    """No run of one repeated character (how the long inputs here are made) exceeds the limit."""
    longest = max((len(m.group(0)) for m in re.finditer(r"(.)\1*", message)), default=0)
    return longest <= QUOTE_LIMIT and len(message) < 500

BAD_ACTIONS = [
    "buy ²",
    "buy ١",
    "buy ３",  # fullwidth digit
    f"buy {HUGE}",
    "bid ²",
    f"bid {HUGE}",
    "exchange ١",
    f"exchange {HUGE}",
    "place N²",
    "place N١",
    f"place N{HUGE}",
    "sail W²",
    "start W١",
    "swap M²",
    "buy -1",
    "buy 1.5",
    "buy",
    "",
    "remove ²",
    "x" * 6000,
    "buy " + "x" * 6000,
    "special " + "y" * 6000,
    "place " + "N" * 6000,
]


@pytest.mark.parametrize("text", BAD_ACTIONS, ids=lambda t: t[:20])
def test_bad_action_text_is_a_syntax_error_quoting_at_most_100_chars(text):
    with pytest.raises(ActionSyntaxError) as e:
        parse_action(text)
    assert type(e.value) is ActionSyntaxError
    assert quoted_at_most_limit(str(e.value)), str(e.value)
    assert e.value.text == text  # the whole input stays available to the host's log


@pytest.mark.parametrize("text", ["buy ²", "buy ١", f"buy {HUGE}", "place N²", "x" * 6000])
def test_bad_action_through_apply_changes_nothing(text):
    g = new_game(2)
    before = snapshot(g)
    with pytest.raises(ActionSyntaxError):
        g.apply(0, text)
    assert snapshot(g) == before


def test_refusal_says_why_a_number_is_refused():
    with pytest.raises(ActionSyntaxError, match="too large a number"):
        parse_action("bid 99999999999999999999")
    with pytest.raises(ActionSyntaxError, match=r"not a whole number \(digits 0-9\)"):
        parse_action("buy ²")


def test_a_long_word_is_cut_with_an_ellipsis():
    with pytest.raises(ActionSyntaxError) as e:
        parse_action("frobnicate" * 600)
    msg = str(e.value)
    assert "…" in msg and msg.count("frobnicate") <= 2 * (QUOTE_LIMIT // len("frobnicate") + 1)


@pytest.mark.parametrize(
    "text",
    [
        "player: a gold=² vp=0\n",
        "player: a gold=0 vp=١\n",
        f"player: a gold={HUGE} vp=0\n",
        "player: a gold=0 vp=0\nbase: F²\n",
        f"player: a gold=0 vp=0\nbase: F{HUGE}\n",
        "player: a gold=0 vp=0\nW: " + "Q" * 6000 + "\n",
        "player: a gold=0 vp=0\n" + "Z" * 6000 + ": L\n",
    ],
    ids=lambda t: t[:24],
)
def test_bad_notation_numbers_are_notation_errors(text):
    with pytest.raises(NotationError) as e:
        parse_table(text)
    assert quoted_at_most_limit(str(e.value)), str(e.value)


def test_illegal_action_message_quotes_at_most_100_chars():
    from engine.core import IllegalActionError

    e = IllegalActionError("z" * 6000, "no", "V-1")
    assert quoted_at_most_limit(str(e)) and e.action == "z" * 6000
