"""Brian Boru end to end through the real discord.py client and the fake Discord (issue 7).

Three users ``/join`` a Brian Boru table, ``/start`` and play a whole seeded 3-player game to the
final scoring the way people would: the public buttons and selects, the "Make your choice
(privately)" button and the private choices it opens (the 2-card draft multi-select, the active
town, the card to lead or play), slash commands with their autocomplete, and ``/hand``.

After every interaction each message the fake recorded since the last one is compared with the
engine's hidden cards at that moment (read from the live game through the service): no public
message and no message for another player names, offers or pictures a card in somebody's hand or
draft (text, component labels, values and custom ids, attachments), while each player's private
replies show their own cards.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Awaitable
from pathlib import Path

import pytest

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.discord.publishing.recap import thread_closed
from bot.games import engine_options
from bot.games.brianboru import BrianBoruAdapter
from bot.games.brianboru_words import card_label
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.storage import Storage
from engine.brianboru import BrianBoruGame
from engine.core import Rng
from renderer.brianboru import render_hand
from tests.discord.turn_notifications import TurnWatch, discord_figures, turn_messages
from tests.fakediscord import FakeDiscord, InteractionResult, Message
from tests.fakediscord.models import iter_components
from tests.games.test_brianboru_table import cards_named, with_hands_shuffled

SEED = 3
USERS = ("alice", "bob", "carol")
CARD_VERBS = ("keep", "lead", "play")
ADAPTER = BrianBoruAdapter()


def secret(game: BrianBoruGame, but: int | None = None) -> set[int]:
    """Cards in hands and in front of players (the draft), except seat ``but``'s, and the cards set
    aside unseen."""
    s = game.s
    held = {v for q in range(s["n"]) if q != but for v in [*s["hand"][q], *s["pile"][q]]}
    return held | set(s["aside"])


def component_texts(msg: Message) -> list[str]:
    """What a message's components show or carry: labels, custom ids, and each select option as
    the action it makes (``keep 7``, ``play 11``, …). Placeholders are fixed wording ("keep 2
    cards", "Choose your move (1/2)") and left out."""
    out: list[str] = []
    for comp in iter_components(msg.components):
        out += [comp.get("label") or "", comp.get("custom_id") or ""]
        template = (comp.get("custom_id") or "").split(":", 4)[-1]
        verb = template.split()[0] if template.split() else ""
        for option in comp.get("options") or []:
            out += [option["label"], option.get("description") or ""]
            out.append(f"{verb} {option['value']}" if verb in CARD_VERBS else option["value"])
    return [t for t in out if t]


class Table:
    """Three people at a Brian Boru table, and the watch on every message against the hands."""

    def __init__(self, fd: FakeDiscord, svc: HostService, bot: MeadhallBot) -> None:
        self.fd, self.svc, self.bot = fd, svc, bot
        self.seen: dict[int, tuple] = {}  # message id → what it showed when last checked (edits change it)
        # message id → its lines already checked: an edit (controls taken off) keeps an old line, which
        # named a card while it lay face up; a new deal makes that card hidden again, but the old line
        # still tells nothing about the new hands, so it is not checked again
        self.lines_ok: dict[int, set[str]] = {}
        self.face_up: set[int] = set()  # cards played face up (B-17, B-18) since the last deal
        self.checked = {"public": 0, "private": 0, "images": 0, "hands": 0}
        self.checker = Rng(SEED)

    @property
    def thread(self):
        """The game's thread (issue 13: /start opens one), or the channel before the start."""
        threads = self.fd.threads_of("general")
        return threads[-1] if threads else self.fd.channel

    @property
    def channel(self) -> str:
        return str(self.thread.id)

    def live(self) -> Message:
        """The one public message that still carries controls (no stale controls anywhere)."""
        [msg] = [m for m in self.fd.messages(self.thread) if m.components]
        return msg

    async def game(self) -> BrianBoruGame | None:
        table = await self.svc.table(self.channel)
        return None if table is None else table.game

    def seat(self, user: str) -> int:
        return USERS.index(user)

    def user_of(self, uid: int) -> str:
        return next(n for n in USERS if self.fd.users[n].id == uid)

    async def replay(self, match: int, version: int, copy: BrianBoruGame, live: BrianBoruGame
                     ) -> tuple[dict[int, BrianBoruGame], set[int]]:
        """The game at every version since ``version`` (the copy replays the logged moves), and
        the cards they played face up (the engine also plays a card by itself when it is the only
        legal one)."""
        states = {version: copy.copy()}
        shown: set[int] = set()
        for logged in await self.svc.storage.actions(match):
            if logged.seq > version:
                for event in copy.apply(logged.seat, logged.action):
                    if event.kind == "dealt":  # a new round: the played cards are dealt out again
                        self.face_up = set()
                    elif event.kind == "played":
                        shown.add(event.data["card"])
                        self.face_up.add(event.data["card"])
                states[logged.seq] = copy.copy()
        assert copy.to_json() == live.to_json()
        return states, shown

    async def do(self, game: BrianBoruGame | None, act: Awaitable[InteractionResult]) -> InteractionResult:
        """Run one interaction and check every message it (or anything else, e.g. a computer
        player's move) created since; ``game`` None: the interaction starts the game."""
        record = (await self.svc.table(self.channel)).record
        match, version = record.id, record.version  # the record changes in place
        copy = None if game is None else game.copy()
        r = await act
        assert r.response_time is not None and r.response_time < 3, r.text
        if copy is None:  # the game as it began, before anybody moved
            copy = BrianBoruGame.new(record.names, seed=record.seed, options=engine_options(record.options),
                                     start_seat=record.start_seat)
            version = 0
        await self.bot.bots_idle()  # computer players (if any) have moved after the answer
        live = await self.game() or game  # the finished game leaves the service: the old object is final
        allowed = set(self.face_up)
        states, shown = await self.replay(match, version, copy, live)
        allowed |= shown
        hidden = {q: set().union(*(secret(g, but=q) for g in states.values())) - allowed for q in (None, 0, 1, 2)}
        for msg in self.fd.messages(ephemeral=None):
            state = (msg.content, json.dumps(msg.components), tuple(a.id for a in msg.attachments))
            before = self.seen.get(msg.id)
            if before == state:
                continue  # unchanged since it was checked
            viewer = msg.visible_to
            seat = None if viewer is None else self.seat(self.user_of(viewer))
            done = self.lines_ok.setdefault(msg.id, set())
            for text in [msg.content, *component_texts(msg)]:
                for line in text.splitlines():
                    if line in done and text == msg.content:
                        continue
                    done.add(line)
                    leaked = cards_named(line) & hidden[seat]
                    assert not leaked, f"{'public' if seat is None else USERS[seat]} message shows {leaked}: {line!r}"
            for png in msg.attachments:
                if before is not None and png.id in before[2]:
                    continue  # a picture it already carried
                assert png.is_png
                if seat is None:  # the public map is the same picture whoever holds which card
                    at = states[int(png.filename.rsplit("-", 1)[1].removesuffix(".png"))]
                    assert png.filename.startswith("brian-boru-")
                    # the turn picture on a move, the map on /board (issue 14); at the end the final
                    # scoring, which no hand can change any more
                    shuffled = with_hands_shuffled(at, self.checker)
                    assert at.is_over or png.data in (ADAPTER.picture(shuffled), ADAPTER.render(shuffled))
                    self.checked["images"] += 1
                else:  # a private picture is that player's own hand
                    assert png.data == render_hand(live.view(seat), seat)
                    self.checked["hands"] += 1
            self.checked["public" if seat is None else "private"] += 1
            self.seen[msg.id] = state
        return r

    def assert_own_cards(self, msg: Message, game: BrianBoruGame, user: str) -> None:
        """A player's private reply shows every card of their hand and of their draft."""
        seat = self.seat(user)
        assert msg.ephemeral and msg.visible_to == self.fd.users[user].id
        for card in [*game.s["hand"][seat], *game.s["pile"][seat]]:
            assert card_label(card) in msg.content, (card, msg.content)
        assert msg.attachments and msg.attachments[0].filename.startswith("hand-")


def choices_on(msg: Message) -> list[tuple[str, str, list[str]]]:
    """(kind, custom_id, values) for every single choice a message offers (a draft: every pair)."""
    out: list[tuple[str, str, list[str]]] = []
    for comp in iter_components(msg.components):
        if comp["type"] == 2 and ":b:" in comp["custom_id"]:
            out.append(("button", comp["custom_id"], []))
        elif comp["type"] == 3:
            values = [o["value"] for o in comp["options"]]
            if comp.get("max_values", 1) == 2:
                out += [("select", comp["custom_id"], [a, b]) for i, a in enumerate(values) for b in values[i + 1:]]
            else:
                out += [("select", comp["custom_id"], [v]) for v in values]
    return out


def action_of(kind: str, custom_id: str, values: list[str]) -> str:
    if kind == "button":
        return custom_id.split(":b:", 1)[1]
    return custom_id.split(":", 4)[4].format(*values)


def choose_button(msg: Message) -> str | None:
    return next((c for c in msg.custom_ids if c.endswith(":me")), None)


@pytest.fixture
async def table(tmp_path: Path):
    async with FakeDiscord(lifetime=200) as fd:
        store = await Storage.open(tmp_path / "bb.db")
        svc = HostService(store, default_registry(), seed_source=lambda: SEED)
        bot = MeadhallBot(Config(dev_guild=fd.guild_id, database=tmp_path / "bb.db"), svc, bot_pause=0.0)
        try:
            await fd.start_bot(bot)
            yield Table(fd, svc, bot)
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_three_people_play_brian_boru_and_no_hand_is_ever_shown_to_others(table: Table):
    """Also issue 13: the game lives in its thread, one live message carries the controls, each
    draft pass is one status message edited as players choose, and a whole round stays within
    one new message per change of the player(s) to act, plus one per scoring."""
    fd = table.fd
    for user in USERS:
        r = await fd.slash(user, "join", {"game": "brian-boru"})
        assert r.public_messages and not r.ephemeral
    r = await table.do(None, fd.slash("carol", "start"))
    board = table.live()
    assert board.content.startswith("Brian Boru begins") and board.attachments[0].is_png
    assert table.thread.name == "Brian Boru: alice, bob, carol"
    game = await table.game()
    assert isinstance(game, BrianBoruGame)

    turns = TurnWatch(fd, table.thread)  # issue 24: every person's turn notifies them
    rng = random.Random(SEED)
    used = {"public": 0, "private": 0, "carried": 0, "slash": 0, "hand": 0, "draft_rounds": 0, "trick_edits": 0}
    kinds: set[str] = set()
    steps = 0
    rounds: dict[int, dict[str, int]] = {}  # round → new messages, changes of who acts, scorings
    while not game.is_over:
        steps += 1
        assert steps < 600
        kind = game.s["pending"]["kind"]
        kinds.add(kind)
        acting = [USERS[q] for q in game.acting_seats()]
        board = table.live()
        assert sorted(table.user_of(u) for u in board.mentions) == sorted(acting), board.content
        me = choose_button(board)
        count = len(turn_messages(fd, table.thread))
        round_no, game_seats = game.s["round"], list(game.acting_seats())  # the game object changes in place
        trick = ADAPTER.message_group(game)

        if steps % 23 == 0:  # now and then somebody looks at their hand
            looker = rng.choice(USERS)
            r = await table.do(game, fd.slash(looker, "hand", channel=table.thread))
            [mine] = r.ephemeral_messages
            table.assert_own_cards(mine, game, looker)
            assert r.public_messages == [] and (mine.custom_ids != []) == (looker in acting)
            used["hand"] += 1

        if len(acting) > 1:  # the draft (B-14): everybody opens their cards from the same message
            assert me is not None and kind == "keep"
            order = list(acting)
            rng.shuffle(order)
            opened = {}
            for user in order:
                r = await table.do(game, fd.click(user, me, message=board))
                [mine] = r.ephemeral_messages
                table.assert_own_cards(mine, game, user)
                opened[user] = mine
            for k, user in enumerate(order):  # the later ones choose on a message of an older version
                if k == 2:  # the status message's button (of the newer version) opens one's choices as they are now
                    me_now = choose_button(board)
                    assert me_now is not None and me_now != me
                    r = await table.do(game, fd.click(user, me_now, message=board))
                    [again] = r.ephemeral_messages
                    table.assert_own_cards(again, game, user)
                    now = (await table.svc.table(table.channel)).record.version
                    assert again.custom_ids and all(f":{now}:" in c for c in again.custom_ids)
                kind_, cid, values = rng.choice(choices_on(opened[user]))
                assert kind_ == "select" and cid.endswith(":keep {0} {1}")
                r = await table.do(game, fd.select(user, cid, values, message=opened[user]))
                assert r.ephemeral_messages == [] and opened[user].content == "Done.", r.text
                shown = turn_messages(fd, table.thread)[-1]  # the last choice of the last pass ends the draft
                assert f"{user} has chosen two cards." in shown.content
                if k < 2 or (await table.game()).s["pending"]["kind"] == "keep":
                    # the whole draft is one status message, edited: "waiting for" the others
                    assert len(turn_messages(fd, table.thread)) == count and board.components
                used["carried"] += k > 0
            used["draft_rounds"] += 1
        else:
            [actor] = acting
            if me is not None:  # hidden choices (active town, lead, play): privately only
                r = await table.do(game, fd.click(actor, me, message=board))
                [mine] = r.ephemeral_messages
                table.assert_own_cards(mine, game, actor)
                source = mine
                used["private"] += 1
            else:
                source = board
                used["public"] += 1
            offered = choices_on(source)
            assert offered, source.content
            kind_, cid, values = rng.choice(offered)
            text = action_of(kind_, cid, values)
            assert game.is_legal(table.seat(actor), text), text
            if steps % 5 == 0:  # typed, with the autocomplete's choices (only the actor's own cards)
                verb, _, arg = text.partition(" ")
                offers = await fd.autocomplete(actor, "move", focused="choice", value=text, channel=table.thread)
                others = secret(game, but=table.seat(actor))
                for offer in offers:
                    assert not cards_named(offer["name"]) & others and not cards_named(offer["value"]) & others
                assert text in [o["value"] for o in offers], (text, offers)
                r = await table.do(game, fd.slash(actor, "move", {"choice": text}, channel=table.thread))
                used["slash"] += 1
            elif kind_ == "button":
                r = await table.do(game, fd.click(actor, cid, message=source))
            else:
                r = await table.do(game, fd.select(actor, cid, values, message=source))
            assert [m.content for m in r.ephemeral_messages] in ([], ["Done."]), r.text
        after = await table.game() or game
        if trick is not None and kind == "play" and ADAPTER.message_group(after) == trick:
            # a trick is one message, edited as its cards are played (issue 13)
            assert len(turn_messages(fd, table.thread)) == count and f"{actor} plays" in board.content
            used["trick_edits"] += 1
        figure = rounds.setdefault(round_no, {"messages": 0, "changes": 0, "scorings": 0})
        figure["messages"] += len(turn_messages(fd, table.thread)) - count
        figure["changes"] += after.is_over or sorted(after.acting_seats()) != sorted(game_seats) \
            or after.s["pending"]["kind"] != kind and len(acting) > 1
        figure["scorings"] += after.is_over or after.s["round"] != round_no
        turns.observe()
        if after.is_over:
            break
        game = after

    final = turn_messages(fd, table.thread)[-1].content
    assert "Final scoring:" in final and re.search(r"Game over\. The winners?: ", final)
    winners = [USERS[w] for w in game.winners()]
    assert all(w in final.split("Game over.")[1] for w in winners)
    # no controls left but the finished game's Rematch button (issue 25), on the result itself
    [[rematch]] = [m.custom_ids for m in turn_messages(fd, table.thread) if m.components]
    assert rematch.endswith(":rematch") and rematch in turn_messages(fd, table.thread)[-1].custom_ids
    result = turn_messages(fd, table.thread)[-1]
    await thread_closed(str(table.thread.id))  # the recap posted, then the thread archived
    assert fd.messages(table.thread)[-1].attachments and result.custom_ids == []  # nothing to press there now
    assert [c["style"] for row in result.components for c in row["components"]] == [5]  # a link to the line
    assert await table.game() is None
    assert used["draft_rounds"] == 3 * 3 and used["carried"] == 3 * 3 * 2  # 3 rounds × 3 passes (B-13, B-14)
    assert used["private"] > 30 and used["public"] > 30 and used["slash"] > 20 and used["hand"] > 3, used
    assert used["trick_edits"] > 10, used
    assert {"town", "keep", "active", "lead", "play", "option"} <= kinds, kinds
    assert table.checked["private"] > 100 and table.checked["images"] > 30 and table.checked["hands"] > 50
    for figure in rounds.values():  # at most one new message per change of who acts, plus one per scoring
        assert figure["messages"] <= figure["changes"] + figure["scorings"], rounds
    turns.observe()
    assert turns.silent == [], turns.silent  # no person's turn is silent (an edit notifies nobody)
    assert turns.figures()["pings_remaining"] == 0  # a ping goes once its people have acted
    FIGURES["brian-boru"] = {"steps": steps, "messages": len(turn_messages(fd, table.thread)),
                             "round 1": rounds[1], **turns.figures(), **discord_figures(fd)}
    print("issue 13 figures:", FIGURES["brian-boru"])  # shown with pytest -s; docs quote them
    start_line, result = fd.messages("general")[-2:]
    assert "thread below" in start_line.content and f"<#{table.thread.id}>" in result.content


FIGURES: dict[str, object] = {}


async def test_one_person_and_two_computer_players_keep_their_hands_to_themselves(table: Table):
    """Through the set-up and the first round: the computer players' moves are posted like
    anyone's and show no hand; the person is pinged whenever the table waits for her, with her
    own choices (privately where they show her cards)."""
    fd = table.fd
    await fd.slash("alice", "join", {"game": "brian-boru"})
    for _ in range(2):
        r = await fd.slash("alice", "table addbot", {"level": "random"})
        assert "(computer, random) joins the table" in r.public_messages[0].content
    await table.do(None, fd.slash("alice", "start"))
    game = await table.game()
    rng = random.Random(SEED)
    alice = fd.users["alice"].id
    moves = 0
    while game.s["round"] <= 1:  # set-up and the whole first round
        board = table.live()
        assert game.acting_seats() == [0] and f"<@{alice}>: " in board.content, board.content  # the bots moved
        me = choose_button(board)
        source = board
        if me is not None:
            r = await table.do(game, fd.click("alice", me, message=board))
            [source] = r.ephemeral_messages
            table.assert_own_cards(source, game, "alice")
        kind_, cid, values = rng.choice(choices_on(source))
        if kind_ == "button":
            r = await table.do(game, fd.click("alice", cid, message=source))
        else:
            r = await table.do(game, fd.select("alice", cid, values, message=source))
        assert r.ephemeral_messages == [], r.text
        moves += 1
    msgs = fd.messages(table.thread)
    bot_turns = [m for m in msgs if "(computer, random)" in m.content]
    assert moves > 10 and len(bot_turns) > moves / 2, (moves, len(bot_turns))
    assert all(m.notified in ([], [alice]) for m in msgs)  # only the person is ever pinged
    assert table.checked["public"] > moves and table.checked["images"] > moves
