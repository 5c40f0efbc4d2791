"""Issue 25 on Discord: ``/records replay ID`` answers privately with a finished game's first
position, and First / Back / Next / Last and the jump to a round edit that private message in place;
the buttons keep working after a restart of the bot on the same database; refusals (unknown game,
another server's, an unfinished one, a deleted one, a damaged button) are private sentences."""

from __future__ import annotations

from pathlib import Path

from bot.discord.replaying import content
from bot.games.registry import default_registry
from bot.host.service import HostService, Reply
from bot.storage import Storage
from tests.discord.test_discord_e2e import Host, refused
from tests.fakediscord import FakeDiscord, InteractionResult, Message


async def finish_game(fd: FakeDiscord, path: Path, game: str, *, seed: int = 7, players=("alice", "bob"),
                      guild: int | None = None, channel: int | None = None, until_over: bool = True) -> int:
    """Play a game of ``players`` in a channel of the fake guild on the database ``path`` (through the
    host service, each seat taking its first legal move; no pictures): finished, or only started."""
    store = await Storage.open(path)
    try:
        svc = HostService(store, default_registry(), images=False)
        key, gid = str(channel or fd.channel.id), str(guild or fd.guild_id)
        for i, name in enumerate(players):
            assert (await svc.join(key, str(fd.users[name].id), name, guild=gid, game=game if i == 0 else None)).ok
        r = await svc.start(key, str(fd.users[players[0]].id), game, [], seed=seed, start_seat=0)
        assert r.ok, r
        while until_over and (table := await svc.table(key)) is not None:
            seat = table.game.acting_seats()[0]
            r = await svc.act(key, table.record.seats[seat].user, str(table.game.legal_actions(seat)[0]))
            assert r.ok, r
        return r.match_id
    finally:
        await store.close()


def shown(msg: Message) -> tuple[str, list[str], bytes]:
    """What the replay message shows: its text, its controls and its picture."""
    [png] = msg.attachments
    assert png.is_png and png.filename.startswith("replay-")
    return msg.content, msg.custom_ids, png.data


def disabled(msg: Message) -> set[str]:
    return {cid.rsplit(":", 1)[1] for cid in msg.custom_ids if (msg.component(cid) or {}).get("disabled")}


def edited_in_place(r: InteractionResult, msg: Message) -> None:
    """The press was answered by editing the replay message itself (type 7), nothing new posted."""
    assert r.callback_type == 7 and r.edited == [msg] and r.messages == [], (r.callback_type, r.text)


async def test_replay_steps_through_a_finished_vikings_game_and_survives_a_restart(tmp_path):
    async with FakeDiscord() as fd:
        path = tmp_path / "replay.db"
        match = await finish_game(fd, path, "vikings")
        host = Host(fd, path)
        await host.start()
        try:
            steps = len(await host.store.actions(match))
            rounds = dict((await host.svc.replay_position(match, guild=str(fd.guild_id))).position.rounds)
            assert sorted(rounds) == [1, 2, 3, 4, 5, 6]  # V-4: six rounds to jump to
            # carol did not play: any member of the server may watch a finished game, privately
            r = await fd.slash("carol", "records replay", {"id": match})
            [msg] = r.messages
            assert r.callback_type == 4 and r.ephemeral and msg.visible_to == fd.users["carol"].id
            text, ids, first_png = shown(msg)
            assert f"Replay of game {match} (Vikings)." in text and f"Step 0 of {steps} · round 1" in text, text
            assert "Next tile stack, face down (round 2)" in text and "drawn from the bag" in text  # V-6, V-1
            assert ids == [f"mh:replay:{match}:0:first", f"mh:replay:{match}:0:back", f"mh:replay:{match}:0:next",
                           f"mh:replay:{match}:0:last", f"mh:replay-round:{match}:0"]
            assert disabled(msg) == {"first", "back"}
            # Next: the same message, now step 1, who moved and what, another picture
            r = await fd.click("carol", f"mh:replay:{match}:0:next", message=msg)
            edited_in_place(r, msg)
            text, ids, png = shown(msg)
            assert f"Step 1 of {steps} · round 1 · alice: 1: " in text and "alice buys the" in text, text
            assert png != first_png and ids[0] == f"mh:replay:{match}:1:first" and disabled(msg) == set()
            # Last: the final scoring, nothing further
            r = await fd.click("carol", f"mh:replay:{match}:1:last", message=msg)
            edited_in_place(r, msg)
            assert f"Step {steps} of {steps} · round 6" in msg.content and "Final standings" in msg.content
            assert disabled(msg) == {"next", "last"}
            # Back, then the jump to round 3 (its first position), then First
            r = await fd.click("carol", f"mh:replay:{match}:{steps}:back", message=msg)
            edited_in_place(r, msg)
            assert f"Step {steps - 1} of {steps}" in msg.content
            r = await fd.select("carol", f"mh:replay-round:{match}:{steps - 1}", [str(rounds[3])], message=msg)
            edited_in_place(r, msg)
            assert f"Step {rounds[3]} of {steps} · round 3" in msg.content and "Round 3 of 6 begins" in msg.content
            r = await fd.click("carol", f"mh:replay:{match}:{rounds[3]}:first", message=msg)
            edited_in_place(r, msg)
            assert f"Step 0 of {steps} · round 1 · the set-up, before the first move" in msg.content
            assert shown(msg)[2] == first_png and disabled(msg) == {"first", "back"}  # the same position again
            # a restart on the same database: the old message's buttons still work
            await host.restart()
            r = await fd.click("carol", f"mh:replay:{match}:0:next", message=msg)
            edited_in_place(r, msg)
            assert f"Step 1 of {steps}" in msg.content
            # /help says how to find it
            [embed] = (await fd.slash("carol", "help")).ephemeral_messages[0].embeds
            [field] = [f for f in embed["fields"] if f["name"] == "Replays"]
            assert "/records replay ID" in field["value"]
            # nothing was ever posted in public
            assert not [m for m in fd.messages(fd.channel) if m.public and "Replay" in m.content]
        finally:
            await host.stop()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_replay_of_brian_boru_shows_hands_and_jumps_to_its_rounds(tmp_path):
    """B-14: hands are hidden while a game runs; its replay shows them once it is over."""
    async with FakeDiscord() as fd:
        path = tmp_path / "replay.db"
        match = await finish_game(fd, path, "brian-boru", players=("alice", "bob", "carol"))
        host = Host(fd, path)
        await host.start()
        try:
            rounds = dict((await host.svc.replay_position(match, guild=str(fd.guild_id))).position.rounds)
            assert sorted(rounds) == [1, 2, 3]  # three players: three rounds
            r = await fd.slash("dave", "records replay", {"id": match})
            [msg] = r.messages
            assert "before the first round" in msg.content and "Marriage cards still in the stack" in msg.content
            [select] = [c for row in msg.components for c in row["components"] if c["type"] == 3]
            assert [(o["label"], o["value"]) for o in select["options"]] == [
                (f"Round {n}", str(rounds[n])) for n in (1, 2, 3)]
            r = await fd.select("dave", f"mh:replay-round:{match}:0", [str(rounds[2])], message=msg)
            edited_in_place(r, msg)
            assert "round 2" in msg.content and "In front of alice in the draft:" in msg.content, msg.content
            r = await fd.click("dave", f"mh:replay:{match}:{rounds[2]}:next", message=msg)
            edited_in_place(r, msg)
            for name in ("alice", "bob", "carol"):  # the draft goes on: hands and what lies in front
                assert f"In front of {name} in the draft:" in msg.content
        finally:
            await host.stop()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_replay_refusals_are_private_and_change_nothing(tmp_path):
    async with FakeDiscord() as fd:
        path = tmp_path / "replay.db"
        match = await finish_game(fd, path, "vikings")
        other = fd.add_guild("Other Hall", ["hall"])
        theirs = await finish_game(fd, path, "vikings", guild=other.id, channel=fd.channels["hall"].id, seed=8)
        running = await finish_game(fd, path, "vikings", channel=fd.channels["tavern"].id, until_over=False)
        host = Host(fd, path)
        await host.start()
        try:
            # an unknown game, and another server's finished game: the same sentence (nothing of it shows)
            assert await refused(await fd.slash("carol", "records replay", {"id": 99})) == (
                "There is no game 99 of this server to replay.")
            assert await refused(await fd.slash("carol", "records replay", {"id": theirs})) == (
                f"There is no game {theirs} of this server to replay.")
            text = await refused(await fd.slash("alice", "records replay", {"id": running}), "not finished")
            assert str(running) in text and "Step" not in text
            # the autocomplete offers this server's finished games only
            offered = await fd.autocomplete("carol", "records replay", "id", "")
            assert [c["value"] for c in offered] == [match]
            # a damaged button (its step is not a number) and a damaged round choice: told, never ignored
            r = await fd.slash("carol", "records replay", {"id": match})
            [msg] = r.messages
            before = msg.content
            for row in msg.components:
                for comp in row["components"]:
                    if comp.get("custom_id", "").endswith(":next"):
                        comp["custom_id"] = f"mh:replay:{match}:x:next"
                    if comp["type"] == 3:
                        comp["options"][0]["value"] = "round one"
            await refused(await fd.click("carol", f"mh:replay:{match}:x:next", message=msg), "cannot be read")
            await refused(await fd.select("carol", f"mh:replay-round:{match}:0", ["round one"], message=msg),
                          "cannot be read")
            assert msg.content == before
            # what only the asker sees speaks their client's language (issue 16)
            fd.users["dave"].locale = "pl"
            r = await fd.slash("dave", "records replay", {"id": match})
            assert r.messages[0].content.startswith(f"Powtórka gry {match} (Vikings).\nKrok 0 z "), r.text
            assert await refused(await fd.slash("dave", "records replay", {"id": 99})) == (
                "Na tym serwerze nie ma gry 99 do powtórki.")
            # the game is gone (the bot now runs on another database): its buttons say so
            r = await fd.slash("carol", "records replay", {"id": match})
            [msg] = r.messages
            await host.stop()
            host.path = tmp_path / "empty.db"
            await host.start()
            await refused(await fd.click("carol", f"mh:replay:{match}:0:next", message=msg),
                          f"There is no game {match} of this server to replay.")
            assert "Step 0 of" in msg.content  # the replay message stays as it was
        finally:
            await host.stop()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_replay_refusal_of_a_running_game_is_the_same_whatever_it_hides(tmp_path):
    """Two Brian Boru games at their set-up, one seed apart: the same for everybody to see (B-11, B-12:
    the Viking and marriage stacks are face down), different underneath. Asking for a replay of either
    gets the same sentence."""
    async with FakeDiscord() as fd:
        answers, hidden, public = [], [], []
        for seed in (1, 2):
            path = tmp_path / f"running-{seed}.db"
            match = await finish_game(fd, path, "brian-boru", seed=seed, players=("alice", "bob", "carol"),
                                      until_over=False)
            host = Host(fd, path)
            await host.start()
            try:
                game = (await host.svc.table(str(fd.channel.id))).game
                hidden.append(game.to_json())
                public.append(game.view(None))
                answers.append(await refused(await fd.slash("dave", "records replay", {"id": match})))
            finally:
                await host.stop()
        assert hidden[0] != hidden[1] and public[0] == public[1]
        assert answers[0] == answers[1] == (
            "Game 1 is not finished: only a finished game can be replayed, since a replay shows everything "
            "that was hidden.")
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_replay_answers_after_a_defer_when_drawing_is_slow(tmp_path):
    """Over Discord's 3 s the command is deferred privately ("thinking…") and a press silently
    (DEFERRED_UPDATE_MESSAGE); the position then replaces the one shown, in the same message."""
    async with FakeDiscord() as fd:
        path = tmp_path / "replay.db"
        match = await finish_game(fd, path, "vikings")
        host = Host(fd, path)
        host.bot_kw["defer_after"] = 0.0  # every answer counts as slow
        await host.start()
        try:
            r = await fd.slash("carol", "records replay", {"id": match})
            [msg] = r.messages
            assert r.callback_type == 5 and r.ephemeral and not msg.loading and "Step 0 of" in msg.content
            r = await fd.click("carol", f"mh:replay:{match}:0:next", message=msg)
            assert r.callback_type == 6 and r.edited == [msg] and r.messages == []
            assert "Step 1 of" in msg.content and shown(msg)[1][0] == f"mh:replay:{match}:1:first"
        finally:
            await host.stop()
        assert fd.internal_errors == [] and fd.unhandled == []


def test_replay_message_fits_discord_keeping_every_line_s_beginning():
    """A replay is one message of at most 2,000 characters: the longest lines give way first."""
    lines = ["Replay of game 1 (Vikings).", "Step 9 of 99 · round 1 · *Ann*: buy 3", "Major scoring — " + "x" * 1500,
             "Hidden at this point (shown now that the game is over):", "Next tile stack: " + "y" * 900]
    text = content(Reply(private=lines, names=["*Ann*"]))
    assert len(text) <= 2000 and text.count("\n") == 4 and text.count("…") >= 1
    shown = text.split("\n")
    assert shown[0] == lines[0] and shown[1] == "Step 9 of 99 · round 1 · \\*Ann\\*: buy 3"  # the name escaped
    assert all(s.startswith(line[:16]) for s, line in zip(shown, lines, strict=True))
    assert content(Reply(private=lines[:2])) == "\n".join(lines[:2])  # short: as it is
