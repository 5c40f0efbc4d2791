"""The languages of meadhall on Discord (issue 16): command strings for discord.py's Translator
(:func:`T`, :class:`MeadhallTranslator`) and a Discord locale as a catalog language
(:func:`language_for`; :func:`asker_language` for what only the asker sees, :func:`said_to` for a
reply's lines said again in it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.i18n import SOURCE_LANGUAGE, _, available_languages, say_in, use_language


def T(msgid: str, /, **fmt: Any) -> locale_str:
    """A command string for discord.py's Translator: English text now, ``msgid`` for catalogs.

    Mark literals with ``N_`` where they are written (``T(N_("Show the board"))``) so that
    ``python -m bot.i18n extract`` finds them.
    """
    return locale_str(msgid.format(**fmt) if fmt else msgid, msgid=msgid, fmt=fmt)


def language_for(locale: discord.Locale | str | None) -> str | None:
    """The catalog language for a Discord locale (``"pt-BR"`` → ``pt_BR`` or ``pt``), or None
    for the source language and for languages without a catalog."""
    if locale is None:
        return None
    code = str(locale.value if isinstance(locale, discord.Locale) else locale).replace("-", "_")
    known = set(available_languages())
    for candidate in (code, code.split("_")[0]):
        if candidate == SOURCE_LANGUAGE:
            return None
        if candidate in known:
            return candidate
    return None


def asker_language(interaction: discord.Interaction) -> str | None:
    """The language of what only the asker sees (issue 16): their client's, ``interaction.locale``."""
    return language_for(interaction.locale)


def said_to(lines: Iterable[str], lang: str | None) -> list[str]:
    """A reply's lines for one person: each said again in ``lang`` where it can be (``bot.i18n.say_in``)."""
    return [say_in(line, lang) for line in lines]


class MeadhallTranslator(app_commands.Translator):
    """Command names, descriptions and choices through ``bot.i18n`` (gettext catalogs)."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = language_for(locale)
        if lang is None:
            return None
        msgid = string.extras.get("msgid")
        if msgid is None:  # not marked with T(): a move command's own word stays as players type it
            return None
        with use_language(lang):
            text = _(msgid, **string.extras.get("fmt", {}))
        return text if text != string.message else None
