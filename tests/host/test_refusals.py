"""Refusal codes are an enum whose members carry their parameters and message template (issue 18),
and every refusal of the host is raised through it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from bot.host.refusals import REFUSALS, Refusal, RefusalCode
from bot.host.service import REFUSALS as FACADE_REFUSALS
from bot.host.service import Reply, refused
from bot.i18n import use_language

BOT = Path(__file__).resolve().parents[2] / "bot"


def placeholders(template: str) -> set[str]:
    return {field for _text, field, _spec, _conv in string.Formatter().parse(template) if field is not None}


@pytest.mark.parametrize("member", list(RefusalCode), ids=lambda m: m.name)
def test_every_member_has_a_template_whose_placeholders_are_its_parameters(member):
    assert member.template and member.code in REFUSALS
    assert placeholders(member.template) == set(member.params)
    assert len(set(member.params)) == len(member.params)
    assert all(p.isidentifier() for p in member.params)  # named, never positional ({0})


def test_the_codes_are_the_strings_they_were():
    assert FACADE_REFUSALS is REFUSALS
    assert REFUSALS == (
        "no_table", "not_started", "already_started", "already_seated", "table_full", "other_game",
        "too_few_players", "too_many_players", "unknown_game", "bad_options", "not_player", "unknown_player",
        "not_allowed", "already_voted", "not_your_turn", "malformed", "illegal", "stale", "duplicate",
        "unknown_rule", "unknown_command", "storage_failed", "bad_scope", "no_games", "undo_nothing",
        "undo_random", "undo_revealed", "undo_unsure", "no_request", "undo_not_asked",  # issue 17: undo answers
        "not_finished", "bad_step",  # issue 25: replays
        "hints_off", "game_over",  # issue 25: /hint
        "paused", "nothing_paused")  # issue 29: a table whose place went, /table resume


def test_a_refusal_carries_its_string_code_and_the_filled_in_message():
    r = Refusal(RefusalCode.TABLE_FULL, max=5)
    assert (r.code, r.kind, r.params, r.message, r.names) == (
        "table_full", RefusalCode.TABLE_FULL, {"max": 5}, "The table is full (5 seats).", [])
    reply = refused(Refusal(RefusalCode.NOT_YOUR_TURN, names="bob", shown_names=["alice", "bob"]))
    assert reply == Reply(ok=False, code="not_your_turn", private=["It is not your turn; waiting for bob."],
                          names=["alice", "bob"])


def test_a_refusal_is_translated_when_it_is_made():
    with use_language("de"):
        german = Refusal(RefusalCode.NOT_PLAYER).message
    assert german != Refusal(RefusalCode.NOT_PLAYER).message == "You are not a player at this table."


@pytest.mark.parametrize("kind, params", [
    (RefusalCode.TABLE_FULL, {}),                                   # missing
    (RefusalCode.TABLE_FULL, {"max": 5, "seats": 3}),               # extra
    (RefusalCode.NOT_PLAYER, {"name": "alice"}),                    # none taken
    (RefusalCode.UNKNOWN_GAME, {"game": "chess"}),                  # one of two missing
])
def test_a_refusal_with_a_missing_or_extra_parameter_cannot_be_made(kind, params):
    with pytest.raises(TypeError, match=kind.name):
        Refusal(kind, **params)


def test_a_refusal_is_made_only_from_a_member():
    with pytest.raises(TypeError):
        Refusal("table_full", "The table is full.")  # type: ignore[arg-type]


def test_by_code_finds_a_member_of_that_code():
    assert RefusalCode.by_code("undo_revealed") is RefusalCode.UNDO_REVEALED
    with pytest.raises(KeyError):
        RefusalCode.by_code("nonsense")


def test_every_refusal_in_bot_is_raised_through_a_refusal_code_member():
    """No ``Refusal("code", message)`` is left: the first argument is ``RefusalCode.X`` (or a member
    looked up by code)."""
    bad = []
    for path in sorted(BOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Refusal":
                first = ast.unparse(node.args[0]) if node.args else ""
                if not first.startswith("RefusalCode."):
                    bad.append((path.relative_to(BOT).as_posix(), node.lineno, first))
    assert bad == []
