"""Issue 25, the host's replays (bot.host.replays): positions replayed from the log in force, rounds
found where the engine begins them, whose games may be replayed, and what a running game's refusal
may say."""

from __future__ import annotations

import sqlite3

from bot.games import engine_options
from bot.host.replays import walk
from bot.i18n import use_language
from bot.storage import effective_actions
from tests.host_helpers import CH, open_service

GUILD = "g-1"


async def _play_out(svc, channel: str = CH) -> None:
    while (table := await svc.table(channel)) is not None:
        seat = table.game.acting_seats()[0]
        assert (await svc.act(channel, table.record.seats[seat].user, str(table.game.legal_actions(seat)[0]))).ok


async def _finished(svc, game: str, *, seed: int = 3, channel: str = CH, guild: str | None = GUILD) -> int:
    users = ("ann", "bob") if game == "vikings" else ("ann", "bob", "cid")
    for i, user in enumerate(users):
        assert (await svc.join(channel, user, user.title(), guild=guild, game=game if i == 0 else None)).ok
    assert (await svc.start(channel, "ann", game, [], seed=seed, start_seat=0)).ok
    await _play_out(svc, channel)
    return (await svc.storage.history(channel=channel, limit=1))[0].id


async def test_replay_positions_are_the_games_after_each_move_in_force_V4(tmp_path):
    """Every position is the game after that many moves in force (an undone move is not replayed);
    each round of six (V-4) begins where the engine begins it."""
    svc, store = await open_service(tmp_path / "r.db")
    try:
        for i, user in enumerate(("ann", "bob")):
            assert (await svc.join(CH, user, user.title(), guild=GUILD, game="vikings" if i == 0 else None)).ok
        assert (await svc.start(CH, "ann", "vikings", [], seed=7, start_seat=0)).ok
        assert (await svc.act(CH, "ann", "buy 1")).ok and (await svc.act(CH, "ann", "start W1")).ok
        assert (await svc.undo(CH, "ann")).ok  # takes back the start tile and the forced placing after it
        await _play_out(svc)
        record = await store.get_match(1)
        logged = await store.actions(1)
        moves = [(a.seat, a.action) for a in effective_actions(logged)]
        assert len(moves) < len(logged)
        adapter = svc.games["vikings"]
        game = adapter.game_cls.new(record.names, seed=record.seed, options=engine_options(record.options),
                                    start_seat=record.start_seat)
        rounds = {1: 0}
        for k, (seat, text) in enumerate(moves, start=1):
            before = game.view(None)["round"]
            game.apply(seat, text)
            if game.view(None)["round"] != before:
                rounds[game.view(None)["round"]] = k
            if k % 37 == 0 or k in (1, len(moves)):
                pos = walk(adapter, record, moves, k)
                assert pos.game.to_json() == game.to_json() and pos.seat == seat, k
                assert pos.where.round == game.view(None)["round"]
        reply = await svc.replay_position(1, last=True, guild=GUILD)
        assert reply.ok and reply.position.step == reply.position.steps == len(moves)
        assert dict(reply.position.rounds) == rounds and sorted(rounds) == [1, 2, 3, 4, 5, 6]
        assert reply.private[0] == "Replay of game 1 (Vikings)." and reply.public == []
        assert reply.private[1].startswith(f"Step {len(moves)} of {len(moves)} · round 6 · ")
        assert reply.image is None  # pictures off: the lines alone
        first = await svc.replay_position(1, guild=GUILD)
        assert first.position.step == 0 and "the set-up, before the first move" in first.private[1]
    finally:
        await store.close()


async def test_replay_shows_hidden_things_only_of_a_finished_game_B14(tmp_path):
    svc, store = await open_service(tmp_path / "r.db")
    try:
        match = await _finished(svc, "brian-boru")
        reply = await svc.replay_position(match, 20, guild=GUILD)
        assert reply.ok and any(line.startswith("Hand of Ann: ") for line in reply.private), reply.private
        assert "Hidden at this point (shown now that the game is over):" in reply.private
        # running and abandoned games are refused from their record alone, whatever they hide
        for i, user in enumerate(("ann", "bob", "cid")):
            assert (await svc.join("c-2", user, user.title(), guild=GUILD, game="brian-boru" if i == 0 else None)).ok
        assert (await svc.start("c-2", "ann", "brian-boru", [], seed=5, start_seat=0)).ok
        running = await svc.replay_position(2, guild=GUILD)
        assert (running.ok, running.code, running.image, running.position) == (False, "not_finished", None, None)
        assert running.private == ["Game 2 is not finished: only a finished game can be replayed, since a replay "
                                   "shows everything that was hidden."]
        assert (await svc.abandon("c-2", "ann")).ok
        assert (await svc.replay_position(2, guild=GUILD)).private == running.private
    finally:
        await store.close()


async def test_replay_only_of_this_server_or_channel(tmp_path):
    svc, store = await open_service(tmp_path / "r.db")
    try:
        match = await _finished(svc, "vikings")
        offline = await _finished(svc, "vikings", channel="offline", guild=None, seed=4)
        unknown = "There is no game {id} of this server to replay."
        for who, where in (({"guild": "g-2"}, match), ({"guild": None, "channel": "elsewhere"}, match),
                           ({"guild": None, "channel": None}, match),  # not in a server, no channel
                           ({"guild": GUILD}, offline), ({"guild": GUILD}, 99), ({"guild": GUILD}, 0),
                           ({"guild": GUILD}, 2**70)):
            r = await svc.replay_position(where, **who)
            assert (r.ok, r.code, r.private) == (False, "no_table", [unknown.format(id=where)]), (who, where)
        assert (await svc.replay_position(match, guild=GUILD)).ok
        assert (await svc.replay_position(match, guild=None, channel=CH)).ok  # no server: this channel's games
        assert (await svc.replay_position(offline, channel="offline")).ok
        bad = await svc.replay_position(match, -1, guild=GUILD)
        assert bad.code == "bad_step" and "there is no step -1" in bad.private[0]
    finally:
        await store.close()


async def test_replay_of_a_log_that_does_not_replay_is_refused(tmp_path):
    svc, store = await open_service(tmp_path / "r.db")
    try:
        match = await _finished(svc, "vikings")
        steps = len(await store.actions(match))
        con = sqlite3.connect(tmp_path / "r.db")  # a move after the end: the log is append-only, not checked
        with con:
            con.execute("INSERT INTO actions (match, seq, seat, action, at) VALUES (?, ?, 0, 'buy 99', 0)",
                        (match, steps + 1))
        con.close()
        r = await svc.replay_position(match, 10, guild=GUILD)
        assert (r.ok, r.code) == (False, "storage_failed")
        assert r.private == [f"The action log of game {match} does not replay, so it cannot be shown."]
    finally:
        await store.close()


async def test_replay_speaks_the_asked_language(tmp_path):
    svc, store = await open_service(tmp_path / "r.db")
    try:
        match = await _finished(svc, "vikings")
        english = await svc.replay_position(match, 5, guild=GUILD)
        with use_language("de"):
            german = await svc.replay_position(match, 5, guild=GUILD)
        assert german.position == english.position
        assert german.private[0] != english.private[0] and german.private[1] != english.private[1]
    finally:
        await store.close()


def test_replay_reveals_what_the_next_round_truly_brings_V6_V1_B12():
    """The hidden lines tell the truth: the next stack's tiles are the next wheel's tiles (V-6, V-9),
    the vikings drawn next are the next wheel's vikings (V-1, V-11); Brian Boru's next marriage card
    is the one the next round turns up (B-12)."""
    from collections import Counter

    from bot.games.registry import default_registry
    from bot.games.vikings_words import kind_text, tile_text
    from engine.vikings.data import KINDS

    registry = default_registry()
    vikings = registry["vikings"]
    game = vikings.game_cls.new(["Ann", "Bob"], seed=11)
    stack_line, bag_line = vikings.revealed(game)[:2]
    while game.view(None)["round"] == 1:
        seat = game.acting_seats()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    wheel = [c for c in game.view(None)["wheel"] if c]
    assert stack_line.startswith("Next tile stack, face down (round 2): ")
    assert sorted(stack_line.split(": ", 1)[1].rstrip(".").split(", ")) == sorted(tile_text(c["tile"]) for c in wheel)
    drawn = Counter(c["viking"] for c in wheel)
    assert bag_line == "The next vikings drawn from the bag: {}.".format(
        ", ".join(f"{kind_text(k)} ×{drawn[k]}" for k in KINDS if drawn[k]))

    boru = registry["brian-boru"]
    game = boru.game_cls.new(["Ann", "Bob", "Cid"], seed=11)
    [marriages, viking_cards] = boru.revealed(game)
    while game.view(None)["round"] == 0:
        seat = game.acting_seats()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    offer = game.view(None)["marriage"]["revealed"]
    assert marriages.startswith("Marriage cards still in the stack, next first: " + offer["title"])
    assert viking_cards.startswith(f"Viking cards still face down, next first: {game.view(None)['battle']}")
