"""The fake Discord's weather (issue 29; tests/fakediscord/weather.py): latency, 5xx answers and
gateway reconnects from a seeded RNG, each as /work/shared/discord/docs says (gateway.mdx
"Resuming" / "Preparing to Resume", opcodes-and-status-codes.mdx "Gateway Opcodes" and "HTTP
Response Codes", receiving-and-responding.mdx "Interaction Callback")."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from tests.discord.test_fake_gateway import Watcher, _until
from tests.fakediscord import FakeDiscord, Weather
from tests.fakediscord.weather import route_of

CALM = {"latency": (0.0, 0.0), "server_errors": 0.0, "reconnects": 0.0, "invalid_sessions": 0.0}


def test_the_same_seed_draws_the_same_weather_whatever_the_order_of_routes():
    """A run can be replayed: each draw depends on the seed, the route and how often it was asked,
    not on how requests of other routes interleaved."""
    a, b = Weather(seed=4, server_errors=0.3), Weather(seed=4, server_errors=0.3)
    paths = [("POST", f"/channels/{10**17 + i}/messages") for i in range(30)]
    edits = [("PATCH", f"/channels/1{i:017d}/messages/2{i:017d}") for i in range(30)]
    first = [a.rest(m, p) for m, p in paths] + [a.rest(m, p) for m, p in edits]
    second_edits = [b.rest(m, p) for m, p in edits]
    second = [b.rest(m, p) for m, p in paths] + second_edits
    assert first == second
    assert Weather(seed=5, server_errors=0.3).rest(*paths[0]) != first[0] or \
        [Weather(seed=5, server_errors=0.3).rest(m, p) for m, p in paths] != first[:30]
    assert {s for _u, _d, s in first} >= {None, 500} and a.report.figures() == b.report.figures()
    assert route_of("POST", "/interactions/123456789012345678/fake-interaction-1234567-x/callback") == \
        "POST /interactions/*/*/callback"


def test_bad_weather_settings_are_refused_with_a_clear_error():
    for bad in ({"latency": (0.3, 0.1)}, {"server_errors": 1.5}, {"reconnects": 0.7, "invalid_sessions": 0.7},
                {"statuses": (404,)}):
        with pytest.raises(ValueError):
            Weather(**bad)


async def test_latency_past_three_seconds_gets_10062_unknown_interaction():
    """receiving-and-responding.mdx "Interaction Callback": an initial response must reach Discord
    within 3 s of the interaction; a round trip that brings it later finds the token dead."""
    weather = Weather(seed=1, **{**CALM, "latency": (7.0, 7.0)})  # 3.5 s on the way there
    async with FakeDiscord(lifetime=60) as fake:
        bot = discord.Client(intents=discord.Intents(guilds=True))
        answered: list[BaseException | None] = []

        @bot.event
        async def on_interaction(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("hi")
                answered.append(None)
            except discord.HTTPException as e:
                answered.append(e)

        await fake.start_bot(bot)
        fake.weather = weather  # the bot is in; from now on each round trip takes 7 s
        fake.global_commands.append({"id": "1", "name": "hello", "type": 1, "description": "x",
                                     "application_id": str(fake.application_id), "version": "1"})
        with pytest.raises(Exception):  # noqa: B017 -- the fake says the interaction was not answered
            await fake.slash("alice", "hello", timeout=20)
        await _until(lambda: answered, 20)
        [error] = answered
        assert isinstance(error, discord.NotFound) and error.code == 10062
        assert weather.report.latency_slept >= 7.0
        fake.weather = None
        await fake.stop_bot(bot)


async def test_500_and_502_are_retried_by_discord_py_and_503_reaches_the_bot():
    """opcodes-and-status-codes.mdx "HTTP Response Codes" (502 GATEWAY UNAVAILABLE, 5xx): the fake
    answers without doing anything; discord.py's http.py retries 500/502 itself, not 503."""
    weather = Weather(seed=2, **{**CALM, "server_errors": 1.0, "statuses": (502,)})
    async with FakeDiscord(lifetime=60) as fake:
        bot = Watcher()
        await fake.start_bot(bot)
        fake.weather = weather  # from now on every call fails once the bot is in
        channel = bot.get_channel(fake.channels["general"].id)

        async def clear_after_one() -> None:  # one 502, then fair weather
            await _until(lambda: weather.report.server_errors[502] == 1)
            weather.server_errors = 0.0

        clearing = asyncio.create_task(clear_after_one())
        started = time.monotonic()
        sent = await channel.send("hello")
        await clearing
        assert time.monotonic() - started >= 1  # discord.py waited 1 + 2·tries s, then asked again
        assert [m.content for m in fake.messages("general")] == ["hello"] and sent.content == "hello"  # once
        assert [r.status for r in fake.find_requests("POST", r"/messages$")] == [502, 200]
        weather.server_errors, weather.statuses = 1.0, (503,)
        with pytest.raises(discord.DiscordServerError) as failed:
            await channel.send("hello")
        assert failed.value.status == 503 and weather.report.server_errors[503] == 1  # not retried
        fake.weather = None
        await fake.stop_bot(bot)


async def test_op7_then_resume_replays_and_op9_false_makes_the_bot_identify_again():
    """gateway.mdx "Resuming" case 1 (op 7: RESUME, missed events replayed) and "Preparing to
    Resume" (op 9 with d=false: disconnect, IDENTIFY, a new READY; the dead session's events are lost)."""
    async with FakeDiscord(lifetime=60, weather=Weather(seed=3, **CALM)) as fake:
        bot = Watcher()
        await fake.start_bot(bot)
        general = fake.channels["general"]
        old_session = bot.ws.session_id
        fake.weather.reconnects = 1.0  # after the next DISPATCH: op 7
        await fake.dispatch("CHANNEL_UPDATE", {**general.payload(), "name": "first"}, guild_id=general.guild_id)
        fake.weather.reconnects = 0.0
        await _until(lambda: fake.weather.report.reconnects == 1)  # op 7 sent: the next event waits
        await fake.dispatch("CHANNEL_UPDATE", {**general.payload(), "name": "second"}, guild_id=general.guild_id)
        await _until(lambda: "RESUMED" in bot.events and bot.get_channel(general.id).name == "second")
        assert fake.weather.report.reconnects == 1 and bot.ws.session_id == old_session
        assert [e for e, _s in fake.gateway_rules.replayed] == ["CHANNEL_UPDATE"]

        readies = bot.events.count("READY")
        await fake.gateway_rules.invalidate(0)
        fake.weather.report.invalid_sessions += 1
        await fake.dispatch("CHANNEL_UPDATE", {**general.payload(), "name": "lost"}, guild_id=general.guild_id)
        await _until(lambda: bot.events.count("READY") == readies + 1)
        assert fake.weather.report.events_lost == 1
        assert bot.ws.session_id != old_session  # a new session, by IDENTIFY
        assert fake.identify_payloads[-1]["token"] == fake.token
        await _until(lambda: bot.is_ready())
        # the new session's GUILD_CREATE tells the fake's own state again ("lost" never arrived)
        assert bot.get_channel(general.id).name == general.name
        await fake.stop_bot(bot)
