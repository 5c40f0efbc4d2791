"""Small text helpers every part of the host shares (no discord, no engine)."""

from __future__ import annotations

import unicodedata

QUOTE_LIMIT = 100  # characters of someone's input a reply quotes back at most


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Someone's input as a reply may quote it: control characters as spaces, at most ``limit``
    characters (then "…"). A 6,000-character option must not come back as four messages.

    >>> quote("buy\\x00 3"), quote("x" * 500)[-3:], len(quote("x" * 500))
    ('buy  3', 'xx…', 100)
    """
    clean = "".join(c if c.isprintable() else " " for c in text).strip()
    if clean == text:
        clean = text  # unchanged: the very string (a translated one can still be said again, issue 16)
    return clean if len(clean) <= limit else clean[: limit - 1].rstrip() + "…"


def player_name(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A name someone joins with, as every message and picture shows it: on one line (control
    characters and runs of whitespace as one space), without invisible format characters
    (zero-width, bidi overrides), at most ``limit`` characters (then "…"); may be empty (issue 24:
    a display name with a line break failed every picture of its table).

    >>> player_name("  Ann\\n\\n Bob\\u200b ")
    'Ann Bob'
    """
    kept = (c if c.isprintable() else " " for c in text if unicodedata.category(c) != "Cf")
    clean = " ".join("".join(kept).split())
    return clean if len(clean) <= limit else clean[: limit - 1].rstrip() + "…"
