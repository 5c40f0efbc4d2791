"""Whole games in the fake Discord's weather (issue 29): the figures of tests/discord/test_weather_games.py.

    python bench/weather.py [GAME ...] [--seed N] [--calm]

Plays a whole game of each GAME (default: vikings and brian-boru, the slow test's tables: one
person and computer players) through discord.py's own client against the fake Discord with the
test's weather (tests/discord/weather_games.py: 50–250 ms per REST call, 3 % of calls a 5xx, op 7
after 3 % and op 9 d=false after 2 % of DISPATCHes), and prints each game's figures as JSON: REST
calls, latency slept, 5xx served by status, op 7 / op 9 sent, clicks delayed by a reconnect, the
p50/p95 time from a click to its answer, and the wall time. ``--seed`` changes the weather and
the table; ``--calm`` plays the same games without weather, interleaved (weather, calm, weather,
calm …), for the ratio of wall times (never compare absolute times across runs on a shared machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.discord.weather_games import GAMES, weather_for, weather_game  # noqa: E402
from tests.fakediscord import Weather  # noqa: E402


async def run(games: list[str], seed: int | None, calm: bool) -> list[dict[str, object]]:
    out = []
    for game in games:
        plays = [("weather", None)] + ([("calm", Weather.calm())] if calm else [])
        for label, weather in plays:
            with tempfile.TemporaryDirectory(prefix="meadhall-weather-") as tmp:
                chosen = weather if weather is not None else (weather_for(seed) if seed is not None else None)
                figures = await weather_game(Path(tmp), game, weather=chosen, seed=seed)
            figures["weather"] = label
            print(json.dumps(figures), flush=True)
            out.append(figures)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", metavar="GAME", help=f"of {', '.join(GAMES)} (default: both)")
    ap.add_argument("--seed", type=int, default=None, help="the weather's and the table's seed (default: the test's)")
    ap.add_argument("--calm", action="store_true", help="also play each game without weather, for the ratio")
    args = ap.parse_args()
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        ap.error(f"unknown game(s) {', '.join(unknown)}: choose from {', '.join(GAMES)}")
    args.games = args.games or list(GAMES)
    results = asyncio.run(run(args.games, args.seed, args.calm))
    if args.calm:
        for game in args.games:
            [bad] = [r for r in results if r["game"] == game and r["weather"] == "weather"]
            [good] = [r for r in results if r["game"] == game and r["weather"] == "calm"]
            print(f"{game}: wall {bad['wall_seconds']} s in weather vs {good['wall_seconds']} s calm "
                  f"(x{float(bad['wall_seconds']) / max(float(good['wall_seconds']), 0.1):.2f})")


if __name__ == "__main__":
    main()
