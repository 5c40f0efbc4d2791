"""Samples for the docs: one Vikings turn in every language (issue 16's closing note).

    python -m bot.demos.samples i18n OUTDIR [--seed N] [--langs en,pl,...]

For each language (default: English and every compiled catalog) a seeded 2-player Vikings game
is played through the host service with the same moves; the files written are

* ``turn-LANG.txt``: one turn message exactly as the Discord transport words it (the narration
  of the move before, then ``@player: what to decide``, as ``MeadhallCog.publish`` builds it),
  with the labels of its buttons and menus below a line of dashes;
* ``turn-LANG.png``: that message's picture (the turn picture);
* ``scoring-LANG.png``: the final scoring picture (the message of the final scoring carries it).

The moves are the same in every language (drawn from ``--seed``), so the samples differ only in
their words.

    python -m bot.demos.samples records OUTDIR

writes the records samples of issue 17 (:mod:`bot.demos.records`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

from bot.discord.publishing.messages import escape_names, mention
from bot.discord.publishing.policy import MessagePolicy, fit_lines
from bot.games.registry import default_registry
from bot.games.widgets import widgets_for
from bot.host.service import HostService, Reply
from bot.i18n import _, available_languages, use_language
from bot.storage import Storage

SEED = 16
PLAYERS = (("astrid", "Astrid"), ("bjorn", "Bjorn"))
TURN_AFTER = 7  # the turn message shown: the first new message after this many moves


def turn_content(svc: HostService, table: object, reply: Reply) -> str:
    """The content of the Discord message that ``reply`` posts (a new live message)."""
    plan = MessagePolicy().plan("sample", reply, picture=None)
    adapter, game = table.adapter, table.game  # type: ignore[attr-defined]
    worded = [adapter.button_prompt(game, p.seat) for p in reply.prompts]  # as MeadhallCog.prompt_text
    tail = [f"{mention(p.user, p.name)}: {escape_names(p.text if w is None else w, reply.names)}"
            for p, w in zip(reply.prompts, worded, strict=True)]
    narration = [escape_names(line, reply.names) for line in plan.lines]
    return "\n".join(fit_lines(narration, tail))


def controls(table: object, reply: Reply) -> list[str]:
    """The labels of the message's buttons (``[label]``) and menus (``placeholder ▾ a | b``)."""
    adapter, game = table.adapter, table.game  # type: ignore[attr-defined]
    out: list[str] = []
    for p in reply.prompts:
        widgets = widgets_for(adapter, game, p.seat)
        pages = [w for w in widgets if w.kind != "buttons" and not w.placeholder]  # as build_view pages them
        for w in widgets:
            labels = [label for label, _value in w.options]
            if w.kind == "buttons":
                out.append(" ".join(f"[{label}]" for label in labels))
                continue
            placeholder = w.placeholder or _("Choose your move")
            if not w.placeholder and len(pages) > 1:
                placeholder += f" ({pages.index(w) + 1}/{len(pages)})"
            out.append(f"{placeholder} ▾ " + " | ".join(labels))  # a menu: its placeholder, its options
    return out


async def vikings_samples(lang: str, out: Path, seed: int = SEED) -> list[Path]:
    """Play the seeded game in ``lang`` and write its three samples; the paths written."""
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp, use_language(None if lang == "en" else lang):
        store = await Storage.open(Path(tmp) / "samples.db")
        try:
            svc = HostService(store, default_registry(), seed_source=lambda: seed)
            channel = f"samples-{lang}"
            for user, name in PLAYERS:
                await svc.join(channel, user, name, game="vikings")
            reply = await svc.start(channel, PLAYERS[0][0], "vikings", seed=seed, start_seat=0)
            rng = random.Random(seed)
            scorings = set(svc.games["vikings"].scoring_events)
            moves, turn_done = 0, False
            while (table := await svc.table(channel)) is not None and table.game is not None:
                game = table.game
                [seat] = game.acting_seats()[:1]
                user = table.record.seats[seat].user
                before = tuple(game.acting_seats())
                action = rng.choice(sorted(str(a) for a in game.legal_actions(seat)))
                reply = await svc.act(channel, user, action)
                assert reply.ok, (action, reply.private)
                moves += 1
                table = await svc.table(channel)
                changed = table is not None and table.game is not None and tuple(table.game.acting_seats()) != before
                scoring = any(e.kind in scorings for e in reply.events)
                if not turn_done and moves >= TURN_AFTER and changed and reply.image is not None and not scoring:
                    text = turn_content(svc, table, reply)
                    extra = controls(table, reply)
                    path = out / f"turn-{lang}.txt"
                    path.write_text(text + "\n" + "-" * 40 + "\n" + "\n".join(extra) + "\n", encoding="utf-8")
                    (out / f"turn-{lang}.png").write_bytes(reply.image.data)
                    written += [path, out / f"turn-{lang}.png"]
                    turn_done = True
                if table is None or table.game is None or table.game.is_over:
                    assert reply.image is not None, "the final scoring has a picture"
                    (out / f"scoring-{lang}.png").write_bytes(reply.image.data)
                    written.append(out / f"scoring-{lang}.png")
                    break
        finally:
            await store.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.demos.samples", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    i18n = sub.add_parser("i18n", help="a Vikings turn message, its picture and a scoring picture per language")
    i18n.add_argument("out", type=Path)
    i18n.add_argument("--seed", type=int, default=SEED)
    i18n.add_argument("--langs", default=None, help="comma-separated (default: en and every catalog)")
    records_parser = sub.add_parser("records", help="a leaderboard, a profile and recaps from scripted games "
                                    "(issue 17; bot.demos.records)")
    records_parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.what == "records":
        from bot.demos.records import records

        for path in asyncio.run(records(args.out)):
            print(path)
        return 0
    langs = args.langs.split(",") if args.langs else available_languages()
    unknown = [lang for lang in langs if lang not in available_languages()]
    if unknown:
        print(f"no catalog for {', '.join(unknown)}; there are: {', '.join(available_languages())}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in langs:
        for path in asyncio.run(vikings_samples(lang, args.out, args.seed)):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
