"""A passing refusal of a computer player's post (issue 29, found by the weather games of
tests/discord/test_weather_games.py): Discord's 503 (or a 5xx / 429 still there after discord.py's own
retries) is "Wait a bit and retry" (opcodes-and-status-codes.mdx, "HTTP Response Codes"), not a
refusal for good. One 503 on the post that handed the turn back to the only person at the table
left the game stuck: the computer players waited for a person to act, and the person, never
pinged, waited for them. Now the refused post is made again after ``bot_retry`` seconds (doubling,
``BOT_RETRIES`` times), then the computer players go on; a refusal for good (403, 404: issue 12,
tests/discord/test_discord_refusals.py) still waits for a person.
"""

from __future__ import annotations

import logging

import pytest

from bot.discord.app import BOT_RETRIES
from tests.discord.test_discord_e2e import Host, press
from tests.discord.weather_games import weather_game
from tests.fakediscord import FakeDiscord, Message, Weather

CHANNEL_POSTS = r"^/channels/\d+/messages$"


def table_key(fd: FakeDiscord) -> str:
    """The game's thread: the table's key (issue 13)."""
    [thread] = fd.threads_of("general")
    return str(thread.id)


def live(fd: FakeDiscord) -> Message:
    """The newest message with usable controls (after a refused answer the clicked one keeps its own)."""
    return [m for m in fd.messages() if any(not c.get("disabled") and "custom_id" in c
                                            for row in m.components for c in row.get("components", []))][-1]


async def refuse_the_hand_back(fd: FakeDiscord, host: Host, caplog, times: int) -> int:
    """Alice plays against a computer player until the post of one of its moves gets a 503
    (``times`` in a row); returns the id of the newest message before that post."""
    await fd.slash("alice", "join", {"game": "vikings"})
    await fd.slash("alice", "table addbot", {"level": "random"})
    await fd.slash("alice", "start")
    assert host.bot is not None
    await host.bot.bots_idle(retries=True)
    for _step in range(100):
        msg = live(fd)
        assert f"<@{fd.users['alice'].id}>: " in msg.content, msg.content
        newest = fd.messages()[-1].id
        fd.fail_next("POST", CHANNEL_POSTS, 503, message="503: Service Unavailable", times=times)
        kind, cid, value = next(offered_safely(msg))
        await press(fd, "alice", kind, cid, value, msg)
        # alice's own answer went through the interaction: a channel post now is the computer player's
        await host.bot.bots_idle(retries=times <= BOT_RETRIES)
        if any("a computer player's move" in r.getMessage() for r in caplog.records):
            return newest
        fd._injected.clear()  # not used by this move (an edit of the live message): none for the next
    raise AssertionError("no computer player's post was refused")


async def test_a_503_on_a_computer_players_post_is_posted_again_and_the_person_is_pinged(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot.discord.refusals")
    async with FakeDiscord(lifetime=120) as fd:
        host = Host(fd, tmp_path / "passing.db")
        host.bot_kw = {"bot_pause": 0.0, "bot_retry": 0.2}
        await host.start()
        try:
            before = await refuse_the_hand_back(fd, host, caplog, times=1)
            posts = [r.status for r in fd.find_requests("POST", CHANNEL_POSTS) if r.status == 503]
            assert posts == [503]  # one 503, which discord.py does not retry
            assert host.bot is not None and not host.bot.watch.halted(table_key(fd))
            fresh = [m for m in fd.messages() if m.id > before]
            alice = fd.users["alice"].id
            assert any(alice in m.notified for m in fresh), [m.content for m in fresh]  # a new message pings her
            assert f"<@{alice}>: " in live(fd).content  # and her turn's controls are there
            assert any("(computer, random)" in m.content for m in fresh)  # the refused move is told
        finally:
            await host.stop()


async def test_an_outage_longer_than_the_retries_waits_for_a_person_as_before(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="bot.discord.refusals")
    async with FakeDiscord(lifetime=120) as fd:
        host = Host(fd, tmp_path / "outage.db")
        host.bot_kw = {"bot_pause": 0.0, "bot_retry": 0.01}
        await host.start()
        try:
            await refuse_the_hand_back(fd, host, caplog, times=100)
            assert host.bot is not None
            await host.bot.bots_idle(retries=True)
            refused = [r for r in fd.find_requests("POST", CHANNEL_POSTS) if r.status == 503]
            assert len(refused) == 1 + BOT_RETRIES  # the post, then BOT_RETRIES tries again
            assert host.bot.watch.halted(table_key(fd))  # then they wait for a person (issue 12)
            r = await fd.slash("alice", "table status", channel=fd.threads_of("general")[0])
            assert "Earlier, Discord refused to post a computer player's move here" in r.ephemeral_messages[0].content
        finally:
            fd._injected.clear()
            await host.stop()


def game_over(body) -> bool:
    return isinstance(body, dict) and "Game over" in (body.get("content") or "")


@pytest.mark.slow
async def test_a_503_on_a_computer_players_last_move_posts_it_again_and_the_result_line(tmp_path):
    """The game is over, so the table is no longer open: the refused last post is still made
    again (seed 12: the computer player makes the last move), and the result line follows."""
    refused: list[str] = []

    def prepare(fd: FakeDiscord) -> None:
        fd.fail_next("POST", CHANNEL_POSTS, 503, message="503: Service Unavailable", when=game_over)
        refused.append("armed")

    figures = await weather_game(tmp_path, "vikings", weather=Weather.calm(), seed=12, prepare=prepare,
                                 bot_retry=0.1)
    assert figures["server_errors_on"] and figures["server_errors_on"][0].startswith("503 POST /channels/"), figures
    assert figures["problems"] == [] and figures["unnotified"] == [], figures


async def test_a_503_on_a_persons_move_post_posts_it_again_and_the_computer_player_goes_on(
        tmp_path, caplog):
    """The channel post of a person's move got a 503 (not retried by discord.py's HTTPClient): they
    are told privately that the move is saved (issue 12); the move's post is made again later and
    the computer players go on: the person is not left waiting for a computer player that waits
    for them."""
    caplog.set_level(logging.INFO, logger="bot.discord.refusals")
    async with FakeDiscord(lifetime=120, strict_answer_order=False) as fd:
        host = Host(fd, tmp_path / "person.db")
        host.bot_kw = {"bot_pause": 0.0, "bot_retry": 5.0}  # a busy machine: the check comes first
        await host.start()
        try:
            await fd.slash("alice", "join", {"game": "vikings"})
            await fd.slash("alice", "table addbot", {"level": "random"})
            await fd.slash("alice", "start")
            assert host.bot is not None and host.svc is not None
            host.bot.defer_after = 0  # every answer is deferred, then its move posted in the channel
            await host.bot.bots_idle(retries=True)
            for _step in range(100):
                msg = live(fd)
                # (a 503 on the callback itself is retried by discord.py's webhook adapter, like every 5xx)
                fd.fail_next("POST", CHANNEL_POSTS, 503, message="503: Service Unavailable")
                kind, cid, value = next(offered_safely(msg))
                r = await press(fd, "alice", kind, cid, value, msg)
                fd._injected.clear()
                if host.bot.watch.halted(table_key(fd)):
                    break  # alice's move is committed, its post refused: the computer players wait
                await host.bot.bots_idle(retries=True)
            else:
                raise AssertionError("no person's move was refused")
            assert any("Your move was made and is saved" in m.content for m in r.ephemeral_messages), r.text
            refused_at = max(q.time for q in fd.requests if q.status == 503)
            await host.bot.bots_idle(retries=True)  # the post again after 5 s, then the computer player
            assert not host.bot.watch.halted(table_key(fd))
            table = await host.svc.table(table_key(fd))
            assert table is not None and table.game is not None and table.game.acting_seats() == [0]  # alice's turn
            assert f"<@{fd.users['alice'].id}>: " in live(fd).content
            assert [q for q in fd.requests if q.time > refused_at and q.method == "POST" and q.status == 200
                    and q.path.startswith("/channels/")]  # the move posted again through the channel
        finally:
            await host.stop()


def offered_safely(msg: Message):
    """The message's move buttons and selects (not "Make your choice", not a link)."""
    for row in msg.components:
        for comp in row.get("components", []):
            if comp["type"] == 2 and ":b:" in comp.get("custom_id", ""):
                yield "button", comp["custom_id"], comp["custom_id"].split(":b:", 1)[1]
            elif comp["type"] == 3:
                yield from (("select", comp["custom_id"], o["value"]) for o in comp["options"])


def a_ping(body) -> bool:
    """A turn's ping (issue 24): prompt lines and a link to the live message, no controls."""
    content = (body.get("content") or "") if isinstance(body, dict) else ""
    return "/channels/" in content and "<@" in content and not body.get("components")


@pytest.mark.slow
async def test_a_503_on_a_turns_ping_sends_it_again_and_the_turn_is_notified(tmp_path):
    """Brian Boru's tricks are one message, edited: a person whose turn comes in an edit is
    notified by a ping alone (issue 24). A 503 on it (seen in the weather games) left the turn
    silent; the ping is sent again."""
    figures = await weather_game(
        tmp_path, "brian-boru", weather=Weather.calm(), seed=8,
        prepare=lambda fd: fd.fail_next("POST", CHANNEL_POSTS, 503, message="503: Service Unavailable",
                                        when=a_ping, times=2))
    assert [s.split()[0] for s in figures["server_errors_on"]] == ["503", "503"], figures  # both used
    assert figures["problems"] == [] and figures["unnotified"] == [], figures
