"""The contract between the engines and everything else (issue 18).

* Nothing outside an engine reads its private state: an ``ast`` scan of ``bot/``, ``renderer/`` and
  ``engine/players/`` fails on an attribute of a game object that is not a declared public member
  (the :class:`engine.core.Game` protocol plus each game's ``INFO.public``) and on any ``.s[`` subscript.
* The same mistake raises the same error class in both engines (a table of cases).
* Game metadata is data (``Game.INFO``); the views are declared (``TypedDict``) with the viewing
  seat under ``seat`` in both games.
* The ``Game`` example in ``engine.core`` runs (doctest).
"""

from __future__ import annotations

import ast
import doctest
import re
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import engine.core
from bot.games.registry import default_registry
from engine.brianboru import BrianBoruGame
from engine.brianboru.view import BrianBoruView
from engine.core import (
    ActionSyntaxError,
    EngineError,
    Game,
    GameInfo,
    IllegalActionError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.vikings import VikingsGame
from engine.vikings.view import VikingsView

ROOT = Path(__file__).resolve().parents[2]
GAMES: tuple[type[Game], ...] = (VikingsGame, BrianBoruGame)
GAME_CLASSES = {"Game", *(cls.__name__ for cls in GAMES)}
SCANNED = ("bot", "renderer", "engine/players")

# ----------------------------------------------------------------------------- the public members


def public_members() -> frozenset[str]:
    """What code outside an engine may use on a game: the protocol's public names (class and
    instance), plus what each game declares in ``INFO.public``."""
    protocol = {name for name in [*dir(Game), *Game.__annotations__] if not name.startswith("_")}
    extras = set().union(*(cls.INFO.public for cls in GAMES))
    return frozenset(protocol | extras)


# ----------------------------------------------------------------------------- the scan

# calls whose result is a game: Cls.new / Cls.from_json / type(x).from_json, game.copy(), determinize
_MAKERS = {"new", "from_json", "copy"}
_DETERMINIZE = re.compile(r"(^|_)determinize$")


def _annotation_is_game(node: ast.expr | None) -> bool:
    if node is None:
        return False
    text = ast.unparse(node)
    return any(re.search(rf"\b{name}\b", text) for name in GAME_CLASSES) and "type[" not in text


class _Scan(ast.NodeVisitor):
    """Finds attribute reads on game objects, per function scope, and every ``.s[`` subscript."""

    def __init__(self, public: frozenset[str], names: frozenset[str] = frozenset({"game"})) -> None:
        self.public = public
        self.names = names
        self.scopes: list[set[str]] = [set(names)]
        self.found: list[tuple[int, str]] = []

    # -- which expressions are games
    def is_game(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.scopes[-1]
        if isinstance(node, ast.Attribute) and node.attr == "game":  # table.game, self.table.game …
            return True
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in _MAKERS:
                v = f.value
                if f.attr == "copy":
                    return self.is_game(v)
                return (isinstance(v, ast.Name) and v.id in GAME_CLASSES) or (
                    isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "type")
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            return bool(_DETERMINIZE.search(name))
        return False

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        names = set(self.names)
        args = node.args
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            if _annotation_is_game(a.annotation):
                names.add(a.arg)
        self.scopes.append(names)
        self.generic_visit(node)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for t in node.targets:
            if isinstance(t, ast.Name) and self.is_game(node.value):
                self.scopes[-1].add(t.id)
            self.visit(t)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        if isinstance(node.target, ast.Name) and (
                _annotation_is_game(node.annotation) or (node.value is not None and self.is_game(node.value))):
            self.scopes[-1].add(node.target.id)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        if self.is_game(node.value):
            self.scopes[-1].add(node.target.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if self.is_game(node.value) and node.attr not in self.public:
            self.found.append((node.lineno, f"{ast.unparse(node.value)}.{node.attr}"))
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        v = node.value
        if isinstance(v, ast.Attribute) and v.attr == "s":
            self.found.append((node.lineno, f"{ast.unparse(v)}[…] (an engine's state dict)"))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        # getattr(game, "x") / hasattr(game, "x") probe a game's members: the same rule applies
        f = node.func
        if (isinstance(f, ast.Name) and f.id in ("getattr", "hasattr") and len(node.args) >= 2
                and self.is_game(node.args[0]) and isinstance(node.args[1], ast.Constant)
                and node.args[1].value not in self.public):
            self.found.append((node.lineno, f"{f.id}({ast.unparse(node.args[0])}, {node.args[1].value!r})"))
        self.generic_visit(node)


# names that hold a game wherever they appear (the computer players call their games ``g``;
# the renderers' ``g`` is a geometry, so only ``game`` counts there)
GAME_NAMES = {"engine/players": frozenset({"game", "g", "g2", "world"})}


def private_reads(source: str, public: frozenset[str], names: frozenset[str] = frozenset({"game"})
                  ) -> list[tuple[int, str]]:
    """(line, expression) of every read of a game's non-public member in ``source``."""
    scan = _Scan(public, names)
    scan.visit(ast.parse(source))
    return scan.found


def scanned_modules() -> Iterator[Path]:
    for folder in SCANNED:
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_nothing_outside_an_engine_reads_its_private_state():
    public = public_members()
    bad = []
    for path in scanned_modules():
        rel = str(path.relative_to(ROOT))
        names = next((n for folder, n in GAME_NAMES.items() if rel.startswith(folder + "/")), frozenset({"game"}))
        for line, expr in private_reads(path.read_text(encoding="utf-8"), public, names):
            bad.append(f"{path.relative_to(ROOT)}:{line}: {expr}")
    assert not bad, "engine internals read outside the engine (use the view or a declared public member):\n" + \
        "\n".join(bad)


def test_the_scan_covers_every_module_of_bot_renderer_and_players():
    names = {str(p.relative_to(ROOT)) for p in scanned_modules()}
    assert {"bot/games/vikings.py", "bot/games/brianboru.py", "bot/demos/brianboru.py",
            "renderer/vikings.py", "engine/players/search.py", "engine/players/vikings.py"} <= names


@pytest.mark.parametrize("source, expected", [
    ("def f(game):\n    return game.phase\n", "game.phase"),
    ("def f(g: VikingsGame):\n    return g.homelands[0]\n", "g.homelands"),
    ("def f(table):\n    return table.game.trip\n", "table.game.trip"),
    ("def f(x):\n    g = BrianBoruGame.from_json(x)\n    return g.s['round']\n", "g.s"),
    ("def f(state):\n    return state.s['pending']\n", "state.s[…] (an engine's state dict)"),
    ("def f(world):\n    g = world.copy()\n    return g.turn\n", None),  # world is not known as a game
    ("def f(view, rng):\n    g = determinize(view, rng)\n    return g.turn\n", "g.turn"),
    ("def f(game):\n    h = game.copy()\n    return h.bids\n", "h.bids"),
    ("def f(g: Game):\n    return g.round if hasattr(g, 'round') else 0\n", "hasattr(g, 'round')"),
    ("def f(game):\n    return getattr(game, 'free_actions')\n", None),  # public: allowed
    ("def f(game):\n    return game.view(None)['phase'], game.legal_actions(0), game.INFO\n", None),
    ("def f(game):\n    return game.to_notation()\n", None),  # Vikings' declared extra
    ("def f(geometry):\n    return geometry.width\n", None),  # not a game
    ("def f(g: Any):\n    return g.homelands\n", None),  # an untyped g is no game by default …
])
def test_the_scan_catches_private_reads_and_only_them(source, expected):
    """A test of the test: it can fail."""
    found = [expr for _line, expr in private_reads(source, public_members())]
    if expected is None:
        assert found == []
    else:
        assert expected in found


def test_in_the_players_g_is_a_game_whatever_its_annotation():
    found = private_reads("def f(g: Any):\n    return g.round if hasattr(g, 'round') else 0\n",
                          public_members(), GAME_NAMES["engine/players"])
    assert [e for _line, e in found] == ["hasattr(g, 'round')", "g.round"]


def test_public_members_are_the_protocol_and_the_declared_extras_only():
    public = public_members()
    assert {"view", "legal_actions", "free_actions", "apply", "INFO", "to_notation", "notation"} <= public
    assert not {"s", "phase", "homelands", "trip", "turn", "round", "pending", "bids", "gold"} & public
    for cls in GAMES:
        for name in cls.INFO.public:
            assert callable(getattr(cls, name)), f"{cls.__name__}.{name} is declared public but is no method"


# ----------------------------------------------------------------------------- metadata as data


@pytest.mark.parametrize("cls", GAMES)
def test_every_game_declares_its_metadata_as_data(cls):
    info = cls.INFO
    assert isinstance(info, GameInfo)
    assert (cls.GAME_ID, cls.MIN_PLAYERS, cls.MAX_PLAYERS) == (info.id, info.min_players, info.max_players)
    for option in info.options:
        assert re.fullmatch(r"V-\d+|B-\d+|D-\d+", option.rule), option  # cites a rule or a [D-n]
        assert str(option.help)


def test_hidden_hands_and_simultaneous_decisions_as_declared():
    assert not VikingsGame.INFO.hidden_hands and not VikingsGame.INFO.simultaneous
    assert BrianBoruGame.INFO.hidden_hands and BrianBoruGame.INFO.simultaneous  # B-14 draft
    assert BrianBoruGame.INFO.options == ()


def test_vikings_options_keep_their_words_and_settings_V40_V44_V45_D6():
    info = VikingsGame.INFO
    assert info.option_words == ("basic", "advanced", "auction", "single-sailor", "specials", "strict-ships")
    assert info.options_from_words(["basic"]) == {}
    assert info.options_from_words(["ADVANCED"]) == {"advanced": True}
    assert info.options_from_words(["single-sailor,", "specials"]) == {"single_sailor": True, "specials": True}
    assert info.option("strict-ships").rule == "D-6"
    assert info.options_from_words(["strict-ships"]) == {"ships_any_order": False}
    with pytest.raises(KeyError):
        info.options_from_words(["auction", "turbo"])


def test_the_adapters_option_words_come_from_the_engine():
    registry = default_registry()
    for adapter in registry:
        assert adapter.option_words == adapter.game_cls.INFO.option_words


def test_free_actions_is_part_of_the_protocol_V16():
    g = BrianBoruGame.new(["a", "b", "c"], seed=1)
    assert g.free_actions(0) == []  # the protocol's default
    v = VikingsGame.new(["a", "b"], seed=1)
    assert [str(a) for a in v.free_actions(0)][:2] == ["exchange 1", "exchange 2"]


# ----------------------------------------------------------------------------- same mistake, same error


def _vikings() -> tuple[Game, int, int]:
    g = VikingsGame.new(["Astrid", "Bjorn"], seed=1)
    return g, g.acting_seats()[0], 1 - g.acting_seats()[0]


def _brianboru() -> tuple[Game, int, int]:
    g = BrianBoruGame.new(["Aoife", "Brian", "Conn"], seed=1)
    seat = g.acting_seats()[0]
    return g, seat, (seat + 1) % 3


# For each engine: a position maker, and per mistake the action text that makes it there.
# (name, make, unparseable, other phase, against a rule, the rule)
ENGINES: list[tuple[str, Callable[[], tuple[Game, int, int]], str, str, str, str]] = [
    ("vikings", _vikings, "fly 3", "place W1", "buy 0", "V-14"),
    ("brian-boru", _brianboru, "fly 3", "play 5", "town Nowhere-no-town", ""),
]


def _legal_text(g: Game, seat: int) -> str:
    return str(g.legal_actions(seat)[0])


@pytest.mark.parametrize("name, make, unparseable, other_phase, _rule_text, _rule", ENGINES)
def test_the_same_mistake_raises_the_same_error_class_in_both_engines(name, make, unparseable, other_phase,
                                                                     _rule_text, _rule):
    g, seat, other = make()
    before = g.to_json()
    cases: list[tuple[str, int, str, type[EngineError]]] = [
        ("unparseable text", seat, unparseable, ActionSyntaxError),
        ("empty text", seat, "", ActionSyntaxError),
        ("a well-formed action of another phase", seat, other_phase, WrongPhaseError),
        ("not this seat's turn", other, _legal_text(g, seat), NotYourTurnError),
        ("no such seat", 7, _legal_text(g, seat), NotYourTurnError),
    ]
    for what, who, text, error in cases:
        with pytest.raises(error) as info:
            g.apply(who, text)
        assert type(info.value) is error, f"{name}: {what} raised {type(info.value).__name__}"
        assert g.to_json() == before, f"{name}: {what} changed the game"
    with pytest.raises(ActionSyntaxError):
        g.parse_action(unparseable)


def test_against_a_rule_raises_illegal_action_error_naming_the_rule_in_both_engines():
    g = next(g for g in (VikingsGame.new(["a", "b"], seed=s) for s in range(50))
             if "buy 0" not in {str(a) for a in g.legal_actions(g.acting_seats()[0])})
    with pytest.raises(IllegalActionError) as info:
        g.apply(g.acting_seats()[0], "buy 0")  # V-14: position 0 only as the last of its kind or when broke
    assert type(info.value) is IllegalActionError and info.value.rule == "V-14"
    with pytest.raises(IllegalActionError) as info:
        g.apply(0, "exchange 99")  # V-16: never below 0 VP
    assert type(info.value) is IllegalActionError and info.value.rule == "V-16"
    b, seat, _other = _brianboru()
    b.apply(seat, b.legal_actions(seat)[0])  # the first start town: now its region is taken
    seat = b.acting_seats()[0]
    legal = {str(a) for a in b.legal_actions(seat)}
    verb = next(iter(legal)).split()[0]
    towns = [t["name"] for t in b.view(None)["towns"]]
    wrong = next(f"{verb} {t}" for t in towns if f"{verb} {t}" not in legal)
    with pytest.raises(IllegalActionError) as info:
        b.apply(seat, wrong)  # B-9: a start town in a region nobody holds
    assert type(info.value) is IllegalActionError and info.value.rule == "B-9"


def test_over_games_refuse_with_wrong_phase_in_both_engines():
    from engine.core import Rng

    for g in (VikingsGame.new(["a", "b"], seed=3), BrianBoruGame.new(["a", "b", "c"], seed=3)):
        rng = Rng(5)
        last = ""
        while not g.is_over:
            seat = g.acting_seats()[0]
            actions = g.legal_actions(seat)
            a = actions[rng.randbelow(len(actions))]
            last = str(a)
            g.apply(seat, a)
        with pytest.raises(WrongPhaseError):
            g.apply(0, last)
        with pytest.raises(NotYourTurnError):  # no such seat: said first, whatever the phase
            g.apply(7, last)


# ----------------------------------------------------------------------------- declared views


def _keys(td: type) -> set[str]:
    return set(typing.get_type_hints(td))


@pytest.mark.parametrize("cls, view_type", [(VikingsGame, VikingsView), (BrianBoruGame, BrianBoruView)])
def test_the_view_has_exactly_the_declared_keys_and_the_viewing_seat_under_seat(cls, view_type):
    opts = {"advanced": True} if cls is VikingsGame else None
    g = cls.new(["a", "b", "c"], seed=2, options=opts)
    assert typing.get_type_hints(cls.view)["return"] is view_type
    declared = _keys(view_type)
    required = view_type.__required_keys__
    for seat in (None, 0, 2):
        v = g.view(seat)
        assert v["seat"] == seat
        assert required <= set(v) <= declared, (set(v) ^ declared)
        if cls is BrianBoruGame:  # the hand is hidden: only a seat's own view has it (B-14)
            assert ("you" in v) == (seat is not None)
        player_type = typing.get_type_hints(view_type)["players"].__args__[0]
        assert set(v["players"][0]) == _keys(player_type)


# ----------------------------------------------------------------------------- the example


def test_the_game_example_in_engine_core_runs():
    result = doctest.testmod(engine.core, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0


def test_docstrings_cite_the_rules_at_dot_dot_shared_rules():
    """The rules live in ``../shared/rules/`` seen from the project (issue 18)."""
    bad = []
    for folder in ("engine", "bot", "renderer"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"(?<!\.\./)(?<![\w/])shared/rules/", line):
                    bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)
