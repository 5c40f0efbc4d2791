"""The table notation (vikings-notation.md) and the command line (score, placements)."""

from __future__ import annotations

import json

import pytest

from engine.core import NotationError
from engine.vikings.__main__ import main
from engine.vikings.notation import parse_table, print_table

EXAMPLE_1 = """\
player: example gold=0 vp=0
ships: ^g ^b ^r
W: L  Ma* R*
N: L* R*
S: L* Mb* R*
G: L* R*
F: L*
"""

TWO = """\
# two players, the second starts
player: Astrid gold=12 vp=7
W: L R*      # a closed island
base: F2 B1
---
player: Bjorn gold=3 vp=0 start
ships: . ^y
S: L* Mc Md R
F: . L
specials: boat Xa
"""


def test_print_parse_print_is_identical():
    for text in (EXAMPLE_1, TWO):
        once = print_table(parse_table(text))
        assert print_table(parse_table(once)) == once
    t = parse_table(TWO)
    assert [p.name for p in t.players] == ["Astrid", "Bjorn"] and t.start_index == 1
    assert t.players[0].homeland.base["F"] == 2 and t.players[1].homeland.specials == ["boat", "Xa"]
    assert t.players[1].homeland.rows[0] == [".", "^y"]


@pytest.mark.parametrize(
    "text,line,col,words",
    [
        ("player: a gold=1 vp=1\nW: L Q", 2, 6, "unknown token 'Q'"),
        ("player: a gold=1 vp=1\nW: L ^r", 2, 6, "ship '^r' outside the ships row"),
        ("player: a gold=1 vp=1\nships: ^r L", 2, 11, "island tile 'L' in the ships row"),
        ("player: a gold=1 vp=1\nN: L .*", 2, 6, "'*' (viking) on an empty cell"),
        ("player: a gold=1 vp=1\nN: L L", 2, 6, "edges do not match"),
        ("player: a gold=1 vp=1\nG: R", 2, 4, "edges do not match"),
        ("player: a gold=1 vp=1 bogus", 1, 23, "unknown token 'bogus'"),
        ("W: L", 1, 1, "a table starts with"),
        ("player: a gold=1 vp=1\nbase: Q3", 2, 7, "unknown token 'Q3'"),
        ("player: a gold=1 vp=1\nspecials: nope", 2, 11, "unknown special tile"),
    ],
)
def test_parse_errors_name_line_and_column_V22(text, line, col, words):
    with pytest.raises(NotationError) as e:
        parse_table(text)
    assert (e.value.line, e.value.column) == (line, col), str(e.value)
    assert words in str(e.value)


def test_score_command_major_small_V36(tmp_path, capsys):
    f = tmp_path / "ex1.txt"
    f.write_text(EXAMPLE_1)
    assert main(["score", "major", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"][0]["vp"] == 8 and out["players"][0]["gold"] == 9
    assert out["players"][0]["lines"]
    assert main(["score", "small", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["players"][0]["vp"], out["players"][0]["gold"]) == (0, 6)


def test_score_command_final_V37(tmp_path, capsys):
    f = tmp_path / "t.txt"
    f.write_text(TWO)
    assert main(["score", "final", str(f)]) == 0
    out = json.loads(capsys.readouterr().out)
    a, b = out["players"]
    # Astrid: 12 gold -> 2 VP (2 kept); sailors 1 vs 0: +10; islands 1 vs 0 (Bjorn's S row is L Mc Md R:
    # also 1) -> tie +7 each; longest: Bjorn 4 -> +5; food: Astrid 0 fishers, 4 vikings -> -4
    assert a["gold"] == 2
    assert a["vp"] == 7 + 2 + 10 + 7 - 4
    # Bjorn: yellow ship undefended -2 VP (0 floor); 3 gold -> 0 VP; islands +7; longest +5;
    # food: fisher none on F2? F2 holds no viking; 1 viking (scout) -> -1
    assert b["vp"] == 0 + 7 + 5 - 1


def test_placements_command(tmp_path, capsys):
    f = tmp_path / "ex1.txt"
    f.write_text(EXAMPLE_1)
    assert main(["placements", str(f), "--player", "example", "--tile", "L"]) == 0
    assert json.loads(capsys.readouterr().out) == ["W4", "N3", "S4", "G3"]
    assert main(["placements", str(f), "--player", "example", "--tile", "R"]) == 0
    assert json.loads(capsys.readouterr().out) == ["F2"]
    assert main(["placements", str(f), "--player", "example", "--tile", "^b"]) == 0
    assert json.loads(capsys.readouterr().out) == ["^4"]
    f2 = tmp_path / "closed.txt"
    f2.write_text("player: c gold=0 vp=0\nW: L R\nN: L R\nS: L R\nG: L R\nF: L R\n")
    assert main(["placements", str(f2), "--player", "c", "--tile", "Mb"]) == 0
    assert json.loads(capsys.readouterr().out) == []


@pytest.mark.parametrize(
    "ships,expected",
    [("", ["^1", "^2", "^3"]), (". ^g", ["^1", "^3"]), ("^g", ["^2"]), ("^g ^b ^r", ["^4"])],
)
def test_placements_strict_ships_command_V20_D6(tmp_path, capsys, ships, expected):
    f = tmp_path / "ships.txt"
    f.write_text("player: a gold=0 vp=0\n" + (f"ships: {ships}\n" if ships else "W: L\n"))
    assert main(["placements", str(f), "--player", "a", "--tile", "^r", "--strict-ships"]) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_command_errors_are_clear(tmp_path, capsys):
    f = tmp_path / "bad.txt"
    f.write_text("player: a gold=0 vp=0\nW: R\n")
    assert main(["score", "major", str(f)]) == 2
    assert "line 2, column 4" in capsys.readouterr().err
    f.write_text(EXAMPLE_1)
    assert main(["placements", str(f), "--player", "nobody", "--tile", "L"]) == 2
    assert "no player 'nobody'" in capsys.readouterr().err
    assert main(["placements", str(f), "--player", "example", "--tile", "Zz"]) == 2
    assert "unknown tile" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["Ann#1234", "Ann #2", "Ann\u00a0B", "Ann\tB"])
def test_any_player_name_round_trips_through_the_notation(name):
    # vikings-notation.md: the engine prints a table and parses it back unchanged; '#' starts a
    # comment and whitespace ends the name, so neither may reach the printed name
    from engine.vikings import VikingsGame

    g = VikingsGame.new([name, "Bo"], seed=1, start_seat=0)
    text = g.to_notation()
    table = parse_table(text)
    assert print_table(table) == text
    assert [(p.gold, p.vp, p.start) for p in table.players] == [(30, 10, True), (30, 10, False)]
    assert table.find(name) == 0


def test_the_rulebook_example_prints_back_unchanged():
    # vikings-notation.md: "The engine must parse it and print it back unchanged (round trip)";
    # its example 1 lines the island rows up in columns (W: L  Ma* R* above S: L* Mb* R*)
    assert print_table(parse_table(EXAMPLE_1)) == EXAMPLE_1
    aligned = "player: a gold=1 vp=2\nW: L  R*\nN: L* Ma R\nF: .  L\n"
    assert print_table(parse_table(aligned)) == aligned
    assert print_table(parse_table("player: a gold=1 vp=2\nW: L R*\nN: L* Ma R\nF: . L\n")) == aligned
