"""``/hint`` (issue 25): the strongest computer level's advice for the asker's own decision, privately.

A table started with the option ``hints`` (every seated player agreed by joining it) lets a player
ask, on their own decision, what the ``hard`` computer level (issue 30: ``make_player(game, "hard")``
and its ``analyse()``) would do: its choice, the expected VP margin over the best rival as the
search values it (the mean of the rollouts' ends) with how sure it is (the margin's standard error
over the sampled deals, ``Analysis.margin_se``), one sentence of why (the part of the value that separates it from the
runner-up) and the runner-up for comparison. Without the option the hint is refused: a rated game
is not coached unless everyone agreed.

* **Only the asker's view.** The search reads ``game.view(seat)`` and the seat's legal actions,
  nothing else; its seed is drawn from that view (:func:`position_seed`), so two games that differ
  only in what the seat cannot see get the same hint, word for word.
* **Deterministic.** A fixed amount of work (:data:`HINT_BUDGET` seconds of the search's
  ``DECISIONS_PER_SECOND``) and no wall-clock cut: the same position gives the same hint.
* **Off the event loop.** In the service's CPU pool (``bot.processes.cpu``) when it has one, else
  a thread; the transport's answering defers the interaction when it takes longer than its window.
  The last :data:`REMEMBERED` analyses are kept, so asking again about a position is instant.

API (a mixin of :class:`bot.host.service.HostService`)::

    await svc.hint(channel, user) -> Reply     # .private: the hint; refusals as every call's
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games import GameAdapter, host_options
from bot.host.common import names_text
from bot.host.guard import host_call
from bot.host.refusals import Refusal, RefusalCode
from bot.host.replies import Reply, Table
from bot.host.tables import HostBase
from bot.i18n import _, ngettext, tr_msg
from engine.core import Action, Game
from engine.players import make_player
from engine.players.analysis import Analysis

HINT_LEVEL = "hard"  # issue 30: /hint speaks with the strongest level offered to players
HINT_BUDGET = 1.0  # seconds of the hard level's work (a fixed amount, not a clock: see search.py)
HINT_OPTIONS: dict[str, Any] = {"budget": HINT_BUDGET, "wall_limit": None}
REMEMBERED = 256  # analyses kept: asking again about the same position costs nothing (a bound, not a rule)
_analyses: OrderedDict[tuple[str, int], Analysis] = OrderedDict()  # (game, position seed) → analysis


def position_seed(view: Mapping[str, Any], legal: Sequence[Action]) -> int:
    """The search's seed for a hint: drawn from what the seat sees, so nothing hidden changes it."""
    text = json.dumps({"view": view, "legal": [str(a) for a in legal]}, sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def analyse(game_id: str, seed: int, options: Mapping[str, Any], view: Mapping[str, Any],
            legal: Sequence[Action]) -> Analysis:
    """The hard level's analysis (runs in a worker process or a thread)."""
    player: Any = make_player(game_id, HINT_LEVEL, seed=seed, **options)  # a searching level: it has analyse()
    found: Analysis = player.analyse(view, legal)
    return found


def hints_note(options: Mapping[str, Any]) -> str:
    """What a finished game's result line and history line add when its table allowed hints."""
    return " " + _("Hints were allowed (/hint).") if host_options(options)["hints"] else ""


def signed(vp: float) -> str:
    """A margin as people read it: ``+4.2``, ``-0.8``, ``0.0``."""
    return "0.0" if round(vp, 1) == 0 else f"{vp:+.1f}"


def hint_lines(adapter: GameAdapter[Any], game: Game, found: Analysis) -> list[str]:
    """The hint as lines for the asker (translated; action labels as the table's buttons say them)."""
    lines = [_("Hint (only you see this): {action}", action=adapter.describe_action(game, found.best))]
    if found.searched and found.margin_se is not None:  # issue 30: how sure it is
        lines.append(ngettext(
            "Expected margin: about {margin} ± {error} VP over the best rival at the end, as the search values "
            "it ({count} sampled deal played on; ± one standard error).",
            "Expected margin: about {margin} ± {error} VP over the best rival at the end, as the search values "
            "it ({count} sampled deals played on; ± one standard error).", found.sweeps,
            margin=signed(found.margin), error=f"{found.margin_se:.1f}", count=found.sweeps))
    elif found.searched:
        lines.append(ngettext(
            "Expected margin: about {margin} VP over the best rival at the end, as the search values it "
            "({count} sampled deal played on).",
            "Expected margin: about {margin} VP over the best rival at the end, as the search values it "
            "({count} sampled deals played on).", found.sweeps, margin=signed(found.margin), count=found.sweeps))
    else:
        lines.append(_("The position as it stands: about {margin} VP over the best rival at the end, as the "
                       "search values it (this decision is not played on).", margin=signed(found.margin)))
    if found.why is not None:
        lines.append(_("Why: {why}", why=tr_msg(found.why)))
    other = found.runner_up
    if other is None:
        lines.append(_("There is no other choice."))
    elif found.searched:
        lines.append(_("Runner-up: {action}, about {margin} VP.", action=adapter.describe_action(game, other.action),
                       margin=signed(other.margin)))
    else:
        lines.append(_("Runner-up: {action}.", action=adapter.describe_action(game, other.action)))
    return lines


class HintsMixin(HostBase):
    """``hint``: the hard level's advice for the asker's own decision (see the module's docstring)."""

    @host_call()
    async def hint(self, channel: str, user: str) -> Reply:
        table = await self._open_table(channel)
        if table is None:
            last = await self.storage.last_match(channel)
            if last is not None and last.status == "finished":
                raise Refusal(RefusalCode.HINT_GAME_OVER)
            raise Refusal(RefusalCode.NO_TABLE)
        if table.game is None:
            raise Refusal(RefusalCode.NOT_STARTED)
        game, rec = table.game, table.record
        if game.is_over:
            raise Refusal(RefusalCode.HINT_GAME_OVER)
        seat = self._need_seat(table, user)
        if not host_options(rec.options)["hints"]:
            raise Refusal(RefusalCode.HINTS_OFF)
        acting = game.acting_seats()
        if seat not in acting:
            raise Refusal(RefusalCode.NOT_YOUR_TURN, names=names_text([rec.seats[s].name for s in acting]),
                          shown_names=rec.names)
        # what the seat sees, taken now: the table may move on while the search runs
        view, legal, position = game.view(seat), game.legal_actions(seat), game.copy()
        found = await self._analyse(rec.game, view, legal)
        return self._hint_reply(table, position, found)

    async def _analyse(self, game_id: str, view: Mapping[str, Any], legal: Sequence[Action]) -> Analysis:
        """The analysis of this position: remembered (it is deterministic, so asking again — or a
        player pressing /hint repeatedly — does not run the search again), else computed."""
        seed = position_seed(view, legal)
        key = (game_id, seed)
        found = _analyses.get(key)
        if found is not None:
            _analyses.move_to_end(key)
            return found
        if self.cpu is not None:  # a worker process: the event loop (and other tables) stay free
            found = await self.cpu.analyse(game_id, seed, HINT_OPTIONS, view, legal, HINT_LEVEL)
        else:
            found = await asyncio.to_thread(analyse, game_id, seed, HINT_OPTIONS, view, legal)
        _analyses[key] = found
        while len(_analyses) > REMEMBERED:
            _analyses.popitem(last=False)
        return found

    @staticmethod
    def _hint_reply(table: Table, position: Game, found: Analysis) -> Reply:
        rec = table.record
        # no version: a hint changes nothing (no reminders re-armed, no computer player woken)
        return Reply(private=hint_lines(table.adapter, position, found), names=list(rec.names), game=rec.game,
                     match_id=rec.id, status=rec.status)
