"""The Discord command tree and components stay within Discord's limits, and widgets work.

The tree is checked twice with tests/fakediscord/limits.py: as discord.py builds it
(``tree.get_commands()``), and as it reaches Discord when synced (the JSON the fake received,
including the translations the Translator adds). Widgets (bot.games.widgets) are checked as data and
through the fake: an adapter's own multi-select, and the private "make your choice" button
when several seats decide at once (the toy game's ``ready`` option).
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot import i18n
from bot.config import Config
from bot.discord.app import MeadhallBot
from bot.discord.cog import MeadhallCog
from bot.discord.commands.moves import takes_argument, verb_commands
from bot.discord.components import build_view
from bot.discord.languages import language_for
from bot.discord.publishing.messages import split_content
from bot.games import GameRegistry
from bot.games.registry import default_registry
from bot.games.vikings import VikingsAdapter
from bot.games.widgets import Widget, default_widgets, fill, widgets_for
from bot.host.service import HOST_COMMANDS, HostService
from bot.i18n import catalogs
from bot.storage import Storage
from engine.vikings import VikingsGame
from tests.fakediscord import FakeDiscord, check_commands, check_message
from tests.toygame import ToyAdapter, ToyGame

HOST = {"join", "leave", "start", "board", "rules", "help", "hand", "table", "move", "records", "hint"}  # hint: issue 25
TABLE = {"abandon", "status", "export", "addbot", "undo", "replace", "settings", "resume"}  # under /table (settings: issue 25; resume: issue 29)
RECORDS = {"leaderboard", "profile", "history", "replay", "recap", "analysis"}  # under /records (issues 17, 25, 31)


async def offline_tree(tmp_path: Path, registry: GameRegistry) -> tuple[MeadhallBot, Storage]:
    store = await Storage.open(tmp_path / "tree.db")
    bot = MeadhallBot(Config(), HostService(store, registry))
    bot.cog = MeadhallCog(bot)
    await bot.add_cog(bot.cog)
    return bot, store


async def test_command_tree_as_built_passes_discords_limits(tmp_path):
    bot, store = await offline_tree(tmp_path, default_registry())
    try:
        payload = [c.to_dict(bot.tree) for c in bot.tree.get_commands()]
    finally:
        await store.close()
    assert check_commands(payload) == []
    by_name = {c["name"]: c for c in payload}
    # issue 13: at most 15 top-level commands, the Vikings verbs kept, the rest grouped
    assert set(by_name) == HOST | {"buy", "place", "sail", "exchange"} and len(by_name) <= 15
    assert {o["name"] for o in by_name["table"]["options"]} == TABLE
    assert {o["name"] for o in by_name["records"]["options"]} == RECORDS
    assert not {"play", "pass", "free", "option", "extra"} & set(by_name)  # names other bots use
    for c in payload:  # servers only, never DMs
        assert c["contexts"] == [0] and c["dm_permission"] is False, c["name"]
    # every option: autocomplete or fixed choices (a boolean is two), and a description
    options = [o for c in payload for o in c.get("options", []) if o["type"] not in (1, 2)]
    options += [o for c in payload for sub in c.get("options", []) if sub["type"] == 1 for o in sub.get("options", [])]
    for o in options:
        # a boolean is two choices; a member (6) is Discord's own member picker
        assert o.get("autocomplete") or o.get("choices") or o["type"] in (5, 6), o
        assert o["description"] and o["description"] != "…", o
    [choice] = by_name["buy"]["options"]
    assert (choice["name"], choice["type"], choice["required"], choice["autocomplete"]) == ("choice", 3, True, True)
    [move] = by_name["move"]["options"]
    assert move["autocomplete"] and move["required"]
    join_game = by_name["join"]["options"][0]
    assert join_game["autocomplete"] and not join_game["required"]
    assert [o["name"] for o in by_name["start"]["options"]] == ["game", "options", "language"]
    # issue 16: the table's language is one of ours, each named in itself
    [language] = [o for o in by_name["start"]["options"] if o["name"] == "language"]
    assert [(c["name"], c["value"]) for c in language["choices"]] == [
        ("English", "en"), ("Polski", "pl"), ("Suomi", "fi"), ("Čeština", "cs"), ("Español", "es"), ("Deutsch", "de")]
    assert all(len(c["description"]) <= 100 for c in payload)


async def test_synced_json_with_translations_passes_discords_limits(tmp_path):
    """Through the Translator: a German catalog adds localizations, which must obey the limits too."""
    locale = tmp_path / "locale"
    po = locale / "de" / "LC_MESSAGES" / "meadhall.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "Show the table as an image"\nmsgstr "Zeigt den Tisch als Bild"\n\n'
                  'msgid "board"\nmsgstr "tisch"\n\n'
                  'msgid "{games} move: {word} (pick one of the offered moves)"\n'
                  'msgstr "Zug in {games}: {word} (einen der angebotenen wählen)"\n', encoding="utf-8")
    catalogs.compile_po(po, po.with_suffix(".mo"))
    i18n.set_locale_dir(locale)
    try:
        assert language_for(discord.Locale.german) == "de" and language_for("en-US") is None
        assert language_for(discord.Locale.japanese) is None  # no catalog: Discord shows English
        async with FakeDiscord() as fd:
            store = await Storage.open(tmp_path / "sync.db")
            bot = MeadhallBot(Config(dev_guild=fd.guild_id), HostService(store, default_registry()))
            try:
                await fd.start_bot(bot)
                [(guild, sent)] = fd.sync_log
                assert guild == fd.guild_id
                assert check_commands(sent) == []
                board = next(c for c in sent if c["name"] == "board")
                assert board["name_localizations"] == {"de": "tisch"}
                assert board["description_localizations"] == {"de": "Zeigt den Tisch als Bild"}
                sail = next(c for c in sent if c["name"] == "sail")
                assert sail["description"] == "Vikings move: sail (pick one of the offered moves)"
                assert sail["description_localizations"] == {"de": "Zug in Vikings: sail (einen der angebotenen wählen)"}
                assert "de" not in next(c for c in sent if c["name"] == "join")["description_localizations"]
                # the same tree as discord.py holds it
                local = [c.to_dict(bot.tree) for c in bot.tree.get_commands(guild=discord.Object(fd.guild_id))]
                assert check_commands(local) == [] and len(local) == len(sent)
            finally:
                await fd.stop_bot(bot)
                await store.close()
    finally:
        i18n.set_locale_dir(None)


async def test_a_verb_keeps_its_typed_name_when_a_catalog_translates_the_same_word(tmp_path):
    """Issue 16: a picture word ("free", "monastery") may share its msgid with a game's verb; the
    verb is a typed command (its prompts say /free), so only strings marked with T() are localized."""
    locale = tmp_path / "locale"
    po = locale / "pl" / "LC_MESSAGES" / "meadhall.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "free"\nmsgstr "za darmo"\n\nmsgid "monastery"\nmsgstr "Klasztor"\n\n'
                  'msgid "board"\nmsgstr "plansza"\n', encoding="utf-8")
    catalogs.compile_po(po, po.with_suffix(".mo"))
    i18n.set_locale_dir(locale)
    try:
        async with FakeDiscord() as fd:
            store = await Storage.open(tmp_path / "sync.db")
            bot = MeadhallBot(Config(dev_guild=fd.guild_id), HostService(store, default_registry()))
            try:
                await fd.start_bot(bot)
                [(_guild, sent)] = fd.sync_log
                assert check_commands(sent) == []
                by_name = {c["name"]: c for c in sent}
                # issue 13: /free and /monastery are moves of /move now, whose words are never localized
                assert "free" not in by_name and "monastery" not in by_name
                assert not by_name["move"].get("name_localizations")
                assert not by_name["sail"].get("name_localizations")
                assert by_name["board"]["name_localizations"] == {"pl": "plansza"}
            finally:
                await fd.stop_bot(bot)
                await store.close()
    finally:
        i18n.set_locale_dir(None)


def test_verbs_of_several_games_are_united_and_host_words_kept_apart(caplog):
    class Clash(ToyAdapter):
        verbs = {"take": "take", "start": "take", "buy": "take"}

    clash = Clash()
    clash.game_cls = type("ClashGame", (ToyGame,), {"GAME_ID": "clash"})
    registry = GameRegistry([VikingsAdapter(), clash])
    united = verb_commands(registry)
    assert [a.title for a in united["buy"]] == ["Vikings", "Take-away"]
    assert "start" not in united and "start" in HOST_COMMANDS
    assert set(united) == {"buy", "place", "sail", "exchange"}  # other verbs are moves of /move (issue 13)
    assert "collides with a host command" in caplog.text
    assert not takes_argument("pass", [VikingsAdapter()])
    assert takes_argument("sail", [VikingsAdapter()]) and takes_argument("take", [ToyAdapter()])
    assert not takes_argument("taunt", [ToyAdapter()])


# --------------------------------------------------------------------------- widgets as data


def test_default_widgets_are_buttons_then_a_select_then_pages():
    adapter = VikingsAdapter()
    game = VikingsGame.new(["a", "b"], seed=1)
    seat = game.acting_seats()[0]
    [select] = default_widgets(adapter, game, seat)  # 12 combos on the wheel: a select
    assert select.kind == "select" and len(select.options) == len(game.legal_actions(seat))
    assert select.options[0] == (adapter.describe_action(game, game.legal_actions(seat)[0]), "buy 0")
    game.apply(seat, "buy 1")
    [buttons] = widgets_for(adapter, game, game.acting_seats()[0])
    assert buttons.kind == "buttons" and all(v.startswith(("start ", "place ")) for _label, v in buttons.options)

    class Many(ToyAdapter):
        pass

    toy = ToyGame.new(["a", "b"], seed=1, options={"max": 60, "pile": 60})
    pages = default_widgets(Many(), toy, toy.acting_seats()[0])
    assert [len(w.options) for w in pages] == [25, 25, 10]
    view, complete = build_view(12, 3, pages)
    assert complete and [c.item.placeholder for c in view.children] == [
        "Choose your move (1/3)", "Choose your move (2/3)", "Choose your move (3/3)"]
    assert check_message({"components": view.to_components()}) == []


def test_widget_templates_and_refusals():
    keep = Widget("multiselect", [("Harp 7", "h7"), ("Sword 3", "s3"), ("Ship 9", "p9")],
                  min_values=2, max_values=2, template="keep {0} {1}")
    assert keep.action(["p9", "h7"]) == "keep h7 p9"  # in the order offered, not clicked
    with pytest.raises(ValueError, match="choose 2..2"):
        keep.action(["h7"])
    with pytest.raises(ValueError, match="not offered"):
        keep.action(["h7", "x1"])
    assert fill("take {all}", ["1", "2"]) == "take 1 2"
    with pytest.raises(ValueError, match="does not fit"):
        fill("keep {0} {1}", ["h7"])
    with pytest.raises(ValueError, match="kind"):
        Widget("dial", [("a", "a")])
    with pytest.raises(ValueError, match="at least one"):
        Widget("buttons", [])
    with pytest.raises(ValueError, match="repeat"):
        Widget("select", [("a", "x"), ("b", "x")])
    with pytest.raises(ValueError, match="exactly one"):
        Widget("select", [("a", "x")], max_values=2)
    with pytest.raises(ValueError, match="exceeds"):
        Widget("multiselect", [("a", "x")], max_values=2)


def test_views_stay_within_five_rows_and_short_custom_ids():
    six_rows = [Widget("buttons", [(f"b{i}", f"take {i}")]) for i in range(6)]
    view, complete = build_view(1, 1, six_rows)
    assert not complete and len(view.children) == 5
    long_text = "swap " + "x" * 95  # too long for a button's custom id: shown as a select
    view, complete = build_view(123456, 789, [Widget("buttons", [("long", long_text)])])
    [select] = view.children
    assert complete and isinstance(select.item, discord.ui.Select)
    assert select.custom_id == "mh:123456:789:s0:{0}"
    data = {"components": view.to_components()}
    assert check_message(data) == []
    view, complete = build_view(1, 1, [Widget("select", [("x", "y" * 101)])])  # a value over 100
    assert view is None and not complete


def test_long_replies_are_split_at_lines():
    lines = [f"line {i} " + "x" * 90 for i in range(50)]
    chunks = split_content(lines)
    assert all(len(c) <= 2000 for c in chunks) and "\n".join(chunks) == "\n".join(lines)
    assert split_content(["y" * 4500]) == ["y" * 2000, "y" * 2000, "y" * 500]
    assert split_content([]) == []


# --------------------------------------------------------------------------- widgets through Discord


class PickAdapter(ToyAdapter):
    """The toy with its own widget: a multi-select whose template joins the picked values."""

    def widgets(self, game, seat):
        if game.acting_seats() and game._d["waiting"]:
            return None  # the default: a "ready" button
        return [Widget("multiselect", [("one stone", "1"), ("two stones", "2"), ("three stones", "3")],
                       placeholder="How many stones?", min_values=1, max_values=2, template="take {all}")]


async def test_adapter_widgets_and_simultaneous_choices_through_discord(tmp_path):
    async with FakeDiscord() as fd:
        store = await Storage.open(tmp_path / "toy.db")
        svc = HostService(store, GameRegistry([PickAdapter()]), seed_source=lambda: 5)
        bot = MeadhallBot(Config(dev_guild=fd.guild_id, threads=False), svc)
        try:
            await fd.start_bot(bot)
            await fd.slash("alice", "join")
            await fd.slash("bob", "join")
            r = await fd.slash("alice", "start", {"options": "ready pile=9"})
            [msg] = r.public_messages
            # both must say ready: one public button, each presser gets their own choices privately
            assert sorted(msg.pinged) == sorted([fd.users["alice"].id, fd.users["bob"].id])
            [choose] = msg.custom_ids
            assert choose.endswith(":0:me")
            r = await fd.click("carol", choose)
            assert r.ephemeral and "not a player" in r.text
            r = await fd.click("alice", choose)
            [mine] = r.ephemeral_messages
            assert mine.content == "say ready\npile: 9" and mine.visible_to == fd.users["alice"].id
            [ready_button] = mine.custom_ids
            r = await fd.click("alice", ready_button, message=mine)
            # one live message: alice's choice edits it ("waiting for" bob), her private one says done
            assert "alice is ready" in msg.content and not [m for m in r.messages if m.public] and created(r) == []
            assert mine.content == "Done." and mine.custom_ids == [] and msg.notified == sorted(msg.notified)
            assert choose not in msg.custom_ids  # the old version's control is gone from it
            r = await fd.slash("bob", "move", {"choice": "take ready"})  # typed: "take ready" is no move
            assert r.ephemeral and "cannot read" in r.text
            # only bob must still say ready: his button is public now, beside the free actions' select
            [bobs] = [c for c in msg.custom_ids if ":b:" in c]
            [free] = [c for c in msg.custom_ids if ":s" in c]
            assert [o["value"] for o in msg.component(free)["options"]] == ["taunt"]
            r = await fd.click("alice", bobs, message=msg)
            assert r.ephemeral and "not your turn" in r.text
            r = await fd.click("bob", bobs, message=msg)
            [board] = created(r)  # the player to act changes: a new message, the old one loses its controls
            assert "bob is ready" in board.content and msg.custom_ids == []
            # now one player takes turns: the adapter's multi-select
            [pick, _free] = board.custom_ids
            comp = board.component(pick)
            assert (comp["type"], comp["min_values"], comp["max_values"]) == (3, 1, 2)
            assert comp["placeholder"] == "How many stones?" and pick.endswith(":s0:take {all}")
            actor = next(n for n, u in fd.users.items() if u.id == board.mentions[0])
            r = await fd.select(actor, pick, ["1", "3"], message=board)  # "take 1 3" is no move
            assert r.ephemeral and "cannot read" in r.text
            r = await fd.select(actor, pick, ["2"], message=board)
            [turn] = created(r)  # the other player's turn
            assert "takes 2 (7 left)" in turn.content and board.custom_ids == []  # the made decision's select is gone
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_global_sync_only_when_asked(tmp_path):
    async with FakeDiscord() as fd:
        store = await Storage.open(tmp_path / "global.db")
        try:
            bot = MeadhallBot(Config(dev_guild=None), HostService(store, default_registry()), sync_global=True)
            await fd.start_bot(bot)
            [(guild, sent)] = fd.sync_log
            assert guild is None and check_commands(sent) == []
            assert {c["name"] for c in fd.synced(guild=False)} >= HOST
            await fd.stop_bot(bot)
            bot = MeadhallBot(Config(dev_guild=None), HostService(store, default_registry()))
            await fd.start_bot(bot)  # neither a dev guild nor the flag: nothing is synced
            assert len(fd.sync_log) == 1
            await fd.stop_bot(bot)
        finally:
            await store.close()


class SecretAdapter(ToyAdapter):
    """The toy as if its choices showed hidden cards (like Brian Boru's hands)."""

    def private_choices(self, game, seat):
        return seat in game.acting_seats()

    def private_text(self, game, seat):
        return f"secret of seat {seat}"

    def private_image(self, game, seat):
        return f"HAND seat={seat}".encode()


async def test_hidden_choices_are_offered_privately_only(tmp_path):
    async with FakeDiscord() as fd:
        store = await Storage.open(tmp_path / "secret.db")
        svc = HostService(store, GameRegistry([SecretAdapter()]), seed_source=lambda: 5)
        bot = MeadhallBot(Config(dev_guild=fd.guild_id, threads=False), svc)
        try:
            await fd.start_bot(bot)
            await fd.slash("alice", "join")
            await fd.slash("bob", "join")
            await refused_privately(fd, "alice", "hand", "no game running")
            r = await fd.slash("alice", "start", {"options": "pile=9"})
            [msg] = r.public_messages
            [actor_id] = msg.pinged
            actor = next(n for n, u in fd.users.items() if u.id == actor_id)
            other = "bob" if actor == "alice" else "alice"
            [me] = msg.custom_ids  # nothing but the private-choices button in the channel
            assert me.endswith(":0:me") and "secret" not in msg.content
            r = await fd.click(actor, me)
            [mine] = r.ephemeral_messages
            assert "secret of seat" in mine.content and mine.content.startswith("take 1–3 stones")
            assert mine.attachments[0].data.startswith(b"HAND seat=")
            assert len(mine.custom_ids) == 3 and r.public_messages == []
            r = await fd.click(other, me)
            assert r.ephemeral and "nothing to decide" in r.text
            r = await fd.slash(other, "hand")  # looking is always allowed: no choices when not acting
            [theirs] = r.ephemeral_messages
            assert theirs.content.startswith("secret of seat") and theirs.custom_ids == []
            await refused_privately(fd, "carol", "hand", "not a player")
            take_two = next(c for c in mine.custom_ids if c.endswith(":b:take 2"))
            # the other player's unrelated free action moves the table on; the private pick still counts
            r = await fd.slash(other, "move", {"choice": "taunt"})
            assert not r.ephemeral_messages or r.ephemeral_messages[0].content == "Done.", r.text
            r = await fd.click(actor, take_two, message=mine)
            [public] = created(r)
            assert "takes 2 (7 left)" in public.content and public.pinged == [fd.users[other].id]
            assert [c[-3:] for c in public.custom_ids] == [":me"] and msg.custom_ids == []
            assert mine.content == "Done." and mine.custom_ids == []
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def refused_privately(fd: FakeDiscord, user: str, command: str, words: str) -> None:
    r = await fd.slash(user, command)
    assert r.ephemeral and r.public_messages == [] and words in r.text, r.text


async def test_brian_boru_draft_is_a_private_multiselect_of_two_cards(tmp_path):
    """Brian Boru's adapter brings its own widget (keep exactly 2 cards) and hidden hands."""
    pytest.importorskip("bot.games.brianboru")
    async with FakeDiscord() as fd:
        store = await Storage.open(tmp_path / "bb.db")
        svc = HostService(store, default_registry(), seed_source=lambda: 3)
        bot = MeadhallBot(Config(dev_guild=fd.guild_id, threads=False), svc)
        try:
            await fd.start_bot(bot)
            for name in ("alice", "bob", "carol"):
                await fd.slash(name, "join", {"game": "brian-boru"})
            r = await fd.slash("alice", "start")
            msg = r.public_messages[-1]
            while not msg.custom_ids[0].endswith(":me"):  # placing start discs: public selects (pages)
                [actor] = msg.pinged
                selects = [c for row in msg.components for c in row["components"] if c["type"] == 3]
                assert selects and all(len(s["options"]) <= 25 for s in selects)
                user = next(n for n, u in fd.users.items() if u.id == actor)
                r = await fd.select(user, selects[0]["custom_id"], [selects[0]["options"][0]["value"]],
                                    message=msg)
                assert not r.ephemeral, r.text
                msg = created(r)[-1] if created(r) else msg
            # the draft: everybody decides at once and sees only their own cards
            # all three are named; the one who just placed (already the one to act) is not pinged again
            assert len(msg.mentions) == 3 and len(msg.pinged) == 2 and len(msg.custom_ids) == 1
            r = await fd.click("bob", msg.custom_ids[0])
            [mine] = r.ephemeral_messages
            [keep] = mine.custom_ids
            comp = mine.component(keep)
            assert (comp["type"], comp["min_values"], comp["max_values"]) == (3, 2, 2)
            assert keep.endswith(":keep {0} {1}") and mine.attachments[0].is_png
            values = [o["value"] for o in comp["options"][:2]]
            before = [(a.id, a.data) for a in msg.attachments]
            r = await fd.select("bob", keep, values, message=mine)
            assert created(r) == [] and mine.content == "Done."  # the draft is one message, edited
            assert "bob has chosen two cards." in msg.content  # which ones stays hidden
            after = [(a.id, a.data) for a in msg.attachments]
            assert after == before or after[0][1] != before[0][1]  # a picture is sent again only if it changed
            again = await fd.click("bob", msg.custom_ids[0])
            assert again.ephemeral and "nothing to decide" in again.text
        finally:
            await fd.stop_bot(bot)
            await store.close()
        assert fd.internal_errors == [] and fd.unhandled == []


async def test_private_lines_of_a_public_success_reach_only_the_actor(tmp_path):
    class Whispering(HostService):
        async def status(self, channel):
            reply = await super().status(channel)
            reply.private.append("only for you")
            return reply

    async with FakeDiscord() as fd:
        store = await Storage.open(tmp_path / "whisper.db")
        bot = MeadhallBot(Config(dev_guild=fd.guild_id), Whispering(store, GameRegistry([ToyAdapter()])))
        try:
            await fd.start_bot(bot)
            r = await fd.slash("alice", "table status")
            [public] = r.public_messages
            [private] = r.ephemeral_messages
            assert "no table" in public.content and "only for you" not in public.content
            assert private.content == "only for you" and private.visible_to == fd.users["alice"].id
        finally:
            await fd.stop_bot(bot)
            await store.close()


def created(r) -> list:
    """The public messages an interaction created or posted (issue 13: only when who acts changes)."""
    return [m for m in r.public_messages]


def test_the_discord_package_has_no_import_circle():
    """bot/discord/: login ← threads ← sync ← permissions ← refusals ← languages ← components ← client ← publishing ←
    replaying (issue 25) ← commands ← cog ← lifecycle (issue 29) ← app, each importing only earlier ones (issues 13, 23: the Cog no longer names
    the app, not even for a type); bot.games.widgets stays outside, transport-neutral."""
    import ast

    order = ["login", "threads", "sync", "permissions", "refusals", "languages", "components", "client", "publishing",
             "replaying", "commands", "cog", "lifecycle", "app"]
    root = Path(__file__).resolve().parents[2] / "bot" / "discord"
    assert (root / "__init__.py").exists()
    init = ast.parse((root / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in init.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert {p.stem for p in root.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()} == {*order, "__init__"}
    for i, name in enumerate(order):
        files = [root / f"{name}.py"] if (root / f"{name}.py").exists() else sorted((root / name).glob("*.py"))
        used: set[str] = set()
        for path in files:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            used |= {n.module.split(".")[2] for n in ast.walk(tree)
                     if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("bot.discord.")}
        later = used - set(order[:i]) - {name}
        assert not later, f"bot.discord.{name} imports {later}"
