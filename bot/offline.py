"""The offline table: the same host service in a terminal.

Lines look like chat messages::

    alice: /join            # alice joins (or any command: /start vikings advanced, /buy 3 …)
    /as bob                 # from now on plain lines are bob's
    /buy 3                  # bob buys position 3
    /board                  # the table as text, and the image written to the output folder
    /hand                   # what only the current user may see (Brian Boru's hand)
    /addbot heuristic       # seat a computer player (random, heuristic or search)
    /quit

Images are written to the output folder and their paths printed; the table is also shown as
text after every move. Messages meant for one player only are marked ``(only NAME sees)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from bot.i18n import _
from bot.service import HostService, Reply

_SPEAKER = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*:\s*(.*)$")


class OfflineTable:
    """Feeds typed lines to a :class:`HostService` as one channel; returns what to print."""

    def __init__(self, service: HostService, out_dir: Path, *, channel: str = "offline",
                 user: str = "player1", bots: object | None = None) -> None:
        self.service = service
        self.out_dir = Path(out_dir)
        self.channel = channel
        self.user = user
        self.bots = bots  # optional: an object with ``async play(service, channel) -> list[Reply]``
        self.finished = False

    async def handle(self, line: str) -> list[str]:
        line = line.strip()
        if not line or line.startswith("#"):
            return []
        m = _SPEAKER.match(line)
        user = self.user
        if m and not line.startswith("/"):
            user, line = m.group(1), m.group(2).strip()
        words = line.removeprefix("/").split()
        if not words:
            return []
        word = words[0].lower()
        if word in ("quit", "exit"):
            self.finished = True
            return [_("Goodbye. The game is saved; run meadhall play again to go on.")]
        if word == "as":
            if len(words) != 2:
                return [_("Write /as NAME to speak as another player.")]
            self.user = words[1]
            return [_("You are now {name}.", name=self.user)]
        if word == "hand":
            return await self._private(user)
        if word == "addbot":
            from bot.seats import add_bot

            reply = await add_bot(self.service, self.channel, words[1] if len(words) > 1 else "heuristic")
            return self._lines(reply, user)
        if word == "help" and len(words) == 1:
            out = self._lines(await self.service.command(self.channel, user, "help", name=user), user)
            out.append(_("Offline table: write “NAME: /command” or /as NAME, then commands; /hand shows "
                         "your hidden cards; /addbot LEVEL seats a computer player (random, heuristic, "
                         "search); /quit leaves (the game is saved)."))
            return out
        reply = await self.service.command(self.channel, user, line, name=user)
        out = self._lines(reply, user)
        if reply.ok and (word == "start" or reply.events):
            out += await self._table_text()
        if reply.ok:
            out += await self._bots_move()
        for r in await self.service.due_reminders():
            if r.channel == self.channel:
                out.append(f"@{r.name}: {r.text}")
        return out

    async def _bots_move(self) -> list[str]:
        """Computer players seated at this table move now (and, with --bots, take their seats)."""
        if self.bots is not None:
            replies = await self.bots.play(self.service, self.channel)
        else:
            from bot.seats import play_bots

            replies = await play_bots(self.service, self.channel)
        out: list[str] = []
        for r in replies:
            out += self._lines(r, None)
        return out

    async def _private(self, user: str) -> list[str]:
        table = await self.service.table(self.channel)
        if table is None or table.game is None:
            return [_("There is no game running here.")]
        seat = next((i for i, s in enumerate(table.record.seats) if s.user == user), None)
        if seat is None:
            return [_("{name} is not playing at this table.", name=user)]
        text_fn = getattr(table.adapter, "private_text", None)
        image_fn = getattr(table.adapter, "private_image", None)
        out = [f"({_('only {name} sees', name=user)}) {line}"
               for line in (text_fn(table.game, seat) if text_fn else table.adapter.text(table.game, seat)).splitlines()]
        if image_fn:
            data = image_fn(table.game, seat)
            if data:
                path = self._write(f"hand-{user}-{table.record.version:04d}.png", data)
                out.append(f"({_('only {name} sees', name=user)}) {_('image: {path}', path=path)}")
        return out

    async def _table_text(self) -> list[str]:
        table = await self.service.table(self.channel)
        if table is None or table.game is None:
            return []
        return ["", *table.adapter.text(table.game).splitlines(), ""]

    def _lines(self, reply: Reply, user: str | None) -> list[str]:
        out = list(reply.public)
        for line in reply.private:
            out.append(f"({_('only {name} sees', name=user)}) {line}" if user else line)
        for p in reply.prompts:
            out.append(f"@{p.name}: {p.text}")
        for att in (reply.image, reply.file):
            if att is not None:
                name = att.filename
                if reply.version is not None and att is reply.image:
                    name = f"{reply.game or 'table'}-{reply.match_id}-{reply.version:04d}.png"
                out.append(_("image: {path}", path=self._write(name, att.data)) if att is reply.image
                           else _("file: {path}", path=self._write(name, att.data)))
        return out

    def _write(self, name: str, data: bytes) -> Path:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / name
        path.write_bytes(data)
        return path


async def run_lines(table: OfflineTable, lines: Iterable[str], echo: Callable[[str], None]) -> None:
    """Feed lines until /quit or the end of input (a pipe, a file, or the terminal)."""
    for line in lines:
        for out in await table.handle(line):
            echo(out)
        if table.finished:
            break

