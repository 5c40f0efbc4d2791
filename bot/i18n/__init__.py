"""The one translation function for every user-facing sentence (stdlib ``gettext``).

Messages are English msgids with ``str.format`` placeholders filled after translation::

    from bot.i18n import _, ngettext
    _("{name} joined the table.", name="Astrid")
    ngettext("{n} stone left", "{n} stones left", n)          # ``n`` is passed to format too

Catalogs live in ``bot/i18n/locale/<lang>/LC_MESSAGES/meadhall.po`` with the compiled ``.mo`` beside
it (committed, so a plain ``pip install`` has them; a test checks each is current), the template
in ``bot/i18n/locale/meadhall.pot``. Babel does the catalog work (``bot/i18n/catalogs.py``); adding a
language needs no code change:

    python -m bot.i18n.catalogs extract        # pybabel extract (babel.cfg) → bot/i18n/locale/meadhall.pot
    python -m bot.i18n.catalogs init de        # pybabel init: a new catalog with the language's plural rule
    python -m bot.i18n.catalogs update         # pybabel update: every catalog gains the template's new messages
    python -m bot.i18n.catalogs compile        # every .po → .mo next to it (Babel's writer)
    python -m bot.i18n.catalogs check          # every catalog complete: no empty/fuzzy entry, same placeholders

The engines say their refusal reasons and scoring lines as structured ``engine.core.Msg`` values
(marked with ``msg``/``msgn``, extracted into the same template); :func:`tr_msg` translates one.

API: ``_(msg, **kw)``, ``ngettext(singular, plural, n, **kw)``, ``N_(msg)`` (mark only),
``tr_msg(m)`` (an engine message, or its JSON form),
``use_language(lang)`` (context manager; per task via a ContextVar, e.g. a Discord user's locale),
``set_language(lang)`` (process default), ``set_task_language(lang)`` (the rest of this task), ``current_language()``, ``available_languages()``,
``set_locale_dir(path)``, ``say_in(text, lang)`` (a sentence said again in another language:
what ``_``/``ngettext`` return remembers its message id and fields, so a transport can show one
reply's public lines in the table's language and its private ones in the asker's, issue 16).
This module is only the lookup at run time (stdlib ``gettext`` reads
the ``.mo`` files, plural rules included); the catalog tools are in :mod:`bot.i18n.catalogs`.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from engine.core import Msg

DOMAIN = "meadhall"
SOURCE_LANGUAGE = "en"
PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_LOCALE_DIR = PACKAGE_DIR / "locale"

_locale_dir = DEFAULT_LOCALE_DIR
_default_language = SOURCE_LANGUAGE
_language: ContextVar[str | None] = ContextVar("meadhall_language", default=None)
_cache: dict[tuple[Path, str], gettext.NullTranslations] = {}


def set_locale_dir(path: str | Path | None) -> None:
    """Read catalogs from ``path`` (``None``: the packaged ``bot/i18n/locale``)."""
    global _locale_dir
    _locale_dir = DEFAULT_LOCALE_DIR if path is None else Path(path)
    _cache.clear()


def set_language(lang: str) -> None:
    """The process-wide default language (e.g. from the configuration)."""
    global _default_language
    _default_language = lang


def current_language() -> str:
    return _language.get() or _default_language


@contextmanager
def use_language(lang: str | None) -> Iterator[None]:
    """Translate into ``lang`` inside the block (this task only); ``None`` keeps the default."""
    token = _language.set(lang)
    try:
        yield
    finally:
        _language.reset(token)


def set_task_language(lang: str | None) -> None:
    """Translate into ``lang`` for the rest of the current task (``None``: the default), e.g. one
    Discord interaction's handling, which runs in a task of its own."""
    _language.set(lang)


def _translations(lang: str) -> gettext.NullTranslations:
    key = (_locale_dir, lang)
    if key not in _cache:
        _cache[key] = gettext.translation(DOMAIN, _locale_dir, languages=[lang], fallback=True)
    return _cache[key]


def available_languages() -> list[str]:
    """The source language plus every language with a compiled catalog."""
    found = {SOURCE_LANGUAGE}
    if _locale_dir.is_dir():
        for mo in _locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"):
            found.add(mo.parent.parent.name)
    return sorted(found)


class Said(str):
    """A translated sentence (a plain ``str`` to everyone) that remembers how it was made —
    message id, plural and fields — so :func:`say_in` can say it again in another language.
    Joining or formatting it into a bigger string makes a plain ``str`` (said once, as it is)."""

    how: tuple[str, str | None, int | None, dict[str, object]]

    def __new__(cls, text: str, how: tuple[str, str | None, int | None, dict[str, object]]) -> Said:
        said = super().__new__(cls, text)
        said.how = how
        return said

    def __reduce__(self) -> tuple[type[str], tuple[str]]:  # pickled (worker processes) as plain text
        return str, (str(self),)


def _(message: str, /, **kwargs: object) -> str:
    """Translate ``message`` into the current language, then ``format(**kwargs)`` it."""
    text = _translations(current_language()).gettext(message)
    return Said(text.format(**kwargs) if kwargs else text, (message, None, None, kwargs))


def ngettext(singular: str, plural: str, n: int, /, **kwargs: object) -> str:
    """Plural-aware translation; ``n`` is available to the format string as ``{n}``."""
    text = _translations(current_language()).ngettext(singular, plural, n)
    return Said(text.format(n=n, **kwargs), (singular, plural, n, kwargs))


def say_in(text: str, lang: str | None) -> str:
    """``text`` in ``lang`` (``None``: the default language) when it came from ``_``/``ngettext``
    (its fields that did too are said again first); any other string is returned as it is."""
    if not isinstance(text, Said):
        return text
    message, plural, n, kwargs = text.how
    with use_language(lang):
        fields = {k: say_in(v, lang) if isinstance(v, Said) else v for k, v in kwargs.items()}
        if plural is None:
            return _(message, **fields)
        return ngettext(message, plural, n or 0, **fields)


def N_(message: str, /) -> str:
    """Mark a message for extraction without translating it now (translate later with ``_``)."""
    return message


def tr_msg(message: Msg | dict[str, Any] | str, /) -> str:
    """An engine's message (a :class:`engine.core.Msg` or its JSON form) in the current language.

    Nested messages among the parameters (a viking kind, a colour) are translated first; plain
    values (numbers, cells, names, quoted input) are filled in as they are. A plain string is
    translated as a message id (older stored events may hold English lines).
    """
    if isinstance(message, str):
        return _(message)
    m = Msg.from_json(message) if isinstance(message, dict) else message
    return m.translate(_, ngettext)
