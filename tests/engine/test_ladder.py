"""The ladder (issue 30, item 4): ``meadhall arena --ladder GAME`` rates the levels with openskill and
gives pairwise win rates with 95 % (Wilson) intervals. Its figures live in
``docs/performance-players.md``; here its shape, its arithmetic and its errors."""

from __future__ import annotations

import json

import pytest

from engine.players.arena import main
from engine.players.ladder import LADDER, finish_order, ranks, run_ladder, seating, wilson


def test_wilson_interval_known_values():
    lo, hi = wilson(48, 64)  # the figure for search against the heuristic: 63–84 %
    assert (round(lo, 2), round(hi, 2)) == (0.63, 0.84)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-12
    assert wilson(2.5, 5)[0] < 0.5  # ties count half


def test_ranks_and_finish_order_follow_the_host():
    assert ranks([2], [30, 40, 40, 10]) == [3, 2, 1, 4]  # the winner first (a tie-break), then by VP
    assert ranks([0, 1], [50, 50, 10]) == [1, 1, 3]
    assert finish_order([2], [30, 40, 40]) == [(0, 30), (0, 40), (1, 40)]


def test_seating_rotates_every_level_through_every_seat():
    seen = {lv: set() for lv in LADDER}
    for i in range(40):
        table = seating(LADDER, 4, i)
        assert len(set(table)) == 4
        for s, lv in enumerate(table):
            seen[lv].add(s)
    assert all(seats == {0, 1, 2, 3} for seats in seen.values())
    assert seating(LADDER, 5, 1) == [LADDER[(s - 1) % 5] for s in range(5)]


def test_the_ladder_has_the_shape_the_picture_reads():
    out = run_ladder("brian-boru", 3, seed=2, budget=0.005, levels=["random", "normal", "hard"])
    assert set(out) == {"game", "games", "seed", "budget", "levels", "pairs"}
    assert (out["game"], out["games"], out["seed"], out["budget"]) == ("brian-boru", 3, 2, 0.005)
    assert list(out["levels"]) == ["random", "normal", "hard"]
    for lv in out["levels"].values():
        assert set(lv) == {"mu", "sigma", "ordinal", "games", "wins", "mean_vp", "mean_decision_ms"}
        assert lv["games"] == 3 and lv["sigma"] < 25 / 3
        assert lv["ordinal"] == pytest.approx(lv["mu"] - 3 * lv["sigma"], abs=0.01)
    assert [(p["a"], p["b"]) for p in out["pairs"]] == [("hard", "normal"), ("hard", "random"), ("normal", "random")]
    for p in out["pairs"]:
        assert set(p) == {"a", "b", "games", "a_wins", "rate", "low", "high"}
        assert p["games"] == 3 and p["low"] <= p["rate"] <= p["high"]
    assert json.loads(json.dumps(out)) == out


def test_ladder_cli_prints_json_and_refuses_bad_input(capsys):
    assert main(["--ladder", "vikings", "--games", "1", "--seed", "1", "--levels", "random,normal", "--players", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "vikings" and set(out["levels"]) == {"random", "normal"}
    for argv, message in [
        (["--ladder", "vikings", "--levels", "random,wizard"], "unknown level 'wizard'"),
        (["--ladder", "vikings", "--levels", "random"], "at least two levels"),
        (["--ladder", "vikings", "--levels", "random,random"], "each level once"),
        (["--ladder", "vikings", "--players", "five"], "number of seats"),
        (["--ladder", "brian-boru", "--levels", "random,normal", "--players", "2"], "3–5 players"),
        (["--ladder", "vikings", "--budget", "0"], "budget"),
        (["--ladder", "vikings", "--games", "0"], "games must be at least 1"),
        (["--games", "2"], "--game and --players"),
    ]:
        assert main(argv) == 2
        assert message in capsys.readouterr().err


def test_meadhall_arena_ladder_runs_through_the_cli(capsys):
    from bot.cli import main as meadhall

    assert meadhall(["arena", "--ladder", "vikings", "--games", "1", "--levels", "random,easy", "--players", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["levels"]["easy"]["games"] == 1


def test_ladder_progress_prints_a_line_a_game_on_stderr_and_leaves_stdout_json(capsys):
    assert main(["--ladder", "vikings", "--games", "2", "--seed", "1", "--levels", "random,normal", "--players", "2",
                 "--progress"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2
    lines = err.splitlines()
    assert [x.split(":")[0] for x in lines] == ["game 1", "game 2"]
    assert all("random" in x and "normal" in x for x in lines)
