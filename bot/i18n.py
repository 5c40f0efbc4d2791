"""The one translation function for every user-facing sentence (stdlib ``gettext``).

Messages are English msgids with ``str.format`` placeholders filled after translation::

    from bot.i18n import _, ngettext
    _("{name} joined the table.", name="Astrid")
    ngettext("{n} stone left", "{n} stones left", n)          # ``n`` is passed to format too

Catalogs live in ``bot/locale/<lang>/LC_MESSAGES/meadhall.mo`` (domain ``meadhall``), the
template in ``bot/locale/meadhall.pot``. Adding a language needs no code change:

    python -m bot.i18n extract                 # refresh bot/locale/meadhall.pot from the sources
    cp bot/locale/meadhall.pot bot/locale/de/LC_MESSAGES/meadhall.po   # translate msgstr lines
    python -m bot.i18n compile                 # every .po → .mo next to it

API: ``_(msg, **kw)``, ``ngettext(singular, plural, n, **kw)``, ``N_(msg)`` (mark only),
``use_language(lang)`` (context manager; per task via a ContextVar, e.g. a Discord user's locale),
``set_language(lang)`` (process default), ``current_language()``, ``available_languages()``,
``set_locale_dir(path)``; tools ``extract_messages(paths)``, ``write_pot(path, messages)``,
``compile_po(po_path, mo_path)``.
"""

from __future__ import annotations

import ast
import gettext
import struct
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

DOMAIN = "meadhall"
SOURCE_LANGUAGE = "en"
PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_LOCALE_DIR = PACKAGE_DIR / "locale"

_locale_dir = DEFAULT_LOCALE_DIR
_default_language = SOURCE_LANGUAGE
_language: ContextVar[str | None] = ContextVar("meadhall_language", default=None)
_cache: dict[tuple[Path, str], gettext.NullTranslations] = {}


def set_locale_dir(path: str | Path | None) -> None:
    """Read catalogs from ``path`` (``None``: the packaged ``bot/locale``)."""
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


def _(message: str, /, **kwargs: object) -> str:
    """Translate ``message`` into the current language, then ``format(**kwargs)`` it."""
    text = _translations(current_language()).gettext(message)
    return text.format(**kwargs) if kwargs else text


def ngettext(singular: str, plural: str, n: int, /, **kwargs: object) -> str:
    """Plural-aware translation; ``n`` is available to the format string as ``{n}``."""
    text = _translations(current_language()).ngettext(singular, plural, n)
    return text.format(n=n, **kwargs)


def N_(message: str, /) -> str:
    """Mark a message for extraction without translating it now (translate later with ``_``)."""
    return message


# --------------------------------------------------------------------------- catalog tools

Message = tuple[str, str | None, list[str]]  # msgid, msgid_plural, locations


def extract_messages(paths: Iterable[Path], root: Path | None = None) -> list[Message]:
    """Every literal passed to ``_``, ``N_`` or ``ngettext`` in the given Python files."""
    found: dict[tuple[str, str | None], list[str]] = {}
    for path in sorted(paths):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(root).as_posix() if root else path.as_posix()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            args = node.args
            strs = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                    for a in args[:2]]
            if node.func.id in ("_", "N_") and strs and strs[0] is not None:
                key = (strs[0], None)
            elif node.func.id == "ngettext" and len(strs) == 2 and None not in strs:
                key = (strs[0], strs[1])
            else:
                continue
            found.setdefault(key, []).append(f"{where}:{node.lineno}")
    return [(mid, plural, locs) for (mid, plural), locs in found.items()]


def _po_quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def write_pot(path: Path, messages: Iterable[Message]) -> None:
    lines = [
        "# Translation template for meadhall. Regenerate with: python -m bot.i18n extract",
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"',
        "",
    ]
    for msgid, plural, locs in sorted(messages, key=lambda m: (m[2][0], m[0])):
        lines.extend(f"#: {loc}" for loc in locs)
        if "{" in msgid:
            lines.append("#, python-brace-format")
        lines.append(f"msgid {_po_quote(msgid)}")
        if plural is None:
            lines.append('msgstr ""')
        else:
            lines += [f"msgid_plural {_po_quote(plural)}", 'msgstr[0] ""', 'msgstr[1] ""']
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


def read_po(path: Path) -> dict[str, str]:
    """Parse a ``.po`` file into the msgid → msgstr map a ``.mo`` holds (fuzzy entries skipped).

    Plural entries are keyed ``msgid\\0msgid_plural`` with forms joined by ``\\0``, as in ``.mo``.
    """
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    current: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fields, fuzzy, current
        if "msgid" in fields and not fuzzy:
            msgid = fields["msgid"]
            if "msgid_plural" in fields:
                forms = [fields[k] for k in sorted(k for k in fields if k.startswith("msgstr["))]
                if any(forms):
                    entries[msgid + "\0" + fields["msgid_plural"]] = "\0".join(forms)
            elif fields.get("msgstr") or msgid == "":
                entries[msgid] = fields.get("msgstr", "")
        fields, fuzzy, current = {}, False, None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            if "msgid" in fields and current is not None and current.startswith("msgstr"):
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if not line:
            continue
        keyword, _sep, rest = line.partition(" ")
        if line.startswith('"'):
            keyword, rest = "", line
        if keyword:
            if keyword == "msgid" and "msgid" in fields:
                flush()
            if keyword not in ("msgid", "msgid_plural", "msgstr") and not (
                keyword.startswith("msgstr[") and keyword.endswith("]")
            ):
                raise ValueError(f"{path}:{number}: unknown keyword {keyword!r}")
            current = keyword
            fields[current] = ""
        if current is None:
            raise ValueError(f"{path}:{number}: a string outside an entry")
        try:
            value = ast.literal_eval(rest.strip())
        except (SyntaxError, ValueError):
            raise ValueError(f"{path}:{number}: not a quoted string: {rest!r}") from None
        if not isinstance(value, str):
            raise ValueError(f"{path}:{number}: not a quoted string: {rest!r}")
        fields[current] += value
    flush()
    return entries


def compile_po(po_path: Path, mo_path: Path) -> None:
    """Write the GNU ``.mo`` file for ``po_path`` (what ``msgfmt`` does, without a hash table)."""
    entries = read_po(po_path)
    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    n = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + n * 8
    data_at = translations_at + n * 8
    table_ids, table_strs, blob = [], [], b""
    for raw in ids:
        table_ids.append((len(raw), data_at + len(blob)))
        blob += raw + b"\0"
    for raw in strs:
        table_strs.append((len(raw), data_at + len(blob)))
        blob += raw + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, n, originals_at, translations_at, 0, data_at)
    for length, offset in table_ids + table_strs:
        out += struct.pack("<2I", length, offset)
    mo_path.write_bytes(out + blob)


def source_files() -> list[Path]:
    return sorted(p for p in PACKAGE_DIR.rglob("*.py") if "locale" not in p.parts)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["extract"]:
        pot = DEFAULT_LOCALE_DIR / f"{DOMAIN}.pot"
        messages = extract_messages(source_files(), root=PACKAGE_DIR.parent)
        DEFAULT_LOCALE_DIR.mkdir(exist_ok=True)
        write_pot(pot, messages)
        print(f"wrote {len(messages)} messages to {pot}")
        return 0
    if args == ["compile"]:
        for po in sorted(DEFAULT_LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            compile_po(po, po.with_suffix(".mo"))
            print(f"compiled {po}")
        return 0
    print("usage: python -m bot.i18n extract|compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
