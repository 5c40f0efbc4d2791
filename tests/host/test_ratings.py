"""Ratings, leaderboards, profiles, history and the end-of-game recap (issue 17).

The ratings are checked against openskill itself, fed by hand with the ranks each scripted game
should give: nothing here recomputes them the way bot.host.ratings does."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.games import GameRegistry
from bot.host import ratings
from bot.host.ratings import COMPUTER_RATINGS, ranks_of
from bot.host.service import COMPUTER_PREFIX, HostService
from bot.offline.table import OfflineTable
from bot.storage import Storage
from tests.host.test_service import Clock, refused
from tests.toygame import ToyAdapter

M = PlackettLuce()


@pytest.fixture
async def svc(database):
    store = await Storage.open(database)
    clock = Clock()
    s = HostService(store, GameRegistry([ToyAdapter()]), clock=clock, images=False)
    s.test_clock = clock
    yield s
    await store.close()


async def play(svc: HostService, channel: str, guild: str | None, seats: list[tuple[str, str]],
               takes: list[int]) -> None:
    """Seat ``seats`` (user, name) at a toy table with a pile of 10, seat 0 first, and take
    ``takes`` stones in turn (computer seats' moves included)."""
    for user, name in seats:
        assert (await svc.join(channel, user, name, guild=guild)).ok
    assert (await svc.start(channel, seats[0][0], options=["pile=10"], seed=1, start_seat=0)).ok
    for i, n in enumerate(takes):
        svc.test_clock.t += 10
        r = await svc.act(channel, seats[i % len(seats)][0], f"take {n}")
        assert r.ok, r


ANN, BOB, CID = ("ann", "Ann"), ("bob", "Bob"), ("cid", "Cid")
SVEN = (f"{COMPUTER_PREFIX}search:0", "Sven (computer, search)")  # stored before issue 30: rated as hard


async def scripted(svc: HostService) -> None:
    await play(svc, "c1", "g1", [ANN, BOB], [3, 3, 3, 1])             # Bob takes the last: Bob wins
    await play(svc, "c2", "g1", [ANN, BOB, CID], [3, 3, 3, 1])        # Ann wins; Bob and Cid tie
    await play(svc, "c3", "g2", [ANN, SVEN], [3, 3, 3, 1])            # the computer wins
    await play(svc, "c4", "g1", [BOB, CID], [3])                      # then abandoned: not rated
    assert (await svc.abandon("c4", "bob")).ok
    await play(svc, "c5", "g1", [CID, ANN], [1])                      # still running: not rated


def expected() -> tuple[dict, dict]:
    """openskill by hand: (this server g1, all servers) → user → (mu, sigma)."""
    a, b, c = M.rating(), M.rating(), M.rating()
    [[a], [b]] = M.rate([[a], [b]], ranks=[2, 1])
    [[a], [b], [c]] = M.rate([[a], [b], [c]], ranks=[1, 2, 2])
    server = {"ann": a, "bob": b, "cid": c}
    sven = M.rating(*COMPUTER_RATINGS["hard"])
    [[a], _sven] = M.rate([[a], [sven]], ranks=[2, 1])
    return server, {"ann": a, "bob": b, "cid": c}


def as_dict(reply) -> dict:
    return {st.user: (st.mu, st.sigma, st.games) for st in reply.standings}


async def test_ratings_after_a_scripted_set_of_games_equal_openskill(svc):
    await scripted(svc)
    server, everywhere = expected()
    here = await svc.leaderboard("toy", guild="g1")
    assert here.ok and as_dict(here) == {u: (r.mu, r.sigma, {"ann": 2, "bob": 2, "cid": 1}[u])
                                         for u, r in server.items()}
    all_ = await svc.leaderboard("toy", "all", guild="g1")
    assert as_dict(all_) == {u: (r.mu, r.sigma, {"ann": 3, "bob": 2, "cid": 1}[u]) for u, r in everywhere.items()}
    # the computer player is never on the board and keeps its fixed rating
    assert all(not st.user.startswith(COMPUTER_PREFIX) for st in all_.standings)
    other = await svc.leaderboard("toy", "server", guild="g2")
    assert as_dict(other) == {"ann": (M.rate([[M.rating()], [M.rating(*COMPUTER_RATINGS["hard"])]],
                                             ranks=[2, 1])[0][0].mu,
                                      M.rate([[M.rating()], [M.rating(*COMPUTER_RATINGS["hard"])]],
                                             ranks=[2, 1])[0][0].sigma, 1)}


async def test_leaderboard_lines_rank_name_rating_uncertainty_games(svc):
    await scripted(svc)
    server, _ = expected()
    r = await svc.leaderboard(None, guild="g1")
    assert r.lines()[0] == "Take-away leaderboard, this server"
    order = sorted(server, key=lambda u: -server[u].ordinal())
    assert [st.user for st in r.standings] == order and [st.rank for st in r.standings] == [1, 2, 3]
    best = server[order[0]]
    assert r.public[1] == (f"1. {dict([ANN, BOB, CID])[order[0]]}: {best.ordinal():.1f} "
                           f"(μ {best.mu:.1f} ± {best.sigma:.1f}), 2 games")


async def test_leaderboard_refusals_change_nothing(svc):
    await scripted(svc)
    assert "The scope is server or all" in refused(await svc.leaderboard("toy", "galaxy", guild="g1"), "bad_scope")
    assert "I do not know the game" in refused(await svc.leaderboard("chess"), "unknown_game")
    empty = await svc.leaderboard("toy", guild="nowhere")
    assert empty.ok and empty.standings == [] and "Nobody has finished" in empty.public[1]


async def test_a_shared_win_is_a_tie_and_the_rest_rank_by_final_vp():
    assert ranks_of([0, 2], [30, 28, 30, 28]) == [1, 2 + 1, 1, 2 + 1]
    assert ranks_of([1], [10, 20, 12]) == [3, 1, 2]
    assert ranks_of([0], [None, None, None]) == [1, 2, 2]


def test_the_computer_prefix_is_the_services():
    assert ratings.COMPUTER_PREFIX == COMPUTER_PREFIX


async def test_profile_games_wins_rating_and_recent_games_with_links(svc):
    await scripted(svc)
    c1 = (await svc.history("c1"))[0]
    await svc.storage.set_link(c1.id, "https://discord.com/channels/1/2/3")
    server, everywhere = expected()
    r = await svc.profile("ANN", guild="g1")  # a name, case-blind
    assert r.ok and r.public[0] == "Profile of Ann"
    assert r.public[1] == "Take-away: 2 games, 1 won"
    a = server["ann"]
    assert r.public[2] == f"  rating {a.ordinal():.1f} (μ {a.mu:.1f} ± {a.sigma:.1f})"
    e = everywhere["ann"]
    assert r.public[3] == f"  rating on all servers {e.ordinal():.1f} (μ {e.mu:.1f} ± {e.sigma:.1f})"
    recent = r.public[r.public.index("Most recent games:") + 1:]
    assert len(recent) == 2 and "won" in recent[0] and "place 2 of 2" in recent[1]
    assert recent[1].endswith("https://discord.com/channels/1/2/3")
    everywhere_profile = await svc.records.profile("ann")
    assert everywhere_profile.games["toy"].games == 3 and everywhere_profile.games["toy"].wins == 1
    assert refused(await svc.profile("nobody", guild="g1"), "no_games") == "nobody has not finished a game here yet."
    assert refused(await svc.profile("cid", guild="g2"), "no_games")


async def test_history_of_a_server_players_result_link_and_export(svc):
    await scripted(svc)
    c2 = (await svc.history("c2"))[0]
    await svc.storage.set_link(c2.id, "https://discord.com/channels/1/2/9")
    r = await svc.game_history(guild="g1")
    # no abandoned, no running; each game's line followed by its turn times (issue 25)
    assert r.ok and r.public[0] == "Finished games:" and len(r.public) == 5
    assert r.public[2].startswith("  time per turn: Ann: median ")
    assert r.public[1].startswith(f"game {c2.id} (Take-away, ") and "Ann, Bob, Cid; won by Ann" in r.public[1]
    assert r.public[1].endswith(f"export: /export {c2.id} https://discord.com/channels/1/2/9")
    text = r.file.data.decode()
    assert text.splitlines()[1].split("\t")[:6] == [str(c2.id), "toy", "1970-01-01", "Ann, Bob, Cid", "Ann",
                                                    "https://discord.com/channels/1/2/9"]
    assert text.splitlines()[1].split("\t")[6] == r.public[2].removeprefix("  time per turn: ")
    # its export from another channel of the same server; never another server's, nor a running one
    exported = await svc.command("elsewhere", "zed", f"/export {c2.id}", guild="g1")
    assert exported.ok and "# seed: 1" in exported.file.data.decode()
    assert refused(await svc.command("elsewhere", "zed", f"/export {c2.id}", guild="g2"), "no_table")
    c5 = await svc.storage.open_match("c5")
    assert refused(await svc.command("elsewhere", "zed", f"/export {c5.id}", guild="g1"), "no_table")
    assert refused(await svc.command("elsewhere", "zed", "/export twelve", guild="g1"), "unknown_command")
    huge = "9" * 30  # beyond any database key: no game, not a crash
    assert refused(await svc.command("elsewhere", "zed", f"/export {huge}", guild="g1"), "no_table")
    assert refused(await svc.command("elsewhere", "zed", "/export 0", guild="g1"), "no_table")
    assert refused(await svc.recap(int(huge)), "no_table")
    assert (await svc.game_history(guild="g-none")).public == ["No game has been finished here yet."]


async def test_records_through_typed_commands(svc):
    await scripted(svc)
    board = await svc.command("c9", "ann", "/leaderboard toy all", guild="g1")
    assert board.public[0] == "Take-away leaderboard, all servers" and len(board.standings) == 3
    assert (await svc.command("c9", "ann", "/leaderboard all", guild="g1")).standings == board.standings
    mine = await svc.command("c9", "ann", "/profile", guild="g1")
    assert mine.public[0] == "Profile of Ann"
    assert (await svc.command("c9", "ann", "/history", guild="g1")).public[0] == "Finished games:"
    assert refused(await svc.command("c9", "ann", "/leaderboard toy all more", guild="g1"), "unknown_command")


async def test_records_at_the_offline_table(tmp_path):
    store = await Storage.open(tmp_path / "o.db")
    try:
        svc = HostService(store, GameRegistry([ToyAdapter()]), images=False)
        t = OfflineTable(svc, tmp_path / "out")
        for line in ["ann: /join", "bob: /join", "ann: /start pile=4 max=3", "/take 3", "/take 1"]:
            await t.handle(line)  # plain lines speak for whoever must act
        (done,) = await svc.history("offline")
        assert done.status == "finished"
        winner = done.seats[done.snapshot["winner"]].name
        loser = "ann" if winner == "bob" else "bob"
        won, lost = M.rate([[M.rating()], [M.rating()]], ranks=[1, 2])
        board = await t.handle("/leaderboard")
        assert board[0] == "Take-away leaderboard, all servers"
        assert board[1] == f"1. {winner}: {won[0].ordinal():.1f} (μ {won[0].mu:.1f} ± {won[0].sigma:.1f}), 1 game"
        assert board[2] == f"2. {loser}: {lost[0].ordinal():.1f} (μ {lost[0].mu:.1f} ± {lost[0].sigma:.1f}), 1 game"
        profile = await t.handle(f"/profile {winner}")
        assert profile[:2] == [f"Profile of {winner}", "Take-away: 1 game, 1 won"]
        history = await t.handle("/history")
        assert history[0] == "Finished games:" and f"ann, bob; won by {winner}" in history[1]
        assert history[-1].startswith("file: ") and history[-1].endswith("meadhall-history.tsv")
        assert "has not finished a game here yet" in (await t.handle("/profile zed"))[0]
    finally:
        await store.close()


# ----------------------------------------------------------------------------- the recap


def _ends_the_game(game, seat: int, action) -> bool:
    copy = type(game).from_json(game.to_json())
    copy.apply(seat, action)
    return copy.is_over


@pytest.mark.parametrize("game_id", ["vikings", "brian-boru"])
async def test_the_game_over_reply_carries_the_recap_whose_chart_equals_a_replay(tmp_path, monkeypatch, game_id):
    """The final scoring picture with every player's VP by round comes with the move that ends the
    game, and the chart it draws holds exactly what replaying the stored log gives."""
    import renderer.scoring as scoring
    from bot.games.replay import vp_history
    from bot.host.ratings import final_vps
    from tests.host_helpers import CH, open_service, play_first_legal, start_game

    drawn: list[list[list[int]]] = []
    chart = scoring._chart

    def spy(d, box, history, *args, **kwargs):
        drawn.append([list(row) for row in history])
        return chart(d, box, history, *args, **kwargs)

    monkeypatch.setattr(scoring, "_chart", spy)
    svc, store = await open_service(tmp_path / "r.db")
    try:
        await start_game(svc, game_id, seed=11)
        game = await play_first_legal(
            svc, lambda g: _ends_the_game(g, g.acting_seats()[0], g.legal_actions(g.acting_seats()[0])[0]))
        seat = game.acting_seats()[0]
        table = await svc.table(CH)
        svc.images = True  # pictures only for the last move: the test stays quick
        last = await svc.act(CH, table.record.seats[seat].user, str(game.legal_actions(seat)[0]))
        assert last.ok and last.status == "finished"
        assert any(line.startswith("Game over.") for line in last.public)
        assert last.image is not None and last.image.data[:4] == b"\x89PNG"
        assert len(drawn) == 1, "one final scoring picture with its chart"
        record = (await svc.history(CH))[0]
        moves = [(a.seat, a.action) for a in await store.actions(record.id)]
        replayed = vp_history(svc.games[game_id].game_cls, record.names, record.seed, record.options,
                              record.start_seat, moves)
        assert drawn[0] == replayed
        final = await svc.replay(record.id)
        assert drawn[0][-1] == final_vps(final) and len(drawn[0]) >= 2
        # the same recap afterwards, for the transport (a thread, the parent channel's line)
        recap = await svc.recap(record.id)
        assert recap.ok and recap.image is not None and drawn[1] == replayed
        winners = ", ".join(record.seats[s].name for s in final.winners())
        scores = ", ".join(f"{s.name} {vp}" for s, vp in zip(record.seats, final_vps(final), strict=True))
        assert recap.public == [f"{svc.games[game_id].title}, game {record.id}: won by {winners}. "
                                f"Final VP: {scores}."]
        assert refused(await svc.recap(record.id + 1), "no_table") == f"There is no finished game {record.id + 1}."
    finally:
        await store.close()


async def test_the_leaderboard_picture_shows_every_row_readable(svc):
    from renderer.common import TextLog
    from renderer.leaderboard import draw_leaderboard

    await scripted(svc)
    svc.images = True
    r = await svc.leaderboard("toy", "all", guild="g1")
    assert r.image is not None and r.image.data[:4] == b"\x89PNG" and r.image.filename == "meadhall-leaderboard.png"
    rows = [{"rank": st.rank, "name": st.name, "ordinal": st.ordinal, "mu": st.mu, "sigma": st.sigma,
             "games": st.games} for st in r.standings]
    log = TextLog()
    draw_leaderboard("Take-away leaderboard, all servers", rows, log=log)
    drawn = [t.text for t in log.texts]
    assert {"Ann", "Bob", "Cid"} <= set(drawn) and f"{r.standings[0].ordinal:.1f}" in drawn
    assert min(t.size for t in log.texts) >= 22
    assert (await svc.leaderboard("toy", guild="nowhere")).image is None  # nobody rated: lines only


def test_a_short_leaderboard_picture_is_as_tall_as_its_rows_and_a_long_one_no_taller_than_a_turn():
    """Three rows on a 640 px picture left it mostly empty inline (550×350): the picture is as tall
    as its rows, and ten rows still fit the turn pictures' height."""
    from renderer.leaderboard import ROW_H, ROWS, draw_leaderboard
    from renderer.picture import PICTURE_H

    def rows(n):
        return [{"rank": i + 1, "name": f"P{i}", "ordinal": 9.0 - i, "mu": 30.0 - i, "sigma": 7.0, "games": 3}
                for i in range(n)]
    from renderer.common import TextLog

    log = TextLog()
    three, ten = draw_leaderboard("t", rows(3)), draw_leaderboard("t", rows(ROWS + 2), log=log)
    assert three.height < PICTURE_H / 2 + ROW_H and ten.height <= PICTURE_H
    last = next(t for t in log.texts if t.text == f"P{ROWS - 1}")  # the tenth row, whole on the picture
    assert last.box[3] <= ten.height and not any(t.text == f"P{ROWS}" for t in log.texts)


async def test_a_finished_game_this_host_no_longer_offers_is_left_out_and_its_recap_refused(svc):
    await scripted(svc)
    store = svc.storage
    rec = await store.create_lobby(channel="old", game="chess", creator="ann", seats=[], now=1.0, guild="g1")
    from bot.storage import Seat
    from tests.toygame import ToyGame

    game = ToyGame.new(["Ann", "Bob"], seed=1, options={"pile": 1}, start_seat=0)
    await store.start_match(rec.id, game="chess", options={}, seed=1, start_seat=0,
                            seats=[Seat("ann", "Ann"), Seat("bob", "Bob")], snapshot=game.to_json(), now=2.0)
    game.apply(0, "take 1")
    await store.commit_action(rec.id, expected_version=0, seat=0, action="take 1", snapshot=game.to_json(),
                              status="finished", now=3.0)
    server, _ = expected()
    assert as_dict(await svc.leaderboard("toy", guild="g1")) == {
        u: (r.mu, r.sigma, {"ann": 2, "bob": 2, "cid": 1}[u]) for u, r in server.items()}
    assert len((await svc.game_history(guild="g1")).public) == 5  # two toy games, each with its turn times line
    assert "I do not know the game chess" in refused(await svc.recap(rec.id), "unknown_game")


# --------------------------------------------------------------------------- levels (issue 30)


def test_computer_ratings_are_keyed_by_canonical_level_and_old_ids_read_theirs():
    from engine.players import LEVELS

    assert set(COMPUTER_RATINGS) == set(LEVELS)
    assert [COMPUTER_RATINGS[lv][0] for lv in LEVELS] == sorted(COMPUTER_RATINGS[lv][0] for lv in LEVELS)
    assert ratings.computer_rating("bot:heuristic:0") == COMPUTER_RATINGS["normal"]  # stored before issue 30
    assert ratings.computer_rating("bot:search:101") == COMPUTER_RATINGS["hard"]
    assert ratings.computer_rating("bot:easy:2") == COMPUTER_RATINGS["easy"]
    assert ratings.computer_rating("bot:genius:1") == ratings.DEFAULT_COMPUTER_RATING  # unknown: as normal


def test_the_ladder_fills_the_computer_ratings_anchored_on_normal():
    ladder = {"game": "vikings", "games": 8, "seed": 1, "budget": 0.25, "levels": {
        "random": {"mu": 10.0, "sigma": 2.5}, "easy": {"mu": 22.0, "sigma": 0.4},
        "normal": {"mu": 27.0, "sigma": 1.5}, "hard": {"mu": 33.5, "sigma": 1.2},
        "montecarlo": {"mu": 31.0, "sigma": 1.3}}, "pairs": []}
    got = ratings.ratings_from_ladder(ladder)
    assert got == {"random": (8.0, 2.5), "easy": (20.0, 1.0), "normal": (25.0, 1.5), "hard": (31.5, 1.2)}
    # a ladder without the anchor level is refused, and nothing changes
    before = dict(COMPUTER_RATINGS)
    with pytest.raises(ValueError, match="no level 'normal'"):
        ratings.ratings_from_ladder({"levels": {"hard": {"mu": 30.0, "sigma": 1.0}}})
    assert COMPUTER_RATINGS == before


async def test_a_computer_player_under_its_old_level_name_is_the_same_player_in_its_profile(svc):
    """Ragnar seated as heuristic before issue 30 and as normal after: one computer player, all games."""
    old, new = ("bot:heuristic:0", "Ragnar (computer, heuristic)"), ("bot:normal:0", "Ragnar (computer, normal)")
    await play(svc, "c1", "g1", [ANN, old], [3, 3, 3, 1])   # Ragnar wins
    await play(svc, "c2", "g1", [ANN, new], [3, 3, 3, 1])   # Ragnar wins again
    await play(svc, "c3", "g1", [ANN, ("bot:random:0", "Ragnar (computer, random)")], [3, 3, 3, 1])
    for who in ("Ragnar (computer, heuristic)", "Ragnar (computer, normal)", "bot:heuristic:0", "bot:normal:0"):
        r = await svc.profile(who, guild="g1")
        assert r.ok and r.public[0] == "Profile of Ragnar (computer, normal)", (who, r)
        assert "Take-away: 2 games, 2 won" in r.public, (who, r)


def test_the_ladders_of_both_games_make_one_table_mean_mu_largest_sigma():
    def ladder(game, hard, easy_sigma):
        return {"game": game, "levels": {"random": {"mu": 10.0, "sigma": 2.0}, "easy": {"mu": 20.0, "sigma": easy_sigma},
                                         "normal": {"mu": 26.0, "sigma": 1.2}, "hard": {"mu": hard, "sigma": 1.1},
                                         "montecarlo": {"mu": 30.0, "sigma": 1.0}}}

    got = ratings.ratings_from_ladders([ladder("vikings", 27.0, 1.5), ladder("brian-boru", 33.0, 0.5)])
    # each shifted so that normal stays at 25: hard 26.0 and 32.0 -> 29.0; easy's sigma the larger
    assert got == {"random": (9.0, 2.0), "easy": (19.0, 1.5), "normal": (25.0, 1.2), "hard": (29.0, 1.1)}
    with pytest.raises(ValueError, match="no ladder"):
        ratings.ratings_from_ladders([])


def test_the_computer_ratings_are_the_measured_ladders_of_both_games_issue30():
    """COMPUTER_RATINGS is measured, not guessed: it is what the 100-game ladders kept in
    docs/samples/ (``meadhall arena --ladder GAME``, docs/performance-players.md) give."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "docs" / "samples"
    ladders = [json.loads((root / f"ladder-{game}.json").read_text(encoding="utf-8")) for game in ("vikings", "brian-boru")]
    assert all(ladder["games"] >= 100 for ladder in ladders)
    base = {level: (25.0, 1.0) for level in COMPUTER_RATINGS}  # the anchor only: nothing else is read
    assert ratings.ratings_from_ladders(ladders, current=base) == COMPUTER_RATINGS
    mus = [COMPUTER_RATINGS[level][0] for level in ("random", "easy", "normal", "hard")]
    assert mus == sorted(mus)  # the levels' order, as players are told it
