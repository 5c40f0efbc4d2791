"""The template holds messages, not stray words: a translation call's first argument is a literal,
or an expression with no string in it (Babel would take a dictionary key inside ``_(d["kind"])``
for a message and put "kind" in every catalog)."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.i18n.catalogs import KEYWORDS

ROOT = Path(__file__).resolve().parents[2]


def test_no_translation_call_hides_a_string_in_an_expression():
    found = []
    for path in sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("renderer/**/*.py"), *ROOT.glob("engine/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS
                    and node.args):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant):
                continue
            strings = [c.value for c in ast.walk(first) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            if strings:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(first)}")
    assert found == []


def test_no_translation_call_inside_an_f_string():
    """Babel does not look inside f-strings (Python 3.11): ``f"({_('only {name} sees')})"`` never
    reached the template, so that mark stayed English in every language."""
    found = []
    for path in sorted([*ROOT.glob("bot/**/*.py"), *ROOT.glob("renderer/**/*.py"), *ROOT.glob("engine/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id in KEYWORDS:
                        found.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert found == []


def test_the_final_standings_of_each_player_are_a_message():
    """Babel missed a call inside a generator inside another call's argument: the standings read
    "ala 35 VP, 0 gold" in every language. The template now has the line."""
    from bot.i18n.catalogs import load_catalog, pot_path

    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in load_catalog(pot_path())}
    assert "{name} {vp} VP, {gold} gold" in ids
