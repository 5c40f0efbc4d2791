"""Nothing English leaks from the engines (issue 16): refusal reasons and scoring lines are
structured messages (``engine.core.Msg``: a message id and its parameters), extracted into the
catalog template and translated by the host (``bot.i18n.tr_msg``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import i18n
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.i18n import catalogs
from bot.storage import Storage
from engine.brianboru import BrianBoruGame
from engine.core import (
    SCORE_LINE,
    ActionSyntaxError,
    IllegalActionError,
    Msg,
    WrongPhaseError,
    as_msg,
    msg,
    msg_text,
    msgn,
    score_line,
)
from engine.vikings import VikingsGame
from engine.vikings.data import COLOUR_WORD, KIND_NAME, KIND_PLURAL, KIND_WORD, KIND_WORDS, SHIPS

ROOT = Path(__file__).resolve().parents[2]
ENGINE_FILES = sorted((ROOT / "engine").rglob("*.py"))
ERRORS = {"ActionSyntaxError", "IllegalActionError", "NotYourTurnError", "WrongPhaseError"}


def _calls(name_set: set[str]):
    for path in ENGINE_FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in name_set:
                yield path.relative_to(ROOT).as_posix(), node


def test_every_engine_message_is_a_literal_in_the_catalog_template():
    template = catalogs.load_catalog(catalogs.pot_path())
    found = 0
    for where, call in _calls({"msg", "msgn"}):
        ids = call.args[: 2 if call.func.id == "msgn" else 1]
        assert all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in ids), (
            f"{where}:{call.lineno}: the message id must be a literal string (Babel extracts it)")
        entry = template.get(ids[0].value)
        assert entry is not None, f"{where}:{call.lineno}: {ids[0].value!r} is not in the template; " \
                                  "run python -m bot.i18n.catalogs extract"
        if call.func.id == "msgn":
            assert entry.id == (ids[0].value, ids[1].value), f"{where}:{call.lineno}: plural differs"
        found += 1
    assert found > 100  # both engines' refusals and scoring lines


def test_engines_raise_refusals_with_messages_not_sentences():
    """A reason given as a literal or an f-string could not be translated."""
    count = 0
    for where, call in _calls(ERRORS):
        reason = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "reason"), None)
        assert reason is not None, f"{where}:{call.lineno}"
        assert not isinstance(reason, (ast.Constant, ast.JoinedStr, ast.BinOp)), (
            f"{where}:{call.lineno}: a refusal reason is an English sentence, not msg(...)")
        count += 1
    assert count > 50


def test_kind_and_colour_words_cover_the_data():
    assert {k: str(w) for k, w in KIND_WORD.items()} == KIND_NAME
    assert {k: str(w) for k, w in KIND_WORDS.items()} == KIND_PLURAL
    assert {s["colour"] for s in SHIPS.values()} == set(COLOUR_WORD)


def test_the_examples_in_engine_core_hold():
    import doctest

    import engine.core

    result = doctest.testmod(engine.core)
    assert result.attempted >= 4 and result.failed == 0


def test_a_message_round_trips_through_json_and_reads_as_english():
    m = msg("no {kind} waits in your base", kind=KIND_WORD["F"])
    assert str(m) == "no fisher waits in your base"
    assert m.to_json() == {"msg": "no {kind} waits in your base",
                           "params": {"kind": {"msg": "fisher", "params": {}}}}
    assert Msg.from_json(m.to_json()) == m and as_msg(m.to_json()) == m and msg_text(m.to_json()) == str(m)
    p = msgn("{n} threatened goldsmith", "{n} threatened goldsmiths", 2)
    assert str(p) == "2 threatened goldsmiths" and Msg.from_json(p.to_json()) == p
    assert str(msgn("{n} threatened goldsmith", "{n} threatened goldsmiths", 1)) == "1 threatened goldsmith"
    line = score_line(msg("scout in column {col}", col=3), msg("+{vp} VP", vp=2), vp=2)
    assert line.id == SCORE_LINE and str(line) == "scout in column 3: +2 VP"
    assert msg_text("an older stored line") == "an older stored line"


def test_vikings_refusals_carry_message_and_rule_V13_V16():
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=1)
    seat = g.acting_seats()[0]
    with pytest.raises(ActionSyntaxError) as e:
        g.parse_action("buy x")
    assert e.value.msg == msg("{word} is not a whole number (digits 0-9)", word="'x'")
    assert e.value.reason == "'x' is not a whole number (digits 0-9)"
    with pytest.raises(WrongPhaseError) as w:
        g.apply(seat, "place N3")
    assert w.value.msg.id == "now is the time to buy a combo (buy P)" and w.value.rule is None
    with pytest.raises(IllegalActionError) as x:
        g.apply(seat, f"exchange {g.vp[seat] + 1}")
    assert x.value.rule == "V-16" and x.value.msg.id == "{name} has only {vp} VP"
    assert x.value.msg.params == {"name": "Astrid" if seat == 0 else "Bjorn", "vp": g.vp[seat]}
    assert x.value.reason == str(x.value.msg) and x.value.reason in str(x.value)


def test_brianboru_refusals_carry_message_and_rule_B32():
    g = BrianBoruGame.new(["Daria", "Kasia", "Jerzy"], seed=3)
    with pytest.raises(ActionSyntaxError) as e:
        g.parse_action("dance")
    assert e.value.msg.id == "unknown word {word}; actions start with one of {verbs}"
    assert e.value.msg.params["word"] == "'dance'"
    with pytest.raises(ActionSyntaxError) as k:
        g.parse_action("keep 1")
    assert k.value.msg == msgn("'{verb}' takes {n} argument", "'{verb}' takes {n} arguments", 2, verb="keep")
    assert k.value.reason == "'keep' takes 2 arguments"


def _play_out(game, seed: int):
    from engine.core import Rng

    rng = Rng(seed)
    events = []
    while not game.is_over:
        seat = game.acting_seats()[0]
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    return events


def _structured(line) -> bool:
    return isinstance(line, dict) and isinstance(line.get("msg"), str) and isinstance(line.get("params"), dict)


def test_vikings_score_events_and_final_view_hold_structured_lines_V32_V37():
    game = VikingsGame.new(["Astrid", "Bjorn"], seed=4)
    events = _play_out(game, 4)
    scores = [e for e in events if e.kind == "score"]
    assert {e.data["scoring"] for e in scores} == {"small", "major", "final"}
    for e in scores:
        assert e.data["lines"] and all(_structured(x) for x in e.data["lines"]), e.data
    final = game.view(None)["final"]["lines"]
    assert all(_structured(x) for seat_lines in final for x in seat_lines)
    # the state keeps them as JSON: a stored game reads back the same lines
    assert VikingsGame.from_json(game.to_json()).view(None)["final"] == game.view(None)["final"]
    assert any(msg_text(x).startswith("gold: ") for x in final[0])


def test_brianboru_final_view_holds_structured_lines_B33():
    game = BrianBoruGame.new(["Daria", "Kasia", "Jerzy"], seed=5)
    _play_out(game, 5)
    players = game.view(None)["final"]["players"]
    for p in players:
        assert all(_structured(x) for x in p["lines"])
        assert msg_text(p["lines"][-1]) == f"total: {p['vp']} VP"


# --------------------------------------------------------------------------- translated in the host

CATALOG = r'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "That move is not allowed: {reason}."
msgstr "Zug verboten: {reason}."

msgid "I cannot read “{text}” as a move: {reason}."
msgstr "„{text}“ ist kein Zug: {reason}."

msgid "now is the time to buy a combo (buy P)"
msgstr "jetzt wird gekauft (buy P)"

msgid "{word} is not a whole number (digits 0-9)"
msgstr "{word} ist keine ganze Zahl (Ziffern 0-9)"

msgid "no {kind} waits in your base"
msgstr "kein {kind} wartet in deiner Basis"

msgid "fisher"
msgstr "Fischer"

msgid "{what}: {amount}"
msgstr "{what}: {amount}"

msgid "scout in column {col}"
msgstr "Späher in Spalte {col}"

msgid "+{vp} VP"
msgstr "+{vp} SP"

msgid "{n} threatened goldsmith"
msgid_plural "{n} threatened goldsmiths"
msgstr[0] "{n} bedrohter Goldschmied"
msgstr[1] "{n} bedrohte Goldschmiede"

msgid "nothing"
msgstr "nichts"
'''


@pytest.fixture
def language_xx(tmp_path):
    lc = tmp_path / "locale" / "xx" / "LC_MESSAGES"
    lc.mkdir(parents=True)
    (lc / "meadhall.po").write_text(CATALOG, encoding="utf-8")
    catalogs.compile_po(lc / "meadhall.po", lc / "meadhall.mo")
    i18n.set_locale_dir(tmp_path / "locale")
    try:
        with i18n.use_language("xx"):
            yield
    finally:
        i18n.set_locale_dir(None)


def test_tr_msg_translates_nested_words_plurals_and_scoring_lines(language_xx):
    assert i18n.tr_msg(msg("no {kind} waits in your base", kind=KIND_WORD["F"])) == "kein Fischer wartet in deiner Basis"
    line = score_line(msg("scout in column {col}", col=3), msg("+{vp} VP", vp=2), vp=2)
    assert i18n.tr_msg(line) == "Späher in Spalte 3: +2 SP"
    assert i18n.tr_msg(line.to_json()) == "Späher in Spalte 3: +2 SP"  # as events and views hold it
    gone = score_line(msgn("{n} threatened goldsmith", "{n} threatened goldsmiths", 2), msg("nothing"))
    assert i18n.tr_msg(gone) == "2 bedrohte Goldschmiede: nichts"
    # a message without a translation stays English, its words filled in
    assert i18n.tr_msg(msg("{cell} is not empty", cell="N3")) == "N3 is not empty"


async def test_service_refusals_come_out_translated(tmp_path, language_xx):
    store = await Storage.open(tmp_path / "host.db")
    try:
        svc = HostService(store, default_registry(), clock=lambda: 1000.0)
        await svc.load()
        for user in ("ann", "bob"):
            assert (await svc.join("ch", user, user.title(), guild="g", game="vikings")).ok
        assert (await svc.start("ch", "ann", seed=1, start_seat=0)).ok
        table = await svc.table("ch")
        first = table.record.seats[table.game.acting_seats()[0]].user
        wrong = await svc.act("ch", first, "place N3")
        assert (wrong.ok, wrong.code) == (False, "illegal")
        assert wrong.private == ["Zug verboten: jetzt wird gekauft (buy P)."]
        bad = await svc.act("ch", first, "buy x")
        assert (bad.ok, bad.code) == (False, "malformed")
        assert bad.private == ["„buy x“ ist kein Zug: 'x' ist keine ganze Zahl (Ziffern 0-9)."]
    finally:
        await store.close()
