"""Issue 17 (host side): /undo, turn deadlines and /replace, through a real HostService."""

from __future__ import annotations

import asyncio

import pytest

from bot.host.service import REFUSALS
from bot.host.turns import finishers
from tests.host_helpers import CH, Clock, live, open_service, play_first_legal, start_game


async def _replay_equals_snapshot(svc, store) -> None:
    table = await svc.table(CH)
    rec = await store.get_match(table.record.id)
    assert (await svc.replay(rec.id)).to_json() == rec.snapshot


def _user(table, seat: int) -> str:
    return table.record.seats[seat].user


async def test_undo_takes_back_a_move_and_replay_honours_it(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    before = (await live(svc)).to_json()
    r = await svc.act(CH, "ann", "buy 1")
    assert r.ok
    u = await svc.undo(CH, "ann")
    assert (u.ok, u.code) == (True, "ok"), u
    assert (await live(svc)).to_json() == before
    log = await store.actions(1)
    assert [a.action for a in log] == ["buy 1", "#undo 1"]  # append-only: the undo is an entry
    await _replay_equals_snapshot(svc, store)
    # the player's choice and the forced move that followed go back together (issue 13)
    assert (await svc.act(CH, "ann", "buy 1")).ok
    mid = (await live(svc)).to_json()
    r = await svc.act(CH, "ann", "start W1")
    assert r.ok and any("one choice" in line for line in r.public), r.public
    u = await svc.undo(CH, "ann")
    assert u.ok and u.code == "ok", u
    assert (await live(svc)).to_json() == mid
    await _replay_equals_snapshot(svc, store)
    await store.close()
    svc, store = await open_service(tmp_path / "db.sqlite")  # a restart reads the same table
    assert (await live(svc)).to_json() == mid
    await _replay_equals_snapshot(svc, store)
    await store.close()


async def test_undo_refused_with_nothing_to_take_back_or_not_seated(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    u = await svc.undo(CH, "bob")
    assert (u.ok, u.code) == (False, "undo_nothing") and u.private
    u = await svc.undo(CH, "zed")
    assert (u.ok, u.code) == (False, "not_player")
    assert (await store.get_match(1)).version == 0
    await store.close()


async def test_undo_needs_the_agreement_of_who_moved_since(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    assert (await svc.act(CH, "ann", "buy 1")).ok
    before = (await live(svc)).to_json()
    assert (await svc.act(CH, "ann", "start W1")).ok  # W2 forced
    assert (await svc.act(CH, "bob", "buy 0")).ok
    version = (await store.get_match(1)).version
    u = await svc.undo(CH, "ann")
    assert (u.ok, u.code) == (True, "undo_needs_agreement") and u.mentions == ["bob"], u
    assert (await store.get_match(1)).version == version  # nothing changed yet
    u = await svc.undo(CH, "bob")  # Bob agrees
    assert u.ok and u.code == "ok", u
    assert (await live(svc)).to_json() == before
    await _replay_equals_snapshot(svc, store)
    await store.close()


async def test_undo_refused_after_a_draw_vikings_round_refill(tmp_path):
    """A move that started a round drew tiles and vikings: it cannot be taken back (V-1, V-6)."""
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    seen = {}

    def before_round_2(game):
        seen["seat"] = game.acting_seats()[0]
        return game.round == 2

    await play_first_legal(svc, before_round_2)
    log = await store.actions(1)
    last_user = (await svc.table(CH)).record.seats[log[-1].seat].user
    version = (await store.get_match(1)).version
    u = await svc.undo(CH, last_user)
    assert u.code in ("undo_revealed", "undo_needs_agreement"), u
    if u.code == "undo_needs_agreement":  # the other player agrees: still refused, as it drew
        other = next(s.user for s in (await svc.table(CH)).record.seats if s.user != last_user)
        u = await svc.undo(CH, other)
    assert (u.ok, u.code) == (False, "undo_revealed"), u
    assert u.private == ["That move cannot be taken back: it showed something hidden (a tile turned or a "
                         "viking drawn)."], u  # in the game's own words (QA)
    assert "undo_revealed" in REFUSALS
    assert (await store.get_match(1)).version == version
    await store.close()


async def test_undo_brian_boru_draft_pick_until_the_cards_are_passed(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "brian-boru", seed=5)

    def keep(game):
        return (game.view(None).get("pending") or {}).get("kind") == "keep"

    game = await play_first_legal(svc, keep)
    seats = list(game.acting_seats())
    table = await svc.table(CH)
    first = seats[0]
    action = str(game.legal_actions(first)[0])
    assert (await svc.act(CH, _user(table, first), action)).ok
    u = await svc.undo(CH, _user(table, first))  # nobody saw anything yet
    assert u.ok and u.code == "ok", u
    await _replay_equals_snapshot(svc, store)
    codes = []
    for _i in range(len(seats)):  # every seat keeps: the cards are passed on
        game = await live(svc)
        if not keep(game):
            break
        s = game.acting_seats()[0]
        assert (await svc.act(CH, _user(table, s), str(game.legal_actions(s)[0]))).ok
        last = s
    u = await svc.undo(CH, _user(table, last))
    codes.append(u.code)
    if u.code == "undo_needs_agreement":
        for s in u.mentions:
            u = await svc.undo(CH, s)
    assert (u.ok, u.code) == (False, "undo_revealed"), (codes, u)
    # in Brian Boru's own words: no tile turned, no viking drawn (QA)
    assert u.private == ["That move cannot be taken back: it showed something hidden (a card seen, passed on or "
                         "drawn)."], u
    await _replay_equals_snapshot(svc, store)
    await store.close()


async def test_deadline_makes_exactly_one_computer_move_through_a_restart(tmp_path):
    clock = Clock()
    svc, store = await open_service(tmp_path / "db.sqlite", clock=clock)
    await start_game(svc, "vikings", seed=3, options=("deadline:2h", "level:heuristic"))
    status = await svc.status(CH)
    assert any("Deadline for Ann" in line for line in status.public), status.public
    assert await svc.due_reminders() == []  # not yet
    clock.t += 2 * 3600 + 1
    await store.close()
    svc, store = await open_service(tmp_path / "db.sqlite", clock=clock)  # a restart
    made = await svc.due_reminders()
    assert len(made) == 1 and made[0].user == "ann", made
    assert "made by the computer for Ann after the deadline" in made[0].text
    log = await store.actions(1)
    assert log and all(a.seat == 0 for a in log)
    version = (await store.get_match(1)).version
    # a second process on the same database, and the same one again: nothing more
    other, store2 = await open_service(tmp_path / "db.sqlite", clock=clock)
    assert await other.due_reminders() == [] and await svc.due_reminders() == []
    assert (await store.get_match(1)).version == version
    assert (await store.get_match(1)).options["host"]["missed"] == {"0": 1}
    await _replay_equals_snapshot(svc, store)
    await store2.close()
    await store.close()


async def test_missed_deadlines_hand_the_seat_to_the_computer(tmp_path):
    clock = Clock()
    svc, store = await open_service(tmp_path / "db.sqlite", clock=clock, deadline_takeover=1)
    await start_game(svc, "vikings", seed=3, options=("deadline:30m",))
    clock.t += 1801
    made = await svc.due_reminders()
    assert made and "takes the seat" in made[0].text, made
    assert "Ann missed 1 deadline: " in made[0].text, made  # the singular (QA: plural forms)
    rec = await store.get_match(1)
    assert rec.seats[0].user.startswith("bot:normal:") and rec.seats[0].name == "Ann"  # the default level
    assert rec.options["host"]["replaced"][0]["user"] == "ann"
    assert rec.options["host"]["replaced"][0]["why"] == "deadline"
    assert finishers(rec) == ["bob"]
    await store.close()


async def test_bad_deadline_option_is_refused(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    for word in ("deadline:5x", "deadline:0m", "deadline:99d", "level:genius"):
        await svc.join(CH, "ann", "Ann", game="vikings")
        await svc.join(CH, "bob", "Bob")
        r = await svc.start(CH, "ann", "vikings", [word])
        assert (r.ok, r.code) == (False, "bad_options"), (word, r)
        assert (await store.get_match(1)).status == "lobby"
    await store.close()


async def test_replace_vote_gives_a_seat_to_the_computer(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    r = await svc.command(CH, "ann", "/replace Bob heuristic")  # issue 30: the old name, taken as normal
    assert r.ok and "1/2" in r.public[0] and "a computer player (normal)" in r.public[0], r
    assert (await store.get_match(1)).seats[1].user == "bob"  # no majority yet
    assert (await svc.command(CH, "ann", "/replace Bob yes")).code == "already_voted"
    assert (await svc.command(CH, "zed", "/replace Bob yes")).code == "not_player"
    assert (await svc.command(CH, "ann", "/replace Nobody yes")).code == "unknown_player"
    assert (await svc.command(CH, "ann", "/replace Bob genius")).code == "bad_options"
    r = await svc.command(CH, "bob", "/replace Bob yes")
    assert r.ok and "now plays" in r.public[0], r
    rec = await store.get_match(1)
    assert rec.seats[1].user == "bot:normal:101" and rec.names == ["Ann", "Bob"]
    assert rec.options["host"]["replaced"] == [{"seat": 1, "user": "bob", "by": "bot:normal:101",
                                                 "version": 0, "why": "vote"}]
    assert finishers(rec) == ["ann"]
    for same in ("normal", "heuristic"):  # the level it already has, under either name
        r = await svc.command(CH, "ann", f"/replace Bob {same}")
        assert r.code == "bad_options" and "already played that way" in r.private[0], (same, r)
    await _replay_equals_snapshot(svc, store)
    await store.close()


async def test_replace_by_a_person_who_asks(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    assert (await svc.command(CH, "ann", "/replace Bob me")).code == "already_seated"
    assert (await svc.command(CH, "zed", "/replace Bob yes")).code == "no_request"
    r = await svc.command(CH, "zed", "/replace Bob me")
    assert r.ok and "0/2" in r.public[0], r
    assert (await svc.command(CH, "ann", "/replace Bob yes")).ok
    r = await svc.command(CH, "bob", "/replace Bob yes")
    assert r.ok and "now plays" in r.public[0], r
    rec = await store.get_match(1)
    assert rec.seats[1].user == "zed"
    assert (await svc.act(CH, "ann", "buy 1")).ok
    assert finishers(rec) == ["ann", "zed"]
    await store.close()




# ------------------------------------------------------------------ undo requests: durable, answered

async def _ask_with_two_to_agree(svc, store):
    """Ann buys and starts (W2 forced); Bob and Cid buy: Ann's undo needs both (Vikings, 3 seats)."""
    await start_game(svc, "vikings", seed=3, names=("ann", "bob", "cid"))
    assert (await svc.act(CH, "ann", "buy 1")).ok
    before = (await live(svc)).to_json()
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert (await svc.act(CH, "bob", "buy 0")).ok
    assert (await svc.act(CH, "bob", "start W1")).ok
    assert (await svc.act(CH, "cid", "buy 1")).ok
    u = await svc.undo(CH, "ann")
    assert (u.ok, u.code, u.mentions) == (True, "undo_needs_agreement", ["bob", "cid"]), u
    return before, u.version


async def test_undo_request_survives_a_restart_and_is_agreed_after_it(database):
    """The request is stored with the table: a restart between the request and the agreements
    keeps it (SQLite and PostgreSQL)."""
    svc, store = await open_service(database)
    before, version = await _ask_with_two_to_agree(svc, store)
    u = await svc.undo(CH, "bob", True, version=version)
    assert (u.ok, u.code) == (True, "undo_agreed") and "1/2" in u.public[0], u
    await store.close()
    svc, store = await open_service(database)  # the process restarts
    rec = await store.get_match(1)
    assert rec.version == version and rec.options["host"]["undo"]["agree"] == [1]
    u = await svc.undo(CH, "bob", True, version=version)  # Bob's agreement was kept
    assert (u.ok, u.code) == (False, "already_voted"), u
    u = await svc.undo(CH, "cid", True, version=version)
    assert (u.ok, u.code) == (True, "ok") and u.version == version + 1, u
    assert (await live(svc)).to_json() == before
    await _replay_equals_snapshot(svc, store)
    await store.close()


async def test_undo_answer_at_an_older_version_is_stale_and_changes_nothing(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    assert (await svc.act(CH, "ann", "buy 1")).ok
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert (await svc.act(CH, "bob", "buy 0")).ok
    u = await svc.undo(CH, "ann")
    assert u.code == "undo_needs_agreement"
    old = u.version
    assert (await svc.act(CH, "bob", "start W1")).ok  # the table moves on: the request is stale
    rec = await store.get_match(1)
    u = await svc.undo(CH, "bob", True, version=old)
    assert (u.ok, u.code) == (False, "stale") and u.private, u
    u = await svc.undo(CH, "bob", True)  # without a version: no request stands any more
    assert (u.ok, u.code) == (False, "no_request"), u
    assert await store.get_match(1) == rec  # nothing changed
    await store.close()


async def test_undo_answer_by_a_stranger_or_the_asker_is_refused(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3, names=("ann", "bob", "cid"))
    assert (await svc.act(CH, "ann", "buy 1")).ok
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert (await svc.act(CH, "bob", "buy 0")).ok
    u = await svc.undo(CH, "ann")
    assert (u.code, u.mentions) == ("undo_needs_agreement", ["bob"]), u
    version = u.version
    rec = await store.get_match(1)
    for user, answer, code in (("zed", True, "not_player"), ("zed", False, "not_player"),
                               ("cid", True, "undo_not_asked"), ("cid", False, "undo_not_asked"),
                               ("ann", True, "undo_not_asked")):
        u = await svc.undo(CH, user, answer, version=version)
        assert (u.ok, u.code) == (False, code) and u.private, (user, answer, u)
        if code == "undo_not_asked":
            assert "Bob" in u.private[0]
    assert await store.get_match(1) == rec  # nothing changed, the request still stands
    u = await svc.undo(CH, "bob", True, version=version)
    assert (u.ok, u.code) == (True, "ok"), u
    await store.close()


async def test_undo_refused_by_the_next_player_clears_the_request_and_tells_the_asker(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    assert (await svc.act(CH, "ann", "buy 1")).ok
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert (await svc.act(CH, "bob", "buy 0")).ok
    after = (await live(svc)).to_json()
    u = await svc.undo(CH, "ann")
    version = u.version
    u = await svc.undo(CH, "bob", False, version=version)
    assert (u.ok, u.code, u.mentions) == (True, "undo_declined", ["ann"]), u
    assert "Bob refuses" in u.public[0] and u.version == version
    assert "undo" not in (await store.get_match(1)).options["host"]
    u = await svc.undo(CH, "bob", True, version=version)  # refused: nothing left to agree to
    assert (u.ok, u.code) == (False, "no_request"), u
    assert (await live(svc)).to_json() == after and (await store.get_match(1)).version == version
    # the asker may withdraw a request of their own
    assert (await svc.undo(CH, "ann")).code == "undo_needs_agreement"
    u = await svc.undo(CH, "ann", False)
    assert (u.ok, u.code) == (True, "undo_declined") and "withdraws" in u.public[0], u
    await store.close()


async def test_undo_agreement_given_twice_applies_once(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    assert (await svc.act(CH, "ann", "buy 1")).ok
    before = (await live(svc)).to_json()
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert (await svc.act(CH, "bob", "buy 0")).ok
    version = (await svc.undo(CH, "ann")).version
    first, second = await asyncio.gather(svc.undo(CH, "bob", True, version=version),
                                         svc.undo(CH, "bob", True, version=version))  # a double click
    assert (first.ok, first.code) == (True, "ok"), first
    assert (second.ok, second.code) == (False, "stale"), second
    assert [a.action for a in await store.actions(1)].count("#undo 3") == 1  # once
    assert (await live(svc)).to_json() == before
    await store.close()


async def test_undo_text_answers_and_bad_words(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    assert (await svc.act(CH, "ann", "buy 1")).ok
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert (await svc.act(CH, "bob", "buy 0")).ok
    for line in ("undo maybe", "undo yes please"):
        u = await svc.command(CH, "bob", line)
        assert (u.ok, u.code) == (False, "unknown_command") and "undo yes" in u.private[0], u
    u = await svc.command(CH, "bob", "undo no")
    assert (u.ok, u.code) == (False, "no_request"), u
    assert (await svc.command(CH, "ann", "undo")).code == "undo_needs_agreement"
    u = await svc.command(CH, "bob", "undo yes")
    assert (u.ok, u.code) == (True, "ok"), u
    await store.close()


# ------------------------------------------------------------------ Brian Boru upkeep decisions

def _pending(kind: str):
    def at(game) -> bool:
        return (game.view(None).get("pending") or {}).get("kind") == kind
    return at


async def test_undo_brian_boru_upkeep_option_is_taken_back_when_nothing_hidden_shows_B20(tmp_path):
    """A trick winner's option (B-20) shows nothing hidden: taken back (once refused as undo_unsure,
    as the view-based determinizer does not rebuild upkeep decisions; worlds now come from the real
    game with the unseen cards dealt again)."""
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "brian-boru", seed=1)
    game = await play_first_legal(svc, _pending("option"))
    before = game.to_json()
    seat = game.acting_seats()[0]
    user = _user(await svc.table(CH), seat)
    assert (await svc.act(CH, user, str(game.legal_actions(seat)[0]))).ok
    u = await svc.undo(CH, user)
    assert (u.ok, u.code) == (True, "ok"), u
    assert (await live(svc)).to_json() == before
    await _replay_equals_snapshot(svc, store)
    await store.close()


async def test_undo_brian_boru_upkeep_expansion_that_shows_something_is_refused_B22(tmp_path):
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "brian-boru", seed=1)
    game = await play_first_legal(svc, _pending("expand"))
    seat = game.acting_seats()[0]
    table = await svc.table(CH)
    user = _user(table, seat)
    assert (await svc.act(CH, user, str(game.legal_actions(seat)[0]))).ok
    version = (await store.get_match(1)).version
    u = await svc.undo(CH, user)
    for other in u.mentions if u.code == "undo_needs_agreement" else []:
        u = await svc.undo(CH, other)
    assert (u.ok, u.code) == (False, "undo_revealed"), u
    assert (await store.get_match(1)).version == version
    await store.close()


def test_brian_boru_resample_keeps_the_seat_view_and_deals_the_unseen_cards_again():
    from engine.brianboru import BrianBoruGame
    from engine.core import Rng
    from engine.players.brianboru import resample

    game = BrianBoruGame.new(["a", "b", "c"], seed=4)
    rng = Rng(9)
    changed = 0
    for _step in range(120):
        if game.is_over:
            break
        for seat in range(3):
            world = resample(game, seat, Rng(_step * 3 + seat))
            assert world.view(seat) == game.view(seat)  # consistent with what the seat sees
            real, drawn = game.to_json(), world.to_json()
            assert drawn["tasks"] == real["tasks"] and drawn["pending"] == real["pending"]
            changed += any(drawn[k] != real[k] for k in ("hand", "pile", "viking_deck", "marriage_stack"))
        acting = game.acting_seats()[0]
        game.apply(acting, rng.choice(game.legal_actions(acting)))
    assert changed > 100  # the hidden cards really are dealt again


async def test_undo_after_a_computer_player_moved_needs_no_agreement(tmp_path):
    """A computer player cannot press a button: it agrees by itself, and its moves since go back too."""
    from bot.host.seats import add_bot, play_bots

    svc, store = await open_service(tmp_path / "db.sqlite")
    assert (await svc.join(CH, "ann", "Ann", game="vikings")).ok
    assert (await add_bot(svc, CH, "random")).ok
    assert (await svc.start(CH, "ann", "vikings", [], seed=3, start_seat=0)).ok
    assert (await svc.act(CH, "ann", "buy 1")).ok
    before = (await live(svc)).to_json()
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert await play_bots(svc, CH)  # the computer player moved since
    u = await svc.undo(CH, "ann")
    assert (u.ok, u.code) == (True, "ok"), u  # it never waits for the computer's agreement
    assert [a.action for a in await store.actions(1)][-1] == "#undo 5"  # Ann's 2, the computer's 3
    assert (await live(svc)).to_json() == before
    await _replay_equals_snapshot(svc, store)
    await store.close()


async def test_status_shows_a_standing_undo_request_and_who_must_agree(tmp_path):
    """A player who opens /status while an undo waits sees it, and whom it waits for; once
    agreed (or once the table moves on) the line is gone."""
    svc, store = await open_service(tmp_path / "db.sqlite")
    await start_game(svc, "vikings", seed=3)
    assert (await svc.act(CH, "ann", "buy 1")).ok
    assert (await svc.act(CH, "ann", "start W1")).ok
    assert (await svc.act(CH, "bob", "buy 0")).ok
    assert "asks to take back" not in "\n".join((await svc.status(CH)).public)
    u = await svc.undo(CH, "ann")
    assert u.code == "undo_needs_agreement", u
    said = "\n".join((await svc.status(CH)).public)
    assert "Ann asks to take back the last 3 moves; waiting for Bob to agree (/table undo)." in said, said
    assert (await svc.undo(CH, "bob")).code == "ok"
    assert "asks to take back" not in "\n".join((await svc.status(CH)).public)
    await store.close()


async def test_a_request_for_a_computer_players_seat_names_it_without_a_possessive(tmp_path):
    """QA: "Ragnar (computer, heuristic)'s homeland" — a possessive after a computer player's name
    reads badly; the take-over lines say "the seat of NAME"."""
    from bot.host.seats import add_bot

    svc, store = await open_service(tmp_path / "db.sqlite")
    assert (await svc.join(CH, "ann", "Ann", game="vikings")).ok
    assert (await add_bot(svc, CH, "normal")).ok
    assert (await svc.start(CH, "ann", "vikings", [], seed=3, start_seat=0)).ok
    r = await svc.command(CH, "zed", "/replace Ragnar (computer, normal) me")
    assert r.ok and r.public[0].startswith(
        "Request: zed (who asked) to play the seat of Ragnar (computer, normal) (0/1 votes"), r
    assert "'s" not in r.public[0]
    st = await svc.status(CH)
    assert any(line.startswith("Request to give the seat of Ragnar (computer, normal) to zed") for line in st.public)
    r = await svc.command(CH, "ann", "/replace Ragnar (computer, normal) yes")
    assert r.ok and "zed (who asked) now plays the seat of Ragnar (computer, normal);" in r.public[0], r
    r = await svc.command(CH, "ann", "/replace Ragnar (computer, normal) me")
    assert r.code == "already_seated", r
    await store.close()


def test_the_level_option_takes_old_names_and_stores_the_new_one():
    """Issue 30: level:heuristic and level:search still start a table (stored as normal and hard); a
    table stored with the old name reads it as the new one; an unknown level is refused by name."""
    from bot.games import OptionError, host_options, split_option_words

    assert split_option_words(["level:heuristic"]) == ([], {"level": "normal"})
    assert split_option_words(["Level:Search", "advanced"]) == (["advanced"], {"level": "hard"})
    assert split_option_words(["level:easy"]) == ([], {"level": "easy"})
    assert host_options({})["level"] == "normal"  # the default
    assert host_options({"host": {"level": "search"}})["level"] == "hard"  # stored before issue 30
    with pytest.raises(OptionError, match="no computer level “montecarlo”. Levels: random, easy, normal, hard"):
        split_option_words(["level:montecarlo"])
