"""End to end through the real discord.py client and the fake Discord (tests/fakediscord).

Two users play a whole 2-player Vikings game in a channel, the way people would: slash
commands (with the autocomplete's choices) and clicks on the buttons and selects the bot
posts. Every move's public message must carry the board PNG and ping exactly the player who
must act next; refusals are ephemeral; the bot is restarted mid-game on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.discord.publishing.recap import thread_closed
from bot.games import GameRegistry
from bot.games.registry import default_registry
from bot.games.vikings import VikingsAdapter
from bot.host.service import HostService
from bot.storage import Storage
from tests.discord.turn_notifications import TurnWatch, discord_figures, turn_messages
from tests.fakediscord import FakeDiscord, InteractionResult, Message

SEED = 7
# issue 13: buy, place, sail and exchange keep their commands; every other move is /move
COMMAND_OF = {verb: word for word, verb in VikingsAdapter.verbs.items() if word in ("buy", "place", "sail", "exchange")}


class Host:
    """The bot over a service over one database file; ``restart`` is a new process on it."""

    def __init__(self, fd: FakeDiscord, path: Path, *, seed: int = SEED, registry: GameRegistry | None = None,
                 **service_kw) -> None:
        self.fd, self.path, self.seed, self.kw = fd, path, seed, service_kw
        self.registry = registry  # None: every installed game (default_registry)
        self.config_kw: dict[str, object] = {}
        self.bot_kw: dict[str, Any] = {}  # MeadhallBot's own keywords (bot_pause, reminder_poll, …)
        self.store: Storage | None = None
        self.svc: HostService | None = None
        self.bot: MeadhallBot | None = None

    async def start(self) -> MeadhallBot:
        self.store = await Storage.open(self.path)
        self.svc = HostService(self.store, self.registry or default_registry(), seed_source=lambda: self.seed,
                               **self.kw)
        await self.svc.load()
        self.bot = MeadhallBot(Config(dev_guild=self.fd.guild_id, database=self.path, **self.config_kw), self.svc,
                               **self.bot_kw)
        await self.fd.start_bot(self.bot)
        return self.bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.fd.stop_bot(self.bot)
        if self.store is not None:
            await self.store.close()
        self.bot = self.store = None

    async def restart(self) -> MeadhallBot:
        await self.stop()
        return await self.start()


def offered(msg: Message) -> list[tuple[str, str, str]]:
    """(kind, custom_id, value) for every choice on the message; value: what to click/select."""
    out = []
    for row in msg.components:
        for comp in row.get("components", []):
            if comp["type"] == 2:
                out.append(("button", comp["custom_id"], comp["custom_id"].split(":b:", 1)[1]))
            elif comp["type"] == 3:
                out += [("select", comp["custom_id"], o["value"]) for o in comp["options"]]
    return out


def action_text(kind: str, custom_id: str, value: str) -> str:
    if kind == "button":
        return value
    template = custom_id.split(":", 4)[4]
    return template.format(value)


def user_of(fd: FakeDiscord, uid: int) -> str:
    return next(name for name, u in fd.users.items() if u.id == uid)


def board_message(r: InteractionResult) -> Message:
    [msg] = [m for m in r.public_messages if m.attachments]
    return msg


def assert_move_posted(fd: FakeDiscord, r: InteractionResult, players: set[int]) -> Message:
    """The move's public message: board PNG, and the next actor mentioned and the only one pinged."""
    assert r.ephemeral_messages == [], r.text
    msg = board_message(r)
    [png] = msg.attachments
    assert png.is_png and png.filename.endswith(".png") and png.size > 10_000
    if msg.pinged:
        [actor] = msg.pinged
        assert actor in players and msg.mentions == [actor]
        assert f"<@{actor}>: " in msg.content
        assert msg.custom_ids or "slash command" in msg.content
    return msg


async def refused(r: InteractionResult, *words: str) -> str:
    """An ephemeral answer, seen by the presser only, and nothing public."""
    assert r.callback is not None and r.ephemeral, r.text
    assert not [m for m in r.messages if m.public], r.text
    [msg] = r.ephemeral_messages
    assert msg.visible_to == r.user.id and msg.pinged == []
    for w in words:
        assert w in msg.content, msg.content
    return msg.content


async def press(fd: FakeDiscord, user: str, kind: str, custom_id: str, value: str, msg: Message
                ) -> InteractionResult:
    if kind == "button":
        return await fd.click(user, custom_id, message=msg)
    return await fd.select(user, custom_id, [value], message=msg)


async def slash_move(fd: FakeDiscord, actor: str, text: str, channel=None) -> InteractionResult:
    """Type the move as its slash command, taking the value from the autocomplete's choices."""
    verb, _, arg = text.partition(" ")
    if verb not in COMMAND_OF:  # /move: the whole action, offered among every legal move
        choices = await fd.autocomplete(actor, "move", focused="choice", value=text, channel=channel)
        assert text in [c["value"] for c in choices], (text, choices)
        return await fd.slash(actor, "move", {"choice": text}, channel=channel)
    command = COMMAND_OF[verb]
    choices = await fd.autocomplete(actor, command, focused="choice", value=arg, channel=channel)
    assert 1 <= len(choices) <= 25
    assert all(c["value"].split()[0] == verb for c in choices)  # only this verb's legal moves
    [pick] = [c for c in choices if c["value"] == text]
    assert pick["name"] and len(pick["name"]) <= 100
    return await fd.slash(actor, command, {"choice": pick["value"]}, channel=channel)


@pytest.fixture
async def host(fd, tmp_path):
    host = Host(fd, tmp_path / "meadhall.db")
    await host.start()
    yield host
    await host.stop()


def usable(msg: Message) -> bool:
    """Whether a message still carries controls somebody could use for a game (a finished game's
    Rematch button, issue 25, is none: it makes no move; nor is a link button)."""
    return any(not c.get("disabled") and "custom_id" in c and not c["custom_id"].endswith(":rematch")
               for row in msg.components for c in row.get("components", []))


async def open_thread(fd: FakeDiscord, starter: str) -> tuple[InteractionResult, object, Message]:
    """``/start`` in the channel: one line there, a thread opened from it, the game's first message inside."""
    r = await fd.slash(starter, "start")
    [line] = [m for m in r.public_messages if m.channel_id == fd.channel.id]
    [thread] = fd.threads_of("general")
    assert line.channel_id == fd.channel.id and thread.message_id == line.id and "thread below" in line.content
    [first] = fd.messages(thread)
    return r, thread, first


async def test_whole_vikings_game_through_discord_ends_with_the_animated_recap(fd, host):
    """Issue 13: the game lives in its own thread, with buttons and selects only, one live message
    per turn: ≤ 90 new public messages for a whole 2-player game, no ping for the one already to
    act, a picture only when the table shown changed, no usable controls left at the end."""
    alice, bob, carol = (fd.users[n] for n in ("alice", "bob", "carol"))
    players = {alice.id, bob.id}

    r = await fd.slash("alice", "join", {"game": "vikings"})
    assert "alice" in r.public_messages[0].content
    r = await fd.slash("bob", "join")
    assert "bob" in r.public_messages[0].content
    r, thread, msg = await open_thread(fd, "bob")
    assert thread.name == "Vikings: alice, bob"
    assert "Vikings begins" in msg.content and msg.attachments[0].is_png and len(msg.notified) == 1
    [welcome] = msg.embeds  # how the game is played here: where, the first decision, /rules
    assert welcome["title"] == "How Vikings is played here"
    assert [f["name"] for f in welcome["fields"]] == ["Where", "First", "Help"]
    assert "buy a combo" in welcome["fields"][1]["value"] and "/rules" in welcome["fields"][2]["value"]
    key = str(thread.id)
    assert await host.svc.table(str(fd.channel.id)) is None  # the table is keyed by its thread

    turns = TurnWatch(fd, thread)  # issue 24: every person's turn notifies them
    rng = random.Random(SEED)
    moves = clicks = selects = edits = 0
    checked: set[str] = set()
    pictures: list[bytes] = [msg.attachments[0].data]
    seen_attachments = {a.id for a in msg.attachments}
    stripped: Message | None = None
    while (table := await host.svc.table(key)) is not None:
        [seat] = table.game.acting_seats()
        actor = table.record.seats[seat].user
        actor = user_of(fd, int(actor))
        other = "bob" if actor == "alice" else "alice"
        live = [m for m in turn_messages(fd, thread) if usable(m)]
        assert len(live) == 1, [m.content for m in live]  # no stale controls anywhere
        [msg] = live
        everything = offered(msg)
        exchanges = [c for c in everything if action_text(*c).startswith("exchange ")]
        choices = [c for c in everything if c not in exchanges]
        assert choices, msg.content
        assert "slash command" not in msg.content  # every decision fits on buttons and selects
        assert not re.search(r"/(buy|place|sail|start-tile|bid|pass|remove|lay|special|swap)\b", msg.content)
        trips = [c for c in choices if action_text(*c).startswith("trip ")]
        kind, cid, value = rng.choice([c for c in choices if c not in trips])
        if trips and "trip" not in checked:  # the sailor dialog (issue 25): the whole sailing, once
            kind, cid, value = trips[0]
        text = action_text(kind, cid, value)
        before = len(turn_messages(fd, thread))
        version_before, history_before = table.record.version, len(msg.history)

        if "exchange" not in checked and moves == 5:
            checked.add("exchange")  # exchanging VP for gold has its own select, with the amount
            [(ekind, ecid, evalue)] = [c for c in exchanges if c[2] == "exchange 2"]
            option = next(o for row in msg.components for c in row["components"] if c["custom_id"] == ecid
                          for o in c["options"] if o["value"] == "exchange 2")
            assert option["label"] == "exchange 2 VP for 2 gold"
            r = await press(fd, actor, ekind, ecid, evalue, msg)
            assert "exchanges 2 VP" in msg.content and len(turn_messages(fd, thread)) == before and r.public_messages == []
            continue

        if "refusals" not in checked and moves == 3:
            checked.add("refusals")
            await refused(await fd.slash(other, "move", {"choice": text}, channel=thread), "not your turn")
            await refused(await fd.slash(actor, "buy", {"choice": "banana"}, channel=thread), "cannot read")
            await refused(await fd.slash(actor, "move", {"choice": "swap N3"}, channel=thread), "not allowed")
            await refused(await press(fd, "carol", kind, cid, value, msg), "not a player")
            await refused(await press(fd, other, kind, cid, value, msg), "not your turn")
            # exchange is a free action: the other player's exchange edits the live message
            r = await fd.slash(other, "exchange", {"choice": "1"}, channel=thread)
            assert r.public_messages == [] and len(turn_messages(fd, thread)) == before
            assert "exchanges 1 VP" in msg.content and usable(msg) and msg.custom_ids != [cid for _, cid, _ in choices]
            continue

        if moves == 60 and "restart" not in checked:
            checked.add("restart")
            before_version = (await host.svc.table(key)).record.version
            await host.restart()  # a new process on the same database: the old buttons still work
            assert (await host.svc.table(key)).record.version == before_version
            r = await press(fd, actor, kind, cid, value, msg)
        elif "duplicate" not in checked and kind == "button" and moves > 10:
            checked.add("duplicate")
            first, second = await asyncio.gather(fd.click(actor, cid, message=msg),
                                                 fd.click(actor, cid, message=msg))
            results = sorted([first, second], key=lambda x: x.ephemeral)
            await refused(results[1], "already made")
            r = results[0]
        elif "deferred" not in checked and moves == 30:
            checked.add("deferred")  # slow service: the bot defers privately, then edits or posts
            host.bot.defer_after = 0.0
            r = await press(fd, actor, kind, cid, value, msg)
            host.bot.defer_after = 1.5
            assert r.deferred and r.ephemeral and "Done" in r.ephemeral_messages[0].content
        else:
            r = await press(fd, actor, kind, cid, value, msg)
        if r.ephemeral_messages and "?" in r.ephemeral_messages[0].content and not text.startswith("trip "):
            # a buy that spends VP (V-16) or a sailor's whole trip (V-34) asks first, privately;
            # nothing has changed yet
            [question] = r.ephemeral_messages
            assert len(turn_messages(fd, thread)) == before
            assert (await host.svc.table(key)).record.version == version_before
            [yes] = question.custom_ids
            r = await fd.click(actor, yes, message=question)
            assert " VP" in question.history[0]["content"]
            checked.add("confirm")
        elif text.startswith("trip "):  # the sailor dialog: the first option per sailor, then send
            [dialog] = r.ephemeral_messages
            while picks := [c for c in dialog.custom_ids if ":pt:" in c]:
                first = next(o["value"] for row in dialog.components for c in row["components"]
                             if c["custom_id"] == picks[0] for o in c["options"])
                await fd.select(actor, picks[0], [first], message=dialog)
            [send] = [c for c in dialog.custom_ids if ":ps:" in c]
            r = await fd.click(actor, send, message=dialog)
            if not r.ephemeral_messages:  # a plan the rules refuse stays private; else one move
                assert dialog.content == "Done."
                steps = (await host.svc.table(key)).record.version if await host.svc.table(key) else None
                assert steps is None or steps == version_before + 1
                checked.add("trip")
        clicks += kind == "button"
        selects += kind == "select"
        assert r.response_time is not None and r.response_time < 3
        # a click answers with at most one new message: the next player's, when who acts changed
        assert len([m for m in r.messages if m.public]) <= 1
        new = turn_messages(fd, thread)[before:]
        if not new:
            edits += 1
            assert len(msg.history) > history_before  # the live message was edited instead
        for m in new:  # a new message only when the player to act changed: it pings only the new one
            assert m.notified in ([], [u for u in m.notified if u in players])
            assert fd.users[actor].id not in m.notified  # also after the restart: the live message is kept
        if new and stripped is None and (await host.svc.table(key)) is not None:
            stripped = msg
        for m in turn_messages(fd, thread):
            for a in m.attachments:
                if a.id not in seen_attachments:
                    seen_attachments.add(a.id)
                    assert a.data != pictures[-1], "an unchanged picture was attached again"
                    pictures.append(a.data)
        turns.observe()
        moves += 1
        assert moves < 400

    assert checked == {"refusals", "restart", "duplicate", "deferred", "exchange", "confirm", "trip"}
    assert clicks > 20 and selects > 20, (clicks, selects)
    await thread_closed(key)  # the recap is drawn in a task of its own after the result, then the thread archived
    *public, recap = turn_messages(fd, thread)
    # issue 25: right after the result, the whole game as an animated picture (Discord plays it inline)
    [animation] = recap.attachments
    assert animation.filename.endswith("-recap.webp") and animation.size <= 8 * 1024 * 1024
    shown = Image.open(io.BytesIO(animation.data))
    assert shown.format == "WEBP" and shown.is_animated and shown.n_frames > 40, shown.n_frames
    assert "The whole game" in recap.content and recap.notified == [] and recap.components == []
    assert len(public) <= 90, len(public)
    assert not [m for m in public if usable(m)]  # at the end no message carries usable controls
    assert "Game over" in public[-1].content
    # everybody sees the scorings: each one message of its own, with a line per player, no controls, no ping
    scorings = [m for m in public if re.match(r"(Small|Major|Final) scoring — ", m.content)]
    assert [m.content.split(" — ")[0] for m in scorings] == [
        "Small scoring", "Major scoring", "Small scoring", "Major scoring", "Small scoring", "Major scoring",
        "Final scoring"], [m.content[:40] for m in scorings]
    for m in scorings:
        assert "— alice:" in m.content and "— bob:" in m.content and m.components == [] and m.notified == []
        assert all(png.is_png for png in m.attachments)
    # the scoring picture (issue 14) goes with its scoring's message; after round 6 the major and the
    # final scoring come in one move and the final one is pictured
    assert [len(m.attachments) for m in scorings] == [1, 1, 1, 1, 1, 0, 1]
    assert "Final standings" in scorings[-1].content
    assert await host.svc.table(key) is None  # finished
    # the channel got one line at the start and one with the result, nothing else
    start_line, result = fd.messages("general")[-2:]
    assert "thread below" in start_line.content and f"<#{thread.id}>" in result.content and "winner" in result.content
    assert stripped is not None and stripped.components == []  # an outdated message's controls are gone
    turns.observe()
    assert turns.silent == [], turns.silent  # no person's turn is silent (an edit notifies nobody)
    assert turns.figures()["pings_remaining"] == 0
    FIGURES["vikings"] = {"moves": moves, "messages": len(public), "edits": edits, "pictures": len(pictures),
                          "pings": sum(len(m.notified) for m in public), **turns.figures(), **discord_figures(fd)}
    print("issue 13 figures:", FIGURES["vikings"])  # shown with pytest -s; docs/discord.md quotes them

    # issue 25: the finished game's thread is archived (not locked); a person's message there
    # un-archives it (threads.mdx), and then the log as a file
    assert fd.threads[thread.id].archived and not fd.threads[thread.id].locked
    await fd.user_says("alice", thread, "good game")
    r = await fd.slash("alice", "table export", channel=thread)
    log = r.files[0].data.decode()
    assert log.count("\n") > moves and "# game: vikings" in log


FIGURES: dict[str, dict[str, int]] = {}


async def test_table_commands_answer_publicly_or_privately(fd, host):
    # a lobby opened and left again
    r = await fd.slash("alice", "join")
    assert "opens a table" in r.public_messages[0].content and not r.ephemeral
    r = await fd.slash("alice", "leave")
    assert "closed" in r.public_messages[0].content
    await refused(await fd.slash("alice", "leave"), "no table")
    # a real table; looking is for everybody, refusals are private
    await fd.slash("alice", "join", {"game": "vikings"})
    await refused(await fd.slash("alice", "join"), "already")
    await refused(await fd.slash("alice", "start"), "at least 2")
    await fd.slash("bob", "join")
    await refused(await fd.slash("alice", "board"), "not started")
    await refused(await fd.slash("carol", "start"), "not a player")
    await refused(await fd.slash("alice", "start", {"options": "turbo"}), "no option")
    # /start completes the game's table options, word by word
    offered_options = await fd.autocomplete("alice", "start", focused="options", value="auction sp")
    assert [c["value"] for c in offered_options] == ["auction specials"]
    assert "single-sailor" in [c["value"] for c in await fd.autocomplete("alice", "start", focused="options")]
    r = await fd.slash("alice", "table status")
    assert "alice, bob" in r.public_messages[0].content and r.public_messages[0].pinged == []
    r = await fd.slash("alice", "start", {"game": "vikings", "options": "auction, specials"})
    [thread] = fd.threads_of("general")
    [start] = fd.messages(thread)
    assert "auction" in start.content and usable(start) and len(start.notified) == 1
    # the board again, publicly, with no controls and no ping: controls live on the turn's message only
    r = await fd.slash("carol", "board", channel=thread)
    [board] = r.public_messages
    assert board.attachments[0].is_png and board.pinged == [] and board.custom_ids == []
    # privately, from one's own seat
    r = await fd.slash("bob", "board", {"private": True}, channel=thread)
    assert r.ephemeral and r.ephemeral_messages[0].attachments[0].is_png and r.public_messages == []
    await refused(await fd.slash("carol", "board", {"private": True}, channel=thread), "not a player")
    # rules and help are private
    r = await fd.slash("dave", "rules", {"topic": "V-14"}, channel=thread)
    assert r.ephemeral and r.ephemeral_messages[0].content.startswith("V-14:")
    await refused(await fd.slash("dave", "rules", {"topic": "V-999"}, channel=thread), "no rule")
    # /rules completes rule numbers and topics; a typed topic finds its rule (issue 13)
    offered_rules = await fd.autocomplete("dave", "rules", focused="topic", value="sailors", channel=thread)
    assert offered_rules[0]["value"] == "V-34" and all(len(c["name"]) <= 100 for c in offered_rules)
    assert [c["value"] for c in await fd.autocomplete("dave", "rules", focused="topic", value="V-1",
                                                      channel=thread)][:2] == ["V-1", "V-10"]
    r = await fd.slash("dave", "rules", {"topic": "sailors"}, channel=thread)
    assert r.ephemeral_messages[0].content.startswith("V-34: Sailors")
    r = await fd.slash("dave", "help", channel=thread)  # an embed grouped by purpose, privately
    [shown] = r.ephemeral_messages
    [embed] = shown.embeds
    assert [f["name"] for f in embed["fields"]] == ["Open a table", "Play", "Look", "Learn", "End", "Mend", "Pings",
                                                      "Records", "Replays"]
    assert "Vikings" in embed["description"] and "/move" in embed["fields"][1]["value"]
    # autocomplete offers nothing to somebody without a seat, or for another phase's verb
    assert await fd.autocomplete("carol", "move", focused="choice", value="", channel=thread) == []
    # abandon: a player's vote is public; the admin ends it at once
    r = await fd.slash("bob", "table abandon", channel=thread)
    assert "votes to abandon" in r.public_messages[0].content and usable(start)
    await refused(await fd.slash("bob", "table abandon", channel=thread), "already voted")
    await refused(await fd.slash("carol", "table abandon", channel=thread), "Only the table's creator")
    r = await fd.slash("erik", "table abandon", channel=thread)
    assert "abandoned" in fd.messages(thread)[-1].content and not [m for m in fd.messages(thread) if usable(m)]
    assert f"<#{thread.id}>" in fd.messages("general")[-1].content  # the channel learns how it ended
    await thread_closed(str(thread.id))  # archived in a task of its own
    assert fd.threads[thread.id].archived  # issue 25: an abandoned game's thread is archived too
    await fd.user_says("alice", thread, "why?")  # a person's message un-archives it (threads.mdx)
    r = await fd.slash("alice", "table export", channel=thread)  # the abandoned game's log stays available
    assert r.files[0].filename.endswith(".txt") and "status: abandoned" in r.files[0].data.decode()
    await refused(await fd.slash("alice", "table export", channel="tavern"), "no game to export")


async def test_several_games_in_one_channel_each_in_its_own_thread(fd, host):
    for user in ("alice", "bob"):
        await fd.slash(user, "join", {"game": "vikings"})
    first, thread_one, _msg = await open_thread(fd, "alice")
    # the channel is free again: another table opens while the first game runs in its thread
    r = await fd.slash("carol", "join", {"game": "vikings"})
    assert "opens a table" in r.public_messages[0].content
    await fd.slash("dave", "join")
    await fd.slash("dave", "start")
    one, two = fd.threads_of("general")
    assert one is thread_one and two.name == "Vikings: carol, dave"
    tables = [await host.svc.table(str(t.id)) for t in (one, two)]
    assert [t.record.names for t in tables] == [["alice", "bob"], ["carol", "dave"]]
    # a move in one thread touches only its own table; a player of the other is no player here
    await refused(await fd.slash("carol", "board", {"private": True}, channel=one), "not a player")
    [live] = [m for m in fd.messages(two) if usable(m)]
    actor = user_of(fd, live.notified[0])
    kind, cid, value = offered(live)[0]
    await press(fd, actor, kind, cid, value, live)
    assert (await host.svc.table(str(two.id))).record.version == 1
    assert (await host.svc.table(str(one.id))).record.version == 0


async def test_without_thread_permission_the_game_runs_in_the_channel_and_says_so_once(fd, host):
    fd.bot_permissions &= ~(1 << 35)  # no CREATE_PUBLIC_THREADS
    for user in ("alice", "bob"):
        await fd.slash(user, "join", {"game": "vikings"})
    r = await fd.slash("alice", "start")
    assert fd.threads_of("general") == [] and fd.find_requests("POST", r"/threads$") == []
    [msg] = r.public_messages
    assert "may not open threads" in msg.content and usable(msg)
    assert (await host.svc.table(str(fd.channel.id))).game is not None
    kind, cid, value = offered(msg)[0]
    actor = user_of(fd, msg.notified[0])
    await press(fd, actor, kind, cid, value, msg)
    assert [m for m in fd.messages("general") if "may not open threads" in m.content] == [msg]  # said once


async def test_threads_switched_off_in_the_config_play_in_the_channel(fd, tmp_path):
    host = Host(fd, tmp_path / "nothreads.db")
    host.config_kw = {"threads": False}
    await host.start()
    try:
        for user in ("alice", "bob"):
            await fd.slash(user, "join", {"game": "vikings"})
        r = await fd.slash("alice", "start")
        [msg] = r.public_messages
        assert fd.threads_of("general") == [] and "thread" not in msg.content and usable(msg)
    finally:
        await host.stop()


async def two_people_playing(fd: FakeDiscord) -> tuple[Any, Message, str]:
    """alice and bob at a Vikings table in its thread: the thread, the first turn message, who acts."""
    await fd.slash("alice", "join")
    await fd.slash("bob", "join")
    _r, thread, msg = await open_thread(fd, "alice")
    return thread, msg, user_of(fd, msg.notified[0])


async def test_after_a_restart_the_turn_goes_on_in_its_live_message(fd, tmp_path):
    """Games last days and the bot restarts in between: the message policy's state is in the
    database, so the player who keeps deciding after a restart sees the same message edited (one
    message per turn, nobody pinged twice), not a second turn message."""
    host = Host(fd, tmp_path / "live.db")
    await host.start()
    try:
        thread, msg, actor = await two_people_playing(fd)
        key = str(thread.id)
        await host.restart()  # a new process on the same database
        choices = offered(msg)
        kind, cid, value = choices[0]
        game = (await host.svc.table(key)).game
        after = game.copy()
        seat = game.acting_seats()[0]
        after.apply(seat, after.parse_action(action_text(kind, cid, value)))
        assert after.acting_seats() == [seat]  # the first decision of a Vikings turn: the same player goes on
        count, edits = len(turn_messages(fd, thread)), len(msg.history)
        r = await press(fd, actor, kind, cid, value, msg)
        assert r.edited == [msg] and len(turn_messages(fd, thread)) == count and len(msg.history) > edits
        assert usable(msg) and offered(msg) != choices and [m for m in fd.messages(thread) if usable(m)] == [msg]
        assert all(m.notified == [] for m in fd.messages(thread)[count:])  # nobody pinged again
    finally:
        await host.stop()


async def test_a_database_that_cannot_keep_the_live_message_loses_nothing_else(fd, tmp_path, caplog):
    """The move is saved before its messages; if the database then refuses the message policy's
    state, the move is still published and answered, and the refusal is logged."""
    host = Host(fd, tmp_path / "nolive.db")
    await host.start()
    try:
        thread, msg, actor = await two_people_playing(fd)

        async def refuse(*_args, **_kw):
            raise OSError("disk full")

        host.svc.storage.set_meta = refuse  # type: ignore[method-assign]
        version = (await host.svc.table(str(thread.id))).record.version
        kind, cid, value = offered(msg)[0]
        r = await press(fd, actor, kind, cid, value, msg)
        assert r.answered and not r.ephemeral and (await host.svc.table(str(thread.id))).record.version == version + 1
        assert any("keeping the live message" in rec.getMessage() for rec in caplog.records)
        await host.restart()  # and a database that cannot be read after a restart: a new message, no loss
        host.svc.storage.get_meta = refuse  # type: ignore[method-assign]
        table = await host.svc.table(str(thread.id))
        [seat] = table.game.acting_seats()
        msg = [m for m in fd.messages(thread) if usable(m)][-1]
        kind, cid, value = offered(msg)[0]
        r = await press(fd, user_of(fd, int(table.record.seats[seat].user)), kind, cid, value, msg)
        assert r.answered and not r.ephemeral
        assert (await host.svc.table(str(thread.id))).record.version == version + 2
        assert any("reading the live message" in rec.getMessage() for rec in caplog.records)
    finally:
        await host.stop()


async def test_reminder_mentions_the_player_to_act(fd, tmp_path):
    host = Host(fd, tmp_path / "reminders.db", reminder_delay=0.3, reminder_limit=1)
    await host.start()
    try:
        await fd.slash("alice", "join")
        await fd.slash("bob", "join")
        r, thread, msg = await open_thread(fd, "alice")
        actor = msg.notified[0]
        reminder = await fd.wait_for_message(lambda m: "Reminder" in m.content, after=r, timeout=5,
                                             channel=thread)  # in the game's thread
        assert reminder.pinged == [actor] and reminder.origin == "channel"
        assert reminder.content.startswith(f"<@{actor}> Reminder: it is still your turn in Vikings")
    finally:
        await host.stop()


async def test_run_bot_from_config_syncs_to_the_dev_guild_and_never_logs_the_token(fd, tmp_path, caplog):
    import logging

    from bot.discord.app import run_bot

    root = logging.getLogger()
    level = root.level
    caplog.set_level(logging.DEBUG)
    config = Config(token=fd.token, database=tmp_path / "run.db", dev_guild=fd.guild_id, log_level="DEBUG",
                    reminder_delay=None)
    task = asyncio.create_task(run_bot(config))
    try:
        async with asyncio.timeout(10):
            while not fd.identify_payloads:
                await asyncio.sleep(0.01)
        assert fd.identify_payloads[0]["token"] == fd.token  # it logged in with the configured token
        assert [g for g, _ in fd.sync_log] == [fd.guild_id]  # the dev guild only: no global sync
        names = {c["name"] for c in fd.synced()}
        assert {"join", "start", "buy", "move", "table"} <= names and len(names) <= 15
        r = await fd.slash("alice", "join")  # the bot opened config.database itself
        assert "opens a table" in r.public_messages[0].content
        logging.getLogger("discord.http").debug("a careless line with %s in it", fd.token)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        root.setLevel(level)
    assert "discord.http" in caplog.text and "[token]" in caplog.text
    assert fd.token not in caplog.text
    assert (tmp_path / "run.db").exists()


async def test_run_bot_refuses_to_start_without_a_token(tmp_path):
    from bot.discord.app import run_bot

    with pytest.raises(ValueError, match="MEADHALL_TOKEN"):
        await run_bot(Config(token=None, database=tmp_path / "x.db"))
