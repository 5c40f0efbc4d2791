"""The Brian Boru position notation, its round trip, and ``python -m engine.brianboru score``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.brianboru import BrianBoruGame, final_scoring, format_position, parse_position
from engine.core import NotationError
from tests.conformance import random_playout

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = """\
claims-on-board: meath
player: Daria coins=5 vp=20 renown=2 invaders=1 church=3 track=4 marriages=1 marker
towns: Aileach Sligo Tara Dublin+ Cork!
claims: munster
---
player: "Kasia K" coins=3 vp=21 renown=0 invaders=0 church=0 track=1 marriages=2 princess=support
towns: Galway Kells
"""


def test_canonical_text_round_trips():
    pos = parse_position(EXAMPLE)
    assert format_position(pos) == EXAMPLE
    assert parse_position(format_position(pos)) == pos
    assert pos.players[1].name == "Kasia K" and pos.players[0].marker
    assert pos.monasteries == {"Dublin"} and pos.vikings == {"Cork"} and pos.claims_on_board == {"meath"}


def test_loose_text_reads_and_prints_canonically():
    loose = """
    # comments and blank lines are ignored
    player: A   vp=3      # defaults: coins 0, track 1 …
    towns: dublin+! tara   cork
    ---
    player: B coins=2
    claims: MEATH
    """
    pos = parse_position(loose)
    text = format_position(pos)
    assert text.splitlines()[0] == "player: A coins=0 vp=3 renown=0 invaders=0 church=0 track=1 marriages=0"
    assert "towns: Tara Dublin+! Cork" in text and "claims: meath" in text
    assert parse_position(text) == pos


@pytest.mark.parametrize("seed,n", [(1, 3), (2, 4), (3, 5), (4, 4)])
def test_game_positions_round_trip_and_score_like_the_game(seed, n):
    g = random_playout(BrianBoruGame, ["Brian", "Mael", "Sitric", "Gormlaith", "Donnchad"][:n], seed=seed)
    text = g.notation()
    pos = parse_position(text)
    assert pos == g.position() and format_position(pos) == text
    res = final_scoring(pos)
    assert {"players": res["players"], "winners": res["winners"]} == g.view()["final"]


@pytest.mark.parametrize(
    "text,line,col,msg",
    [
        ("player: A\ntowns: Tara Atlantis\n", 2, 13, "unknown town"),
        ("player: A\ntowns: Tara\n---\nplayer: B\ntowns: tara\n", 5, 8, "already holds a disc"),
        ("player: A gold=3\n", 1, 11, "unknown key"),
        ("player: A vp=x\n", 1, 14, "whole number"),
        ("player: A vp=\u00b2\n", 1, 14, "whole number"),  # '²'.isdigit() is true; int() fails
        ("player: A coins=\u0661\n", 1, 17, "whole number"),  # Arabic-Indic one
        ("player: A vp=" + "9" * 5000 + "\n", 1, 14, "whole number"),  # beyond int()'s digit limit
        ("player: A vp=-1\n", 1, 14, "whole number"),
        ("player: A vp=\n", 1, 14, "whole number"),
        ("player: A track=10\n", 1, 17, "track must be"),
        ("player: A vp=1 vp=2\n", 1, 16, "given twice"),
        ("player: A marker\n---\nplayer: B marker\n", 3, 11, "only one player holds"),
        ("player: A princess=trade\n---\nplayer: B princess=support\n", 3, 11, "only one player can keep"),
        ("player: A princess=love\n", 1, 20, "support or trade"),
        ("player: A\nclaims: meath\n---\nplayer: B\nclaims: meath\n", 5, 9, "listed twice"),
        ("claims-on-board: atlantis\nplayer: A\n", 1, 18, "unknown region"),
        ("player: A\nclaims-on-board: meath\n", 2, 1, "before the first player"),
        ("towns: Tara\n", 1, 1, "outside a player block"),
        ("---\nplayer: A\n", 1, 1, "before any player"),
        ("player: A\nplayer: B\n", 2, 1, "must follow '---'"),
        ("player: A\nvikings: Tara\n", 2, 1, "unknown line"),
        ("player: A\ntowns: Tara\ntowns: Cork\n", 3, 1, "given twice"),
        ('player: "A\n', 1, 9, "unclosed quote"),
        ("player: A\ntowns: Tara++\n", 2, 8, "repeated flag"),
        ("player: A\n---\nplayer: A\n", 3, 9, "listed twice"),
        ("player:\n", 1, 8, "needs a name"),
        ("hello\n", 1, 1, "expected 'KEY: …'"),
        ("# nothing\n", 1, 1, "no player block"),
    ],
)
def test_notation_errors_name_line_and_column(text, line, col, msg):
    with pytest.raises(NotationError) as info:
        parse_position(text)
    e = info.value
    assert msg in e.message and (e.line, e.column) == (line, col), str(e)


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.brianboru", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_score_command_prints_final_scoring_json(tmp_path):
    f = tmp_path / "pos.txt"
    f.write_text(EXAMPLE, encoding="utf-8")
    out = run_cli("score", str(f))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"players", "winners"}
    daria, kasia = data["players"]
    assert set(daria) == {"name", "vp", "lines", "messages"}  # English lines and the structured ones
    # 20 + coins 1 + marker 1 + renown 2 + Munster 8 + half Meath (Daria 1 town v Kasia 1) 2
    # + 4 regions 1 (Cork is under a Viking marker)
    assert daria["vp"] == 35 and daria["lines"][-1] == "total: 35 VP"
    assert daria["messages"][-1] == {"msg": "total: {vp} VP", "params": {"vp": 35}}
    assert kasia["vp"] == 21 + 2 and data["winners"] == ["Daria"]
    assert run_cli("score", "-", stdin=EXAMPLE).stdout == out.stdout


def test_score_command_errors(tmp_path):
    out = run_cli("score")
    assert out.returncode == 2 and "usage" in out.stderr
    out = run_cli("score", str(tmp_path / "missing.txt"))
    assert out.returncode == 2 and "cannot read" in out.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("player: A\ntowns: Atlantis\n", encoding="utf-8")
    out = run_cli("score", str(bad))
    assert out.returncode == 2 and "line 2, column 8" in out.stderr and out.stdout == ""


def test_score_command_refuses_a_file_that_is_not_utf8(tmp_path):
    from engine.brianboru.__main__ import main

    bad = tmp_path / "latin1.txt"
    bad.write_bytes("player: Bria\u00f1\n".encode("latin-1"))
    assert main(["score", str(bad)]) == 2  # a clear message, not a UnicodeDecodeError traceback
    out = subprocess.run([sys.executable, "-m", "engine.brianboru", "score", "-"], cwd=ROOT,
                         input=b"player: \xff\n", capture_output=True, timeout=60)
    assert out.returncode == 2 and b"UTF-8" in out.stderr and b"Traceback" not in out.stderr
