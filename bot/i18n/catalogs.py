"""Catalog tools over Babel: extract the template, create, update, compile and check catalogs.

Run from a checkout (``babel.cfg`` at the repository root says which files and keywords)::

    python -m bot.i18n.catalogs extract        # pybabel extract → bot/i18n/locale/meadhall.pot
    python -m bot.i18n.catalogs init de        # pybabel init: a new catalog with the language's plural rule
    python -m bot.i18n.catalogs update         # pybabel update: every catalog gains the template's new messages
    python -m bot.i18n.catalogs compile        # every .po → .mo beside it (committed: pip installs them)
    python -m bot.i18n.catalogs check          # every catalog complete: nothing empty or fuzzy, same placeholders

Babel does the extraction, the catalog merge and the ``.mo`` writing; this module adds only the
checks a finished catalog must pass (:func:`catalog_problems`). The lookup at run time is
:mod:`bot.i18n`.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from string import Formatter

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import CommandLineInterface, parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import PoFileError, read_po

from bot.i18n import DEFAULT_LOCALE_DIR, DOMAIN, PACKAGE_DIR

REPO_DIR = PACKAGE_DIR.parents[1]  # bot/i18n → the repository
LOCALE_DIR = DEFAULT_LOCALE_DIR
MAPPING_FILE = REPO_DIR / "babel.cfg"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "tr": None, "ntr": (1, 2), "msg": None, "msgn": (1, 2)}
"""The translation functions Babel looks for (``ngettext``: singular and plural are args 1, 2);
``tr``/``ntr`` are the pictures' (``renderer.common``: the renderer never imports the host);
``msg``/``msgn`` are the engines' markers (``engine.core``) for refusal reasons and scoring lines."""


def locale_dir() -> Path:
    return LOCALE_DIR


def pot_path() -> Path:
    return locale_dir() / f"{DOMAIN}.pot"


def po_files() -> list[Path]:
    return sorted(locale_dir().glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def extract_messages(root: Path = REPO_DIR) -> Catalog:
    """Every literal passed to ``_``, ``N_`` or ``ngettext`` in the files ``babel.cfg`` names."""
    with MAPPING_FILE.open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project="meadhall", charset="utf-8", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        root, method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True
    ):
        flags = ("python-brace-format",) if "{" in (message if isinstance(message, str) else message[0]) else ()
        catalog.add(message, None, [(Path(filename).as_posix(), lineno)], auto_comments=comments,
                    context=context, flags=flags)
    return catalog


def load_catalog(path: Path, locale: str | None = None) -> Catalog:
    """Read a ``.po``/``.pot`` file; a malformed one raises ``ValueError`` naming file and line."""
    with path.open("rb") as f:
        try:
            return read_po(f, locale=locale, abort_invalid=True)
        except PoFileError as e:
            raise ValueError(f"{path}: {e}") from None


def compile_po(po_path: Path, mo_path: Path) -> None:
    """Write the ``.mo`` file for ``po_path`` (Babel's writer; fuzzy entries are left out)."""
    catalog = load_catalog(po_path, locale=po_path.parent.parent.name)
    with mo_path.open("wb") as f:
        write_mo(f, catalog, use_fuzzy=False)


def compiled_bytes(po_path: Path) -> bytes:
    """What :func:`compile_po` would write (bytes of this Babel version; compare meaning with
    :func:`mo_differences`)."""
    out = io.BytesIO()
    write_mo(out, load_catalog(po_path, locale=po_path.parent.parent.name), use_fuzzy=False)
    return out.getvalue()


def _translations(catalog: Catalog) -> dict[tuple[str | None, str, int], str]:
    """What a catalog translates, keyed by (context, message id, plural index); the header (the
    empty id), fuzzy and untranslated entries are left out, as gettext never serves them."""
    out: dict[tuple[str | None, str, int], str] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        msgid = m.id if isinstance(m.id, str) else m.id[0]
        strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
        if not all(strings):
            continue
        for i, s in enumerate(strings):
            out[(m.context, msgid, i)] = s
    return out


def mo_differences(po_path: Path, mo_path: Path | None = None) -> list[str]:
    """How the compiled ``.mo`` beside ``po_path`` differs from the ``.po`` in *meaning*: messages
    missing, extra or translated otherwise. Both files are read back, so the check holds whatever
    Babel version wrote the ``.mo`` (its header and byte layout may change between releases;
    issue 22). Empty when the ``.mo`` is current."""
    mo_path = mo_path or po_path.with_suffix(".mo")
    want = _translations(load_catalog(po_path, locale=po_path.parent.parent.name))
    with mo_path.open("rb") as f:
        have = _translations(read_mo(f))
    problems = [f"not in {mo_path.name}: {key[1]!r}" for key in sorted(want.keys() - have.keys(), key=str)]
    problems += [f"only in {mo_path.name}: {key[1]!r}" for key in sorted(have.keys() - want.keys(), key=str)]
    problems += [f"translated otherwise in {mo_path.name}: {key[1]!r}"
                 for key in sorted(want.keys() & have.keys(), key=str) if want[key] != have[key]]
    return problems


def placeholders(text: str) -> set[str]:
    """The ``str.format`` fields of a message (``{names}`` → ``names``)."""
    return {name for _lit, name, _spec, _conv in Formatter().parse(text) if name is not None}


def catalog_problems(po_path: Path) -> list[str]:
    """Why a translated catalog is not finished: untranslated, fuzzy, wrong placeholders or plural
    forms, entries missing from or obsolete against the template. Empty when it is complete."""
    catalog = load_catalog(po_path, locale=po_path.parent.parent.name)
    template = load_catalog(pot_path())
    problems: list[str] = []
    wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    problems += [f"missing from the catalog: {mid!r}" for mid in sorted(wanted - have)]
    problems += [f"not in the template any more: {mid!r}" for mid in sorted(have - wanted)]
    for m in catalog:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = list(m.string) if isinstance(m.string, (tuple, list)) else [m.string or ""]  # None: untranslated
        label = repr(ids[0])
        if m.fuzzy:
            problems.append(f"fuzzy: {label}")
        if isinstance(m.id, tuple) and len(strings) > catalog.num_plurals:
            problems.append(f"{len(strings)} plural forms, the language has {catalog.num_plurals}: {label}")
        if any(not s for s in strings):
            problems.append(f"untranslated: {label}")
            continue
        fields = placeholders(ids[-1]) | placeholders(ids[0])
        for s in strings:
            # a plural form may use the singular's or the plural's fields (English "the {kind}" /
            # "the {count} {kinds}"); a plain message keeps exactly its own
            wrong = not placeholders(s) <= fields | {"n"} if len(ids) > 1 else placeholders(s) != fields
            if wrong:
                problems.append(f"placeholders {sorted(placeholders(s))} differ from {sorted(fields)}: {label}")
    return problems


def _without_date(pot: str) -> str:
    return "\n".join(line for line in pot.splitlines() if not line.startswith('"POT-Creation-Date:'))


def _babel(*args: str) -> int:
    """Run one ``pybabel`` command from the repository root (so locations are relative)."""
    here = Path.cwd()
    try:
        os.chdir(REPO_DIR)
        return CommandLineInterface().run(["pybabel", "-q", *args]) or 0
    finally:
        os.chdir(here)


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.i18n.catalogs extract | update | init LANG | compile | check`` (Babel underneath)."""
    args = sys.argv[1:] if argv is None else argv
    keywords = [f"{k}:{','.join(map(str, v))}" if v else k for k, v in KEYWORDS.items()]
    if args == ["extract"]:
        locale_dir().mkdir(exist_ok=True)
        before = pot_path().read_text(encoding="utf-8") if pot_path().exists() else None
        code = _babel("extract", "-F", str(MAPPING_FILE), "--no-default-keywords",
                      *(f"--keywords={k}" for k in keywords), "--sort-by-file", "--project=meadhall",
                      "--msgid-bugs-address=", "-o", str(pot_path()), ".")
        after = pot_path().read_text(encoding="utf-8")
        if before is not None and _without_date(before) == _without_date(after):
            pot_path().write_text(before, encoding="utf-8")  # only the date changed: no churn in git
        return code
    if args == ["update"]:
        return _babel("update", "-i", str(pot_path()), "-d", str(locale_dir()), "-D", DOMAIN,
                      "--no-fuzzy-matching", "--ignore-obsolete")
    if len(args) == 2 and args[0] == "init":
        return _babel("init", "-i", str(pot_path()), "-d", str(locale_dir()), "-D", DOMAIN,
                      "-l", args[1])
    if args == ["compile"]:
        for po in po_files():
            compile_po(po, po.with_suffix(".mo"))
        return 0
    if args == ["check"]:
        bad = {po: catalog_problems(po) for po in po_files()}
        for po, problems in bad.items():
            for p in problems:
                print(f"{po}: {p}", file=sys.stderr)
        return 1 if any(bad.values()) else 0
    print("usage: python -m bot.i18n.catalogs extract|update|init LANG|compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
