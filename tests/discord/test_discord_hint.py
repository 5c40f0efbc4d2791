"""``/hint`` through the fake Discord (issue 25): a player asks on their own decision and alone sees
the hard level's choice (a legal move), its margin with its standard error (issue 30), why and the
runner-up; a table without ``hints``, a spectator and a player whose turn it is not are refused
privately; a Brian Boru hint does not change when only the other players' hands differ."""

from __future__ import annotations

from pathlib import Path

from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.games.registry import default_registry
from bot.host import hints
from bot.host.service import HostService
from bot.storage import Storage
from tests.discord.test_discord_e2e import user_of
from tests.engine.test_players import _bb_variant
from tests.fakediscord import FakeDiscord, InteractionResult


class Table:
    """The bot on a fresh database, a table in the channel itself (no thread)."""

    def __init__(self, fd: FakeDiscord, path: Path, seed: int = 5) -> None:
        self.fd, self.path, self.seed = fd, path, seed

    async def __aenter__(self) -> Table:
        self.store = await Storage.open(self.path)
        self.svc = HostService(self.store, default_registry(), seed_source=lambda: self.seed)
        self.bot = MeadhallBot(Config(dev_guild=self.fd.guild_id, threads=False), self.svc)
        await self.fd.start_bot(self.bot)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.fd.stop_bot(self.bot)
        await self.store.close()

    @property
    def channel(self) -> str:
        return str(self.fd.channel.id)

    async def open(self, game: str, players: tuple[str, ...], options: str | None, starter: str | None = None) -> None:
        for name in players:
            r = await self.fd.slash(name, "join", {"game": game})
            assert not r.ephemeral or "joined" in r.text, r.text
        r = await self.fd.slash(starter or players[0], "start", {"options": options} if options else {})
        assert r.public_messages, r.text

    async def acting(self) -> tuple[str, int]:
        table = await self.svc.table(self.channel)
        seat = table.game.acting_seats()[0]
        return user_of(self.fd, int(table.record.seats[seat].user)), seat


def privately(r: InteractionResult) -> str:
    """The answer: ephemeral, to the asker only, nobody pinged, nothing public."""
    assert r.ephemeral and r.public_messages == [], r.text
    assert all(m.visible_to == r.user.id and m.pinged == [] for m in r.ephemeral_messages)
    return r.text


async def test_hint_answers_the_player_on_their_turn_privately_with_a_legal_move(tmp_path):
    async with FakeDiscord() as fd, Table(fd, tmp_path / "hint.db") as t:
        await t.open("vikings", ("alice", "bob"), "hints")
        user, seat = await t.acting()
        table = await t.svc.table(t.channel)
        labels = [table.adapter.describe_action(table.game, a) for a in table.game.legal_actions(seat)]
        version = table.record.version
        text = privately(await fd.slash(user, "hint"))
        first, margin, why, runner = text.split("\n")[:4]
        assert first.removeprefix("Hint (only you see this): ") in labels
        assert "VP over the best rival" in margin and "about " in margin
        assert " ± " in margin and "one standard error" in margin  # issue 30: how sure it is
        assert why.startswith("Why: ") and runner.startswith("Runner-up: ")
        assert runner.removeprefix("Runner-up: ").rsplit(", about", 1)[0] in labels
        assert (await t.svc.table(t.channel)).record.version == version  # nothing was played
        assert not [m for m in fd.messages(fd.channel) if not m.ephemeral and "Hint (only" in m.content]
        # the other player, whose turn it is not, and a spectator: refused privately
        other = "bob" if user == "alice" else "alice"
        assert "not your turn" in privately(await fd.slash(other, "hint"))
        assert "not a player" in privately(await fd.slash("carol", "hint"))
    assert fd.internal_errors == [] and fd.unhandled == []


async def test_hint_speaks_the_askers_language(tmp_path):
    """A private answer: in the asker's client language (here Polish), the why's words too."""
    async with FakeDiscord() as fd, Table(fd, tmp_path / "pl.db") as t:
        await t.open("vikings", ("alice", "bob"), "hints")
        user, _seat = await t.acting()
        fd.user(user).locale = "pl"
        text = privately(await fd.slash(user, "hint"))
        assert text.startswith("Podpowiedź (widzisz ją tylko ty): "), text
        assert "PZ nad najlepszym rywalem" in text and "Dlaczego: " in text and "Drugi wybór: " in text
        assert " ± " in text and "błąd standardowy" in text and "standard error" not in text  # issue 30
        assert "runner-up" not in text and "Mostly" not in text
    assert fd.internal_errors == [] and fd.unhandled == []


async def test_hint_is_deferred_privately_when_the_search_outlasts_the_answer_window(tmp_path):
    """Discord's 3-second window: ``run()`` defers ephemerally (here at once) and the hint follows."""
    async with FakeDiscord() as fd, Table(fd, tmp_path / "slow.db") as t:
        await t.open("vikings", ("alice", "bob"), "hints")
        t.bot.defer_after = 0.0
        user, _seat = await t.acting()
        r = await fd.slash(user, "hint")
        assert r.deferred and "Hint (only you see this): " in privately(r)
    assert fd.internal_errors == [] and fd.unhandled == []


async def test_hint_option_is_offered_at_start_and_refused_on_a_table_started_without_hints(tmp_path):
    async with FakeDiscord() as fd, Table(fd, tmp_path / "plain.db") as t:
        assert "no table" in privately(await fd.slash("alice", "hint"))
        await fd.slash("alice", "join", {"game": "vikings"})
        offered = [c["value"] for c in await fd.autocomplete("alice", "start", focused="options", value="hi")]
        assert offered == ["hints"]
        await t.open("vikings", ("bob",), None, starter="alice")
        user, _seat = await t.acting()
        assert "not coached unless everyone agreed" in privately(await fd.slash(user, "hint"))
    assert fd.internal_errors == [] and fd.unhandled == []


async def test_hint_brianboru_is_the_same_when_only_other_hands_differ_B14(tmp_path):
    async with FakeDiscord() as fd, Table(fd, tmp_path / "bb.db", seed=3) as t:
        await t.open("brian-boru", ("alice", "bob", "carol"), "hints")
        while True:  # the start discs (B-9), then the draft: cards in hand
            table = await t.svc.table(t.channel)
            if table.game.s["pending"]["kind"] in ("keep", "lead", "play"):
                break
            seat = table.game.acting_seats()[0]
            r = await t.svc.act(t.channel, table.record.seats[seat].user, str(table.game.legal_actions(seat)[0]))
            assert r.ok, r
        user, seat = await t.acting()
        first = privately(await fd.slash(user, "hint"))
        table = await t.svc.table(t.channel)
        game = table.game
        labels = [table.adapter.describe_action(game, a) for a in game.legal_actions(seat)]
        assert first.split("\n")[0].removeprefix("Hint (only you see this): ") in labels
        assert "sampled deals played on; ± one standard error" in first  # a searched decision (B-14's draft)
        variant = _bb_variant(game, seat, 41)
        assert variant.view(seat) == game.view(seat) and variant.s["pile"] != game.s["pile"]
        game.s = variant.s  # a game that differs only in the other players' cards (in memory)
        hints._analyses.clear()  # searched again, not remembered
        assert privately(await fd.slash(user, "hint")) == first
    assert fd.internal_errors == [] and fd.unhandled == []
