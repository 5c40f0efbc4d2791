"""The offline table (meadhall play), the demo and the command line, driven as a person would."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.games.registry import default_registry
from bot.host.service import HostService
from bot.offline.table import OfflineTable, run_lines
from bot.storage import Storage


@pytest.fixture
async def table(tmp_path):
    storage = await Storage.open(tmp_path / "t.db")
    svc = HostService(storage, default_registry(), images=True)
    yield OfflineTable(svc, tmp_path / "out")
    await storage.close()


async def say(t: OfflineTable, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += await t.handle(line)
    return out


async def test_lobby_moves_and_refusals_through_typed_lines(table, tmp_path):
    out = await say(table, "alice: /join", "bob: /join", "alice: /start vikings")
    assert out[0] == "alice opens a table. Others may join; then choose the game with /start GAME (vikings, brian-boru)."
    assert any(line.startswith("image: ") for line in out)
    assert any("round 1 of 6" in line for line in out)  # the table as text
    svc_table = await table.service.table("offline")
    first = svc_table.record.seats[svc_table.game.acting_seats()[0]].name
    other = "bob" if first == "alice" else "alice"
    out = await say(table, f"{other}: /buy 1")
    assert out == [f"(only {other} sees) It is not your turn; waiting for {first}."]
    out = await say(table, f"/as {first}", "/buy 99")
    assert out[0] == f"You are now {first}."
    assert "wheel positions are 0 to 11" in out[1] and out[1].startswith(f"(only {first} sees)")
    out = await say(table, "/frobnicate")
    assert "I do not know the command" in out[0]
    acts = svc_table.game.legal_actions(svc_table.game.acting_seats()[0])
    out = await say(table, "/" + str(acts[-1]))
    assert any(" buys the " in line for line in out)
    images = sorted((tmp_path / "out").glob("*.png"))
    assert len(images) == 2 and images[-1].read_bytes()[:4] == b"\x89PNG"


async def test_rules_help_and_quit(table):
    out = await say(table, "/rules V-24", "/help")
    assert out[0].startswith("V-24: Start tile")
    assert any("Offline table" in line for line in out)
    assert (await say(table, "/quit"))[0].startswith("Goodbye")
    assert table.finished


async def test_a_whole_game_in_the_terminal(tmp_path):
    """Two players type every move of a Vikings game, picking the first legal move."""
    storage = await Storage.open(tmp_path / "g.db")
    try:
        svc = HostService(storage, default_registry(), images=False)
        t = OfflineTable(svc, tmp_path / "out")
        await say(t, "alice: /join", "bob: /join", "alice: /start vikings")
        lines = []
        command_of = {verb: word for word, verb in default_registry()["vikings"].verbs.items()}
        for _ in range(1000):
            tab = await svc.table("offline")
            if tab is None or tab.game is None or tab.game.is_over:
                break
            game = tab.game
            seat = game.acting_seats()[0]
            verb, *args = str(game.legal_actions(seat)[0]).split()
            lines += await say(t, f"{tab.record.seats[seat].user}: /{command_of[verb]} {' '.join(args)}")
        assert any(line.startswith("Game over. The winner") for line in lines)
        assert any(line.startswith("Final standings: ") for line in lines)
        assert sum(line.startswith("Final scoring — ") for line in lines) == 2
    finally:
        await storage.close()


async def test_restart_keeps_the_game(tmp_path):
    db = tmp_path / "r.db"
    storage = await Storage.open(db)
    t = OfflineTable(HostService(storage, default_registry(), images=False), tmp_path / "out")
    await say(t, "alice: /join", "bob: /join", "alice: /start vikings")
    tab = await t.service.table("offline")
    version = tab.record.version
    await storage.close()
    storage = await Storage.open(db)
    try:
        svc = HostService(storage, default_registry(), images=False)
        assert await svc.load() == 1
        tab2 = await svc.table("offline")
        assert tab2.record.version == version and tab2.game.to_json() == tab.game.to_json()
    finally:
        await storage.close()


def test_play_command_reads_piped_lines(tmp_path):
    script = "alice: /join\nbob: /join\nalice: /start vikings\n/status\n/quit\n"
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--db", str(tmp_path / "p.db"), "--out", str(tmp_path / "o"),
         "--no-images"],
        input=script, capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[2],
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Vikings begins (basic game): alice, bob." in proc.stdout
    assert "Goodbye" in proc.stdout


def test_demo_writes_images_to_the_end(tmp_path, capsys):
    assert main(["demo", "--game", "vikings", "--out", str(tmp_path), "--seed", "2", "--players", "2"]) == 0
    pngs = sorted(tmp_path.glob("turn-*.png"))
    assert len(pngs) > 36 and (tmp_path / "final.png").read_bytes()[:4] == b"\x89PNG"
    assert "Final scoring — winner(s)" in (tmp_path / "final.txt").read_text()
    assert "images written" in capsys.readouterr().out


async def test_run_lines_stops_at_quit(table):
    seen: list[str] = []
    await run_lines(table, ["alice: /join", "/quit", "bob: /join"], seen.append)
    assert seen[0].startswith("alice opens") and seen[-1].startswith("Goodbye")


def test_play_in_another_language(tmp_path, monkeypatch, capsys):
    """`meadhall play --lang xx` speaks the catalog's language; an unknown language is refused."""
    from bot import i18n
    from bot.i18n import catalogs

    po = tmp_path / "locale" / "xx" / "LC_MESSAGES" / "meadhall.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "{name} opens a table for {game} ({count}/{max} seats). Others may join; then /start."\n'
                  'msgstr "{name} otwiera stół: {game} ({count}/{max})."\n', encoding="utf-8")
    catalogs.compile_po(po, po.with_suffix(".mo"))
    i18n.set_locale_dir(tmp_path / "locale")
    try:
        assert main(["play", "--lang", "zz", "--db", str(tmp_path / "z.db")]) == 2
        assert "no messages in the language 'zz'" in capsys.readouterr().err
        monkeypatch.setattr(sys, "stdin", io.StringIO("alice: /join vikings\n/quit\n"))
        assert main(["play", "--lang", "xx", "--db", str(tmp_path / "x.db"), "--out", str(tmp_path / "o"),
                     "--no-images"]) == 0
        assert "alice otwiera stół: Vikings (1/4)." in capsys.readouterr().out
    finally:
        i18n.set_language("en")
        i18n.set_locale_dir(None)


# ----------------------------------------------------------------------------- the lobby names no game it has not chosen


async def test_a_lobby_opened_without_a_game_names_none_until_start(table):
    """QA: "/join" said "alice opens a table for Vikings (1/4 seats)", then /start brian-boru."""
    out = await say(table, "alice: /join", "bob: /join", "carol: /join", "/status")
    assert "Vikings" not in "\n".join(out) and "/4" not in "\n".join(out), out
    assert out[1:] == ["bob joins the table (2 seats taken).", "carol joins the table (3 seats taken).",
                       "A table waiting to start: alice, bob, carol (3 seats taken); choose the game with "
                       "/start GAME (vikings, brian-boru)."]
    out = await say(table, "dave: /join", "erin: /join")  # Brian Boru seats 5: the lobby offers 5 seats
    assert out[-1] == "erin joins the table (5 seats taken)."
    assert (await say(table, "fred: /join"))[0].endswith("The table is full (5 seats).")
    out = await say(table, "alice: /start vikings")  # 5 players: Vikings refuses, nothing changes
    assert "Vikings seats at most 4 players; 5 joined." in out[0]
    out = await say(table, "alice: /start brian-boru")
    assert any(line.startswith("Brian Boru begins") for line in out), out


async def test_a_lobby_opened_with_a_game_names_it(table):
    out = await say(table, "alice: /join brian-boru", "bob: /join")
    assert out == ["alice opens a table for Brian Boru (1/5 seats). Others may join; then /start.",
                   "bob joins the table (2/5 seats)."]
    out = await say(table, "carol: /join vikings")
    assert out[0].endswith("This table is set up for Brian Boru.")


async def test_join_game_chooses_the_game_of_an_open_lobby(table):
    """The first /join GAME at a lobby without a game chooses it; an unknown game changes nothing."""
    await say(table, "alice: /join")
    out = await say(table, "bob: /join chess")
    assert out[0].endswith("I do not know the game chess. I know: vikings, brian-boru.")
    assert (await table.service.table("offline")).record.names == ["alice"]
    out = await say(table, "bob: /join brian-boru", "/status")
    assert out[0] == "bob joins the table (2/5 seats)."
    assert out[1].startswith("Brian Boru table waiting to start: alice, bob (2/5 seats")
    rec = await table.service.storage.open_match("offline")
    assert rec.game == "brian-boru"


def test_play_level_takes_the_levels_and_the_old_names(tmp_path, monkeypatch, capsys):
    """Issue 30: `meadhall play --bots N --level L` (default normal; heuristic/search give normal/hard);
    an unknown level is refused by name before anything is opened."""
    from bot.cli import _parser

    assert _parser().parse_args(["play"]).level == "normal"
    assert _parser().parse_args(["play", "--level", "heuristic"]).level == "normal"
    assert _parser().parse_args(["play", "--level", "Search"]).level == "hard"
    with pytest.raises(SystemExit):
        _parser().parse_args(["play", "--level", "montecarlo"])
    assert "unknown level 'montecarlo' (known: random, easy, normal, hard)" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("alice: /join vikings\n/quit\n"))
    assert main(["play", "--bots", "1", "--level", "heuristic", "--db", str(tmp_path / "l.db"),
                 "--out", str(tmp_path / "o"), "--no-images"]) == 0
    assert "Ragnar (computer, normal)" in capsys.readouterr().out
