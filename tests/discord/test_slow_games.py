"""Slow games (issue 24): whole games played over days of the fake Discord's clock, and a rush.

* A 3-player Vikings game (two people, one computer player) and a 4-player Brian Boru game (three
  people, one computer player), started with ``deadline:12h``. People answer minutes to half a day
  later (a seeded RNG), once a day and more later (the deadline passes: the computer moves for them,
  and the thread archives: the bot brings it back); the bot is restarted twice per game. The host's
  clock follows the fake's (``fd.wall_clock``), so reminders and deadlines fall due as days pass;
  the test calls ``send_due_reminders`` after each jump of the clock, as the reminder loop would
  when its real-time wait ends.
* Four people click as fast as they can at 20 tables at once (20 threads of one channel), with the
  fake's rate limits on.

Asserted: every interaction answered within 3 s and before any other REST call
(``fd.late_answers == []``), no ``10062`` served, nothing lost (the final game replayed from the
database equals the live one; every move acknowledged is in the log, in order), every turn of a
person notified by a new message pinging them, the result posted in the parent channel.

Two checks wait for the publishing branch (issue 24, ``publish``): the answer order
(``late_answers``) and a ping for every person's turn (a Brian Boru trick is one message, edited,
and a move made after a deadline names the next player without pinging them). Until it is merged
(``PUBLISH_MERGED``), those two are collected and reported as an expected failure at the very end,
after every other assertion has passed.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.discord.app import MeadhallBot
from bot.host.service import HostService
from bot.storage import effective_actions
from tests.discord.test_discord_brianboru import action_of, choose_button
from tests.discord.test_discord_e2e import Host
from tests.fakediscord import FakeDiscord, InteractionResult, Message, RateLimits
from tests.fakediscord.models import iter_components

PUBLISH_MERGED = True  # the lead: True once the publish branch (answer first, a ping per turn) is merged

HOUR = 3600.0
REMINDER_DELAY = 4 * HOUR
DEADLINE = "12h"


class SlowHost(Host):
    """The e2e tests' Host on the fake's clock: reminders every 4 h, two of them, the deadline's
    take-over after 3 misses; its ``start`` waits until the start-up look at the tables is done."""

    def __init__(self, fd: FakeDiscord, path: Path, seed: int) -> None:
        super().__init__(fd, path, seed=seed, clock=fd.wall_clock, reminder_delay=REMINDER_DELAY,
                         reminder_limit=2, deadline_takeover=3)
        # reminder_poll: the test sends due reminders itself after each jump of the clock
        self.bot_kw = {"bot_pause": 0.0, "reminder_poll": 3600.0}

    async def start(self) -> MeadhallBot:
        bot = await super().start()
        await bot.bots_idle()
        return bot


def user_of(fd: FakeDiscord, uid: str) -> str | None:
    return next((n for n, u in fd.users.items() if str(u.id) == uid), None)


def choices_on(msg: Message) -> list[tuple[str, str, list[str]]]:
    """(kind, custom_id, values) for every single choice a message offers (a draft: every pair);
    not the free actions (Vikings' exchange), which would never end a turn."""
    out: list[tuple[str, str, list[str]]] = []
    for comp in iter_components(msg.components):
        cid = comp.get("custom_id") or ""
        if comp.get("disabled") or "exchange" in cid:
            continue
        if comp["type"] == 2 and ":b:" in cid:
            out.append(("button", cid, []))
        elif comp["type"] == 3 and cid.startswith("mh:"):
            values = [o["value"] for o in comp["options"] if not o["value"].startswith("exchange")]
            if comp.get("max_values", 1) == 2:
                out += [("select", cid, [a, b]) for i, a in enumerate(values) for b in values[i + 1:]]
            else:
                out += [("select", cid, [v]) for v in values]
    return out


@dataclass
class Figures:
    moves: int = 0  # moves people made (acknowledged)
    slash: int = 0  # of which typed (/move) because no live control offered them
    seconds: float = 0.0  # simulated
    archives: int = 0
    revived: int = 0
    restarts: int = 0
    reminders: int = 0
    deadline_moves: int = 0
    rate_limited: int = 0
    wall: float = 0.0
    unnotified: list[str] = field(default_factory=list)  # person turns no new message pinged

    def days(self) -> float:
        return round(self.seconds / 86400, 1)


class Driver:
    """Plays a table the way people would: the live message's buttons and selects, the private
    "Make your choice" for hidden choices, a confirmation when asked; ``/move`` when no control
    offers the decision (after a move made by the deadline, the old message's controls are stale)."""

    def __init__(self, fd: FakeDiscord, host: SlowHost, rng: random.Random, thread: Any) -> None:
        self.fd, self.host, self.rng, self.thread = fd, host, rng, thread
        self.key = str(thread.id)
        self.acknowledged: list[tuple[int, str, int, int]] = []  # (seat, action, version before, after)
        self.results: list[InteractionResult] = []
        self.figures = Figures()
        self.acting_before: set[str] = set()
        self.mark = 0  # the newest message id when who acts was last looked at
        self.last_game: Any = None

    @property
    def svc(self) -> HostService:
        assert self.host.svc is not None
        return self.host.svc

    def live(self) -> Message | None:
        usable = [m for m in self.fd.messages(self.thread) if choices_on(m) or choose_button(m)]
        return usable[-1] if usable else None

    async def persons_to_act(self) -> list[tuple[int, str]]:
        table = await self.svc.table(self.key)
        if table is None or table.game is None or table.game.is_over:
            return []
        self.last_game = table.game
        seats = table.record.seats
        return [(s, name) for s in table.game.acting_seats() if (name := user_of(self.fd, seats[s].user))]

    def look(self, acting: list[tuple[int, str]]) -> None:
        """A person who now must act and did not before must have been pinged by a new message
        (not a reminder) since the last look."""
        now = {name for _, name in acting}
        for name in now - self.acting_before:
            uid = self.fd.users[name].id
            if not any(m.id > self.mark and uid in m.notified and "Reminder:" not in m.content
                       for m in self.fd.messages(self.thread) + self.fd.messages("general")):
                self.figures.unnotified.append(f"{name} at move {self.figures.moves}")
        self.acting_before = now
        self.mark = max((m.id for m in self.fd.messages(self.thread)), default=self.mark)

    async def version(self) -> int:
        table = await self.svc.table(self.key)
        return -1 if table is None else table.record.version

    async def interact(self, coro) -> InteractionResult:
        r = await coro
        self.results.append(r)
        assert r.callback is not None and r.response_time is not None and r.response_time < 3, r.text
        return r

    async def move(self, seat: int, name: str) -> None:
        """``name`` makes one decision of seat ``seat``."""
        before = await self.version()
        live = self.live()
        source = live
        if live is not None and (me := choose_button(live)) is not None:
            r = await self.interact(self.fd.click(name, me, message=live))
            source = r.ephemeral_messages[0] if r.ephemeral_messages and choices_on(r.ephemeral_messages[0]) else None
        offered = choices_on(source) if source is not None else []
        text = None
        if offered and await self.version() == before:
            kind, cid, values = self.rng.choice(offered)
            text = action_of(kind, cid, values)
            if kind == "button":
                r = await self.interact(self.fd.click(name, cid, message=source))
            else:
                r = await self.interact(self.fd.select(name, cid, values, message=source))
            asked = [m for m in r.ephemeral_messages if any(":ok:" in c for c in m.custom_ids)]
            if asked:  # a buy that spends VP, a sailor's whole trip: yes, privately
                yes = next(c for c in asked[0].custom_ids if ":ok:" in c)
                await self.interact(self.fd.click(name, yes, message=asked[0]))
        if await self.version() == before:  # stale controls (another move came first), or none: type it
            table = await self.svc.table(self.key)
            assert table is not None and table.game is not None
            legal = [str(a) for a in table.game.legal_actions(seat)]
            legal = [a for a in legal if not a.startswith("exchange")] or legal
            text = self.rng.choice(sorted(legal))
            await self.interact(self.fd.slash(name, "move", {"choice": text}, channel=self.thread))
            self.figures.slash += 1
        after = await self.version()
        assert after != before, f"{name}'s move {text!r} changed nothing"
        self.acknowledged.append((seat, text or "?", before, after if after >= 0 else 10**9))
        self.figures.moves += 1

    async def pass_time(self, seconds: float) -> None:
        """Days pass: the fake's clock jumps; due reminders and deadlines are handled; a thread
        Discord archived meanwhile is brought back by the bot."""
        fake_thread = self.fd.threads[self.thread.id]
        revived = len(self.host.bot.keeper.revived) if self.host.bot else 0
        await self.fd.advance(seconds)
        self.figures.seconds += seconds
        archived = fake_thread.archived
        self.figures.archives += archived
        assert self.host.bot is not None
        before = len(self.fd.messages(self.thread))
        await self.host.bot.send_due_reminders()
        await self.host.bot.bots_idle()
        posted = self.fd.messages(self.thread)[before:]
        self.figures.reminders += sum("Reminder:" in m.content for m in posted)
        # a move made after a deadline is published like a computer player's: a new message, or
        # narrated on the live message when the same decision goes on (a Brian Boru trick)
        self.figures.deadline_moves = sum("after the deadline" in m.content for m in self.fd.messages(self.thread))
        if archived:
            end = time.monotonic() + 5
            while fake_thread.archived:
                assert time.monotonic() < end, "the game's thread stayed archived"
                await asyncio.sleep(0.01)
            self.figures.revived += len(self.host.bot.keeper.revived) > revived or not fake_thread.archived

    async def play(self, *, long_gap_at: int, restarts_at: tuple[int, int]) -> None:
        """Until the game ends: between two moves of people, minutes to half a day pass (a
        reminder or two); once, more than the thread's archive duration (the deadline passes too);
        twice the bot restarts."""
        archive = self.fd.threads[self.thread.id].auto_archive_duration * 60
        steps = 0
        while True:
            acting = await self.persons_to_act()
            if not acting:
                await self.host.bot.bots_idle()
                acting = await self.persons_to_act()
                if not acting:
                    table = await self.svc.table(self.key)
                    assert table is None or table.game is None or table.game.is_over, (
                        table.record.seats, table.game.acting_seats(), [m.content for m in self.fd.messages(self.thread)[-3:]])
                    break
            self.look(acting)
            steps += 1
            assert steps < 1500
            if self.figures.moves == long_gap_at:
                await self.pass_time(archive + HOUR)  # a day and more, or a week: the deadline and the archive
            elif self.figures.moves in restarts_at:
                await self.host.stop()
                await self.fd.advance(self.rng.uniform(60, 2 * HOUR))
                await self.host.start()
                self.figures.restarts += 1
                await self.pass_time(60)
            else:
                await self.pass_time(self.rng.uniform(60, 11 * HOUR))
            acting = await self.persons_to_act()
            if not acting:
                continue
            self.look(acting)
            if self.rng.random() < 0.5 and len(acting) > 1:
                self.rng.shuffle(acting)
            seat, name = acting[0]
            await self.move(seat, name)
            await self.host.bot.bots_idle()


async def assert_nothing_lost(driver: Driver, match_id: int, *, finished: bool = True) -> None:
    """The final game replayed from the database equals the live one; every move a person made
    (and was answered for) is in the log, in order."""
    svc = driver.svc
    replayed = await svc.replay(match_id)
    record = await svc.storage.get_match(match_id)
    assert record is not None and record.status == ("finished" if finished else "active")
    assert driver.last_game is not None and replayed.to_json() == driver.last_game.to_json() == record.snapshot
    logged = await svc.storage.actions(match_id)
    assert [a.seq for a in logged] == list(range(1, len(logged) + 1)) and effective_actions(logged) == logged
    for seat, text, before, after in driver.acknowledged:
        made = [(a.seat, a.action) for a in logged if before < a.seq <= after]
        # the person's move is the first logged after the version they saw (a whole sailor's trip
        # is logged as its sail moves)
        assert made and made[0][0] == seat, (seat, text, made)
        assert text.startswith("trip ") or made[0][1] == text, (seat, text, made)


def publishing_checks(fd: FakeDiscord, figures: Figures) -> list[str]:
    """What waits on the publish branch: answers before any other REST call, a ping per turn."""
    problems = []
    if fd.late_answers:
        problems.append(f"{len(fd.late_answers)} interactions answered after other REST calls")
        # which ones and what went first, so that a failure under load can be told from a race
        problems.extend(f"late: {i.data.get('custom_id') or i.data.get('name')} in {i.channel_id}, answered "
                        f"{(i.callback or {}).get('type')} after "
                        + ", ".join(f"{r.method} {r.path}" for r in i.calls_before_answer)
                        for i in fd.late_answers)
    if figures.unnotified:
        problems.append(f"{len(figures.unnotified)} person turns not pinged: {figures.unnotified[:5]}")
    return problems


def no_dead_tokens(fd: FakeDiscord) -> None:
    dead = [r for r in fd.requests if r.status == 404 and isinstance(r.response, dict) and r.response.get("code") == 10062]
    assert dead == [], [(r.method, r.path) for r in dead]


async def slow_game(tmp_path: Path, game: str, people: tuple[str, ...], seed: int, *, long_gap_at: int,
                    restarts_at: tuple[int, int]) -> tuple[Figures, list[str]]:
    started = time.monotonic()
    async with FakeDiscord(strict_answer_order=False, lifetime=240) as fd:
        host = SlowHost(fd, tmp_path / f"{game}.db", seed)
        await host.start()
        try:
            for user in people:
                await fd.slash(user, "join", {"game": game})
            await fd.slash(people[0], "table addbot", {"level": "random"})
            r = await fd.slash(people[0], "start", {"game": game, "options": f"deadline:{DEADLINE}"})
            [thread] = fd.threads_of("general")
            assert r.callback is not None
            match_id = (await host.svc.table(str(thread.id))).record.id
            driver = Driver(fd, host, random.Random(seed), thread)
            await driver.play(long_gap_at=long_gap_at, restarts_at=restarts_at)
            figures = driver.figures
            figures.rate_limited = len(fd.rate_limited)
            assert figures.restarts == 2 and figures.archives >= 1 and figures.revived >= 1, figures
            assert figures.reminders >= 1 and figures.deadline_moves >= 1, figures
            await assert_nothing_lost(driver, match_id)
            result = fd.messages("general")[-1]
            assert f"<#{thread.id}>" in result.content and "Game over" in result.content, result.content
            no_dead_tokens(fd)
            assert fd.internal_errors == [] and fd.unhandled == []
            problems = publishing_checks(fd, figures)
        finally:
            await host.stop()
    figures.wall = round(time.monotonic() - started, 1)
    print(f"slow {game}: {figures}, {figures.days()} days")
    return figures, problems


def waiting_on_publish(problems: list[str]) -> None:
    if problems and not PUBLISH_MERGED:
        pytest.xfail("waiting on the publish branch (issue 24): " + "; ".join(problems))
    assert problems == []


@pytest.mark.slow
async def test_a_slow_vikings_game_over_weeks_two_people_and_a_computer(tmp_path):
    figures, problems = await slow_game(tmp_path, "vikings", ("alice", "bob"), seed=11, long_gap_at=20,
                                        restarts_at=(35, 90))
    assert figures.moves > 50
    waiting_on_publish(problems)


@pytest.mark.slow
async def test_a_slow_brian_boru_game_over_weeks_three_people_and_a_computer(tmp_path):
    figures, problems = await slow_game(tmp_path, "brian-boru", ("alice", "bob", "carol"), seed=5, long_gap_at=15,
                                        restarts_at=(30, 70))
    assert figures.moves > 40
    waiting_on_publish(problems)


@pytest.mark.slow
async def test_four_people_click_as_fast_as_they_can_at_twenty_tables(tmp_path):
    """20 Vikings tables, each in its own thread of one channel, two of the four people at each;
    every round each table's player to act clicks at once (``asyncio.gather``), with the fake's
    rate limits on at Discord's own windows (rate-limits.mdx; ``RateLimits(scale=1.0)``)."""
    people = ("alice", "bob", "carol", "dave")
    tables, rounds = 20, 6
    started = time.monotonic()
    async with FakeDiscord(strict_answer_order=False, lifetime=240, rate_limits=RateLimits(scale=1.0)) as fd:
        host = SlowHost(fd, tmp_path / "rush.db", 17)
        await host.start()
        try:
            drivers: list[tuple[Driver, int]] = []
            for i in range(tables):
                pair = (people[i % 4], people[(i + 1 + (i // 4) % 3) % 4])  # every pair of the four
                for user in pair:
                    await fd.slash(user, "join", {"game": "vikings"})
                await fd.slash(pair[0], "start")
                thread = fd.threads_of("general")[-1]
                match_id = (await host.svc.table(str(thread.id))).record.id
                drivers.append((Driver(fd, host, random.Random(i), thread), match_id))
            assert len({d.key for d, _ in drivers}) == tables

            async def one(driver: Driver) -> None:
                [(seat, name)] = await driver.persons_to_act()
                driver.look([(seat, name)])
                await driver.move(seat, name)

            for _round in range(rounds):
                await asyncio.gather(*(one(d) for d, _ in drivers))
            for driver, match_id in drivers:
                driver.look(await driver.persons_to_act())
                assert driver.figures.moves == rounds
                await assert_nothing_lost(driver, match_id, finished=False)
            no_dead_tokens(fd)
            assert fd.internal_errors == [] and fd.unhandled == []
            figures = Figures(moves=sum(d.figures.moves for d, _ in drivers), rate_limited=len(fd.rate_limited),
                              slash=sum(d.figures.slash for d, _ in drivers),
                              unnotified=[u for d, _ in drivers for u in d.figures.unnotified])
            answers = sorted(r.response_time for d, _ in drivers for r in d.results)
            problems = publishing_checks(fd, figures)
        finally:
            await host.stop()
    figures.wall = round(time.monotonic() - started, 1)
    print(f"rush: {figures}; slowest answers {answers[-3:]} s; 429s {fd.rate_limited[:3]}")
    waiting_on_publish(problems)
