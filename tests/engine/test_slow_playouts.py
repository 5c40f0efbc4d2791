"""The long seeded playouts carry ``@pytest.mark.slow`` (``pytest -m "not slow"`` is the quick local
run) and CI still runs them: ``make test`` (what ``.ci/run`` calls) runs pytest with no marker
filter, and the project's pytest settings add none (issue 18)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.engine import test_brianboru_conformance, test_players, test_vikings_conformance

ROOT = Path(__file__).resolve().parents[2]

PLAYOUTS = [
    test_vikings_conformance.test_random_playouts_basic,
    test_vikings_conformance.test_random_playouts_progress_options,
    test_vikings_conformance.test_random_playouts_strict_ships_V20_D6,
    test_brianboru_conformance.test_random_playouts_conform,
    test_players.test_no_illegal_action_in_200_seeded_games,
]


@pytest.mark.parametrize("test", PLAYOUTS, ids=lambda t: t.__name__)
def test_long_playouts_are_marked_slow(test):
    assert "slow" in {m.name for m in getattr(test, "pytestmark", [])}


def test_ci_runs_the_slow_playouts_too():
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe is not None, "Makefile has no test target"
    pytest_lines = [line for line in recipe.group(1).splitlines() if "pytest" in line]
    assert pytest_lines and not any(re.search(r"(^|\s)-m(\s|=|$)", line) for line in pytest_lines)
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ini = settings["tool"]["pytest"]["ini_options"]
    assert "-m" not in str(ini.get("addopts", "")).split()
    assert any(m.startswith("slow:") for m in ini["markers"])


def test_make_test_lints_and_type_checks_before_the_tests():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test: lint typecheck\b", makefile, re.M)
    typecheck = re.search(r"^typecheck:.*\n\t(.*)\n", makefile, re.M)
    assert typecheck is not None and "mypy" in typecheck.group(1)
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert settings["tool"]["mypy"]["files"] == ["engine", "renderer", "bot"]
