"""``/hint`` at the host (issue 25): the hard level's advice for the asker's own decision, privately, on
a table started with ``hints``; every other case refused, and nothing changes. Issue 30: it is the
``hard`` level's analysis and says how sure it is (the margin's standard error)."""

from __future__ import annotations

import pytest

from bot.host import hints
from bot.host.hints import HINT_LEVEL, HINT_OPTIONS, analyse, hint_lines, position_seed, signed
from bot.host.service import REFUSALS, HostService, Reply
from engine.core import Rng
from engine.players import make_player
from engine.players.analysis import Analysis, Candidate
from tests.engine.test_players import _bb_variant
from tests.host_helpers import CH, PLAYERS, db_rows, live, open_service, play_first_legal, start_game


def refused(reply: Reply, code: str) -> str:
    assert code in REFUSALS
    assert (reply.ok, reply.code) == (False, code), reply
    assert reply.private and not reply.public and reply.image is None
    return reply.private[0]


@pytest.fixture
async def svc(tmp_path):
    svc, store = await open_service(tmp_path / "hints.db")
    yield svc
    await store.close()


async def asker(svc: HostService) -> tuple[str, int]:
    table = await svc.table(CH)
    seat = table.game.acting_seats()[0]
    return table.record.seats[seat].user, seat


@pytest.mark.parametrize("game", ["vikings", "brian-boru"])
async def test_hint_is_the_search_choice_for_the_askers_own_decision(svc, tmp_path, game):
    await start_game(svc, game, seed=5, options=("hints",))
    user, seat = await asker(svc)
    table = await svc.table(CH)
    before, version = db_rows(tmp_path / "hints.db"), table.record.version
    view, legal = table.game.view(seat), table.game.legal_actions(seat)
    reply = await svc.hint(CH, user)
    assert reply.ok and not reply.public and reply.version is None, reply  # private; no move made
    found = analyse(game, position_seed(view, legal), HINT_OPTIONS, view, legal)
    assert found.best in legal and found.runner_up is not None and found.runner_up.action in legal
    label = table.adapter.describe_action(table.game, found.best)
    assert reply.private[0] == f"Hint (only you see this): {label}"
    if found.margin_se is None:  # not played on (Brian Boru's town): the position's margin alone
        assert not found.searched and f"about {signed(found.margin)} VP over the best rival" in reply.private[1]
    else:  # issue 30: how sure it is, the margin's standard error
        assert reply.private[1] == (
            f"Expected margin: about {signed(found.margin)} ± {found.margin_se:.1f} VP over the best rival at the "
            f"end, as the search values it ({found.sweeps} sampled deals played on; ± one standard error).")
    assert reply.private[2].startswith("Why: ")
    assert reply.private[3].startswith("Runner-up: " + table.adapter.describe_action(table.game,
                                                                                      found.runner_up.action))
    assert db_rows(tmp_path / "hints.db") == before and (await svc.table(CH)).record.version == version
    assert await svc.hint(CH, user) == reply  # the same position: the same hint
    # the typed command (the offline table's) gives the same
    assert (await svc.command(CH, user, "hint")).private == reply.private


async def test_hint_refused_without_the_hints_option(svc):
    await start_game(svc, "vikings", seed=5)
    user, _seat = await asker(svc)
    assert "not coached unless everyone agreed" in refused(await svc.hint(CH, user), "hints_off")


async def test_hint_refused_for_spectator_off_turn_lobby_and_no_table(svc):
    refused(await svc.hint(CH, "ann"), "no_table")
    await svc.join(CH, "ann", "Ann", game="vikings")
    refused(await svc.hint(CH, "ann"), "not_started")
    await svc.join(CH, "bob", "Bob")
    r = await svc.start(CH, "ann", "vikings", ["hints"], seed=5, start_seat=0)
    assert r.ok, r
    assert "hints allowed (/hint)" in (await svc.status(CH)).public[0]  # the table's option description
    refused(await svc.hint(CH, "zed"), "not_player")  # a spectator
    user, seat = await asker(svc)
    other = next(u for u in PLAYERS["vikings"] if u != user)
    assert "waiting for" in refused(await svc.hint(CH, other), "not_your_turn")


async def test_hint_refused_once_the_game_is_over(svc):
    await start_game(svc, "vikings", seed=2, options=("hints",))
    r = Rng(3)
    while (table := await svc.table(CH)) is not None:
        seat = table.game.acting_seats()[0]
        reply = await svc.act(CH, table.record.seats[seat].user, str(r.choice(table.game.legal_actions(seat))))
        assert reply.ok, reply
    assert "game is over" in refused(await svc.hint(CH, "ann"), "game_over")
    record = (await svc.history(CH))[0]
    assert "Hints were allowed (/hint)." in (await svc.recap(record.id)).public[0]  # the result line
    assert "Hints were allowed (/hint)." in (await svc.game_history()).public[1]  # /records history


async def test_hint_brianboru_ignores_the_other_players_hands_B14(svc):
    """Two games that differ only in the other players' hands and piles: the same hint, word for word."""
    await start_game(svc, "brian-boru", seed=9, options=("hints",))
    await play_first_legal(svc, lambda g: g.s["pending"]["kind"] in ("keep", "lead", "play"))  # cards dealt
    user, seat = await asker(svc)
    first = await svc.hint(CH, user)
    game = await live(svc)
    variant = _bb_variant(game, seat, 77)
    others = [q for q in range(game.s["n"]) if q != seat]
    assert any(variant.s["hand"][q] != game.s["hand"][q] or variant.s["pile"][q] != game.s["pile"][q]
               for q in others)
    assert variant.view(seat) == game.view(seat)
    game.s = variant.s  # the live table now holds the other deal (in memory only)
    hints._analyses.clear()  # searched again, not remembered
    assert await svc.hint(CH, user) == first


async def test_hint_in_a_cpu_pool_worker_is_the_same_as_in_a_thread(tmp_path):
    """Off the event loop either way: a worker process (the view and the analysis pickled) or a thread."""
    from bot.processes.cpu import CpuPool

    answers = []
    for name, size in (("thread", 0), ("worker", 1)):
        hints._analyses.clear()  # each computes it
        with CpuPool(size=size) as cpu:
            svc, store = await open_service(tmp_path / f"{name}.db", cpu=cpu if size else None)
            try:
                await start_game(svc, "vikings", seed=8, options=("hints",))
                user, _seat = await asker(svc)
                answers.append((await svc.hint(CH, user)).private)
            finally:
                await store.close()
    assert answers[0] == answers[1] and answers[0][0].startswith("Hint (only you see this): ")


async def test_hint_asked_again_is_remembered_not_searched_again(svc, monkeypatch):
    await start_game(svc, "vikings", seed=6, options=("hints",))
    user, _seat = await asker(svc)
    hints._analyses.clear()
    first = await svc.hint(CH, user)

    def no_search(*args):
        raise AssertionError("searched again")

    monkeypatch.setattr(hints, "analyse", no_search)
    assert await svc.hint(CH, user) == first
    hints._analyses.clear()
    with pytest.raises(AssertionError, match="searched again"):
        await svc.hint(CH, user)


def test_hint_is_the_hard_level_analysis():
    """Issue 30: /hint speaks with the hard level (make_player(game, "hard") and its analyse())."""
    from engine.vikings import VikingsGame

    assert HINT_LEVEL == "hard"
    game = VikingsGame.new(["a", "b"], seed=4)
    seat = game.acting_seats()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    seed = position_seed(view, legal)
    hard = make_player("vikings", "hard", seed=seed, **HINT_OPTIONS)
    assert hard.level == "hard"
    assert analyse("vikings", seed, HINT_OPTIONS, view, legal) == hard.analyse(view, legal)  # type: ignore[attr-defined]


@pytest.mark.parametrize("error, sweeps, line", [
    (1.234, 40, "Expected margin: about +17.3 ± 1.2 VP over the best rival at the end, as the search values it "
                "(40 sampled deals played on; ± one standard error)."),
    (0.0, 1, "Expected margin: about +17.3 ± 0.0 VP over the best rival at the end, as the search values it "
             "(1 sampled deal played on; ± one standard error)."),
    (None, 1, "Expected margin: about +17.3 VP over the best rival at the end, as the search values it "
              "(1 sampled deal played on)."),  # no spread to measure: the margin alone, as before
])
def test_hint_says_how_sure_it_is_margin_with_standard_error(error, sweeps, line):
    from bot.games.registry import default_registry
    from engine.vikings import VikingsGame

    game = VikingsGame.new(["a", "b"], seed=4)
    legal = game.legal_actions(game.acting_seats()[0])
    found = Analysis(legal[0], 17.3, (Candidate(legal[0], 18.0, 17.3, 3.0, rollouts=sweeps),
                                      Candidate(legal[1], 12.0, 11.0, 3.0, rollouts=sweeps)),
                     True, None, sweeps=sweeps, margin_se=error)
    lines = hint_lines(default_registry().get("vikings"), game, found)
    assert lines[1] == line
    assert lines[2].startswith("Runner-up: ") and lines[2].endswith("about +11.0 VP.")
