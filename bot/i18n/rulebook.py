"""Rules by number (``rules V-14``, ``rules B-19``, ``rules D-1``) or by topic (``rules sailors``
finds V-34) from the packaged rules texts; :func:`search` ranks rules for a topic (the Discord
``/rules`` autocomplete).

``bot/i18n/rules/*.md`` are copies of ``../shared/rules`` (tests keep them equal), so an installed bot
can quote them without the shared folder. Issue 16: translations live in
``bot/i18n/rules/<lang>/<file>`` (``- **V-14** …`` / ``- **[D-2]** …``, one line per rule, the English
keys); a rule missing there is said in English. ``lang`` ``None`` is the current language
(``bot.i18n``), so an adapter's ``rules`` answers in the asker's language.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from bot.i18n import SOURCE_LANGUAGE, current_language

PACKAGED = resources.files("bot.i18n").joinpath("rules")
_translations_dir: Traversable = PACKAGED


def set_translations_dir(path: str | Path | None) -> None:
    """Read the translated rules from ``path/<lang>/<file>`` (``None``: the packaged ``bot/i18n/rules``;
    tests use another folder). The English files are always the packaged ones."""
    global _translations_dir
    _translations_dir = PACKAGED if path is None else Path(path)
    rule_texts.cache_clear()


def parse_rules(text: str, letter: str) -> dict[str, str]:
    """Rule number → its sentence(s) of one rules file: ``- **V-14** …`` lines and their indented
    continuation, plus the ``- **[D-n]**`` decisions. Tables inside a rule are left out."""
    line_re = re.compile(rf"^- \*\*\[?(({letter}|D)-\d+)\]?\*\*\s*(.*)$")
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


def _language(lang: str | None) -> str:
    return (lang or current_language() or SOURCE_LANGUAGE).replace("-", "_")


def translated_rules(filename: str, letter: str, lang: str) -> dict[str, str] | None:
    """The rules of ``bot/i18n/rules/<lang>/<filename>`` as written there (``None``: no such file)."""
    for code in dict.fromkeys((lang, lang.split("_")[0])):
        path = _translations_dir.joinpath(code, filename)
        if path.is_file():
            return parse_rules(path.read_text(encoding="utf-8"), letter)
    return None


@cache
def rule_texts(filename: str, letter: str, lang: str = SOURCE_LANGUAGE) -> dict[str, str]:
    """Rule number → its text in ``lang``: the English file's rules, each translated where the
    language's file has it (issue 16: a missing rule is said in English)."""
    english = parse_rules(PACKAGED.joinpath(filename).read_text(encoding="utf-8"), letter)
    if lang == SOURCE_LANGUAGE:
        return english
    translated = translated_rules(filename, letter, lang) or {}
    return {key: translated.get(key) or text for key, text in english.items()}


RULEBOOKS = {"vikings": ("vikings.md", "V"), "brian-boru": ("brian-boru.md", "B")}  # game id → its rules

MIN_PREFIX = 4  # a word typed matches a longer word it begins (or that begins it) from this length


def _words(text: str, lang: str) -> list[str]:
    """Casefolded words; in English a plural ``s`` is dropped (sailors → sailor)."""
    words = [w.casefold().strip("-") for w in re.findall(r"[\w-]+", text)]
    if lang.split("_")[0] == SOURCE_LANGUAGE:
        words = [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words]
    return [w for w in words if w]


def _matches(word: str, token: str) -> bool:
    """Equal, or one begins the other and the shorter has :data:`MIN_PREFIX` letters (a simple,
    language-blind stand-in for a stemmer: "żeglarz" finds "żeglarze", "purjehdi" finds "purjehtija"
    only when one begins the other)."""
    if word == token:
        return True
    short, long_ = sorted((word, token), key=len)
    return len(short) >= MIN_PREFIX and long_.startswith(short)


def search(filename: str, letter: str, topic: str, lang: str | None = None) -> list[str]:
    """Rule numbers about ``topic`` in ``lang`` (default: the current language), best first: a rule
    that starts with the topic (its title, e.g. "Sailors, …" for V-34), then by how often it
    names it. Words match casefolded, plural or singular, or by a common beginning."""
    lang = _language(lang)
    words = [w for w in _words(topic, lang) if len(w) > 1]
    if not words:
        return []
    scored = []
    for key, text in rule_texts(filename, letter, lang).items():
        tokens = _words(text, lang)
        if not all(any(_matches(w, t) for t in tokens) for w in words):
            continue
        title = len(tokens) >= len(words) and all(_matches(w, t) for w, t in zip(words, tokens, strict=False))
        scored.append((not title, -sum(1 for t in tokens for w in words if _matches(w, t)), key))
    return [key for *_, key in sorted(scored, key=lambda s: (s[0], s[1]))]


def lookup(filename: str, letter: str, topic: str, lang: str | None = None) -> list[str]:
    """One rule as ``["V-14: …"]`` in ``lang`` (default: the current language); ``14``, ``v14``
    and ``[D-2]`` are understood, and a topic word (``sailors``: the best rule about it).
    ``KeyError`` if unknown."""
    lang = _language(lang)
    key = topic.upper().replace(" ", "").strip("[]")
    if not key.startswith((f"{letter}-", "D-")):
        key = f"{letter}-" + key.lstrip(letter)
    rules = rule_texts(filename, letter, lang)
    if key not in rules:
        found = search(filename, letter, topic, lang) if re.search(r"[^\W\d]{2}", topic) else []
        if not found:
            raise KeyError(topic)
        key = found[0]
    return [f"{key}: {rules[key]}"]
