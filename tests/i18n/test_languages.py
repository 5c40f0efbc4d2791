"""Issue 16 outside Discord: the table's language (``lang:xx``, stored with the table), sentences
said again in another language (``bot.i18n.say_in``), and ``/rules`` in the asker's language
(``bot/i18n/rules/<lang>/*.md``, English per missing rule)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from bot.games import (
    OptionError,
    language_name,
    parse_language,
    split_option_words,
    table_language,
    table_languages,
)
from bot.games.registry import default_registry
from bot.games.vikings import VikingsAdapter
from bot.host.service import HostService
from bot.i18n import _, ngettext, rulebook, say_in, tr_msg, use_language
from bot.i18n.rulebook import RULEBOOKS, lookup, parse_rules, rule_texts, search
from bot.i18n.text import quote
from bot.offline.table import OfflineTable
from bot.storage import Storage
from engine.core import Msg
from tests.host_helpers import CH, Clock, open_service, start_game

# --------------------------------------------------------------------------- the table's language


def test_lang_word_sets_the_tables_language_and_an_unknown_one_is_refused():
    assert split_option_words(["advanced", "lang:pl"]) == (["advanced"], {"language": "pl"})
    assert split_option_words(["LANG:De"]) == ([], {"language": "de"})
    assert parse_language("pl-PL") == "pl" and parse_language("en") == "en"
    with pytest.raises(OptionError) as e:
        split_option_words(["lang:xx"])
    assert "“xx”" in str(e.value) and "lang:pl (Polski)" in str(e.value)
    assert table_languages()[:6] == ["en", "pl", "fi", "cs", "es", "de"]
    assert table_language({}) is None and table_language({"host": {"language": "fi"}}) == "fi"


@pytest.fixture
async def svc(tmp_path):
    store = await Storage.open(tmp_path / "lang.db")
    yield HostService(store, default_registry(), seed_source=lambda: 3, reminder_delay=60)
    await store.close()


async def lobby(svc: HostService, channel: str = "c") -> None:
    assert (await svc.join(channel, "ann", "Ann", game="vikings")).ok
    assert (await svc.join(channel, "bob", "Bob")).ok


async def test_start_with_lang_word_speaks_it_stores_it_and_describes_it(svc):
    await lobby(svc)
    r = await svc.start("c", "ann", options=["lang:pl"])  # asked in English: the table speaks Polish
    with use_language("pl"):
        begins = _("{game} begins ({options}): {players}.", game="Vikings",
                   options=_("basic game") + "; " + _("language: {language}", language="Polski"),
                   players="Ann, Bob")
    assert r.ok and r.public[0] == begins
    assert table_language((await svc.table("c")).record.options) == "pl"
    status = await svc.status("c")  # the description says it
    assert "Polski" in status.public[0]


async def test_start_without_lang_word_stores_the_language_it_was_made_in(svc):
    await lobby(svc)
    with use_language("fi"):
        assert (await svc.start("c", "ann")).ok
    assert table_language((await svc.table("c")).record.options) == "fi"


async def test_unknown_lang_word_is_a_clear_refusal_that_changes_nothing(svc):
    await lobby(svc)
    before = (await svc.table("c")).record
    r = await svc.start("c", "ann", options=["lang:xx"])
    assert not r.ok and r.code == "bad_options"
    assert "“xx”" in r.private[0] and "lang:pl" in r.private[0]
    after = (await svc.table("c")).record
    assert (after.status, after.options, after.version) == ("lobby", before.options, before.version) == (
        "lobby", {}, 0)
    with use_language("de"):  # the refusal can be said again in the asker's language
        expected = _("There is no language “{lang}”. Languages: {langs}.", lang="xx",
                     langs=", ".join(f"lang:{k} ({language_name(k)})" for k in table_languages()))
    assert say_in(r.private[0], "de") == expected


async def test_reminders_speak_the_tables_language(svc):
    await lobby(svc)
    assert (await svc.start("c", "ann", options=["lang:de"])).ok
    [due, *_rest] = await svc.due_reminders(svc.clock() + 3600)  # asked in English
    with use_language("de"):
        assert due.text.startswith(_("Reminder: it is still your turn in {game}: {prompt}",
                                     game="Vikings", prompt="§").split("§")[0])


async def test_offline_table_resumed_speaks_the_tables_language(tmp_path):
    """``meadhall play --lang pl`` (the process language) stores pl; a later run without it still
    prints that table in Polish."""
    store = await Storage.open(tmp_path / "off.db")
    try:
        svc = HostService(store, default_registry(), seed_source=lambda: 3)
        with use_language("pl"):
            t = OfflineTable(svc, tmp_path / "img")
            for line in ("alice: /join vikings", "bob: /join"):
                await t.handle(line)
            started = await t.handle("alice: /start")
        stored = table_language((await svc.table("offline")).record.options)
        again = OfflineTable(svc, tmp_path / "img")
        status = await again.handle("alice: /status")
    finally:
        await store.close()
    with use_language("pl"):
        begins = _("{game} begins ({options}): {players}.", game="§", options="§", players="§").split("§")
    assert any(begins[0] in line for line in started), started
    assert stored == "pl"
    with use_language("pl"):
        basic = _("basic game")
    assert any(basic in line for line in status), status


# --------------------------------------------------------------------------- said again


def test_a_translated_sentence_is_said_again_in_another_language_with_its_fields():
    with use_language("pl"):
        inner = _("The game has not started yet.")
        outer = _("That move is not allowed: {reason}.", reason=inner)
        plural = ngettext("{n} unfinished table restored.", "{n} unfinished tables restored.", 3)
        engine = tr_msg(Msg("That move is not allowed: {reason}.", {"reason": Msg("The game has not started yet.")}))
    with use_language("de"):
        assert say_in(outer, "de") == _("That move is not allowed: {reason}.", reason=_("The game has not started yet."))
        assert say_in(plural, "de") == ngettext("{n} unfinished table restored.", "{n} unfinished tables restored.", 3)
        assert say_in(engine, "de") == say_in(outer, "de")
    assert say_in(outer, None) == "That move is not allowed: The game has not started yet.."
    assert say_in("plain text", "de") == "plain text" and say_in(outer + "!", "de") == outer + "!"  # joined: as it is
    assert say_in(quote(inner), "de") != inner  # quoting an unchanged line keeps it sayable


# --------------------------------------------------------------------------- /rules in the asker's language


def translated_files() -> list[tuple[str, str, str]]:
    """(language, file, letter) of every translated rules file packaged in bot/i18n/rules/<lang>/."""
    root = resources.files("bot.i18n").joinpath("rules")
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for filename, letter in RULEBOOKS.values():
            if folder.joinpath(filename).is_file():
                out.append((folder.name, filename, letter))
    return out


@pytest.mark.parametrize("lang,filename,letter", translated_files() or [pytest.param(
    "-", "-", "-", marks=pytest.mark.skip(reason="no translated rules file packaged yet"))])
def test_each_translated_rules_file_has_the_english_keys_and_numbers(lang, filename, letter):
    english = rule_texts(filename, letter)
    text = resources.files("bot.i18n").joinpath("rules", lang, filename).read_text(encoding="utf-8")
    translated = parse_rules(text, letter)
    assert list(translated) == list(english), "the same rules, in the same order"
    for key, line in english.items():
        assert translated[key].strip(), key
        for number in set(re.findall(r"\d+", line)):
            assert re.search(rf"(?<!\d){number}(?!\d)", translated[key]), (lang, key, number)


@pytest.fixture
def polish_rules(tmp_path):
    """A Polish vikings.md with two rules translated (the others fall back to English)."""
    folder = tmp_path / "pl"
    folder.mkdir()
    (folder / "vikings.md").write_text(
        "# Wikingowie — zasady\n\n"
        "- **V-14** Kombinację z pozycji 0 można kupić tylko wtedy, gdy jej wiking jest ostatni.\n"
        "- **V-34** Żeglarze, tylko na początku dużej punktacji: każdy żeglarz przesuwa wikinga.\n",
        encoding="utf-8")
    rulebook.set_translations_dir(tmp_path)
    yield tmp_path
    rulebook.set_translations_dir(None)


def test_rules_in_polish_fall_back_to_english_per_missing_rule(polish_rules):
    english = rule_texts("vikings.md", "V")
    polish = rule_texts("vikings.md", "V", "pl")
    assert list(polish) == list(english)
    assert polish["V-14"].startswith("Kombinację z pozycji 0") and polish["V-1"] == english["V-1"]
    assert lookup("vikings.md", "V", "V-14", "pl") == [f"V-14: {polish['V-14']}"]
    with use_language("pl"):  # the adapter answers in the current language
        assert VikingsAdapter().rules("14") == [f"V-14: {polish['V-14']}"]
        assert VikingsAdapter().rules("żeglarz")[0].startswith("V-34: Żeglarze")  # a topic, by its beginning
    assert rule_texts("vikings.md", "V", "fi") == english  # no Finnish file here: English


def test_topic_search_casefolds_and_matches_word_beginnings(polish_rules):
    assert search("vikings.md", "V", "ŻEGLARZE", "pl")[0] == "V-34"
    assert search("vikings.md", "V", "kombinacj", "pl")[0] == "V-14"
    assert search("vikings.md", "V", "sailors", "en")[0] == "V-34"
    assert search("vikings.md", "V", "zzzz", "pl") == []


def test_rules_files_are_packaged():
    text = Path(__file__).resolve().parents[2].joinpath("pyproject.toml").read_text(encoding="utf-8")
    assert '"rules/*.md", "rules/*/*.md"' in text


async def test_deadline_moves_are_said_in_the_tables_language(tmp_path):
    clock = Clock()
    svc, store = await open_service(tmp_path / "db.sqlite", clock=clock)
    try:
        await start_game(svc, "vikings", seed=3, options=("deadline:1h", "lang:es"))
        clock.t += 3600 + 1
        [made] = await svc.due_reminders()  # the reminder loop runs in the host's language (English)
    finally:
        await store.close()
    assert made.channel == CH
    assert made.text.startswith(said_prefix("Move made by the computer for {name} after the deadline: {choice}.",
                                            "es", name="Ann"))


def said_prefix(msgid: str, language: str, **fields: str) -> str:
    with use_language(language):
        return _(msgid, **fields, choice="§").split("§")[0]
