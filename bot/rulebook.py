"""Rules by number (``rules V-14``, ``rules B-19``, ``rules D-1``) from the packaged rules texts.

``bot/rules/*.md`` are copies of ``../shared/rules`` (tests keep them equal), so an installed bot
can quote them without the shared folder.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources


@cache
def rule_texts(filename: str, letter: str) -> dict[str, str]:
    """Rule number → its sentence(s): ``- **V-14** …`` lines and their indented continuation,
    plus the ``- **[D-n]**`` decisions. Tables inside a rule are left out of the summary."""
    line_re = re.compile(rf"^- \*\*\[?(({letter}|D)-\d+)\]?\*\*\s*(.*)$")
    text = resources.files("bot").joinpath(f"rules/{filename}").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        m = line_re.match(line)
        stripped = line.strip()
        if m:
            current = m.group(1)
            out[current] = m.group(3).strip()
        elif current and line.startswith("  ") and stripped and not stripped.startswith("|"):
            out[current] += " " + stripped
        elif current and (stripped.startswith("|") or not stripped):
            continue
        else:
            current = None
    return {k: v.replace("**", "") for k, v in out.items()}


def lookup(filename: str, letter: str, topic: str) -> list[str]:
    """One rule as ``["V-14: …"]``; ``14``, ``v14`` and ``[D-2]`` are understood. ``KeyError`` if unknown."""
    key = topic.upper().replace(" ", "").strip("[]")
    if not key.startswith((f"{letter}-", "D-")):
        key = f"{letter}-" + key.lstrip(letter)
    rules = rule_texts(filename, letter)
    if key not in rules:
        raise KeyError(topic)
    return [f"{key}: {rules[key]}"]
