"""The analysis of a finished game (issue 31): every person's decisions valued by the ``hard``
search from their own view (:mod:`engine.players.review`), as a picture and a few lines.

* **Queued in the database** (:mod:`bot.storage.analyses`): a job survives a restart and runs once,
  also with several processes on PostgreSQL (the claim is one conditional update).
* **Never slows a game**: the work goes to the CPU pool in pieces of :data:`PIECE` decisions at low
  priority (:meth:`bot.processes.cpu.CpuPool.review`), and reports its progress after each piece.
* **What people see**: the picture (:mod:`renderer.analysis`) and, in the table's language, each
  person's accuracy, VP lost per decision and three costliest decisions — what they chose, what was
  better and why (the search's own sentence). Computer seats are not reviewed.

API (a mixin of :class:`bot.host.service.HostService`)::

    await svc.request_analysis(match_id, channel=None) -> AnalysisJob   # queue it (the game's end)
    await svc.run_analysis(match_id=None, progress=None) -> Reply | None  # claim one job, run it, its reply
    await svc.analysis(match_id=None, *, guild=None, channel=None) -> Reply   # /records analysis, /analysis
    await svc.analysis_reply(match_id) -> Reply                         # a done job's reply

``progress(match_id, fraction)`` is awaited after each piece (the transport edits its message).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from bot.games import GameAdapter, table_language
from bot.host.common import is_computer
from bot.host.guard import host_call
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Attachment, Reply
from bot.host.tables import HostBase
from bot.i18n import _, current_language, ngettext, tr_msg, use_language
from bot.processes.cpu import CpuPool, _start
from bot.storage import AnalysisJob, MatchRecord, effective_actions
from engine.players.review import REVIEW_OPTIONS, Curve, Decision, Review, decisions, initials, summarise

log = logging.getLogger("bot.host.service")

PIECE = 6  # decisions per piece of work handed to the CPU pool (about 1-2 s of one core)
LEASE = 600.0  # seconds a claimed job is its worker's without a word of progress
WORKER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"  # this process, as a job's worker

Progress = Callable[[int, float], Awaitable[None]]


def persons(record: MatchRecord) -> list[int]:
    """The seats people played (computer seats are not reviewed)."""
    return [i for i, s in enumerate(record.seats) if not is_computer(s.user)]


def analysis_lines(record: MatchRecord, adapter: GameAdapter[Any], review: Review,
                   moves: list[tuple[int, str]]) -> list[str]:
    """The lines beside the picture: each person's figures and costliest decisions (translated)."""
    marks = initials(review.names)
    lines = [_("Analysis of game {id} ({game}): each decision of each person, valued by the search from "
               "what that person could see at that moment.", id=record.id, game=adapter.title)]
    costly = {d.move for s in review.seats for d in s.costliest}
    games = _positions(adapter, record, moves, costly)
    for s in review.seats:
        name = review.names[s.seat]
        if s.accuracy is None:
            lines.append(_("{name}: no decision to review.", name=name))
            continue
        lines.append(_("{name}: accuracy {percent} % (decisions within 1 VP of the best), {vp} VP lost per "
                       "decision.", name=name, percent=round(100 * s.accuracy), vp=f"{s.lost:.1f}"))
        for rank, d in enumerate(s.costliest, start=1):
            lines.append(_decision_line(adapter, games.get(d.move), f"{marks[s.seat]}{rank}", d))
    noise = sum(s.clamped for s in review.seats)
    if noise:
        lines.append(ngettext("{n} choice came out a hair better than the search's own (sampling noise): "
                              "counted as no loss.",
                              "{n} choices came out a hair better than the search's own (sampling noise): "
                              "counted as no loss.", noise))
    return lines


def _decision_line(adapter: GameAdapter[Any], game: Any, tag: str, d: Decision) -> str:
    chosen, best = d.chosen, d.best
    if game is not None:  # the labels the table's buttons gave them
        chosen = adapter.describe_action(game, game.parse_action(d.chosen))
        best = adapter.describe_action(game, game.parse_action(d.best))
    why = tr_msg(d.why) if d.why is not None else ""
    return _("{tag}, move {move} (round {round}): {chosen}; better {best}, about {vp} VP more. {why}", tag=tag,
             move=d.move, round=d.round, chosen=chosen, best=best, vp=f"{d.cost:.1f}", why=why).strip()


def _positions(adapter: GameAdapter[Any], record: MatchRecord, moves: list[tuple[int, str]],
               wanted: set[int]) -> dict[int, Any]:
    """The game just before each of the ``wanted`` move numbers, replayed from the log (milliseconds)."""
    from bot.games.replay import positions

    setup = (list(record.names), record.seed, dict(record.options), record.start_seat)
    out: dict[int, Any] = {}
    for pos in positions(adapter.game_cls, setup, moves, views=False):
        if pos.index + 1 in wanted:
            out[pos.index + 1] = pos.game.copy()
        if len(out) == len(wanted):
            break
    return out


class AnalysisMixin(HostBase):
    """The analysis of finished games (see the module). ``analyse_finished``: the transport queues
    and posts every finished game's analysis (the Discord bot's own service turns it on; a service
    made for tests or tools does not spend the CPU on it unless asked)."""

    analyse_finished: bool = False

    async def request_analysis(self, match_id: int, *, channel: str | None = None) -> AnalysisJob:
        """Queue the analysis of finished ``match_id`` (once; ``channel``: post it there when done)."""
        return await self.storage.queue_analysis(match_id, channel=channel, now=self.clock())

    async def run_analysis(self, match_id: int | None = None, *, progress: Progress | None = None) -> Reply | None:
        """Claim a queued job (``match_id``'s, else the oldest) and run it; its reply, or ``None`` when
        there was none to claim (another process runs it). A job that fails is marked failed, logged."""
        job = await self.storage.claim_analysis(WORKER, now=self.clock(), lease=LEASE, match_id=match_id)
        if job is None:
            return None
        try:
            review = await self._review(job.match, progress)
        except Exception:
            log.exception("the analysis of game %s failed", job.match)
            await self.storage.fail_analysis(job.match, WORKER, now=self.clock())
            return None
        if not await self.storage.finish_analysis(job.match, WORKER, review.to_json(), now=self.clock()):
            log.warning("the analysis of game %s was taken over by another worker", job.match)
        return await self.analysis_reply(job.match)

    async def _review(self, match_id: int, progress: Progress | None) -> Review:
        record = await self.storage.get_match(match_id)
        if record is None or record.status != "finished":
            raise ValueError(f"game {match_id} is not finished")
        moves = [(a.seat, a.action) for a in effective_actions(await self.storage.actions(record.id))]
        setup = (list(record.names), record.seed, dict(record.options), record.start_seat)
        people = persons(record)
        todo = decisions(_start(record.game, setup), moves, people)
        cpu = self.cpu or CpuPool(0)
        judged: list[Decision] = []
        for k in range(0, len(todo), PIECE):
            piece = todo[k:k + PIECE]
            judged += [Decision.from_json(d) for d in await cpu.review(record.game, setup, moves, piece,
                                                                        dict(REVIEW_OPTIONS))]
            done = min(len(todo), k + PIECE) / max(1, len(todo))
            if not await self.storage.analysis_progress(match_id, WORKER, done, now=self.clock(), lease=LEASE):
                raise RuntimeError(f"the analysis of game {match_id} is no longer this worker's")
            if progress is not None:
                await progress(match_id, done)
        line = Curve.from_json(await cpu.review_curve(record.game, setup, moves))
        return summarise(record.game, record.names, people, judged, line)

    async def analysis_reply(self, match_id: int, *, lang: str | None = None) -> Reply:
        """The reply of a done analysis: the lines and the picture, in ``lang`` (default: the table's
        language)."""
        record = await self.storage.get_match(match_id)
        job = await self.storage.get_analysis(match_id)
        if record is None or job is None or job.result is None:
            raise Refusal(RefusalCode.NO_FINISHED_GAME, id=match_id)
        adapter = self.games.get(record.game)
        if adapter is None:
            raise Refusal(RefusalCode.NO_FINISHED_GAME, id=match_id)
        review = Review.from_json(job.result)
        moves = [(a.seat, a.action) for a in effective_actions(await self.storage.actions(record.id))]
        with use_language(lang or table_language(record.options) or current_language()):
            lines = analysis_lines(record, adapter, review, moves)
            image = None
            if self.images:
                png = await (self.cpu or CpuPool(0)).analysis_picture(review, f"{adapter.title}, {record.id}")
                image = Attachment(png, f"meadhall-{record.game}-{record.id}-analysis.png")
        return Reply(public=lines, image=image, names=list(record.names), match_id=record.id, game=record.game,
                     status=record.status)

    @host_call()
    async def analysis(self, match_id: int | None = None, *, guild: str | None = None,
                       channel: str | None = None) -> Reply:
        """``/records analysis ID`` (privately) and the offline ``/analysis [ID]``: the analysis of a
        finished game of this server (or, without an id, of this channel's last one); made now when it
        was not made yet. Unknown, unfinished and another server's games are refused alike."""
        if match_id is None:
            last = await self.storage.last_match(channel) if channel is not None else None
            if last is None or last.status != "finished":
                raise Refusal(RefusalCode.NO_FINISHED_HERE)
            match_id = last.id
        record = await self.storage.get_match(match_id)
        here = record is not None and (guild is None and channel is None or record.guild == guild and guild is not None
                                       or record.channel == channel and channel is not None)
        if record is None or not here or record.status != "finished" or self.games.get(record.game) is None:
            raise Refusal(RefusalCode.NO_FINISHED_GAME, id=match_id)
        job = await self.request_analysis(record.id)
        if job.state == "failed":
            raise Refusal(RefusalCode.ANALYSIS_FAILED, id=record.id)
        if job.state not in ("done", "posted") and await self.run_analysis(record.id) is None:
            raise Refusal(RefusalCode.ANALYSIS_RUNNING, id=record.id)  # another process makes it right now
        return await self.analysis_reply(record.id, lang=current_language())  # the asker's language
