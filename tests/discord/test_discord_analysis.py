"""Issue 31 on Discord: a whole game in its thread ends with the result, the recap and then the
game's analysis (one message, edited from "Analysing the game… 0 %" into the analysis with its
picture, no ping); ``/records analysis ID`` gives it privately; unknown and running games refused."""

from __future__ import annotations

import pytest

import bot.discord.publishing.analysing as analysing
import bot.host.analysis as host_analysis
from bot.discord.publishing.recap import thread_closed
from bot.host.common import is_computer
from tests.discord.test_discord_e2e import Host, open_thread, refused, slash_move
from tests.discord.turn_notifications import turn_messages


@pytest.fixture(autouse=True)
def little_work(monkeypatch):
    monkeypatch.setattr(host_analysis, "REVIEW_OPTIONS", {"budget": 0.01, "wall_limit": None})
    monkeypatch.setattr(host_analysis, "PIECE", 4)  # more pieces: progress is told several times


@pytest.mark.slow  # a whole game through the fake Discord, its recap drawn: minutes on a loaded machine
@pytest.mark.timeout(600)  # 166 s alone at load 3; over 240 s beside three full-CPU jobs on 2 cores
async def test_whole_game_ends_with_result_recap_then_the_analysis_in_its_thread(fd, tmp_path):
    host = Host(fd, tmp_path / "analysis.db")
    await host.start()
    host.svc.analyse_finished = True  # as the bot's own service has it
    try:
        await fd.slash("alice", "join", {"game": "vikings"})
        await fd.slash("alice", "table addbot", {"level": "normal"})
        _r, thread, _first = await open_thread(fd, "alice")
        key = str(thread.id)
        match_id = (await host.svc.table(key)).record.id
        moves = 0
        while True:
            await host.bot.bots_idle()
            table = await host.svc.table(key)
            if table is None:
                break
            seat = table.game.acting_seats()[0]
            assert not is_computer(table.record.seats[seat].user)
            r = await slash_move(fd, "alice", str(table.game.legal_actions(seat)[0]), channel=thread)
            if r.ephemeral_messages and r.ephemeral_messages[0].custom_ids:  # a purchase that spends VP: confirm
                question = r.ephemeral_messages[0]
                await fd.click("alice", question.custom_ids[0], message=question)
            moves += 1
            assert moves < 300
        await thread_closed(key)  # the recap, then the analysis, then the thread archived
        *public, recap, analysis = turn_messages(fd, thread)
        assert "Game over" in public[-1].content or any("Game over" in m.content for m in public[-3:])
        assert "The whole game" in recap.content and recap.attachments[0].filename.endswith("-recap.webp")
        # one message: it said how far the analysis was, then became the analysis itself, with no ping
        assert analysis.history and analysis.history[0]["content"] == "Analysing the game… 0 %"
        said = [h["content"] for h in analysis.history]
        assert len(said) >= 2 and said[1].startswith("Analysing the game… ") and said[1] != said[0]
        assert analysis.content.startswith(f"Analysis of game {match_id} (Vikings)")
        assert "alice: accuracy" in analysis.content and analysis.content.count("accuracy") == 1  # the person only
        [picture] = analysis.attachments
        assert picture.filename == f"meadhall-vikings-{match_id}-analysis.png" and picture.is_png
        assert analysis.notified == [] and recap.notified == []
        job = await host.svc.storage.get_analysis(match_id)
        assert job.state == "posted" and job.message == str(analysis.id) and job.channel == key
        assert fd.threads[thread.id].archived  # archived last, after the analysis

        # privately, for anyone of the server, in their language; nothing is posted
        before = len(fd.messages(thread)) + len(fd.messages("general"))
        r = await fd.slash("carol", "records analysis", {"id": match_id})
        [private] = r.ephemeral_messages
        assert private.content.startswith(f"Analysis of game {match_id}") and not r.public_messages
        assert len(fd.messages(thread)) + len(fd.messages("general")) == before
        await refused(await fd.slash("carol", "records analysis", {"id": 999}), "There is no finished game 999.")
        offered = await fd.autocomplete("carol", "records analysis", focused="id", value="")
        assert [c["value"] for c in offered] == [match_id]
    finally:
        await host.stop()


def test_progress_text_is_translated():
    from bot.i18n import use_language

    with use_language("de"):
        assert analysing.progress_text(0.4) != "Analysing the game… 40 %" and "40 %" in analysing.progress_text(0.4)


async def test_an_analysis_left_unposted_by_a_stopped_process_is_posted_at_the_start(fd, tmp_path):
    """A job queued for a channel before a restart (its process stopped): the bot's start runs and
    posts it there, once."""
    from tests.discord.test_discord_recap import _finish

    host = Host(fd, tmp_path / "resume.db")
    await host.start()
    try:
        match_id = await _finish(host.svc, "5001", str(fd.guild_id))
        await host.svc.request_analysis(match_id, channel=str(fd.channel.id))
        await host.stop()  # the process stops before running it
        await host.start()
        assert host.bot._analyses_task is None  # a test's own service analyses nothing unless told
        host.svc.analyse_finished = True  # as the bot's own service has it: its start resumes them
        await host.bot._resume_analyses()
        [posted] = [m for m in fd.messages("general") if m.content.startswith(f"Analysis of game {match_id}")]
        assert posted.notified == [] and posted.history[0]["content"] == "Analysing the game… 0 %"
        assert (await host.svc.storage.get_analysis(match_id)).state == "posted"
        await host.bot._resume_analyses()  # nothing left: posted once
        assert len([m for m in fd.messages("general") if m.content.startswith("Analysis of game")]) == 1
    finally:
        await host.stop()
