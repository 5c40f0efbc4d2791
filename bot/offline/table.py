"""The offline table: the same host service in a terminal.

Lines look like chat messages::

    alice: /join            # alice joins (or any command: /start vikings advanced, /buy 3 …)
    /buy 3                  # a plain line speaks for the player to act (a hot seat)
    2                       # pick choice 2 of the numbered list shown to the player to act
    /as bob                 # from now on plain lines are bob's; /as alone: the player to act again
    /board                  # the table as text, and the image written to the output folder
    /hand                   # what only the speaker may see (Brian Boru's hand)
    /hint                   # the hard level's advice for the speaker's decision (a table started with hints)
    /addbot normal          # seat a computer player (random, easy, normal or hard; alone: normal, levels listed)
    /quit

Whoever must decide sees their legal choices numbered, and a line of just that number (or, for a
choice of several, the numbers) decides: nobody has to type a move. A list whose labels carry
their own numbers (Vikings' wheel positions, which are the prices) is listed under those numbers. Images are written to the
output folder and their paths printed; the table is also shown as text after every move, once
the computer players have moved too (its key the first time and on /board). Messages meant for one player only are marked ``(only NAME sees)``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

from bot.games import table_language
from bot.games.widgets import Widget, widgets_for
from bot.host.service import HostService, Reply, is_computer
from bot.i18n import _, current_language, ngettext, use_language
from bot.i18n.text import quote

log = logging.getLogger(__name__)

_SPEAKER = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*:\s*(.*)$")
_NUMBERS = re.compile(r"^[0-9]{1,3}(?:[ ,]+[0-9]{1,3})*$")
LOBBY_USER = "player1"  # who a plain line speaks for while nobody has a decision to make
PICTURE_TAGS = ("board", "recap", "analysis")  # commands whose picture is named apart from the move pictures
MAX_LISTED = 40  # more choices than this are listed in part; the rest can be typed


def rematch_hint() -> str:
    """Said when a game ends at the offline table (issue 25)."""
    return _("/rematch plays the same game again: the same players and options, a new deal.")


def only_sees(name: str) -> str:
    """The mark of a line meant for one player (outside an f-string, so Babel extracts it)."""
    return _("(only {name} sees)", name=name)


def choice_list(widgets: list[Widget]) -> tuple[list[tuple[str, str]], Widget | None]:
    """The widgets of one decision as one numbered list of ``(label, value)``.

    Buttons and selects (one value each) are one list whose values are action texts; a
    multi-select (Brian Boru's "keep 2 cards") is returned as itself: its numbers are combined.
    """
    multi = next((w for w in widgets if w.kind == "multiselect"), None)
    if multi is not None:
        return list(multi.options), multi
    return [(label, w.action([value])) for w in widgets for label, value in w.options], None


_OWN_NUMBER = re.compile(r"^([0-9]{1,3}): (.+)$")


def numbered(options: list[tuple[str, str]]) -> list[tuple[int, str, str]]:
    """``(number, label, value)``: the number a player types for each option.

    Where every label begins with a number of its own ("7: scout + … — 7 gold", Vikings' wheel
    position, which is also the price, V-13), that number is the choice's number and leaves the
    label, so one number stands for one thing; otherwise the options are counted from 1.
    """
    own = [_OWN_NUMBER.match(label) for label, _value in options]
    if options and all(own) and len({m.group(1) for m in own if m}) == len(own):
        return [(int(m.group(1)), m.group(2), value) for m, (_label, value) in zip(own, options, strict=True) if m]
    return [(i, label, value) for i, (label, value) in enumerate(options, start=1)]


class BotDriver(Protocol):
    """What moves the computer players of a table (``bot.host.seats.play_bots`` by default)."""

    async def play(self, service: HostService, channel: str) -> list[Reply]: ...


class OfflineTable:
    """Feeds typed lines to a :class:`HostService` as one channel; returns what to print."""

    def __init__(self, service: HostService, out_dir: Path, *, channel: str = "offline",
                 user: str | None = None, bots: BotDriver | None = None) -> None:
        self.service = service
        self.out_dir = Path(out_dir)
        self.channel = channel
        self.user = user  # who plain lines speak for; None: the player who must act (hot seat)
        self.bots = bots  # optional: an object with ``async play(service, channel) -> list[Reply]``
        self.finished = False
        self.speaker = user or LOBBY_USER  # who the last plain line spoke for (the input prompt)
        self._keys_shown: set[int] = set()
        self._ended: list[int] = []  # games the last line finished (their recap follows)

    async def _default_speaker(self) -> str:
        """A pinned ``/as`` name, else the one person who must act now, else the last speaker."""
        if self.user is not None:
            return self.user
        table = await self.service.table(self.channel)
        if table is not None and table.game is not None and not table.game.is_over:
            users = [table.record.seats[s].user for s in table.game.acting_seats()]
            people = [u for u in users if not is_computer(u)]
            if len(people) == 1:
                return people[0]
        return self.speaker  # the lobby, or several deciding at once: the last one who spoke

    async def prompt_name(self) -> str:
        """The name shown before the input line: who a plain line would speak for. Never raises
        (the terminal must go on): if the table cannot be read, the last speaker."""
        try:
            self.speaker = await self._default_speaker()
        except Exception:
            log.exception("the offline table could not tell who speaks next")
        return self.speaker

    async def handle(self, line: str) -> list[str]:
        """What to print for one typed line. Never raises: a line that fails on the host's side is
        logged and answered with an apology, and the table goes on with the next line."""
        try:
            with use_language(await self._language()):
                return await self._handle(line)
        except Exception:
            log.exception("the offline table failed on the line %r", quote(line))
            return [_("Something went wrong on my side with “{line}”; nothing else is affected. "
                      "Use /status to see where the game stands.", line=quote(line))]

    async def _handle(self, line: str) -> list[str]:
        line = line.strip()
        if not line or line.startswith("#"):
            return []
        m = _SPEAKER.match(line)
        if m and not line.startswith("/"):
            user, line = m.group(1), m.group(2).strip()
        else:
            user = await self._default_speaker()
        self.speaker = user
        if _NUMBERS.match(line):
            return await self._pick(user, line)
        words = line.removeprefix("/").split()
        if not words:
            return []
        word = words[0].lower()
        if word in ("quit", "exit"):
            self.finished = True
            return [_("Goodbye. The game is saved; run meadhall play again to go on.")]
        if word == "as":
            if len(words) > 2:
                return [_("Write /as NAME to speak as another player, or /as alone to speak for "
                          "whoever must act.")]
            self.user = words[1] if len(words) == 2 else None
            if self.user is None:
                return [_("Plain lines now speak for whoever must act.")]
            return [_("You are now {name}.", name=quote(self.user))]
        if word == "choices":
            return await self._choices(only=user)
        if word == "hand":
            return await self._private(user)
        if word == "addbot":
            from bot.host.seats import DEFAULT_LEVEL, add_bot, levels_text

            if len(words) > 1:
                return self._lines(await add_bot(self.service, self.channel, words[1]), user)
            # issue 30: no level given: the default one, and every level's line to choose next time
            out = self._lines(await add_bot(self.service, self.channel, DEFAULT_LEVEL), user)
            return [*out, _("Computer levels (/addbot LEVEL):"), *levels_text().splitlines()]
        if word == "rematch" and len(words) == 1:  # issue 25: every seat is at this keyboard, nobody is asked
            reply = await self.service.rematch_here(self.channel, user)
            return await self._after(reply, user, show_table=True)
        if word == "analysis" and len(words) <= 2:  # issue 31: this table's last game, or game ID
            if len(words) == 2 and not words[1].isdigit():
                return [_("Write /analysis for the last game here, or /analysis ID for another finished game.")]
            match_id = int(words[1]) if len(words) == 2 else None
            return self._lines(await self.service.analysis(match_id, channel=None if match_id else self.channel),
                               None, "analysis")
        if word == "help" and len(words) == 1:
            from bot.host.seats import levels_text

            out = self._lines(await self.service.command(self.channel, user, "help", name=user), user)
            out.append(_("Offline table: plain lines speak for whoever must act (a hot seat); "
                         "“NAME: /command” or /as NAME speaks as someone else. Whoever must decide "
                         "sees numbered choices: type the number. /choices shows them again, /hand "
                         "your hidden cards; /addbot LEVEL seats a computer player (the levels "
                         "below); /quit leaves (the game is saved)."))
            out += levels_text().splitlines()
            out.append(rematch_hint())
            return out
        reply = await self.service.command(self.channel, user, line, name=user)
        return await self._after(reply, user, show_table=word == "start" or bool(reply.events),
                                 tag=word if word in PICTURE_TAGS else "")

    async def _language(self) -> str:
        """The table's language (issue 16: chosen at its start, ``--lang`` or ``lang:xx``), else the
        current one (a lobby)."""
        try:
            table = await self.service.table(self.channel)
        except Exception:
            return current_language()
        return (table_language(table.record.options) if table is not None else None) or current_language()

    async def _after(self, reply: Reply, user: str, *, show_table: bool, tag: str = "") -> list[str]:
        """What follows a reply: the table (after a change), the computer players' moves with the
        table again, due reminders, and the numbered choices of whoever must decide now."""
        with use_language(await self._language()):  # a start with lang:xx speaks it from here on
            return await self._after_in_language(reply, user, show_table=show_table, tag=tag)

    async def _after_in_language(self, reply: Reply, user: str, *, show_table: bool, tag: str = "") -> list[str]:
        out = self._lines(reply, user, tag)
        moved: list[str] = []
        if reply.ok:
            self._ended = _game_over(reply)
            moved = await self._bots_move()
            out += moved
            if show_table or moved:
                out += await self._table_text()
            for match_id in self._ended:  # issue 25: the animated recap, written at the game's end
                out += self._lines(await self.service.animated_recap(match_id), None)
        for r in await self.service.due_reminders():
            if r.channel == self.channel:
                out.append(f"@{r.name}: {r.text}")
        if reply.ok and (reply.prompts or show_table):
            out += await self._choices()
        if reply.ok and (reply.status == "finished" or moved) and await self.service.table(self.channel) is None:
            out.append(rematch_hint())  # the game just ended (a computer player's move may have ended it)
        return out

    async def _bots_move(self) -> list[str]:
        """Computer players seated at this table move now (and, with --bots, take their seats)."""
        if self.bots is not None:
            replies = await self.bots.play(self.service, self.channel)
        else:
            from bot.host.seats import play_bots

            replies = await play_bots(self.service, self.channel)
        out: list[str] = []
        for r in replies:
            out += self._lines(r, None)
            self._ended += _game_over(r)
        return out

    # ------------------------------------------------------------------ numbered choices

    async def _decisions(self) -> list[tuple[int, str, str, list[tuple[str, str]], Widget | None, bool]]:
        """``(seat, user, name, options, multiselect, private)`` for every person who must decide."""
        table = await self.service.table(self.channel)
        if table is None or table.game is None or table.game.is_over:
            return []
        found = []
        for seat in table.game.acting_seats():
            s = table.record.seats[seat]
            if is_computer(s.user):
                continue
            options, multi = choice_list(widgets_for(table.adapter, table.game, seat))
            if options:
                private = bool(table.adapter.private_choices(table.game, seat))
                found.append((seat, s.user, s.name, options, multi, private))
        return found

    async def _choices(self, only: str | None = None) -> list[str]:
        """The numbered legal choices of each person who must decide (privately where they show
        hidden cards), so that a number is all anyone has to type."""
        out: list[str] = []
        for _seat, user, name, options, multi, private in await self._decisions():
            if only is not None and user != only:
                continue
            mark = only_sees(name) + " " if private else ""
            if multi is not None:
                out.append(mark + ngettext("{name}, choose {n} — type its number:",
                                           "{name}, choose {n} — type their numbers, e.g. 1 2:",
                                           multi.max_values, name=name))
            else:
                out.append(mark + _("{name}, choose — type a number:", name=name))
            for i, label, _value in numbered(options)[:MAX_LISTED]:
                out.append(f"{mark}  {i:>2}  {label}")
            if len(options) > MAX_LISTED:
                out.append(mark + _("  … and {n} more: type the move itself (/help).", n=len(options) - MAX_LISTED))
        if only is not None and not out:
            out.append(_("{name} has nothing to decide now.", name=only))
        return out

    async def _pick(self, user: str, line: str) -> list[str]:
        """A line of numbers: the speaker's choice(s) from their numbered list, as of now."""
        numbers = [int(n) for n in re.split(r"[ ,]+", line.strip())]
        mine = [d for d in await self._decisions() if d[1] == user]
        if not mine:
            return [_("{name} has nothing to decide now.", name=user)]
        _seat, _user, _name, options, multi, _private = mine[0]
        want = multi.max_values if multi is not None else 1
        by_number = {i: value for i, _label, value in numbered(options)}
        if len(numbers) != want or len(set(numbers)) != want or not all(n in by_number for n in numbers):
            if list(by_number) != list(range(1, len(options) + 1)):  # the options' own numbers
                return [_("Type one of the numbers listed."), *await self._choices(only=user)]
            return [ngettext("Type one number from 1 to {count}.", "Type {n} different numbers from 1 to {count}.",
                             want, count=min(len(options), MAX_LISTED)), *await self._choices(only=user)]
        values = [by_number[n] for n in numbers]
        text = multi.action(values) if multi is not None else values[0]
        reply = await self.service.act(self.channel, user, text)
        return await self._after(reply, user, show_table=bool(reply.events))

    async def _private(self, user: str) -> list[str]:
        table = await self.service.table(self.channel)
        if table is None or table.game is None:
            return [_("There is no game running here.")]
        seat = next((i for i, s in enumerate(table.record.seats) if s.user == user), None)
        if seat is None:
            return [_("{name} is not playing at this table.", name=quote(user))]
        out = [f"{only_sees(user)} {line}" for line in table.adapter.private_text(table.game, seat).splitlines()]
        data = table.adapter.private_image(table.game, seat)
        if data:
            path = self._write(f"hand-{user}-{table.record.version:04d}.png", data)
            out.append(f"{only_sees(user)} " + _("image: {path}", path=path))
        return out

    async def _table_text(self) -> list[str]:
        table = await self.service.table(self.channel)
        if table is None or table.game is None:
            return []
        key = table.adapter.text_key()
        if key and table.record.id not in self._keys_shown:  # the key once a game; /board repeats it
            self._keys_shown.add(table.record.id)
            return ["", *table.adapter.text(table.game).splitlines(), key, ""]
        return ["", *table.adapter.text(table.game).splitlines(), ""]

    def _lines(self, reply: Reply, user: str | None, tag: str = "") -> list[str]:
        """The reply's lines; its picture written as GAME-MATCH-VERSION.png, or with ``tag``
        (``-board``, ``-recap``) when a command drew it: /board after the last move shows the whole
        table, not the final scoring picture of the same version, and must not overwrite it."""
        out = list(reply.public)
        for line in reply.private:
            out.append(f"{only_sees(user)} {line}" if user else line)
        for p in reply.prompts:
            out.append(f"@{p.name}: {p.text}")
        for att in (reply.image, reply.file):
            if att is not None:
                name = att.filename
                if reply.version is not None and att is reply.image:
                    name = f"{reply.game or 'table'}-{reply.match_id}-{reply.version:04d}{'-' if tag else ''}{tag}.png"
                out.append(_("image: {path}", path=self._write(name, att.data)) if att is reply.image
                           else _("file: {path}", path=self._write(name, att.data)))
        return out

    def _write(self, name: str, data: bytes) -> Path:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / name
        path.write_bytes(data)
        return path


def _game_over(reply: Reply) -> list[int]:
    """The game this reply ended (``[match id]``), else ``[]``."""
    over = reply.ok and any(e.kind == "game_over" for e in reply.events)
    return [reply.match_id] if over and reply.match_id is not None else []


async def run_lines(table: OfflineTable, lines: Iterable[str], echo: Callable[[str], None]) -> None:
    """Feed lines until /quit or the end of input (a pipe, a file, or the terminal)."""
    for line in lines:
        for out in await table.handle(line):
            echo(out)
        if table.finished:
            break

