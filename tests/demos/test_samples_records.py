"""``python -m bot.demos.samples records OUTDIR`` (issue 17's closing note): scripted games into a fresh
database, then the leaderboard, a profile and the recaps as the service gives them."""

from __future__ import annotations

from bot.demos import records as samples_records
from bot.demos import samples


async def test_records_samples_are_written_from_played_games(tmp_path, monkeypatch):
    monkeypatch.setattr(samples_records, "GAMES", (("vikings", ("1001", "1003"), ("random",), 11),))
    written = await samples_records.records(tmp_path / "out")
    names = sorted(p.name for p in written)
    assert names == ["leaderboard.png", "leaderboard.txt", "profile.txt", "recap-vikings.png", "recap.txt"]
    for p in written:
        if p.suffix == ".png":
            assert p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    board = (tmp_path / "out" / "leaderboard.txt").read_text()
    # the people are rated, the computer player is not on the leaderboard
    assert "Astrid" in board and "Sigrid" in board and "computer" not in board
    assert (tmp_path / "out" / "profile.txt").read_text().startswith("Profile of Astrid")
    recap = (tmp_path / "out" / "recap.txt").read_text().splitlines()
    assert recap[0].startswith("Vikings, game 1: won by") and recap[1].startswith("Vikings in <#THREAD>:")


def test_samples_command_line_refuses_an_unknown_kind(capsys):
    """``records`` and ``i18n`` are the kinds; any other is refused with argparse's usage error."""
    try:
        samples.main(["pictures", "out"])
    except SystemExit as e:
        assert e.code == 2
    else:
        raise AssertionError("an unknown kind must be refused")
    assert "invalid choice" in capsys.readouterr().err
