"""Records samples for the docs (issue 17's closing note).

    python -m bot.demos.samples records OUTDIR

This plays a few scripted games into a fresh database through the real host
service — people whose moves a seeded engine player chooses, and one computer player — and
writes what the records commands and a game's end show, exactly as the service answers them:

* ``leaderboard.png`` / ``leaderboard.txt`` — ``/records leaderboard vikings all`` (the picture
  and its lines);
* ``profile.txt`` — ``/records profile`` of the first person (Discord posts these lines as the
  message);
* ``recap-vikings.png``, ``recap-brian-boru.png`` — the final scoring picture of the last game of
  each, with every player's VP over the rounds (replayed from the log); ``recap.txt`` — the result
  line each recap gives and the line the game's parent channel gets.

Everything is seeded: the same code writes the same files. The database is temporary.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from bot.games.registry import default_registry
from bot.host.seats import add_bot, bot_level, play_bots
from bot.host.service import HostService, Reply
from bot.i18n import _
from bot.storage import Storage
from engine.players import make_player

GUILD = "sample-guild"
START = 1_793_000_000.0  # 2026-10-26, so that the dates shown are fixed
PEOPLE = {"1001": ("Astrid", "normal"), "1002": ("Bjorn", "normal"), "1003": ("Sigrid", "random")}
# (game, people seated in order, computer levels seated after them, seed)
GAMES: tuple[tuple[str, tuple[str, ...], tuple[str, ...], int], ...] = (
    ("vikings", ("1001", "1003"), ("random",), 11),
    ("vikings", ("1001", "1002"), ("normal",), 12),
    ("vikings", ("1002", "1003"), (), 13),
    ("vikings", ("1003", "1001", "1002"), (), 14),
    ("brian-boru", ("1001", "1002", "1003"), (), 15),
)
MAX_MOVES = 20_000  # per game (a bound, not a rule)


class SampleClock:
    """Seconds that advance one minute per reading: fixed dates, games in order."""

    def __init__(self, start: float = START) -> None:
        self.t = start

    def __call__(self) -> float:
        self.t += 60.0
        return self.t


def _check(reply: Reply) -> Reply:
    if not reply.ok:
        raise RuntimeError(f"{reply.code}: {' '.join(reply.private)}")
    return reply


async def play_game(svc: HostService, channel: str, game: str, people: Sequence[str], bots: Sequence[str],
                    seed: int) -> Reply:
    """One scripted game at ``channel`` to its end; returns the reply of the move that ended it."""
    for i, user in enumerate(people):
        _check(await svc.join(channel, user, PEOPLE[user][0], guild=GUILD, game=game if i == 0 else None))
    for level in bots:
        _check(await add_bot(svc, channel, level, guild=GUILD))
    last = _check(await svc.start(channel, people[0], game, [], seed=seed, start_seat=0))
    for _move in range(MAX_MOVES):
        table = await svc.table(channel)
        if table is None or table.game is None or table.game.is_over:
            return last
        record, state = table.record, table.game
        seat = state.acting_seats()[0]
        user = record.seats[seat].user
        if bot_level(user):
            replies = await play_bots(svc, channel)
            last = replies[-1] if replies else last
            continue
        player = make_player(game, PEOPLE[user][1], seed=seed * 1009 + seat * 101 + record.version)
        action = player.choose(state.view(seat), state.legal_actions(seat))
        last = _check(await svc.act(channel, user, str(action), version=record.version))
    raise RuntimeError(f"{game} (seed {seed}) did not end within {MAX_MOVES} moves")


def _lines(reply: Reply) -> str:
    return "\n".join(reply.public) + "\n"


async def records(outdir: Path) -> list[Path]:
    """Play :data:`GAMES` into a fresh database and write the records samples into ``outdir``."""
    outdir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def write(name: str, data: bytes | str) -> None:
        path = outdir / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        written.append(path)

    with tempfile.TemporaryDirectory() as tmp:
        store = await Storage.open(Path(tmp) / "samples.db")
        try:
            svc = HostService(store, default_registry(), clock=SampleClock())
            last: dict[str, tuple[int, Reply]] = {}
            for index, (game, people, bots, seed) in enumerate(GAMES):
                end = await play_game(svc, f"sample-{index}", game, people, bots, seed)
                assert end.match_id is not None
                last[game] = (end.match_id, end)
            board = _check(await svc.leaderboard("vikings", "all", guild=GUILD))
            assert board.image is not None
            write("leaderboard.png", board.image.data)
            write("leaderboard.txt", _lines(board))
            write("profile.txt", _lines(_check(await svc.profile("1001", guild=GUILD))))
            recap_lines: list[str] = []
            for game, (match_id, end) in last.items():
                recap = _check(await svc.recap(match_id))
                assert recap.image is not None
                write(f"recap-{game}.png", recap.image.data)
                adapter = svc.games.get(game)
                title = adapter.title if adapter is not None else game
                # what the game's parent channel gets at the end (bot.discord.publishing.posting, tell_parent)
                parent = _("{game} in <#{thread}>: {result}", game=title, thread="THREAD", result=end.public[-1])
                recap_lines += [recap.public[0], parent, ""]
            write("recap.txt", "\n".join(recap_lines))
        finally:
            await store.close()
    return written
