"""Bad input to the Brian Boru engine: a clear error, and the state stays byte for byte the same."""

from __future__ import annotations

import json

import pytest

from engine.brianboru import DATA, BrianBoruGame, act, parse_action
from engine.brianboru.game import KIND_RULE
from engine.core import ActionSyntaxError, IllegalActionError, NotYourTurnError, Rng, WrongPhaseError, quote

NAMES = ["Brian", "Mael", "Sitric", "Gormlaith", "Donnchad"]


def snapshot(g: BrianBoruGame) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


@pytest.mark.parametrize(
    "text,why",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("dance", "unknown word"),
        ("town", "takes 1 argument"),
        ("town Tara Kells", "takes 1 argument"),
        ("town Atlantis", "no town called"),
        ("active Narnia", "no town called"),
        ("lead x", "not a number"),
        ("lead 26", "no card 26"),
        ("play 0", "no card 0"),
        ("keep 3", "takes 2 arguments"),
        ("keep 3 3", "two different cards"),
        ("keep 3 99", "no card 99"),
        ("option 3", "option is 1 or 2"),
        ("extra -1", "not a number"),
        ("play \u00b2", "not a number"),  # '²'.isdigit() is true; int() fails
        ("play \u0661", "not a number"),  # Arabic-Indic one
        ("lead \uff11", "not a number"),  # fullwidth one: int() reads it, no player means it
        ("extra " + "9" * 5000, "not a number"),  # beyond int()'s digit limit
        ("keep 3 " + "1" * 50, "not a number"),
        ("option \u00b9", "not a number"),
        ("extra two", "not a number"),
        ("princess maybe", "support, trade or refuse"),
        ("expand", "takes 1 argument"),
        ("expand Atlantis", "no town called"),
        ("raid", "takes 1 argument"),
    ],
)
def test_malformed_text_is_a_syntax_error(text, why):
    g = BrianBoruGame.new(NAMES[:3], seed=1)
    before = snapshot(g)
    with pytest.raises(ActionSyntaxError) as info:
        g.parse_action(text)
    # the message quotes the input, at most QUOTE_LIMIT characters of it (issue 11)
    assert why in info.value.reason and quote(text) in str(info.value) and info.value.text == text
    with pytest.raises(ActionSyntaxError):
        g.apply(g.acting_seats()[0], text)
    assert snapshot(g) == before


def test_non_text_is_a_syntax_error():
    with pytest.raises(ActionSyntaxError):
        parse_action(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text,canonical",
    [
        ("TOWN tara", "town Tara"),
        ("keep 17 3", "keep 3 17"),
        ("  lead   11 ", "lead 11"),
        ("Expand NO", "expand no"),
        ("expand dublin", "expand Dublin"),
        ("princess TRADE", "princess trade"),
        ("extra 0", "extra 0"),
        ("option 2", "option 2"),
        ("free cork", "free Cork"),
        ("raid Kells", "raid Kells"),
        ("monastery tara", "monastery Tara"),
        ("active Sligo", "active Sligo"),
        ("play 25", "play 25"),
    ],
)
def test_action_texts_round_trip(text, canonical):
    a = parse_action(text)
    assert str(a) == canonical and parse_action(str(a)) == a and a == act(*a.args[:0], a.verb, *a.args)


def _wrong_verb(kind: str) -> str:
    return "play 1" if kind != "play" else "lead 1"


def _illegal_same_verb(g: BrianBoruGame, seat: int) -> str | None:
    """A well-formed action of the asked-for kind that the rules forbid now (None if every one is legal)."""
    p = g.s["pending"]
    kind = p["kind"]
    legal = {str(a) for a in g.legal_actions(seat)}
    if kind in ("town", "active", "raid", "free", "monastery", "expand"):
        cands = [f"{kind} {t}" for t in DATA.town_names]
    elif kind in ("lead", "play"):
        cands = [f"{kind} {v}" for v in DATA.card_values]
    elif kind == "keep":
        cands = [str(parse_action(f"keep {a} {b}")) for a in range(1, 26) for b in range(a + 1, 26)]
    elif kind == "extra":
        cands = [f"extra {len(p['options'])}"]
    else:
        return None
    return next((c for c in cands if c not in legal), None)


def test_illegal_actions_of_every_kind_leave_state_unchanged():
    covered: set[str] = set()
    for n in (3, 4, 5):
        for seed in range(12):
            g = BrianBoruGame.new(NAMES[:n], seed=seed)
            rng = Rng(seed + 100)
            steps = 0
            while not g.is_over:
                seats = g.acting_seats()
                seat = rng.choice(seats)
                kind = g.s["pending"]["kind"]
                if steps % 3 == 0 or kind not in covered:
                    before = snapshot(g)
                    idle = next((q for q in range(n) if q not in seats), None)
                    if idle is not None:
                        with pytest.raises(NotYourTurnError):
                            g.apply(idle, g.legal_actions(seat)[0])
                    with pytest.raises(WrongPhaseError) as info:
                        g.apply(seat, _wrong_verb(kind))
                    assert info.value.rule == g.s["pending"].get("rule", KIND_RULE.get(kind))
                    bad = _illegal_same_verb(g, seat)
                    if bad is not None:
                        with pytest.raises(IllegalActionError) as info:
                            g.apply(seat, bad)
                        assert type(info.value) is IllegalActionError
                        assert info.value.rule == g.s["pending"]["rule"] and info.value.reason
                        covered.add(kind)
                    assert snapshot(g) == before
                g.apply(seat, rng.choice(g.legal_actions(seat)))
                steps += 1
            before = snapshot(g)
            with pytest.raises(WrongPhaseError) as info:
                g.apply(0, "play 3")
            assert info.value.rule == "B-32" and snapshot(g) == before
    assert {"town", "active", "lead", "play", "keep", "extra", "expand"} <= covered


def test_rule_names_in_errors():
    g = BrianBoruGame.new(NAMES[:3], seed=2, start_seat=0)
    g.apply(0, "town Tara")
    with pytest.raises(IllegalActionError) as info:
        g.apply(1, "town Kells")
    assert info.value.rule == "B-9" and "(B-9)" in str(info.value)


def test_foreign_action_object_is_rejected():
    from engine.core import Action

    class Other(Action):
        @property
        def text(self) -> str:
            return "town Tara"

    g = BrianBoruGame.new(NAMES[:3], seed=2, start_seat=0)
    before = snapshot(g)
    with pytest.raises(ActionSyntaxError):  # as the Vikings engine: not an action of this game
        g.apply(0, Other())
    for thing in (None, 42, b"town Tara"):
        with pytest.raises(ActionSyntaxError):
            g.apply(0, thing)  # type: ignore[arg-type]
    assert snapshot(g) == before


@pytest.mark.parametrize("verb,args", [("town", ("Atlantis",)), ("keep", (3,)), ("town", ()), ("dance", (1,))])
def test_hand_built_bad_action_is_a_syntax_error(verb, args):
    from engine.brianboru import BrianBoruAction

    g = BrianBoruGame.new(NAMES[:3], seed=2, start_seat=0)
    before = snapshot(g)
    with pytest.raises(ActionSyntaxError):
        g.apply(0, BrianBoruAction(verb, args))
    assert snapshot(g) == before
    g.apply(0, BrianBoruAction("town", ("Tara",)))  # a well-formed one built by hand is fine
    assert g.s["owner"][DATA.town_index["Tara"]] == 0


@pytest.mark.parametrize(
    "names,kw,message",
    [
        (NAMES[:2], {}, "3–5 players"),
        ([*NAMES, "Olaf"], {}, "3–5 players"),
        (["A", "A", "B"], {}, "different"),
        (NAMES[:3], {"options": {"auction": True}}, "no options"),
        (NAMES[:3], {"start_seat": 3}, "start_seat"),
    ],
)
def test_bad_new_game(names, kw, message):
    with pytest.raises(ValueError, match=message):
        BrianBoruGame.new(names, seed=1, **kw)


def test_bad_json_state():
    g = BrianBoruGame.new(NAMES[:3], seed=2)
    d = g.to_json()
    with pytest.raises(ValueError, match="not a Brian Boru game"):
        BrianBoruGame.from_json({**d, "game": "vikings"})
    del d["owner"]
    with pytest.raises(ValueError, match="lacks"):
        BrianBoruGame.from_json(d)


def test_to_json_shares_nothing_with_the_game():
    g = BrianBoruGame.new(NAMES[:3], seed=2, start_seat=0)
    d = g.to_json()
    before = snapshot(g)
    d["owner"][0] = 2
    d["pending"]["options"].clear()
    d["hand"][0].append(5)
    assert snapshot(g) == before


@pytest.mark.parametrize("seat", [-1, 3, 99, True, "0"])
def test_view_of_a_seat_not_at_the_table_is_refused_not_another_hand(seat):
    g = BrianBoruGame.new(NAMES[:3], seed=2, start_seat=0)
    with pytest.raises(ValueError, match="no seat"):
        g.view(seat)
    assert "you" not in g.view(None) and g.view(2)["seat"] == 2 and g.view(None)["seat"] is None


# --------------------------------------------------------------------------- fuzz: no crash, no change

_WORDS = ["town", "active", "lead", "play", "keep", "option", "extra", "expand", "free", "princess", "raid",
          "monastery", "no", "support", "Tara", "tara", "Cork", "1", "2", "13", "25", "0", "-1", "²", "١", "１",
          "9" * 5000, "\x00", "\u202e", "**x**", "<@1>", "player:", "vp=", "towns:", "---", "#", '"']


_NUMBERS = ["²", "١", "１", "٣", "9" * 5000, "1" * 7, "-1", "+3", "0x10", "1_0", " 3", "3.0"]


def _fuzz_text():
    from hypothesis import strategies as st

    word = st.one_of(st.sampled_from(_WORDS), st.text(max_size=6))
    verb = st.sampled_from(_WORDS[:12])
    number = st.one_of(st.sampled_from(_NUMBERS), st.integers(0, 30).map(str))
    return st.one_of(st.lists(word, max_size=5).map(" ".join),  # anything
                     st.tuples(verb, word).map(" ".join),  # a verb and one argument
                     st.tuples(verb, number).map(" ".join),  # ... a number, odd or not
                     st.tuples(verb, number, number).map(" ".join))


def test_fuzzed_text_is_refused_cleanly_and_changes_nothing():
    """Any text, in any game moment of a real game, is either applied or refused with an engine error
    (ActionSyntaxError / IllegalActionError and subclasses) leaving the state byte for byte the same."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from engine.core import EngineError

    games = []
    g = BrianBoruGame.new(NAMES[:4], seed=5)
    rng = Rng(5)
    while not g.is_over:  # snapshots of one real game at every kind of decision
        if len(games) < 60 or rng.randbelow(8) == 0:
            games.append(g.to_json())
        seat = rng.choice(g.acting_seats())
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    games.append(g.to_json())

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.sampled_from(games), _fuzz_text(), st.integers(-2, 5))
    def check(state, text, seat):
        game = BrianBoruGame.from_json(state)
        before = snapshot(game)
        try:
            game.apply(seat, text)
        except EngineError:
            assert snapshot(game) == before

    check()


def test_fuzzed_notation_is_a_notation_error_or_a_position():
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from engine.brianboru.notation import parse_position
    from engine.core import NotationError

    lines = st.lists(st.one_of(_fuzz_text(), st.sampled_from(["---", "player: A", "player: B vp=²"])), max_size=6)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(lines.map("\n".join))
    def check(text):
        try:
            parse_position(text)
        except NotationError as e:
            assert e.line >= 1 and e.column >= 1

    check()


def test_same_mistake_same_error_class_as_vikings():
    """One kind of mistake, one error class, in both engines (issue 11)."""
    from engine.core import Action
    from engine.vikings.game import VikingsGame

    class Foreign(Action):
        @property
        def text(self) -> str:
            return "something"

    vik = VikingsGame.new(["A", "B"], seed=1)
    bb = BrianBoruGame.new(NAMES[:3], seed=2, start_seat=0)
    v_turn, b_turn = vik.acting_seats()[0], bb.acting_seats()[0]
    cases = [  # (mistake, Vikings text/object, Brian Boru text/object, seat offset from the acting one)
        ("empty text", "", "", 0),
        ("unknown word", "dance", "dance", 0),
        ("missing argument", "buy", "town", 0),
        ("not a number", "buy x", "extra x", 0),
        ("foreign action object", Foreign(), Foreign(), 0),
        ("out of turn", vik.legal_actions(v_turn)[0], bb.legal_actions(b_turn)[0], 1),
        ("wrong kind of action now", "bid 1", "play 5", 0),
    ]
    for mistake, v_action, b_action, offset in cases:
        errors = []
        for game, turn, action, n in ((vik, v_turn, v_action, 2), (bb, b_turn, b_action, 3)):
            before = json.dumps(game.to_json(), sort_keys=True)
            with pytest.raises(Exception) as info:
                game.apply((turn + offset) % n, action)
            assert json.dumps(game.to_json(), sort_keys=True) == before, mistake
            errors.append(type(info.value))
        assert errors[0] is errors[1], f"{mistake}: Vikings {errors[0].__name__}, Brian Boru {errors[1].__name__}"
    with pytest.raises(WrongPhaseError) as info:
        bb.apply(0, "play 5")
    assert info.value.rule == "B-9"  # the wrong kind names the rule of the decision that is asked
