"""Turn times (issue 25, bot.host.turntimes): the definition of D-turn-time (docs/decisions.md) on
hand-written logs of the toy game: a turn from when the seat became one to act to its action, each
seat of a simultaneous decision from when it was asked, free actions and undone moves, take-overs
and computer players, games without a start time; and durations for people, in six languages."""

from __future__ import annotations

import pytest

from bot.host.turntimes import TurnSummary, duration_text, turn_clock
from bot.i18n import use_language
from bot.storage import LoggedAction, MatchRecord, Seat
from tests.toygame import ToyGame


def record(options=None, started: float | None = 1000.0, seats=None, start_seat: int = 0) -> MatchRecord:
    return MatchRecord(id=1, guild="g", channel="c", game="toy", options=options or {"pile": 9, "max": 2},
                       seed=3, start_seat=start_seat, status="active", creator="u1",
                       seats=seats or [Seat("u1", "alice"), Seat("u2", "bob")], votes=[], version=0,
                       snapshot=None, created=0.0, updated=0.0, started=started)


def log(*entries: tuple[int, str, float]) -> list[LoggedAction]:
    return [LoggedAction(1, i, seat, action, at) for i, (seat, action, at) in enumerate(entries, start=1)]


def turns(clock) -> list[tuple[str, float]]:
    return [(t.user, t.seconds) for t in clock.turns]


def test_turn_time_runs_from_when_the_seat_became_one_to_act_to_its_action():
    clock = turn_clock(ToyGame, record(), log((0, "take 1", 1060.0), (1, "take 2", 4660.0), (0, "take 1", 4700.0)))
    assert turns(clock) == [("u1", 60.0), ("u2", 3600.0), ("u1", 40.0)]
    assert clock.waiting == {1: 4700.0}  # bob is to act since alice's last move
    assert clock.of_user("u1") == [60.0, 40.0]


def test_turn_time_of_a_free_action_is_no_turn_and_the_turn_goes_on():
    clock = turn_clock(ToyGame, record(), log((1, "taunt", 1010.0), (0, "taunt", 1020.0), (0, "take 1", 1100.0)))
    assert turns(clock) == [("u1", 100.0)]  # alice's taunt did not end her turn; bob's began no turn


def test_turn_time_of_players_deciding_at_once_counts_each_from_when_asked():
    rec = record({"pile": 9, "max": 2, "ready": True}, start_seat=1)
    clock = turn_clock(ToyGame, rec, log((1, "ready", 1030.0), (0, "ready", 1300.0), (1, "take 1", 1400.0)))
    assert turns(clock) == [("u2", 30.0), ("u1", 300.0), ("u2", 100.0)]  # bob to act again from alice's ready
    # a player who stays to act after her decision goes on with the same turn
    rec = record({"pile": 9, "max": 2, "ready": True}, start_seat=0)
    clock = turn_clock(ToyGame, rec, log((1, "ready", 1030.0), (0, "ready", 1300.0), (0, "take 1", 1400.0)))
    assert turns(clock) == [("u2", 30.0), ("u1", 400.0)]


def test_turn_time_undone_moves_leave_no_turn_the_turn_lasts_until_the_move_that_stood():
    clock = turn_clock(ToyGame, record(), log((0, "take 1", 1060.0), (1, "take 1", 1100.0),
                                              (1, "#undo 1", 1200.0), (1, "take 2", 1500.0)))
    assert turns(clock) == [("u1", 60.0), ("u2", 440.0)]


def test_turn_time_is_the_person_who_held_the_seat_and_never_a_computer_players():
    rec = record(options={"pile": 9, "max": 2, "host": {"replaced": [
        {"seat": 1, "user": "u2", "by": "bot:heuristic:101", "version": 2, "why": "deadline"}]}},
        seats=[Seat("u1", "alice"), Seat("bot:heuristic:101", "bob")])
    clock = turn_clock(ToyGame, rec, log((0, "take 1", 1010.0), (1, "take 1", 1090.0),
                                         (0, "take 1", 1100.0), (1, "take 1", 1101.0)))
    assert turns(clock) == [("u1", 10.0), ("u2", 80.0), ("u1", 10.0)]  # bob's seat after the take-over: a computer


def test_turn_time_of_a_game_without_a_start_time_leaves_out_its_first_turns():
    clock = turn_clock(ToyGame, record(started=None), log((0, "take 1", 1060.0), (1, "take 1", 1090.0)))
    assert turns(clock) == [("u2", 30.0)]


def test_turn_time_summary_median_and_longest():
    assert TurnSummary.of([]) is None
    assert TurnSummary.of([60.0, 30.0, 3600.0, 90.0]) == TurnSummary(4, 75.0, 3600.0)


@pytest.mark.parametrize("seconds, text", [
    (0, "0 seconds"), (1, "1 second"), (45, "45 seconds"), (60, "1 minute"), (61, "1 minute 1 second"),
    (3 * 3600 + 12 * 60 + 5, "3 hours 12 minutes"), (86400 + 3600, "1 day 1 hour"), (2 * 86400 + 5, "2 days"),
])
def test_turn_time_durations_for_people(seconds, text):
    assert duration_text(seconds) == text


@pytest.mark.parametrize("lang", ["pl", "fi", "cs", "es", "de"])
def test_turn_time_durations_are_translated(lang):
    with use_language(lang):
        text = duration_text(3 * 3600 + 12 * 60)
    assert text != "3 hours 12 minutes" and "3" in text and "12" in text


def test_turn_time_of_a_log_that_does_not_replay_times_the_live_seats_from_the_others_last_move():
    """/table status and a deferred ping must not fail when the log does not replay (a table whose
    state was changed by hand): the seats to act now are timed from another seat's last logged move
    (or the start); the records (no live seats given) still see the engine's error."""
    from engine.core import EngineError

    bad = log((0, "take 1", 1060.0), (1, "take 7", 1100.0))  # take 7 breaks the toy's max of 2
    clock = turn_clock(ToyGame, record(), bad, now_acting=[0])
    assert clock.waiting == {0: 1100.0} and clock.turns == []
    assert turn_clock(ToyGame, record(), bad, now_acting=[1]).waiting == {1: 1060.0}
    assert turn_clock(ToyGame, record(), bad[1:], now_acting=[1]).waiting == {1: 1000.0}  # the start
    with pytest.raises(EngineError):
        turn_clock(ToyGame, record(), bad)
