"""The Vikings sailor dialog (V-33 … V-35, V-44, V-49, [D-12]): a major scoring's whole sailing
planned trip by trip and sent as one ``sail plan …`` action (``engine.vikings.actions.SailPlan``).

:func:`sailor_dialog` is what ``VikingsAdapter.plan_dialog`` shows for the trips chosen so far:
the plan's text, the next sailor's choices ("noble → N2", the cells still free after the trips
before), the boat toggle under ``single-sailor`` (V-49), the player's homeland with the planned
vikings on it and the free cells labelled, and a warning when the engine would refuse the plan.
The engine alone judges a plan: it is played on a copy, never re-implemented here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.games.widgets import MAX_OPTIONS, PlanDialog
from bot.i18n import _, ngettext, tr_msg
from engine.core import EngineError, IllegalActionError
from engine.vikings import VikingsGame
from engine.vikings.data import KINDS, ROUNDS, ROW_KIND, SAILOR, cell_name, parse_cell

Steps = Sequence[tuple[bool, Sequence[str]]]


def plan_text(steps: Steps, *, end: bool) -> str:
    """``sail plan N2 S3 / boat G4 / end`` for the trips ``steps`` (``end``: then no more sailors)."""
    trips = [" ".join((["boat"] if boat else []) + list(cells)) for boat, cells in steps]
    return "sail plan " + " / ".join(trips + (["end"] if end or not trips else []))


def _where(cell: str, kind_text: Callable[[str], str]) -> str:
    rc = parse_cell(cell)
    kind = ROW_KIND.get(rc[0]) if rc else None
    return _("{kind} → {cell}", kind=kind_text(kind), cell=cell) if kind else cell


def sailor_dialog(game: VikingsGame, seat: int, steps: Steps, boat: bool, *, picture: bool = False,
                  kind_text: Callable[[str], str]) -> PlanDialog | None:
    """The dialog for ``seat`` after the trips ``steps`` (``boat``: the next sailor takes the boat);
    ``None`` when ``seat`` is not sailing now or a sailor of theirs is already under way (V-34)."""
    view = game.view(seat)  # the engine's public face (tests/engine/test_contract.py)
    if view["phase"] != "sail" or seat not in game.acting_seats() or game.sailor_under_way(seat):
        return None
    trial = game.copy()
    problem: EngineError | None = None
    if steps:
        try:
            trial.apply(seat, plan_text(steps, end=False))
        except EngineError as e:  # the engine's own reason, naming the sailor and the rule
            problem = e
    going = problem is None and trial.view(seat)["phase"] == "sail" and seat in trial.acting_seats()
    h = trial.homeland(seat) if problem is None else game.homeland(seat)
    cells = [cell_name(r, c) for k in KINDS if k != SAILOR and h.base[k] > 0 for r, c in h.empty_tiles(k)]
    cells.sort(key=lambda c: parse_cell(c) or (0, 0))
    options = [(_where(c, kind_text), c) for c in cells] if going else []
    left_out = len(options) - MAX_OPTIONS  # Discord offers 25 options a select: the rest are typed
    options = options[:MAX_OPTIONS]
    lines = [_("Your sailing (V-34): choose the vikings each sailor takes, then send the whole plan at once.")]
    if view["options"]["single_sailor"]:
        lines.append(_("single-sailor (V-44): a sailor moves exactly one viking; with the boat (V-49), all of one "
                       "kind or one of each."))
    else:
        lines.append(_("A sailor takes all vikings of one kind (as many as fit) or at most one of each kind."))
    if view["round"] == ROUNDS:
        lines.append(_("After round 6 (V-35): go on while a sailor can move a viking, each sailor carrying as "
                       "many as its trip allows."))
    for n, (with_boat, trip) in enumerate(steps, 1):
        where = ", ".join(_where(c, kind_text) for c in trip)
        lines.append(_("Sailor {n} with the boat: {trip}", n=n, trip=where) if with_boat
                     else _("Sailor {n}: {trip}", n=n, trip=where))
    if not steps:
        lines.append(_("No sailor planned yet: sending now uses no sailors."))
    if problem is not None:
        reason = tr_msg(problem.msg) if isinstance(problem, IllegalActionError) else str(problem)
        rule = f" ({problem.rule})" if isinstance(problem, IllegalActionError) and problem.rule else ""
        lines.append(_("This plan will be refused: {reason}", reason=reason + rule))
        lines.append(_("Remove the last sailor and choose again."))
    elif going:
        left = h.base[SAILOR]
        lines.append(ngettext("{n} sailor left in your base.", "{n} sailors left in your base.", left))
    else:
        lines.append(_("No sailor of yours can move a viking any more: send the plan."))
    if left_out > 0:
        lines.append(ngettext("The list shows the first {shown} free cells; {n} more is not in it: to use it, type "
                              "the plan with /sail plan.",
                              "The list shows the first {shown} free cells; {n} more are not in it: to use them, "
                              "type the plan with /sail plan.", left_out, shown=MAX_OPTIONS))
    extra = None
    if going and options and view["options"]["single_sailor"] and "boat" in h.specials:
        extra = (_("The next sailor takes the boat (V-49): undo") if boat
                 else _("Next sailor with the boat (V-49)"))
    data = None
    if picture:
        data = _picture(game, trial if problem is None else game, seat, [c for _b, t in steps for c in t],
                        [c for _label, c in options])
    return PlanDialog("\n".join(lines), options, _("Sailor {n}: the vikings it takes", n=len(steps) + 1),
                      plan_text(steps, end=True), extra, data)


def _picture(game: VikingsGame, planned: VikingsGame, seat: int, cells: list[str], free: list[str]) -> bytes:
    """The sailing player's turn picture with the planned vikings standing on their cells (marked
    as a move) and the cells the next sailor may take labelled with their names."""
    from renderer.vikings_turn import render_vikings_turn

    view: dict[str, Any] = dict(game.view(seat))
    h = planned.homeland(seat)
    players = [dict(p) for p in view["players"]]
    players[seat] = {**players[seat], "rows": [list(r) for r in h.rows], "base": dict(h.base),
                     "specials": list(h.specials)}
    view["players"] = players
    view["last"] = {"seat": seat, "action": "", "cells": cells} if cells else None
    return render_vikings_turn(view, highlights={"tile": free, "base": []}, labels=True, tr=_, ntr=ngettext)
