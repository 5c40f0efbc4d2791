"""The installed package works, not only the checkout (issue 22).

The wheel is built from a copy of the source (so no stale ``build/`` folder of a checkout can slip
files in), installed into an empty virtual environment outside the checkout with the locked runtime
packages (``requirements/runtime.txt``, ``--require-hashes``), and a short scripted offline game is
played there from a folder of its own: a Vikings start, a buy and a placement, ``/rules V-14``, a
Polish table with its rule text and pictures. Rules texts, catalogs, fonts and data files must all
be in the wheel for this to pass. Marked slow: it installs packages (pip's cache makes it quick).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv*", "build", "dist", "out", "*.egg-info", "__pycache__",
                                    ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis", "*.db*")

pytestmark = pytest.mark.slow


def run(args: list[str | Path], cwd: Path, stdin: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    proc = subprocess.run([str(a) for a in args], cwd=cwd, input=stdin, capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, f"{args} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with nothing but the wheel and its locked dependencies."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", base / "dist", source], cwd=base)
    wheels = list((base / "dist").glob("meadhall-*.whl"))
    assert len(wheels) == 1, wheels
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    run([py, "-m", "pip", "install", "--quiet", "--require-hashes", "-r", ROOT / "requirements" / "runtime.txt"],
        cwd=base)
    run([py, "-m", "pip", "install", "--quiet", "--no-deps", wheels[0]], cwd=base)
    return env_dir


def play(env_dir: Path, where: Path, lines: list[str], *args: str) -> str:
    where.mkdir()
    return run([env_dir / "bin" / "meadhall", "play", "--db", where / "m.db", "--out", where / "out", *args],
               cwd=where, stdin="\n".join(lines) + "\n")


def pictures(where: Path) -> list[Path]:
    found = sorted((where / "out").glob("*.png"))
    for png in found:
        with Image.open(png) as img:
            assert img.size == (1120, 640), png
    return found


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    out = run([installed / "bin" / "python", "-c", "import bot, engine, renderer; "
               "print(bot.__file__, engine.__file__, renderer.__file__)"], cwd=tmp_path)
    for path in out.split():
        assert path.startswith(str(installed)) and not path.startswith(str(ROOT)), out


def test_a_scripted_offline_game_in_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    out = play(installed, tmp_path / "en", [
        "alice: /join", "bob: /join", "alice: /start vikings",
        "/buy 3",                # whoever starts buys the combo at wheel position 3 (V-14 allows it)
        "1",                     # the first listed choice: a start tile, or a cell
        "1", "1",
        "/rules V-14", "/quit"])
    assert "Vikings begins (basic game): alice, bob." in out
    assert " buys the " in out and " for 3 gold." in out                     # the move was played
    assert "places the " in out                                             # and a tile placed
    assert "V-14: The combo at position 0 may be bought only when" in out   # the rules texts are in it
    assert len(pictures(tmp_path / "en")) >= 3                              # fonts and drawing work


def test_a_polish_table_in_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    out = play(installed, tmp_path / "pl", ["alice: /join", "bob: /join", "alice: /start vikings",
                                            "/rules V-14", "/quit"], "--lang", "pl")
    assert "Zaczyna się Vikings (gra podstawowa; język: Polski): alice, bob." in out, out  # the catalogs
    assert "V-14:" in out and "The combo at position 0" not in out               # the Polish rules text
    assert pictures(tmp_path / "pl")
