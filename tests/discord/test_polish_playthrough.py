"""A whole game in Polish, no English anywhere (issue 16).

The server's preferred locale and every player's client are Polish (``pl``). Through the fake
Discord, two people play a whole Vikings game (basic and advanced) and three people a whole Brian
Boru game; at the offline table (``meadhall play --lang pl``) the same. Every message a player gets
— its text, embeds (title, description, fields, footer), button labels, select placeholders and
options, the alt text of its pictures, each of its earlier versions, ephemeral replies and the
autocomplete's choices — and every text the renderer draws on the pictures must pass the English
detector (tests/english.py). The detector is tested first: it fires on an English line and not on
its Polish translation.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot import i18n
from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.discord.publishing.recap import thread_closed
from bot.games.registry import default_registry
from bot.games.vikings import OPTION_WORDS
from bot.host.service import HostService
from bot.offline.table import OfflineTable
from bot.storage import Storage
from renderer.common import TextLog, recording
from tests.english import assert_no_english, english_words
from tests.fakediscord import FakeDiscord, InteractionResult, Message
from tests.fakediscord.models import iter_components

PLAYERS2 = ("alice", "bob")
PLAYERS3 = ("alice", "bob", "carol")
_LISTED = re.compile(r"^(?:\(.*?\))?\s+(\d+)  \S")  # a numbered choice at the offline table
# /start's option words are typed arguments (``single-sailor``), like command names
ALLOWED = (*[w for w in OPTION_WORDS if "-" in w], "Vikings", "Brian Boru")


# --------------------------------------------------------------------------- the detector itself


@pytest.mark.parametrize("english,polish", [
    ("alice buys the fisher with a left island end for 3 gold.",
     "alice kupuje rybaka z lewym nadbrzeżem za 3 zł."),
    ("It is not your turn: bob must place the tile.",
     "To nie twoja kolej: bob musi położyć płytkę."),
    ("Round 2 of 6 begins; a small scoring follows it. Start player: bob.",
     "Zaczyna się runda 2 z 6; po niej mała punktacja. Gracz rozpoczynający: bob."),
    ("Game over. Winner: alice.", "Koniec gry. Zwycięzca: alice."),
    ("Choose your cards privately", "Wybierz karty (tylko ty je widzisz)"),
])
def test_the_english_detector_fires_on_english_not_on_polish(english: str, polish: str) -> None:
    assert english_words(english, ["alice", "bob"]), english
    assert english_words(polish, ["alice", "bob"]) == [], polish


@pytest.mark.parametrize("line", [
    "<@123>: kup kombinację (/buy 3) albo `sail done`",
    "V-14, B-22 i [D-6]: zasady; pole W3, statek ^2, płytka Ma",
    "Szczegóły: https://example.com/the/rules/of/the/game",
    "Gra Vikings: alice, bob — użyj /table undo albo /records show; opcja single-sailor",
    "bob wybiera: place S4 N1, buy 5, sail done",
])
def test_the_english_detector_leaves_names_commands_codes_and_links_alone(line: str) -> None:
    assert english_words(line, ["alice", "bob", *ALLOWED]) == []


def test_the_english_detector_reports_every_english_line() -> None:
    with pytest.raises(AssertionError, match="your"):
        assert_no_english(["Dobrze.", "Choose your move"], ["alice"])
    assert assert_no_english(["Dobrze.", "Wybierz ruch"], ["alice"]) == 2


# --------------------------------------------------------------------------- what a Discord user sees


def message_texts(msg: Message) -> list[str]:
    """Every text a message shows now and showed in each earlier version."""
    out: list[str] = []
    for version in [*msg.history, msg.snapshot()]:
        out.append(version.get("content") or "")
        for e in version.get("embeds") or []:
            out += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or "",
                    (e.get("author") or {}).get("name") or ""]
            for f in e.get("fields") or []:
                out += [f.get("name") or "", f.get("value") or ""]
        for comp in iter_components(version.get("components")):
            out += [comp.get("label") or "", comp.get("placeholder") or "", comp.get("content") or ""]
            for option in comp.get("options") or []:
                out += [option.get("label") or "", option.get("description") or ""]
    out += [a.description or "" for a in msg.attachments]
    return [t for t in out if t]


def choices(msg: Message) -> list[tuple[str, str, list[str]]]:
    """(kind, custom_id, values) for the choices a message offers (a 2-card draft: a pair)."""
    out: list[tuple[str, str, list[str]]] = []
    for comp in iter_components(msg.components):
        if comp.get("disabled"):
            continue
        if comp["type"] == 2 and comp.get("custom_id"):
            out.append(("button", comp["custom_id"], []))
        elif comp["type"] == 3:
            values = [o["value"] for o in comp["options"]]
            k = comp.get("min_values", 1)
            out += [("select", comp["custom_id"], values[i:i + k]) for i in range(0, len(values) - k + 1)]
    return out


class PolishTable:
    """Discord in Polish: the guild's preferred locale and every member's client are ``pl``."""

    def __init__(self, fd: FakeDiscord, tmp_path: Path, users: tuple[str, ...]) -> None:
        self.fd, self.tmp_path, self.users = fd, tmp_path, users
        fd.guild().locale = "pl"
        for user in fd.users.values():
            user.locale = "pl"
        self.log = TextLog()
        self.autocomplete: list[str] = []
        self.rng = random.Random(16)
        self.store: Storage | None = None

    async def start(self) -> None:
        self.store = await Storage.open(self.tmp_path / "pl.db")
        self.svc = HostService(self.store, default_registry(), seed_source=lambda: 16)
        await self.svc.load()
        self.bot = MeadhallBot(Config(dev_guild=self.fd.guild_id, database=self.tmp_path / "pl.db"), self.svc,
                               bot_pause=0.0)
        with recording(self.log):  # the bot's tasks (and their picture threads) record every drawn text
            await self.fd.start_bot(self.bot)

    async def stop(self) -> None:
        await self.fd.stop_bot(self.bot)
        assert self.store is not None
        await self.store.close()

    @property
    def thread(self) -> Any:
        threads = self.fd.threads_of("general")
        return threads[-1] if threads else self.fd.channel

    async def game(self) -> Any:
        table = await self.svc.table(str(self.thread.id))
        return None if table is None else table.game

    async def acting_users(self) -> list[str]:
        table = await self.svc.table(str(self.thread.id))
        return [table.record.seats[s].user for s in table.game.acting_seats()]

    def user_of(self, uid: str) -> str:
        return next(n for n, u in self.fd.users.items() if str(u.id) == uid)

    async def answer(self, user: str, r: InteractionResult, depth: int = 0) -> None:
        """A private question (confirm a buy, a sailor's trip, one's own cards): answer it."""
        for mine in r.ephemeral_messages:
            offered = [c for c in choices(mine) if c[0] == "button" or c[2]]
            if offered and depth < 4:
                kind, cid, values = self.rng.choice(offered)
                nxt = await (self.fd.click(user, cid, message=mine) if kind == "button"
                             else self.fd.select(user, cid, values, message=mine))
                await self.answer(user, nxt, depth + 1)

    async def typed(self, user: str, command: str, focused: str, value: str = "") -> None:
        """Look at what the autocomplete offers (its names are shown to the user)."""
        offered = await self.fd.autocomplete(user, command, focused=focused, value=value, channel=self.thread)
        self.autocomplete += [c["name"] for c in offered]

    async def play(self, until: Any, looks: Any) -> int:
        """Click random choices on the live message (and the private ones it opens) until ``until(game)``."""
        moves = 0
        while (game := await self.game()) is not None and not until(game):
            moves += 1
            assert moves < 700
            users = [self.user_of(u) for u in await self.acting_users()]
            user = self.rng.choice(users)
            [live] = [m for m in self.fd.messages(self.thread) if choices(m)]
            await looks(self, user, moves)
            me = next((cid for _k, cid, _v in choices(live) if cid.endswith(":me")), None)
            source = live
            if me is not None:  # hidden choices: the private button opens them
                r = await self.fd.click(user, me, message=live)
                [source] = r.ephemeral_messages
            offered = [c for c in choices(source) if not c[1].endswith(":me")]
            plain = [c for c in offered if "exchange" not in c[1] and "exchange" not in " ".join(c[2])]
            kind, cid, values = self.rng.choice(plain or offered)
            r = await (self.fd.click(user, cid, message=source) if kind == "button"
                       else self.fd.select(user, cid, values, message=source))
            await self.answer(user, r)
        return moves

    def assert_all_polish(self, where: str) -> int:
        names = [*self.fd.users, *ALLOWED]
        seen = self.fd.messages(ephemeral=None, include_deleted=True)
        texts = [t for m in seen for t in message_texts(m)]
        checked = assert_no_english(texts, names, f"{where}: messages") + assert_no_english(
            self.autocomplete, names, f"{where}: autocomplete")
        drawn = [t.wanted or t.text for t in self.log.texts]
        assert len(drawn) > 100, len(drawn)  # the pictures were recorded
        return checked + assert_no_english(drawn, names, f"{where}: pictures")


async def vikings_looks(t: PolishTable, user: str, moves: int) -> None:
    """Now and then a player looks around, asks for help, or tries something refused."""
    fd, other = t.fd, next(u for u in PLAYERS2 if u != user)
    if moves == 3:
        await fd.slash(other, "move", {"choice": "buy 1"}, channel=t.thread)  # not your turn
        await fd.slash("carol", "board", {"private": True}, channel=t.thread)  # not a player
        await fd.slash(user, "buy", {"choice": "banana"}, channel=t.thread)  # cannot read
        await t.typed(user, "buy", "choice")
        await t.typed(user, "move", "choice")
    elif moves == 5:
        await fd.slash(user, "exchange", {"choice": "1"}, channel=t.thread)
        await fd.slash("dave", "board", channel=t.thread)
        await fd.slash("dave", "help", channel=t.thread)
        await fd.slash(user, "table status", channel=t.thread)
    elif moves == 40:
        await fd.slash(user, "board", {"private": True}, channel=t.thread)
        await t.typed(user, "sail", "choice")


async def brianboru_looks(t: PolishTable, user: str, moves: int) -> None:
    fd = t.fd
    if moves in (2, 17):
        await fd.slash(user, "hand", channel=t.thread)
        await fd.slash("dave", "hand", channel=t.thread)  # not a player
        await t.typed(user, "move", "choice")
    elif moves == 9:
        await fd.slash("dave", "board", channel=t.thread)
        await fd.slash(user, "table status", channel=t.thread)
        await fd.slash("dave", "help", channel=t.thread)


async def open_table(t: PolishTable, game: str, options: str | None = None) -> None:
    fd = t.fd
    await fd.slash(t.users[0], "join", {"game": game})
    await fd.slash(t.users[0], "join")  # already seated: refused
    for user in t.users[1:]:
        await fd.slash(user, "join")
    await fd.slash("dave", "start")  # not a player: refused
    await t.typed(t.users[0], "start", "options")
    await fd.slash(t.users[0], "start", {"options": options} if options else {})


@pytest.mark.parametrize("options", [None, "advanced"])
async def test_a_whole_vikings_game_through_discord_in_polish(fd: FakeDiscord, tmp_path: Path,
                                                            options: str | None) -> None:
    t = PolishTable(fd, tmp_path, PLAYERS2)
    await t.start()
    try:
        await open_table(t, "vikings", options)
        moves = await t.play(lambda g: g.is_over, vikings_looks)
        assert await t.game() is None and "Koniec gry" in fd.messages(t.thread)[-1].content
        await thread_closed(str(t.thread.id))  # the recap, then the archive, each in a task of its own
        assert fd.threads[t.thread.id].archived  # issue 25: a finished game's thread is archived
        await fd.user_says("alice", t.thread, "dobra gra")  # a person's message un-archives it (threads.mdx)
        await fd.slash("alice", "table export", channel=t.thread)
        checked = t.assert_all_polish(f"Vikings {options or 'basic'}")
        assert moves > 60 and checked > 200, (moves, checked)
    finally:
        await t.stop()


async def test_a_whole_brian_boru_game_through_discord_in_polish(fd: FakeDiscord, tmp_path: Path) -> None:
    """Three rounds (more than the round asked for): the final scoring's message and picture too."""
    t = PolishTable(fd, tmp_path, PLAYERS3)
    await t.start()
    try:
        await open_table(t, "brian-boru")
        moves = await t.play(lambda g: g.is_over, brianboru_looks)
        assert await t.game() is None and "Koniec gry" in "\n".join(m.content for m in fd.messages(t.thread)[-2:])
        checked = t.assert_all_polish("Brian Boru")
        assert moves > 60 and checked > 200, (moves, checked)
    finally:
        await t.stop()


# --------------------------------------------------------------------------- the offline table


async def offline_game(tmp_path: Path, game: str, users: tuple[str, ...], until: Any, options: str = "",
                       log: TextLog | None = None) -> list[str]:
    """``meadhall play --lang pl``: a hot seat where a number picks one of the listed choices."""
    store = await Storage.open(tmp_path / "offline.db")
    i18n.set_language("pl")
    try:
        with recording(log):
            return await _offline_lines(store, tmp_path, game, users, until, options)
    finally:
        i18n.set_language(i18n.SOURCE_LANGUAGE)
        await store.close()


async def _offline_lines(store: Storage, tmp_path: Path, game: str, users: tuple[str, ...], until: Any,
                         options: str) -> list[str]:
    svc = HostService(store, default_registry(), seed_source=lambda: 16)
    t = OfflineTable(svc, tmp_path / "out", channel="offline")
    rng = random.Random(16)
    out: list[str] = []
    for user in users:
        out += await t.handle(f"{user}: /join {game}")
    out += await t.handle(f"{users[0]}: /start {options}")
    out += await t.handle("nobody: /start")  # refused
    for step in range(1000):
        table = await svc.table(t.channel)
        if table is None or until(table.game):
            break
        user = table.record.seats[table.game.acting_seats()[0]].user
        if step in (3, 30):
            out += await t.handle(f"{user}: /board")
            out += await t.handle(f"{user}: /hand")
            out += await t.handle(f"{user}: /status")
            out += await t.handle(f"{user}: 999")  # no such choice
            out += await t.handle(f"{user}: /buy banana")
            out += await t.handle(f"{user}: /help")
        listed = await t.handle(f"{user}: /choices")
        out += listed
        numbers = [int(m.group(1)) for line in listed for m in [_LISTED.match(line)] if m]
        n = max(numbers, default=1)
        version = table.record.version
        out += await t.handle(f"{user}: {rng.randint(1, n)}")
        after = await svc.table(t.channel)
        if after is not None and after.record.version == version and n > 1:  # a choice of two (the draft)
            a, b = rng.sample(range(1, n + 1), 2)
            out += await t.handle(f"{user}: {a} {b}")
    out += await t.handle("/quit")
    return out


@pytest.mark.parametrize("options", ["", "advanced"])
async def test_a_whole_vikings_game_offline_in_polish(tmp_path: Path, options: str) -> None:
    log = TextLog()
    out = await offline_game(tmp_path, "vikings", PLAYERS2, lambda g: g.is_over, options, log)
    assert any("Koniec gry" in line for line in out), out[-5:]
    assert assert_no_english(out, [*PLAYERS2, *ALLOWED], "the offline Vikings table") > 1000
    assert assert_no_english([t.wanted or t.text for t in log.texts], [*PLAYERS2, *ALLOWED], "offline pictures") > 100


async def test_a_whole_brian_boru_game_offline_in_polish(tmp_path: Path) -> None:
    log = TextLog()
    out = await offline_game(tmp_path, "brian-boru", PLAYERS3, lambda g: g.is_over, log=log)
    assert any("runda 3" in line.lower() for line in out) and any("Koniec gry" in line for line in out), out[-5:]
    assert assert_no_english(out, [*PLAYERS3, *ALLOWED], "the offline Brian Boru table") > 300
    assert assert_no_english([t.wanted or t.text for t in log.texts], [*PLAYERS3, *ALLOWED], "offline pictures") > 100


# --------------------------------------------------------------------------- the closing note's samples


async def test_the_i18n_samples_are_the_committed_ones_and_polish_is_polish(tmp_path: Path) -> None:
    """``python -m bot.demos.samples i18n``: the seeded Polish turn message, in Polish, as committed in
    docs/samples/i18n (same seed, same moves), with its pictures."""
    from bot.demos.samples import vikings_samples

    written = await vikings_samples("pl", tmp_path)
    assert sorted(p.name for p in written) == ["scoring-pl.png", "turn-pl.png", "turn-pl.txt"]
    text = (tmp_path / "turn-pl.txt").read_text(encoding="utf-8")
    assert "@Bjorn: " in text or "@Astrid: " in text
    assert_no_english([text], ["Astrid", "Bjorn"], "the Polish sample")
    committed = Path(__file__).resolve().parents[2] / "docs" / "samples" / "i18n" / "turn-pl.txt"
    assert text == committed.read_text(encoding="utf-8")
    for png in ("turn-pl.png", "scoring-pl.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
