"""The fake gateway's login limits and RESUME replay (issue 24; tests/fakediscord/gateway_rules.py).

Each rule cites /work/shared/discord/docs: gateway.mdx ("Identifying", "Resuming", "Sharding",
"Get Gateway Bot", "Session Start Limit Object") and opcodes-and-status-codes.mdx ("Gateway
Opcodes", "Gateway Close Event Codes").
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
from aiohttp import ClientSession

from tests.fakediscord import FakeDiscord


async def identify(http: ClientSession, fake: FakeDiscord, shard: list[int], token: str | None = None
                   ) -> tuple[Any, dict[str, Any] | None]:
    """Open a gateway connection and IDENTIFY; returns the socket and the first answer (None: closed)."""
    ws = await http.ws_connect(fake.gateway_url)
    assert (await ws.receive_json())["op"] == 10  # Hello
    await ws.send_json({"op": 2, "d": {"token": token or fake.token, "intents": 1, "shard": shard,
                                       "properties": {}}})
    msg = await ws.receive()
    return ws, (msg.json() if msg.type.name == "TEXT" else None)


async def gateway_bot(http: ClientSession, fake: FakeDiscord) -> dict[str, Any]:
    async with http.get(f"{fake.url}/api/v10/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}) as r:
        assert r.status == 200
        return await r.json()


async def test_identify_over_max_concurrency_gets_op9_invalid_session():
    """gateway.mdx, "Identifying": over max_concurrency Discord answers op 9 Invalid Session;
    "Max Concurrency": rate_limit_key = shard_id % max_concurrency, one IDENTIFY per key per 5 s."""
    now = [100.0]
    async with FakeDiscord(shard_count=4, lifetime=30, max_concurrency=2, identify_window=5.0,
                           clock=lambda: now[0]) as fake, ClientSession() as http:
        assert (await gateway_bot(http, fake))["session_start_limit"]["max_concurrency"] == 2
        ws0, first = await identify(http, fake, [0, 4])
        assert first is not None and first["t"] == "READY"
        ws1, first = await identify(http, fake, [1, 4])  # key 1: its own bucket
        assert first is not None and first["t"] == "READY"
        ws2, first = await identify(http, fake, [2, 4])  # key 0 again within 5 s
        assert first == {"op": 9, "d": False}
        now[0] += 5.0
        ws3, first = await identify(http, fake, [2, 4])  # the next bucket window
        assert first is not None and first["t"] == "READY"
        assert fake.gateway_rules.op9_count() == 1
        for ws in (ws0, ws1, ws2, ws3):
            await ws.close()


async def test_gateway_bot_counts_session_starts_and_the_limit_resets_the_token_4004():
    """gateway.mdx, "Session Start Limit Object": total, remaining, reset_after, max_concurrency;
    "Identifying" (warning): at the limit all active sessions are terminated and the token reset
    (opcodes-and-status-codes.mdx: 4004 Authentication failed)."""
    async with FakeDiscord(lifetime=30, session_starts=2) as fake, ClientSession() as http:
        limit = (await gateway_bot(http, fake))["session_start_limit"]
        assert limit["total"] == 2 and limit["remaining"] == 2 and limit["max_concurrency"] == 1
        assert 0 < limit["reset_after"] <= 24 * 3600 * 1000
        ws0, first = await identify(http, fake, [0, 1])
        assert first is not None and first["t"] == "READY"
        assert (await gateway_bot(http, fake))["session_start_limit"]["remaining"] == 1
        ws1, first = await identify(http, fake, [0, 1])
        assert first is not None and first["t"] == "READY"
        assert (await gateway_bot(http, fake))["session_start_limit"]["remaining"] == 0
        ws2, first = await identify(http, fake, [0, 1])
        assert first is None and ws2.close_code == 4004
        for ws in (ws0, ws1):  # the live sessions were terminated too
            while (await ws.receive()).type.name not in ("CLOSE", "CLOSED", "CLOSING"):
                pass
            assert ws.close_code == 4004
        ws3, first = await identify(http, fake, [0, 1])  # the token stays reset
        assert first is None and ws3.close_code == 4004
        for ws in (ws0, ws1, ws2, ws3):
            await ws.close()


async def test_a_bad_token_at_identify_is_closed_4004():
    """opcodes-and-status-codes.mdx, "Gateway Close Event Codes": 4004 Authentication failed."""
    async with FakeDiscord(lifetime=30) as fake, ClientSession() as http:
        ws, first = await identify(http, fake, [0, 1], token="not-the-token")
        assert first is None and ws.close_code == 4004
        await ws.close()


async def test_a_shard_with_too_many_guilds_is_closed_4011_and_discord_py_stops():
    """gateway.mdx, "Sharding": a shard supports at most so many guilds; opcodes-and-status-codes.mdx:
    4011 Sharding required, not to be reconnected (discord.py raises ConnectionClosed)."""
    async with FakeDiscord(lifetime=30, max_guilds_per_shard=2) as fake, ClientSession() as http:
        fake.add_guild("Second", ["hall"])
        ws, first = await identify(http, fake, [0, 1])
        assert first is not None and first["t"] == "READY"  # two guilds: allowed
        await ws.close()
        fake.add_guild("Third", ["barn"])
        ws, first = await identify(http, fake, [0, 1])
        assert first is None and ws.close_code == 4011
        await ws.close()
        client = discord.Client(intents=discord.Intents.none())
        with pytest.raises(discord.ConnectionClosed) as closed:
            await asyncio.wait_for(client.start(fake.token), 10)
        assert closed.value.code == 4011
        await client.close()


class Watcher(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.events: list[str] = []

    async def on_socket_event_type(self, event: str) -> None:
        self.events.append(event)


async def _until(pred, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not pred():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(wait(), timeout)


async def test_resume_after_a_drop_replays_the_missed_events_then_resumed():
    """gateway.mdx, "Resuming": after a disconnect the app RESUMEs with the last seq it received;
    "the Gateway will send the missed events in order, finishing with a Resumed event"."""
    async with FakeDiscord(lifetime=30) as fake:
        bot = Watcher()
        await fake.start_bot(bot)
        identified = len(fake.identify_payloads)
        general = fake.channels["general"]
        renamed = [{**general.payload(), "name": f"general-{i}"} for i in (1, 2)]
        await fake.gateway_rules.drop(0, missed=[("CHANNEL_UPDATE", d) for d in renamed])
        await _until(lambda: "RESUMED" in bot.events)
        assert len(fake.identify_payloads) == identified  # a RESUME, no new IDENTIFY
        after = bot.events[bot.events.index("READY"):]
        assert after[-3:] == ["CHANNEL_UPDATE", "CHANNEL_UPDATE", "RESUMED"]
        assert [e for e, _s in fake.gateway_rules.replayed] == ["CHANNEL_UPDATE", "CHANNEL_UPDATE"]
        assert bot.get_channel(general.id).name == "general-2"  # applied in order
        await fake.stop_bot(bot)


async def test_op7_reconnect_makes_discord_py_resume_and_events_meanwhile_are_replayed():
    """gateway.mdx, "Resuming", case 1: op 7 Reconnect; events for the shard while it is away are
    kept for its RESUME (opcodes-and-status-codes.mdx, "Gateway Opcodes": 7 Reconnect)."""
    async with FakeDiscord(lifetime=30) as fake:
        bot = Watcher()
        await fake.start_bot(bot)
        general = fake.channels["general"]
        await fake.gateway_rules.reconnect(0)
        # the session is away until discord.py RESUMEs: an event now waits for it
        await fake.dispatch("CHANNEL_UPDATE", {**general.payload(), "name": "while-away"}, guild_id=general.guild_id)
        await _until(lambda: "RESUMED" in bot.events)
        await _until(lambda: bot.get_channel(general.id).name == "while-away")
        resumes = [m for s in fake._sessions for m in s.received if m.get("op") == 6]
        assert resumes, "discord.py RESUMEd"
        assert [e for e, _s in fake.gateway_rules.replayed] == ["CHANNEL_UPDATE"]  # kept, then sent again
        assert bot.events[-2:] == ["CHANNEL_UPDATE", "RESUMED"]
        await fake.stop_bot(bot)
