"""A whole game of each kind in the fake Discord's weather (issue 29; tests/fakediscord/weather.py):
latency on every REST call, 5xx answers, op 7 Reconnect and op 9 Invalid Session (d=false).

Asserted: the game finishes; nothing is lost (the game replayed from the database equals the live
one, every move a person was answered for is logged, in order); every turn of a person is notified
by a new message that pings them; no interaction answered twice (40060) or too late (10062); the
weather really struck (5xx served, op 7 and op 9 sent). The figures are printed and written to
``tmp_path/weather-<game>.json``; ``python -m bench.weather`` plays the same games.
"""

from __future__ import annotations

import json

import pytest

from tests.discord.weather_games import weather_game


@pytest.mark.slow
@pytest.mark.parametrize("game", ["vikings", "brian-boru"])
async def test_a_whole_game_in_bad_weather_loses_nothing_and_notifies_every_turn(tmp_path, game):
    figures = await weather_game(tmp_path, game)
    print(f"weather {game}: {json.dumps(figures)}")
    assert figures["problems"] == [], figures
    assert figures["answered_twice_40060"] == [] and figures["answered_late_10062"] == [], figures
    assert figures["unnotified"] == [], figures
    assert figures["internal_errors"] == [] and figures["unhandled"] == [], figures
    assert figures["server_errors_total"] >= 1 and figures["reconnects"] >= 1, figures
    assert figures["invalid_sessions"] >= 1 and figures["identifies"] >= 2, figures
    assert figures["person_moves"] >= 10, figures
