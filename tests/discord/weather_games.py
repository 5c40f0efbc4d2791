"""Whole games in the fake Discord's weather (issue 29): shared by tests/discord/test_weather_games.py
and bench/weather.py.

A table of people and computer players plays to the end through discord.py's own client while
every REST call takes a round trip, a share of them fails with a 5xx, and the gateway now and
then asks the bot to reconnect (op 7) or drops its session (op 9, d=false): ``weather_game``
plays it the way tests/discord/test_slow_games.py's ``Driver`` does (the live message's buttons
and selects, "Make your choice", confirmations, ``/move`` when no control offers the decision) and
returns what was met and whether anything went wrong.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.storage import effective_actions
from tests.discord.test_discord_e2e import Host
from tests.discord.test_slow_games import Driver
from tests.fakediscord import FakeDiscord, Weather

# what the slow test plays: (game, people, computer players, seed of the table and of the weather)
GAMES = {
    "vikings": (("alice",), 1, 3),
    "brian-boru": (("alice",), 2, 8),
}


def weather_for(seed: int) -> Weather:
    """The weather of the slow test and the bench: 50–250 ms per REST call, 3 % of them a 5xx
    (500/502/503), after 3 % of DISPATCHes an op 7 and after 2 % an op 9 (d=false)."""
    return Weather(seed=seed, latency=(0.05, 0.25), server_errors=0.03, statuses=(500, 502, 503),
                   reconnects=0.03, invalid_sessions=0.02)


async def assert_nothing_lost(driver: Driver, match_id: int) -> None:
    """test_slow_games' check, where a computer player may decide at the same time as the person
    (a simultaneous choice; the weather shifts who is first): the game replayed from the database
    equals the live one, and every move a person was answered for is that seat's first logged
    action after the version they saw."""
    svc = driver.svc
    replayed = await svc.replay(match_id)
    record = await svc.storage.get_match(match_id)
    assert record is not None and record.status == "finished", record
    assert driver.last_game is not None and replayed.to_json() == driver.last_game.to_json() == record.snapshot
    logged = await svc.storage.actions(match_id)
    assert [a.seq for a in logged] == list(range(1, len(logged) + 1)) and effective_actions(logged) == logged
    for seat, text, before, after in driver.acknowledged:
        made = [a.action for a in logged if before < a.seq <= after and a.seat == seat]
        assert made and (text.startswith("trip ") or made[0] == text), (seat, text, made)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q) - 1]


def served(fd: FakeDiscord, code: int) -> list[str]:
    """Requests the fake answered with Discord's error ``code`` (40060 a second answer, 10062 late)."""
    return [f"{r.method} {r.path}" for r in fd.requests
            if isinstance(r.response, dict) and r.response.get("code") == code]


async def weather_game(tmp_path: Path, game: str, *, weather: Weather | None = None,
                       people: tuple[str, ...] | None = None, computers: int | None = None,
                       seed: int | None = None, prepare: Callable[[FakeDiscord], None] | None = None,
                       bot_retry: float = 0.5) -> dict[str, Any]:
    """Play one whole game of ``game`` in ``weather``; returns the figures (also written to
    ``tmp_path / f"weather-{game}.json"``; ``figures["problems"]``: what went wrong at the end).
    ``prepare(fd)`` runs once the fake is up (e.g. ``fd.fail_next``); ``bot_retry``: the bot's first
    wait before it posts a computer player's refused move again (short: the game goes on soon)."""
    default_people, default_computers, default_seed = GAMES[game]
    people = default_people if people is None else people
    computers = default_computers if computers is None else computers
    seed = default_seed if seed is None else seed
    weather = weather_for(seed) if weather is None else weather
    started = time.monotonic()
    async with FakeDiscord(strict_answer_order=False, lifetime=240, weather=weather) as fd:
        host = Host(fd, tmp_path / f"{game}-{seed}.db", seed=seed)
        if prepare is not None:
            prepare(fd)
        host.bot_kw = {"bot_pause": 0.0, "bot_retry": bot_retry}
        await host.start()
        try:
            for user in people:
                await fd.slash(user, "join", {"game": game})
            for _ in range(computers):
                await fd.slash(people[0], "table addbot", {"level": "random"})
            await fd.slash(people[0], "start", {"game": game})
            [thread] = fd.threads_of("general")
            assert host.svc is not None
            table = await host.svc.table(str(thread.id))
            assert table is not None
            match_id = table.record.id
            driver = Driver(fd, host, random.Random(seed), thread)  # type: ignore[arg-type]  # Host, not SlowHost: the same calls
            await host.bot.bots_idle(retries=True)  # computer players deciding at the start first
            steps = 0
            while True:
                acting = await driver.persons_to_act()
                if not acting:
                    assert host.bot is not None
                    await host.bot.bots_idle(retries=True)
                    acting = await driver.persons_to_act()
                    if not acting:
                        table = await host.svc.table(str(thread.id))
                        assert table is None or table.game is None or table.game.is_over, (
                            "nobody to act and the game is not over",
                            [m.content[-200:] for m in fd.messages(thread)[-3:]])
                        break
                driver.look(acting)
                steps += 1
                assert steps < 1500
                seat, name = acting[0]
                await driver.move(seat, name)
                assert host.bot is not None
                await host.bot.bots_idle(retries=True)
            problems: list[str] = []
            try:
                await assert_nothing_lost(driver, match_id)
            except AssertionError as e:
                problems.append(f"lost: {e}")
            result = fd.messages("general")[-1]
            if f"<#{thread.id}>" not in result.content or "Game over" not in result.content:
                problems.append(f"no result line in the channel: {result.content[:200]}")
            answers = sorted(i.response_time for i in fd.interactions if i.response_time is not None)
            figures: dict[str, Any] = {
                "game": game, "people": len(people), "computers": computers, "seed": seed,
                "person_moves": driver.figures.moves, "typed_moves": driver.figures.slash,
                "interactions": len(fd.interactions),
                **weather.report.figures(),
                "click_to_answer_p50": round(percentile(answers, 50), 3),
                "click_to_answer_p95": round(percentile(answers, 95), 3),
                "click_to_answer_max": round(answers[-1], 3) if answers else 0.0,
                "unnotified": driver.figures.unnotified,
                "answered_twice_40060": served(fd, 40060),
                "answered_late_10062": served(fd, 10062),
                "late_answers": len(fd.late_answers),
                "rate_limited": len(fd.rate_limited),
                "identifies": len(fd.identify_payloads),
                "server_errors_on": [f"{r.status} {r.method} {r.path}" for r in fd.requests if r.status >= 500],
                "problems": problems,
                "internal_errors": fd.internal_errors, "unhandled": [f"{r.method} {r.path}" for r in fd.unhandled],
            }
        finally:
            await host.stop()
    figures["wall_seconds"] = round(time.monotonic() - started, 1)
    (tmp_path / f"weather-{game}.json").write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return figures
