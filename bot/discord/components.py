"""Persistent message components for pending decisions (buttons and selects).

Every component's ``custom_id`` carries the match id and the table version it was offered at,
so that a click after a restart of the bot still reaches a handler (they are discord.py
``DynamicItem`` s, registered once with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``) and a click
on an old message is recognised as stale by the host service::

    mh:{match}:{version}:b:{action text}     a button: the action text itself
    mh:{match}:{version}:s{i}:{template}     a select: its template (see bot.games.widgets) fills in
                                             the chosen option values
    mh:{match}:{version}:me                  several seats decide at once, or the choices show
                                             hidden cards: each presser gets their own, privately
    mh:{match}:{version}:ok:{action text}    "yes, do it": the action after a question (a buy that
                                             spends VP, issue 13), shown privately to its player
    mh:{match}:{version}:u:yes|no            "Agree to undo" / "Refuse" on an undo request (issue 17):
                                             answered by the players whose agreement it needs
    mh:{match}:rematch                       "Rematch" on a finished game's result (issue 25): no
                                             version, the finished game never changes
    mh:{match}:{version}:p{op}:{state}       the sailor dialog (V-34), privately: ``op`` t = the next
                                             trip's select, b = boat toggle, u = remove the last trip,
                                             s = send the plan, x = cancel; ``state`` the trips so far
                                             (:func:`plan_state`), so the dialog survives a restart

The items know nothing about games: they hand ``(match, version, action text)`` to the bot's
``component_handler`` (see :class:`ComponentHandler`), which asks the host service.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol, Self

import discord
from discord import ui

from bot.games import GameAdapter
from bot.games.widgets import PlanDialog, Widget, fill, label_of
from bot.i18n import _

log = logging.getLogger(__name__)

PREFIX = "mh"
MAX_CUSTOM_ID = 100
MAX_ROWS = 5
ROW_WIDTH = 5
MAX_BUTTON_LABEL = 80
MAX_OPTION_LABEL = 100
MAX_OPTION_VALUE = 100
MAX_SELECT_OPTIONS = 25

BUTTON_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):(?P<version>\d+):b:(?P<text>.+)")
SELECT_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):(?P<version>\d+):s(?P<index>\d+):(?P<template>.*)")
CHOOSE_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):(?P<version>\d+):me")
CONFIRM_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):(?P<version>\d+):ok:(?P<text>.+)")
UNDO_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):(?P<version>\d+):u:(?P<answer>yes|no)")
REMATCH_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):rematch")
PLAN_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):(?P<version>\d+):p(?P<op>[busx]):(?P<state>[^:]*)")
PLAN_SELECT_TEMPLATE = re.compile(rf"{PREFIX}:(?P<match>\d+):(?P<version>\d+):pt:(?P<state>[^:]*)")


class ComponentHandler(Protocol):
    async def component_action(
        self, interaction: discord.Interaction, match: int, version: int, text: str, *, confirmed: bool = False
    ) -> None: ...

    async def choose(self, interaction: discord.Interaction, match: int, version: int) -> None: ...

    async def component_error(self, interaction: discord.Interaction, message: str) -> None: ...

    async def undo_answer(self, interaction: discord.Interaction, match: int, version: int, agree: bool) -> None: ...

    async def rematch_pressed(self, interaction: discord.Interaction, match: int) -> None: ...
    async def plan_step(self, interaction: discord.Interaction, match: int, version: int, op: str, state: str,
                        values: Sequence[str]) -> None: ...


def _handler(interaction: discord.Interaction) -> ComponentHandler:
    return interaction.client.component_handler  # type: ignore[attr-defined]


def button_id(match: int, version: int, text: str) -> str:
    return f"{PREFIX}:{match}:{version}:b:{text}"


def select_id(match: int, version: int, index: int, template: str) -> str:
    return f"{PREFIX}:{match}:{version}:s{index}:{template}"


def choose_id(match: int, version: int) -> str:
    return f"{PREFIX}:{match}:{version}:me"


def confirm_id(match: int, version: int, text: str) -> str:
    return f"{PREFIX}:{match}:{version}:ok:{text}"


def undo_id(match: int, version: int, agree: bool) -> str:
    return f"{PREFIX}:{match}:{version}:u:{'yes' if agree else 'no'}"


def rematch_id(match: int) -> str:
    return f"{PREFIX}:{match}:rematch"


def _label(item: ui.Item[Any]) -> str:
    """The label of the button discord.py rebuilt from a click (``""`` if it has none)."""
    return (item.label or "") if isinstance(item, ui.Button) else ""


class ActionButton(ui.DynamicItem[ui.Button], template=BUTTON_TEMPLATE):
    """A button whose action text is in its custom id."""

    def __init__(self, match: int, version: int, text: str, label: str = "", *, row: int | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        self.match, self.version, self.text = match, version, text
        super().__init__(ui.Button(label=(label or text)[:MAX_BUTTON_LABEL], style=style,
                                   custom_id=button_id(match, version, text)), row=row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(int(match["match"]), int(match["version"]), match["text"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).component_action(interaction, self.match, self.version, self.text)


class ActionSelect(ui.DynamicItem[ui.Select], template=SELECT_TEMPLATE):
    """A select (single or multi) whose chosen values fill the template in its custom id."""

    def __init__(self, match: int, version: int, index: int, template: str, *,
                 options: Sequence[tuple[str, str]] = (), placeholder: str | None = None,
                 min_values: int = 1, max_values: int = 1, row: int | None = None,
                 select: ui.Select | None = None) -> None:
        self.match, self.version, self.index, self.template_text = match, version, index, template
        if select is None:
            select = ui.Select(
                custom_id=select_id(match, version, index, template),
                placeholder=placeholder[:150] if placeholder else None,
                min_values=min_values, max_values=max_values,
                options=[discord.SelectOption(label=label[:MAX_OPTION_LABEL], value=value)
                         for label, value in options],
            )
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        if not isinstance(item, ui.Select):  # discord.py passes the component the template matched
            raise TypeError(f"a select's custom id on a {type(item).__name__}")
        return cls(int(match["match"]), int(match["version"]), int(match["index"]), match["template"], select=item)

    async def callback(self, interaction: discord.Interaction) -> None:
        order = {o.value: i for i, o in enumerate(self.item.options)}
        values = sorted(self.item.values, key=lambda v: order.get(v, len(order)))
        try:
            text = fill(self.template_text, values)
        except ValueError:
            await _handler(interaction).component_error(
                interaction, _("That choice does not make a move; please choose again."))
            return
        await _handler(interaction).component_action(interaction, self.match, self.version, text)


class ChooseButton(ui.DynamicItem[ui.Button], template=CHOOSE_TEMPLATE):
    """"Make your choice": shows the presser their own choices privately (several seats decide at
    once, or the choices would show hidden cards)."""

    def __init__(self, match: int, version: int, label: str = "") -> None:
        self.match, self.version = match, version
        super().__init__(ui.Button(label=(label or _("Make your choice (privately)"))[:MAX_BUTTON_LABEL],
                                   style=discord.ButtonStyle.primary, custom_id=choose_id(match, version)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(int(match["match"]), int(match["version"]), _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).choose(interaction, self.match, self.version)


class ConfirmButton(ui.DynamicItem[ui.Button], template=CONFIRM_TEMPLATE):
    """The "yes" to a question asked before an action commits (e.g. a buy that spends VP)."""

    def __init__(self, match: int, version: int, text: str, label: str = "") -> None:
        self.match, self.version, self.text = match, version, text
        super().__init__(ui.Button(label=(label or _("Yes, do it"))[:MAX_BUTTON_LABEL],
                                   style=discord.ButtonStyle.danger, custom_id=confirm_id(match, version, text)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(int(match["match"]), int(match["version"]), match["text"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).component_action(interaction, self.match, self.version, self.text,
                                                     confirmed=True)


class UndoButton(ui.DynamicItem[ui.Button], template=UNDO_TEMPLATE):
    """"Agree to undo" or "Refuse" on an undo request (issue 17); the service judges who may press."""

    def __init__(self, match: int, version: int, agree: bool, label: str = "") -> None:
        self.match, self.version, self.agree = match, version, agree
        default = _("Agree to undo") if agree else _("Refuse")
        style = discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary
        super().__init__(ui.Button(label=(label or default)[:MAX_BUTTON_LABEL], style=style,
                                   custom_id=undo_id(match, version, agree)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(int(match["match"]), int(match["version"]), match["answer"] == "yes", _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).undo_answer(interaction, self.match, self.version, self.agree)


class RematchButton(ui.DynamicItem[ui.Button], template=REMATCH_TEMPLATE):
    """"Rematch" on a finished game's result (issue 25); the service judges who may press."""

    def __init__(self, match: int, label: str = "") -> None:
        self.match = match
        super().__init__(ui.Button(label=(label or _("Rematch"))[:MAX_BUTTON_LABEL], style=discord.ButtonStyle.success,
                                   custom_id=rematch_id(match)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(int(match["match"]), _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).rematch_pressed(interaction, self.match)


def plan_id(match: int, version: int, op: str, state: str) -> str:
    return f"{PREFIX}:{match}:{version}:p{op}:{state}"


class PlanButton(ui.DynamicItem[ui.Button], template=PLAN_TEMPLATE):
    """A button of the sailor dialog (boat, remove the last trip, send, cancel); the dialog's
    state is in its custom id."""

    def __init__(self, match: int, version: int, op: str, state: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.match, self.version, self.op, self.state = match, version, op, state
        super().__init__(ui.Button(label=(label or op)[:MAX_BUTTON_LABEL], style=style,
                                   custom_id=plan_id(match, version, op, state)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        return cls(int(match["match"]), int(match["version"]), match["op"], match["state"], _label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).plan_step(interaction, self.match, self.version, self.op, self.state, ())


class PlanSelect(ui.DynamicItem[ui.Select], template=PLAN_SELECT_TEMPLATE):
    """The sailor dialog's select of the next trip's vikings ("noble → N2", several)."""

    def __init__(self, match: int, version: int, state: str, *, options: Sequence[tuple[str, str]] = (),
                 placeholder: str | None = None, select: ui.Select | None = None) -> None:
        self.match, self.version, self.state = match, version, state
        if select is None:
            select = ui.Select(
                custom_id=plan_id(match, version, "t", state), placeholder=placeholder[:150] if placeholder else None,
                min_values=1, max_values=max(1, len(options)),
                options=[discord.SelectOption(label=label[:MAX_OPTION_LABEL], value=value) for label, value in options])
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
                             ) -> Self:
        if not isinstance(item, ui.Select):
            raise TypeError(f"a select's custom id on a {type(item).__name__}")
        return cls(int(match["match"]), int(match["version"]), match["state"], select=item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).plan_step(interaction, self.match, self.version, "t", self.state,
                                              list(self.item.values))


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (ActionButton, ActionSelect, ChooseButton, ConfirmButton,
                                                        UndoButton, RematchButton, PlanButton, PlanSelect)


def _buttons_fit(match: int, version: int, widget: Widget) -> bool:
    return all(len(button_id(match, version, value)) <= MAX_CUSTOM_ID for _label, value in widget.options)


def _select_fits(match: int, version: int, index: int, widget: Widget) -> bool:
    return (len(select_id(match, version, index, widget.template)) <= MAX_CUSTOM_ID
            and len(widget.options) <= MAX_SELECT_OPTIONS
            and all(len(value) <= MAX_OPTION_VALUE for _label, value in widget.options))


def build_view(match: int, version: int, widgets: Sequence[Widget]) -> tuple[ui.View | None, bool]:
    """The widgets as one persistent view: ``(view or None, whether every widget fitted)``.

    Buttons take rows of five; each select takes a row; a message has five rows. A button
    widget whose action texts make too long a custom id is shown as a select instead. Widgets
    that do not fit are left out (the caller then points to the slash commands).
    """
    view = ui.View(timeout=None)
    rows = 0
    complete = True
    selects = [w for w in widgets if w.kind != "buttons" or not _buttons_fit(match, version, w)]
    page = 0
    for index, widget in enumerate(widgets):
        if widget.kind == "buttons" and _buttons_fit(match, version, widget):
            need = -(-len(widget.options) // ROW_WIDTH)
            if rows + need > MAX_ROWS:
                complete = False
                continue
            for k, (label, value) in enumerate(widget.options):
                view.add_item(ActionButton(match, version, value, label, row=rows + k // ROW_WIDTH))
            rows += need
            continue
        if rows + 1 > MAX_ROWS or not _select_fits(match, version, index, widget):
            complete = False
            continue
        pages = [w for w in selects if not w.placeholder]  # a decision's options split into pages
        placeholder = widget.placeholder or _("Choose your move")
        if not widget.placeholder:
            page += 1
            if len(pages) > 1:
                placeholder = f"{placeholder} ({page}/{len(pages)})"
        single = widget.kind != "multiselect"
        view.add_item(ActionSelect(
            match, version, index, widget.template, options=widget.options, placeholder=placeholder,
            min_values=1 if single else widget.min_values, max_values=1 if single else widget.max_values,
            row=rows,
        ))
        rows += 1
    if not view.children:
        return None, complete
    return view, complete


def confirm_view(match: int, version: int, text: str, label: str = "") -> ui.View | None:
    """One "yes" button for ``text`` (None when its custom id would be too long)."""
    if len(confirm_id(match, version, text)) > MAX_CUSTOM_ID:
        return None
    view = ui.View(timeout=None)
    view.add_item(ConfirmButton(match, version, text, label))
    return view


def undo_view(match: int, version: int) -> ui.View:
    """The answers to an undo request made at ``version``: "Agree to undo" and "Refuse"."""
    view = ui.View(timeout=None)
    view.add_item(UndoButton(match, version, True))
    view.add_item(UndoButton(match, version, False))
    return view


def rematch_view(match: int | None, status: str | None = "finished") -> ui.View | None:
    """The Rematch button of a finished game's result (issue 25: in its thread until it is archived,
    then :func:`line_view`, and on the result line in the channel, which no archiving takes away);
    None for any other end (abandoned)."""
    if match is None or status != "finished":
        return None
    view = ui.View(timeout=None)
    view.add_item(RematchButton(match))
    return view


def line_view(url: str) -> ui.View:
    """Issue 25: in a finished game's archived thread, where no button can be pressed, a link to
    the result line in the channel, whose Rematch button can."""
    view = ui.View(timeout=None)
    view.add_item(ui.Button(label=_("Rematch: on the result line in the channel")[:MAX_BUTTON_LABEL],
                            style=discord.ButtonStyle.link, url=url))
    return view


def choose_view(match: int, version: int) -> ui.View:
    view = ui.View(timeout=None)
    view.add_item(ChooseButton(match, version))
    return view


# --------------------------------------------------------------------------- a seat's extra controls

MAX_CHOICES = 25  # Discord: options of a select, choices of an autocomplete


def private_choices(adapter: GameAdapter, game: Any, seat: int) -> bool:
    """The adapter's ``private_choices(game, seat)``: its choices show hidden information."""
    return bool(adapter.private_choices(game, seat))


def free_widgets(adapter: GameAdapter, game: Any, seat: int) -> list[Widget]:
    """The game's free actions for ``seat`` (Vikings: exchange VP for gold, V-16) as one select
    with the amount, beside the decision's own controls (issue 13)."""
    actions = list(game.free_actions(seat))
    if not actions:
        return []
    options = [(label_of(adapter, game, a), str(a)) for a in actions][:MAX_CHOICES]
    placeholder = adapter.free_actions_placeholder
    return [Widget("select", options, placeholder=_(placeholder) if placeholder else _("At any time"))]


TRIP_PREFIX = "trip "  # the sailor dialog's opener on the table's message, not an engine action
PLAN_OPEN = TRIP_PREFIX + "plan"


def trip_widgets(adapter: GameAdapter, game: Any, seat: int) -> list[Widget]:
    """The sailor dialog's opener (V-33, V-34): "Plan all sailors" beside the cell-by-cell buttons,
    when the adapter has a plan dialog for ``seat`` now."""
    if adapter.plan_dialog(game, seat, (), False) is None:
        return []
    return [Widget("buttons", [(_("Plan all sailors"), PLAN_OPEN)])]


Steps = list[tuple[bool, list[str]]]


def plan_state(steps: Sequence[tuple[bool, Sequence[str]]], extra: bool) -> str:
    """The dialog's state for a custom id: trips joined by ``/``, a trip's values by ``.``, ``!``
    before a trip with the boat, a last ``+`` when the next trip takes it (``N1.N2/!S3+``)."""
    return "/".join(("!" if boat else "") + ".".join(values) for boat, values in steps) + ("+" if extra else "")


_VALUE = re.compile(r"[A-Za-z0-9^]{1,8}")


def read_plan_state(state: str) -> tuple[Steps, bool]:
    """:func:`plan_state` read back; ``ValueError`` on anything it would not write."""
    extra = state.endswith("+")
    body = state.removesuffix("+")
    steps: Steps = []
    for part in body.split("/") if body else []:
        boat = part.startswith("!")
        values = part.removeprefix("!").split(".")
        if not all(_VALUE.fullmatch(v) for v in values):
            raise ValueError(f"not a dialog state: {state!r}")
        steps.append((boat, values))
    return steps, extra


def plan_view(match: int, version: int, steps: Sequence[tuple[bool, Sequence[str]]], extra: bool,
              dialog: PlanDialog) -> ui.View | None:
    """The dialog's controls: the next trip's select, the boat toggle, "Remove the last sailor",
    "Send the plan", "Cancel" (None when the state makes too long a custom id)."""
    state = plan_state(steps, extra)
    if len(plan_id(match, version, "t", state)) > MAX_CUSTOM_ID:
        return None
    view = ui.View(timeout=None)
    if dialog.options:
        view.add_item(PlanSelect(match, version, state, options=dialog.options[:MAX_SELECT_OPTIONS],
                                 placeholder=dialog.placeholder))
    if dialog.extra:
        view.add_item(PlanButton(match, version, "b", state, dialog.extra))
    if steps:
        view.add_item(PlanButton(match, version, "u", state, _("Remove the last sailor")))
    view.add_item(PlanButton(match, version, "s", state, _("Send the plan"), discord.ButtonStyle.success))
    view.add_item(PlanButton(match, version, "x", state, _("Cancel")))
    return view
