"""Adapters declare their hooks (issue 18): every optional hook is a member of the ``GameAdapter``
protocol with a default in ``BaseAdapter``, ``free_actions`` is part of ``engine.core.Game``, and
nothing in ``bot/`` probes an adapter or a game with ``getattr``/``hasattr``."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.games import BaseAdapter, GameAdapter
from bot.games.brianboru import BrianBoruAdapter
from bot.games.vikings import VikingsAdapter
from bot.games.widgets import label_of, widgets_for
from engine.core import Game
from tests.toygame import ToyAdapter, ToyGame

BOT = Path(__file__).resolve().parents[2] / "bot"

# the probes that stay: they look at objects that are neither adapters nor games
ALLOWED = {
    ("cli.py", "args", "lang"),                           # argparse namespace (subcommands without --lang)
    ("discord/app.py", "interaction.command", "name"),    # discord objects
    ("discord/app.py", "target", "guild"),
    ("discord/publishing/answering.py", "interaction.command", "name"),
    ("discord/commands/lobby.py", "interaction.namespace", "game"),
    ("discord/publishing/posting.py", "target", "id"),    # a posted discord message
    ("discord/threads.py", "where", "_state"),            # a Thread or PartialMessageable to un-archive
    ("discord/threads.py", "where", "id"),
    ("discord/permissions.py", "permissions", None),
    ("storage/migrate.py", "src", "path"),                # a storage backend: only SQLite has a path
    ("storage/migrate.py", "dst", "path"),
}


def probes(source: str, name: str) -> list[tuple[str, str, str | None, int]]:
    """Every ``getattr``/``hasattr`` call of ``source`` as ``(file, object, attribute, line)``;
    the attribute is ``None`` when it is not a literal."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and node.args):
            attr = node.args[1] if len(node.args) > 1 else None
            literal = attr.value if isinstance(attr, ast.Constant) and isinstance(attr.value, str) else None
            found.append((name, ast.unparse(node.args[0]), literal, node.lineno))
    return found


def forbidden(source: str, name: str) -> list[tuple[str, str, str | None, int]]:
    return [p for p in probes(source, name) if p[:3] not in ALLOWED]


def test_nothing_in_bot_probes_adapters_or_games_with_getattr_or_hasattr():
    found = []
    for path in sorted(BOT.rglob("*.py")):
        found += forbidden(path.read_text(encoding="utf-8"), path.relative_to(BOT).as_posix())
    assert found == []


def test_the_probe_check_catches_a_hook_found_with_getattr():
    source = ("def f(adapter, game, table):\n"
              "    hook = getattr(adapter, 'trips', None)\n"
              "    free = hasattr(game, 'free_actions')\n"
              "    return getattr(table.adapter, 'picture', None)\n")
    assert forbidden(source, "discord/cog.py") == [
        ("discord/cog.py", "adapter", "trips", 2),
        ("discord/cog.py", "game", "free_actions", 3),
        ("discord/cog.py", "table.adapter", "picture", 4),
    ]
    # an allowed discord probe stays allowed only in its own file
    assert forbidden("getattr(interaction.command, 'name', '?')", "discord/publishing/answering.py") == []
    assert forbidden("getattr(interaction.command, 'name', '?')", "widgets.py") != []


def protocol_members() -> set[str]:
    return {n for n in GameAdapter.__dict__ if not n.startswith("_")} | set(
        getattr(GameAdapter, "__annotations__", {}))


def test_every_protocol_member_has_a_default_in_base_adapter_but_game_cls_and_title():
    missing = {m for m in protocol_members() if not hasattr(BaseAdapter, m)}
    assert missing == {"game_cls", "title"}


@pytest.mark.parametrize("hook", ["private_choices", "private_text", "private_image", "plan_dialog", "confirm",
                                  "message_group", "button_prompt", "scoring_events", "scoring_pictured",
                                  "free_actions_placeholder", "describe_verb", "describe_action", "widgets",
                                  "picture", "needs_replay", "public_action", "option_words"])
def test_each_former_optional_hook_is_on_the_protocol(hook):
    assert hook in protocol_members()


def test_real_adapters_override_with_the_protocols_parameter_names():
    for adapter_cls in (VikingsAdapter, BrianBoruAdapter):
        for name in protocol_members():
            own = adapter_cls.__dict__.get(name)
            base = BaseAdapter.__dict__.get(name)
            if not (callable(own) and callable(base)):
                continue
            assert list(inspect.signature(own).parameters) == list(inspect.signature(base).parameters), (
                adapter_cls.__name__, name)


def test_base_adapter_defaults_say_nothing_special():
    adapter = ToyAdapter()
    game = ToyGame.new(["a", "b"], seed=1, options={"pile": 5})
    seat = game.acting_seats()[0]
    action = game.legal_actions(seat)[0]
    assert isinstance(adapter, GameAdapter)
    assert adapter.private_choices(game, 0) is False
    assert adapter.private_text(game, 0) == adapter.text(game, 0)
    assert adapter.private_image(game, 0) is None
    assert adapter.plan_dialog(game, 0, (), False) is None
    assert adapter.confirm(game, seat, action) is None
    assert adapter.message_group(game) is None
    assert adapter.button_prompt(game, 0) is None
    assert adapter.scoring_pictured(game, []) is False
    assert adapter.needs_replay(game, []) is False
    assert adapter.describe_verb("take") is None
    assert adapter.describe_action(game, action) == str(action) == label_of(adapter, game, action)
    assert adapter.widgets(game, 0) is None and widgets_for(adapter, game, seat)  # the default widgets
    assert adapter.picture(game, seat=0) == adapter.render(game, seat=0)
    assert (tuple(adapter.scoring_events), adapter.free_actions_placeholder, tuple(adapter.option_words)) == (
        (), None, ())


def test_free_actions_is_part_of_game_and_empty_by_default():
    assert "free_actions" in Game.__dict__
    names = list(Game.__dict__)
    assert names.index("free_actions") == names.index("legal_actions") + 1

    class Plain(ToyGame):
        free_actions = Game.free_actions

    game = Plain.new(["a", "b"], seed=1, options={"pile": 5})
    assert game.free_actions(0) == []
    assert ToyGame.new(["a", "b"], seed=1, options={"pile": 5}).free_actions(1) != []
