"""Rules by number (``rules V-14``, ``rules B-19``, ``rules D-1``) or by topic (``rules sailors``
finds V-34) from the packaged rules texts; :func:`search` ranks rules for a topic (the Discord
``/rules`` autocomplete).

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


RULEBOOKS = {"vikings": ("vikings.md", "V"), "brian-boru": ("brian-boru.md", "B")}  # game id → its rules


def _stem(word: str) -> str:
    word = word.lower().strip(".,;:()`'\"")
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def search(filename: str, letter: str, topic: str) -> list[str]:
    """Rule numbers about ``topic`` (words, plural or singular), best first: a rule that starts
    with the topic (its title, e.g. "Sailors, …" for V-34), then by how often it names it."""
    words = [_stem(w) for w in re.findall(r"[\w-]+", topic) if len(w) > 1]
    if not words:
        return []
    scored = []
    for key, text in rule_texts(filename, letter).items():
        tokens = [_stem(t) for t in re.findall(r"[\w-]+", text)]
        if not all(w in tokens for w in words):
            continue
        title = tokens[:len(words)] == words
        scored.append((not title, -sum(tokens.count(w) for w in words), key))
    return [key for *_, key in sorted(scored, key=lambda s: (s[0], s[1]))]


def lookup(filename: str, letter: str, topic: str) -> list[str]:
    """One rule as ``["V-14: …"]``; ``14``, ``v14`` and ``[D-2]`` are understood, and a topic word
    (``sailors``: the best rule about it). ``KeyError`` if unknown."""
    key = topic.upper().replace(" ", "").strip("[]")
    if not key.startswith((f"{letter}-", "D-")):
        key = f"{letter}-" + key.lstrip(letter)
    rules = rule_texts(filename, letter)
    if key not in rules:
        found = search(filename, letter, topic) if re.search(r"[^\W\d]{2}", topic) else []
        if not found:
            raise KeyError(topic)
        key = found[0]
    return [f"{key}: {rules[key]}"]
