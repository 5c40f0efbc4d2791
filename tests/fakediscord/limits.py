"""Discord's documented limits, checked the way Discord checks them before accepting a payload.

Limits Discord's OpenAPI schema states are read from it (``schema.py``); the constants typed
here are only what the schema cannot say, each naming its documented source. Each function returns a list of human-readable problems (empty: Discord would accept it). The
fake answers a payload with problems with ``400 Invalid Form Body`` (code 50035), as Discord does.
They are also usable directly, e.g. to validate a command tree's JSON in a test.
"""

from __future__ import annotations

import re
from typing import Any

from . import schema


# -- limits Discord's OpenAPI schema states (issue 12): read from it, never typed by hand --------
def _prop(name: str, prop: str) -> dict[str, Any]:
    return schema.component(name)["properties"][prop]


MAX_OPTIONS = _prop("ApplicationCommandCreateRequest", "options")["maxItems"]  # 25
MAX_CHOICES = _prop("ApplicationCommandStringOption", "choices")["maxItems"]  # 25
MAX_DESCRIPTION = _prop("ApplicationCommandStringOption", "description")["maxLength"]  # 100
MAX_CHOICE_NAME = _prop("ApplicationCommandOptionStringChoice", "name")["maxLength"]  # 100
MAX_EMBEDS = _prop("MessageCreateRequest", "embeds")["maxItems"]  # 10
MAX_ROW_ITEMS = _prop("ActionRowComponentForMessageRequest", "components")["maxItems"]  # 5
MAX_SELECT_OPTIONS = _prop("StringSelectComponentForMessageRequest", "options")["maxItems"]  # 25
MAX_CUSTOM_ID = _prop("ButtonComponentForMessageRequest", "custom_id")["maxLength"]  # 100
MAX_LABEL = _prop("ButtonComponentForMessageRequest", "label")["maxLength"]  # 80
MAX_STRING_OPTION = _prop("ApplicationCommandStringOption", "max_length")["maximum"]  # 6000: a typed value

# -- what the schema cannot say, each with its documented source ------------------------------
# Name rules: docs "Application Commands > Application Command Naming": names match
# ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ and are lowercase where a lowercase form exists
# (the schema only has the 1-32 length).
_NAME = re.compile(r"^[-_\w]{1,32}$")
# docs "Application Commands > Registering a Command": at most 100 chat-input commands per scope
# (the schema's maxItems 130 counts every command type together).
MAX_COMMANDS = 100
# docs "Message Resource > Create Message": "the message contents (up to 2000 characters)". The
# schema allows 4000 on channel messages (the limit of Nitro users); bots get 2000, so the
# narrower documented limit is kept (decision recorded in docs/decisions.md).
MAX_CONTENT = 2000
# docs "Components > Action Row": a message holds at most 5 action rows unless it uses components
# v2 (flag 1 << 15); the schema's maxItems 40 is the v2 total.
MAX_ROWS = 5
# docs "Application Command Option Choice Structure": a choice value is at most 100 characters;
# the schema allows 6000 (the string option's max_length), Discord refuses above 100.
MAX_CHOICE_VALUE = 100


def _check_name(where: str, name: Any, problems: list[str]) -> None:
    if not isinstance(name, str) or not _NAME.match(name):
        problems.append(f"{where}: name {name!r} must be 1-32 letters, digits, '-' or '_'")
    elif name != name.lower():
        problems.append(f"{where}: name {name!r} must be lowercase")


def _check_description(where: str, desc: Any, problems: list[str]) -> None:
    if not isinstance(desc, str) or not 1 <= len(desc) <= MAX_DESCRIPTION:
        problems.append(f"{where}: description must be 1-{MAX_DESCRIPTION} characters, got {desc!r}")


def _check_localized(where: str, item: dict[str, Any], problems: list[str]) -> None:
    """Translations (from discord.py's Translator) obey the same rules as the default strings."""
    for locale, name in (item.get("name_localizations") or {}).items():
        _check_name(f"{where} [{locale}]", name, problems)
    for locale, desc in (item.get("description_localizations") or {}).items():
        _check_description(f"{where} [{locale}]", desc, problems)


def _check_options(where: str, options: list[dict[str, Any]], problems: list[str]) -> None:
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options, at most {MAX_OPTIONS}")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: option names repeat: {names}")
    optional_seen = False
    for opt in options:
        here = f"{where} {opt.get('name')}"
        _check_name(here, opt.get("name"), problems)
        _check_description(here, opt.get("description"), problems)
        _check_localized(here, opt, problems)
        if opt.get("type") in (1, 2):
            _check_options(here, opt.get("options") or [], problems)
            continue
        if opt.get("required"):
            if optional_seen:
                problems.append(f"{here}: required options must come before optional ones")
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(f"{here}: {len(choices)} choices, at most {MAX_CHOICES}")
        if choices and opt.get("autocomplete"):
            problems.append(f"{here}: autocomplete and choices cannot be combined")
        problems.extend(f"{here}: {p}" for c in choices for p in check_choice(c))


def check_choice(choice: dict[str, Any]) -> list[str]:
    problems = []
    name = choice.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_NAME:
        problems.append(f"choice name must be 1-{MAX_CHOICE_NAME} characters, got {name!r}")
    value = choice.get("value")
    if isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
        problems.append(f"choice value must be at most {MAX_CHOICE_VALUE} characters, got {len(value)}")
    return problems


def check_commands(commands: Any) -> list[str]:
    """Problems with a bulk-overwrite payload (a list of application commands)."""
    if not isinstance(commands, list):
        return [f"expected a list of commands, got {type(commands).__name__}"]
    problems: list[str] = []
    if len(commands) > MAX_COMMANDS:
        problems.append(f"{len(commands)} commands, at most {MAX_COMMANDS}")
    seen: set[tuple[int, str]] = set()
    for cmd in commands:
        ctype = cmd.get("type", 1)
        name = cmd.get("name")
        key = (ctype, name)
        if key in seen:
            problems.append(f"command {name!r} is defined twice")
        seen.add(key)
        if ctype == 1:
            _check_name(f"/{name}", name, problems)
            _check_description(f"/{name}", cmd.get("description"), problems)
            _check_localized(f"/{name}", cmd, problems)
            _check_options(f"/{name}", cmd.get("options") or [], problems)
        elif not isinstance(name, str) or not 1 <= len(name) <= 32:
            problems.append(f"context menu {name!r}: name must be 1-32 characters")
    return problems


def check_autocomplete(data: dict[str, Any]) -> list[str]:
    choices = data.get("choices")
    if not isinstance(choices, list):
        return ["autocomplete response needs a list of choices"]
    problems = [f"choice {i}: {p}" for i, c in enumerate(choices) for p in check_choice(c)]
    if len(choices) > MAX_CHOICES:
        problems.append(f"{len(choices)} choices, at most {MAX_CHOICES}")
    return problems


def check_message(data: dict[str, Any]) -> list[str]:
    """Problems with a message body (channel message, interaction response, follow-up, edit)."""
    problems: list[str] = []
    content = data.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(f"content is {len(content)} characters, at most {MAX_CONTENT}")
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append(f"{len(embeds)} embeds, at most {MAX_EMBEDS}")
    components = data.get("components") or []
    v2 = bool(int(data.get("flags") or 0) & (1 << 15))
    if not v2 and len(components) > MAX_ROWS:
        problems.append(f"{len(components)} action rows, at most {MAX_ROWS}")
    ids: list[str] = []
    for row in components:
        if not v2 and row.get("type") != 1:
            problems.append(f"top-level component of type {row.get('type')} must be an action row (1)")
            continue
        items = row.get("components") or []
        if row.get("type") == 1 and len(items) > MAX_ROW_ITEMS:
            problems.append(f"an action row holds {len(items)} components, at most {MAX_ROW_ITEMS}")
        for item in items:
            cid = item.get("custom_id")
            if cid is not None:
                ids.append(cid)
                if not 1 <= len(cid) <= MAX_CUSTOM_ID:
                    problems.append(f"custom_id {cid!r} must be 1-{MAX_CUSTOM_ID} characters")
            label = item.get("label")
            if isinstance(label, str) and len(label) > MAX_LABEL:
                problems.append(f"label {label!r} is longer than {MAX_LABEL}")
            opts = item.get("options")
            if item.get("type") == 3:
                if not opts or len(opts) > MAX_SELECT_OPTIONS:
                    problems.append(f"select {cid!r} needs 1-{MAX_SELECT_OPTIONS} options, has {len(opts or [])}")
                values = [o.get("value") for o in opts or []]
                if len(set(values)) != len(values):
                    problems.append(f"select {cid!r} has repeated option values")
    if len(set(ids)) != len(ids):
        problems.append(f"custom_ids repeat within one message: {ids}")
    return problems
