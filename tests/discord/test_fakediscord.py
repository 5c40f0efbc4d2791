"""The fake Discord, driven by a small real discord.py bot defined here.

These tests prove the end-to-end infrastructure (tests/fakediscord) that the meadhall bot's
own end-to-end tests stand on: the unmodified discord.py client logs in, syncs, answers slash
commands, autocomplete and components, and every byte it sends is recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re

import discord
import discord.gateway
import discord.http
import pytest
from aiohttp import ClientSession
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    EPHEMERAL,
    FakeDiscord,
    FakeDiscordError,
    InteractionNotAnswered,
    check_commands,
    check_message,
    limits,
    schema,
)
from tests.fakediscord.limits import MAX_CHOICES, MAX_CUSTOM_ID, MAX_LABEL, MAX_ROW_ITEMS, MAX_SELECT_OPTIONS
from tests.fakediscord.models import ATTACH_FILES, SEND_MESSAGES, VIEW_CHANNEL

GAME_LOG = "1. alice: buy B1\n2. bob: place C2 ☐\n".encode()
POSITIONS = {"B1": 2, "B2": 3, "B3": 4, "C1": 1, "C2": 5}


def board_png(colour: str = "navy") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(buf, format="PNG")
    return buf.getvalue()


class TurnView(discord.ui.View):
    """Persistent: the custom_ids are fixed, so a click after a restart still reaches a handler."""

    def __init__(self, bot: MiniBot):
        super().__init__(timeout=None)
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.bot.to_act:
            await interaction.response.send_message("It is not your turn.", ephemeral=True)
            return False
        return True

    @discord.ui.button(label="End turn", style=discord.ButtonStyle.primary, custom_id="e2e:end-turn")
    async def end_turn(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"{interaction.user.mention} ends the turn.")

    @discord.ui.button(label="Refresh", custom_id="e2e:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # on a component: "deferred update", no new message
        await interaction.edit_original_response(content="Board refreshed.")

    @discord.ui.select(
        custom_id="e2e:pick",
        options=[discord.SelectOption(label=p, value=p) for p in POSITIONS],
        min_values=1,
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"Picked {', '.join(select.values)}.")


class GameCog(commands.Cog):
    def __init__(self, bot: MiniBot):
        self.bot = bot

    @app_commands.command(name="hello", description="Say hello, only to you")
    @app_commands.describe(times="How many times")
    async def hello(self, interaction: discord.Interaction, times: app_commands.Range[int, 1, 3] = 1) -> None:
        await interaction.response.send_message(" ".join(["hello"] * times), ephemeral=True)

    @app_commands.command(name="board", description="Show the board and whose turn it is")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        self.bot.to_act = interaction.user.id
        await interaction.followup.send(
            f"{interaction.user.mention}, your turn.",
            file=discord.File(io.BytesIO(self.bot.png), filename="board.png"),
            view=TurnView(self.bot),
        )

    @app_commands.command(name="buy", description="Buy a position")
    @app_commands.describe(position="Which position")
    async def buy(self, interaction: discord.Interaction, position: str) -> None:
        await interaction.response.send_message(
            f"{interaction.user.mention} buys {position}.", allowed_mentions=discord.AllowedMentions(users=False)
        )

    @buy.autocomplete("position")
    async def buy_positions(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=f"{p} for {price} gold", value=p)
            for p, price in POSITIONS.items()
            if p.startswith(current.upper())
        ]

    @app_commands.command(name="hand", description="Your private view")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(
            content="Your hand.", attachments=[discord.File(io.BytesIO(self.bot.png), filename="hand.png")]
        )

    @app_commands.command(name="export", description="Post the game log as a file")
    async def export(self, interaction: discord.Interaction) -> None:
        log = discord.File(io.BytesIO(GAME_LOG), filename="game-log.txt")
        await interaction.response.send_message("The game log.", file=log)
        await interaction.channel.send(f"{interaction.user.mention} exported the log.")

    @app_commands.command(name="remind", description="Mention you again a little later")
    async def remind(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Reminder set.", ephemeral=True)
        channel, user = interaction.channel, interaction.user

        async def later() -> None:
            await asyncio.sleep(0.2)
            await channel.send(f"{user.mention}, it is still your turn.")

        self.bot.background.append(asyncio.create_task(later()))

    @app_commands.command(name="sail", description="Offers too many choices")
    async def sail(self, interaction: discord.Interaction, trip: str) -> None:
        await interaction.response.send_message(trip)

    @sail.autocomplete("trip")
    async def sail_trips(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"trip {i}", value=str(i)) for i in range(30)]

    @app_commands.command(name="slow", description="Answers after Discord gave up")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.5)
        with contextlib.suppress(discord.NotFound):
            await interaction.response.send_message("Too late.")

    @app_commands.command(name="oops", description="Defers publicly, then tries to answer privately")
    async def oops(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("Only you should see this.", ephemeral=True)

    @app_commands.command(name="silent", description="Never answers")
    async def silent(self, interaction: discord.Interaction) -> None:
        return None


class MiniBot(commands.Bot):
    def __init__(self, guild_id: int):
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.to_act: int | None = None
        self.png = board_png()
        self.heard: list[discord.Message] = []
        self.background: list[asyncio.Task[None]] = []

    async def on_message(self, message: discord.Message) -> None:
        self.heard.append(message)

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self))
        self.tree.copy_global_to(guild=discord.Object(self.guild_id))
        await self.tree.sync(guild=discord.Object(self.guild_id))
        self.add_view(TurnView(self))


@pytest.fixture
async def fd():
    async with FakeDiscord() as fake:
        bot = MiniBot(fake.guild_id)
        await fake.start_bot(bot)
        yield fake
        assert fake.internal_errors == []


async def test_login_ready_and_guild_sync_are_recorded(fd):
    bot = fd.bot
    assert bot.user.id == fd.bot_user.id
    guild = bot.get_guild(fd.guild_id)
    assert guild is not None and [c.name for c in guild.text_channels] == ["general", "tavern"]
    assert guild.get_member(fd.users["alice"].id) is None  # no members intent: only the bot is sent
    assert guild.me is not None and guild.owner_id == fd.owner.id
    login = fd.find_requests("GET", r"^/users/@me$")
    assert login and login[0].headers["Authorization"] == f"Bot {fd.token}"
    assert fd.find_requests("GET", r"^/oauth2/applications/@me$")
    assert fd.identify_payloads[0]["intents"] == discord.Intents.default().value
    # tree.sync(guild=...) sent one bulk overwrite whose JSON Discord would accept
    assert [g for g, _ in fd.sync_log] == [fd.guild_id]
    synced = {c["name"]: c for c in fd.synced()}
    assert set(synced) == {
        "hello", "board", "buy", "hand", "export", "remind", "sail", "slow", "oops", "silent"}
    assert check_commands(fd.sync_log[0][1]) == []
    assert synced["buy"]["options"][0]["autocomplete"] is True
    times = synced["hello"]["options"][0]
    assert (times["type"], times["name"], times["description"]) == (4, "times", "How many times")
    assert (times["required"], times["min_value"], times["max_value"]) == (False, 1, 3)
    assert synced["hello"]["guild_id"] == str(fd.guild_id)
    assert fd.unhandled == [] and fd.internal_errors == []


async def test_slash_ephemeral_answer_is_seen_only_by_the_user(fd):
    r = await fd.slash("alice", "hello", {"times": 2})
    assert r.callback_type == 4 and r.ephemeral
    assert r.callback["data"]["flags"] & EPHEMERAL
    [msg] = r.messages
    assert msg.content == "hello hello" and msg.visible_to == fd.users["alice"].id
    assert fd.messages() == []  # nothing public in any channel
    assert fd.messages(ephemeral=True) == [msg]
    [callback] = fd.find_requests("POST", r"/callback$")
    assert "Authorization" not in callback.headers
    assert callback.query == {"with_response": "1"}
    assert r.response_time is not None and r.response_time < 3


async def test_slash_refuses_what_discord_client_would_not_send(fd):
    with pytest.raises(ValueError, match="outside 1..3"):
        await fd.slash("alice", "hello", {"times": 5})
    with pytest.raises(ValueError, match="has no option"):
        await fd.slash("alice", "hello", {"count": 1})
    with pytest.raises(ValueError, match="needs option 'position'"):
        await fd.slash("alice", "buy")
    with pytest.raises(LookupError, match="not a synced command"):
        await fd.slash("alice", "teleport")
    assert fd.interactions == []


async def test_public_defer_then_followup_carries_png_and_mention(fd):
    r = await fd.slash("bob", "board", channel="tavern")
    assert r.callback_type == 5 and r.deferred and not r.ephemeral
    [msg] = r.messages
    assert msg.public and not msg.loading and msg.channel_id == fd.channels["tavern"].id
    assert msg.content == f"{fd.users['bob'].mention}, your turn."
    assert msg.mentions == msg.pinged == [fd.users["bob"].id]
    png = msg.attachment("board.png")
    assert png.is_png and png.data == fd.bot.png  # bytes intact through multipart
    assert msg.custom_ids == ["e2e:end-turn", "e2e:refresh", "e2e:pick"]
    assert fd.messages("tavern") == [msg] and fd.messages("general") == []
    [upload] = fd.find_requests("POST", r"^/webhooks/")
    assert upload.files[0].filename == "board.png" and upload.json["attachments"][0]["filename"] == "board.png"


async def test_autocomplete_returns_the_bots_choices(fd):
    choices = await fd.autocomplete("carol", "buy", focused="position", value="b")
    assert choices == [
        {"name": "B1 for 2 gold", "value": "B1"},
        {"name": "B2 for 3 gold", "value": "B2"},
        {"name": "B3 for 4 gold", "value": "B3"},
    ]
    assert await fd.autocomplete("carol", "buy", focused="position", value="z") == []
    with pytest.raises(ValueError, match="no autocomplete"):
        await fd.autocomplete("carol", "hello", focused="times")


async def test_allowed_mentions_decide_who_is_pinged(fd):
    r = await fd.slash("dave", "buy", {"position": "C1"})
    [msg] = r.public_messages
    assert msg.mentions == [fd.users["dave"].id] and msg.pinged == []


async def test_button_click_goes_through_interaction_check(fd):
    await fd.slash("bob", "board")
    refused, accepted = await asyncio.gather(fd.click("alice", "e2e:end-turn"), fd.click("bob", "e2e:end-turn"))
    assert refused.callback_type == 4 and refused.ephemeral
    assert refused.text == "It is not your turn."
    with pytest.raises(PermissionError, match="cannot see"):
        await fd.click("carol", "e2e:end-turn", message=refused.messages[0].id)
    with pytest.raises(discord.NotFound):  # ephemeral messages cannot be fetched through the channel
        await fd.bot.get_channel(fd.channel.id).fetch_message(refused.messages[0].id)
    assert accepted.callback_type == 4 and not accepted.ephemeral
    assert accepted.public_messages[0].content == f"{fd.users['bob'].mention} ends the turn."
    clicks = [i for i in fd.interactions if i.type == 3]
    assert sorted(i.user.username for i in clicks) == ["alice", "bob"]


async def test_deferred_component_update_edits_the_clicked_message(fd):
    board = (await fd.slash("bob", "board")).messages[0]
    r = await fd.click("bob", "e2e:refresh")
    assert r.callback_type == 6 and r.messages == [] and r.edited == [board]
    assert board.content == "Board refreshed." and board.public


async def test_ephemeral_defer_then_edit_original_with_file(fd):
    r = await fd.slash("carol", "hand")
    assert r.callback_type == 5 and r.ephemeral
    [msg] = r.ephemeral_messages
    assert msg.content == "Your hand." and msg.attachment("hand.png").data == fd.bot.png
    assert msg.visible_to == fd.users["carol"].id and fd.messages() == []
    assert [q.method for q in r.requests] == ["POST", "PATCH"]


async def test_select_updates_the_message_in_place(fd):
    board = (await fd.slash("bob", "board")).messages[0]
    with pytest.raises(ValueError, match="does not offer"):
        await fd.select("bob", "e2e:pick", ["Z9"])
    r = await fd.select("bob", "e2e:pick", ["B2", "C1"])
    assert r.callback_type == 7 and r.messages == [] and r.edited == [board]
    assert board.content == "Picked B2, C1."
    assert board.history[0]["content"].endswith("your turn.")
    assert board.attachment("board.png").data == fd.bot.png  # an edit keeps the file


async def test_persistent_button_works_after_a_restart(fd):
    await fd.slash("bob", "board")
    old = fd.bot
    await fd.stop_bot(old)
    assert old.is_closed()
    new = MiniBot(fd.guild_id)
    new.to_act = fd.users["bob"].id  # what the real bot would reload from its database
    await fd.start_bot(new)
    r = await fd.click("bob", "e2e:end-turn")
    assert r.public_messages[0].content.endswith("ends the turn.")
    assert len(fd.identify_payloads) == 2


async def test_ephemeral_followup_after_public_defer_is_public(fd):
    r = await fd.slash("alice", "oops")
    [msg] = r.messages
    assert msg.requested_ephemeral and msg.public  # the trap the real bot must avoid
    assert fd.last_message() is msg


async def test_unanswered_interaction_is_reported(fd):
    with pytest.raises(InteractionNotAnswered, match="without responding") as err:
        await fd.slash("alice", "silent")
    assert err.value.result.callback is None and err.value.result.requests == []


async def test_more_than_25_choices_are_refused_like_discord(fd):
    with pytest.raises(InteractionNotAnswered, match="choices.*breaks maxItems 25") as err:
        await fd.autocomplete("alice", "sail", focused="trip", value="")
    [callback] = err.value.result.requests
    assert callback.status == 400 and callback.response["code"] == 50035
    # the schema refused it (issue 12), naming route, JSON path and reason
    assert fd.request_violations == [
        "POST /interactions/{interaction_id}/{interaction_token}/callback request $.data.choices: "
        + repr(callback.json["data"]["choices"])[:60] + "... breaks maxItems 25"
    ]
    fd.request_violations.clear()  # expected here: the fixture fails a test on any other


async def test_late_answer_is_refused_after_the_deadline():
    async with FakeDiscord(callback_deadline=0.2) as fake:
        await fake.start_bot(MiniBot(fake.guild_id))
        with pytest.raises(InteractionNotAnswered, match="no response within 0.2 s") as err:
            await fake.slash("alice", "slow")
        async with asyncio.timeout(3):
            while not err.value.result.requests:  # the bot's answer arrives after the deadline
                await asyncio.sleep(0.01)
        [late] = err.value.result.requests
        assert late.status == 404 and late.response == {"message": "Unknown interaction", "code": 10062}
        assert fake.messages(ephemeral=None) == []


async def test_rest_refusals_like_discord(fd):
    answered = await fd.slash("alice", "hello")
    api = f"{fd.url}/api/v10"
    async with ClientSession() as http:
        async with http.get(f"{api}/users/@me") as resp:  # no Authorization header
            assert resp.status == 401 and resp.headers["Content-Type"] == "application/json"
        callback = f"{api}/interactions/{answered.id}/{answered.token}/callback"
        async with http.post(callback, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 40060
        assert [i.id for i in fd.second_answers] == [answered.id]
        fd.second_answers.clear()  # this test's own second answer, not the bot's (the fixture checks)
        auth = {"Authorization": f"Bot {fd.token}"}
        async with http.post(f"{api}/channels/{fd.channel.id}/messages", json={}, headers=auth) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50006
        async with http.get(f"{api}/guilds/{fd.guild_id}/bans", headers=auth) as resp:
            assert resp.status == 404
    assert [r.path for r in fd.unhandled] == [f"/guilds/{fd.guild_id}/bans"]
    assert fd.messages(ephemeral=None) == answered.messages


async def test_channel_messages_files_edits_and_rate_limit(fd):
    channel = fd.bot.get_channel(fd.channels["general"].id)
    fd.rate_limit_next("POST", r"/channels/\d+/messages$")
    one, two = board_png("red"), board_png("green")
    sent = await channel.send(
        f"Round 1 scoring {fd.users['carol'].mention}",
        files=[discord.File(io.BytesIO(one), "round1.png"), discord.File(io.BytesIO(two), "round2.png")],
    )
    posts = fd.find_requests("POST", r"/channels/\d+/messages$")
    assert [p.status for p in posts] == [429, 200]  # discord.py waited and retried
    [msg] = fd.messages("general")
    assert msg.id == sent.id and msg.origin == "channel" and msg.pinged == [fd.users["carol"].id]
    assert [(a.filename, a.data) for a in msg.attachments] == [("round1.png", one), ("round2.png", two)]
    assert await sent.attachments[1].read() == two  # the bot can download what it uploaded
    await sent.edit(content="Round 1 scoring (final)", attachments=[sent.attachments[0]])
    assert msg.content == "Round 1 scoring (final)" and [a.filename for a in msg.attachments] == ["round1.png"]
    assert len(msg.history) == 1


async def test_response_with_file_and_channel_post_meanwhile(fd):
    r = await fd.slash("alice", "export")
    assert r.callback_type == 4 and not r.ephemeral
    assert [a.filename for a in r.callback_files] == ["game-log.txt"]  # multipart callback
    [response] = r.messages
    assert response.attachment("game-log.txt").data == GAME_LOG
    [post] = r.posted
    assert post.origin == "channel" and post.pinged == [fd.users["alice"].id]
    assert r.public_messages == [response, post] and r.files == response.attachments
    assert r.text == f"The game log.\n{fd.users['alice'].mention} exported the log."


async def test_wait_for_message_sees_what_the_bot_posts_later(fd):
    r = await fd.slash("bob", "remind")
    assert r.text == "Reminder set." and r.ephemeral and r.posted == []
    reminder = await fd.wait_for_message(lambda m: "still your turn" in m.content, after=r, timeout=3)
    assert reminder.pinged == [fd.users["bob"].id] and reminder.channel_id == fd.channel.id


async def test_user_messages_reach_the_bot_without_content_intent(fd):
    await fd.say("alice", "hello there")
    await fd.say("bob", f"{fd.bot_user.mention} hello bot", channel="tavern")
    async with asyncio.timeout(2):
        while len(fd.bot.heard) < 2:
            await asyncio.sleep(0.01)
    plain, mentioned = fd.bot.heard
    assert plain.author.id == fd.users["alice"].id and plain.content == ""  # no message-content intent
    assert mentioned.channel.name == "tavern" and mentioned.content.endswith("hello bot")


async def test_bounded_loopback_and_restores_discord_endpoints():
    before = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord(lifetime=1.0) as fake:
        assert fake.url.startswith("http://127.0.0.1:") and discord.http.Route.BASE.startswith(fake.url)
        bot = MiniBot(fake.guild_id)
        await fake.start_bot(bot)
        await fake.wait_closed(timeout=5)  # its lifetime ran out: it stopped the bot and itself
        assert bot.is_closed() and fake.closed
        assert (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == before
    assert (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == before


async def test_discord_limits_are_enforced(fd):
    channel = fd.bot.get_channel(fd.channel.id)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("x" * 2001)
    assert err.value.status == 400 and err.value.code == 50035
    assert check_message({"content": "ok"}) == []
    bad = [{"name": "Buy", "description": "", "type": 1, "options": [
        {"name": "a", "description": "x", "type": 3, "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}
    ]}]
    bad[0]["options"][0]["name_localizations"] = {"de": "Zwei Wörter"}
    problems = check_commands(bad)
    assert any("lowercase" in p for p in problems)
    assert any("description" in p for p in problems)
    assert any("26 choices" in p for p in problems)
    assert any("[de]" in p for p in problems)
    assert fd.messages() == []


# ---------------------------------------------------------------- Discord's schema (issue 12)
def test_project_copy_of_the_schema_equals_the_shared_one():
    if not schema.SHARED_PATH.exists():
        pytest.skip("no ../shared beside this checkout")
    assert schema.SCHEMA_PATH.read_bytes() == schema.SHARED_PATH.read_bytes()


def test_unknown_route_or_method_is_a_violation():
    checker = schema.SchemaChecker()
    assert checker.check_request("GET", "/no/such/route", None) == ["GET /no/such/route: no such route in Discord's schema"]
    assert checker.check_request("PUT", "/users/@me", None) == [
        "PUT /users/@me: the schema has no PUT for this route (only ['GET', 'PATCH'])"]
    assert checker.check_request("GET", "/users/@me", None) == []  # "@me" wins over "{user_id}"


def test_request_violation_names_route_json_path_and_reason():
    checker = schema.SchemaChecker()
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"}]}
    assert checker.check_request("POST", "/channels/1/messages", {"content": "hi", "components": [row]}) == [
        "POST /channels/{channel_id}/messages request $.components[0].components[0].label: "
        f"{'x' * 81!r} is too long"]
    assert checker.check_request("POST", "/channels/1/messages", {"content": 5}) == [
        "POST /channels/{channel_id}/messages request $.content: 5 is not of type 'string', 'null'"]


def test_only_the_two_documented_leniencies_apply():
    checker = schema.SchemaChecker()
    # 1. snowflakes as JSON integers; 2. an attachment id that is the upload's index
    body = {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}],
            "allowed_mentions": {"users": [123456789012345678]}}
    assert checker.check_request("POST", "/channels/1/messages", body) == []
    assert checker.check_request("POST", "/channels/1/messages", {"attachments": [{"id": -1}]}) != []
    assert checker.check_request("POST", "/channels/1/messages", {"attachments": [{"id": "a1"}]}) != []
    assert checker.check_request("POST", "/channels/1/messages", {"tts": "yes"}) != []  # nothing else


def test_response_problems_are_found():
    checker = schema.SchemaChecker()
    user = {"id": "1", "username": "u", "avatar": None, "discriminator": "0", "public_flags": 0, "flags": 0,
            "global_name": None}
    assert checker.check_response("GET", "/users/1", 200, user) == [
        "GET /users/{user_id} -> 200 response $: 'primary_guild' is a required property"]
    assert checker.check_response("GET", "/users/1", 200, {**user, "primary_guild": None}) == []
    assert checker.check_response("GET", "/users/1", 404, {"message": "Unknown User", "code": 10013}) == []
    assert checker.check_response("GET", "/users/1", 404, {"message": "Unknown User"}) == [
        "GET /users/{user_id} -> 404 response $: 'code' is a required property"]


def test_every_route_the_fake_serves_is_in_the_schema():
    for method, pattern, _handler, _auth in FakeDiscord._routes:
        concrete = re.sub(r"\(\[\^/\]\+\)", "tok", pattern.pattern)
        concrete = concrete.replace(r"(@original|\d+)", "@original").replace(r"(\d+)", "1").replace("[^/]+", "x")
        template = schema.find_route(concrete)
        assert template is not None, pattern.pattern
        assert method.lower() in schema.document()["paths"][template], (method, template)


def test_limits_come_from_the_schema():
    assert (MAX_LABEL, MAX_CUSTOM_ID, MAX_SELECT_OPTIONS, MAX_ROW_ITEMS) == (80, 100, 25, 5)
    button = schema.component("ButtonComponentForMessageRequest")["properties"]
    assert MAX_LABEL == button["label"]["maxLength"] and MAX_CUSTOM_ID == button["custom_id"]["maxLength"]
    assert check_message({"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "custom_id": "a", "label": "y" * (MAX_LABEL + 1)}]}]}) != []


def test_the_bots_hand_typed_discord_limits_match_the_schema():
    from bot.discord import components as discord_components
    from bot.discord.publishing import messages as discord_messages
    from bot.games import widgets

    select = schema.component("StringSelectComponentForMessageRequest")["properties"]
    option = schema.component("StringSelectOptionForRequest")["properties"]
    assert discord_components.MAX_CUSTOM_ID == MAX_CUSTOM_ID
    assert discord_components.MAX_BUTTON_LABEL == MAX_LABEL
    assert discord_components.ROW_WIDTH == MAX_ROW_ITEMS == widgets.MAX_BUTTONS
    assert discord_components.MAX_OPTION_LABEL == option["label"]["maxLength"] == widgets.MAX_LABEL
    assert discord_components.MAX_OPTION_VALUE == option["value"]["maxLength"]
    assert discord_components.MAX_SELECT_OPTIONS == select["options"]["maxItems"] == widgets.MAX_OPTIONS
    assert discord_components.MAX_ROWS == limits.MAX_ROWS  # documented, not in the schema
    assert discord_messages.MAX_CONTENT == limits.MAX_CONTENT  # documented 2000 (the schema says 4000)
    assert discord_components.MAX_CHOICES == MAX_CHOICES


async def test_every_rest_answer_of_the_fake_is_in_the_schemas_shape(fd):
    """Each route the fake serves, called directly; the fake checks its own answers on the way."""
    api, auth = f"{fd.url}/api/v10", {"Authorization": f"Bot {fd.token}"}
    app, gid, cid = fd.application_id, fd.guild_id, fd.channel.id
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"},
                                     {"type": 2, "style": 5, "label": "Docs", "url": "https://example.org"}]}
    select = {"type": 1, "components": [{"type": 3, "custom_id": "pick", "options": [{"label": "A", "value": "a"}]}]}
    async with ClientSession(headers=auth) as http:
        for path in ("/users/@me", f"/users/{fd.users['alice'].id}", "/oauth2/applications/@me",
                     "/applications/@me", "/gateway", "/gateway/bot", f"/applications/{app}/commands",
                     f"/applications/{app}/guilds/{gid}/commands", f"/guilds/{gid}",
                     f"/guilds/{gid}/members/{fd.users['bob'].id}", f"/guilds/{gid}/channels", f"/channels/{cid}",
                     f"/channels/{cid}/messages?limit=5", f"/users/{1}", f"/channels/{1}"):
            async with http.get(api + path) as resp:
                assert resp.status in (200, 404), path
        async with http.post(f"{api}/channels/{cid}/messages",
                             json={"content": f"hi {fd.users['carol'].mention}", "components": [row, select]}) as resp:
            sent = await resp.json()
        assert [c["id"] for c in sent["components"]] == [1, 4]  # Discord numbers components in tree order
        assert sent["components"][1]["components"][0]["min_values"] == 1 and sent["mentions"][0]["primary_guild"] is None
        mid = sent["id"]
        async with http.get(f"{api}/channels/{cid}/messages/{mid}") as resp:
            assert resp.status == 200
        async with http.patch(f"{api}/channels/{cid}/messages/{mid}", json={"content": "edited"}) as resp:
            assert resp.status == 200
        async with http.put(f"{api}/channels/{cid}/messages/{mid}/reactions/%F0%9F%91%8D/@me") as resp:
            assert resp.status == 204
        async with http.post(f"{api}/channels/{cid}/typing") as resp:
            assert resp.status == 204
        async with http.delete(f"{api}/channels/{cid}/messages/{mid}") as resp:
            assert resp.status == 204
    assert fd.response_violations == [] and fd.request_violations == []
    assert fd.schema.responses_checked == fd.schema.requests_checked >= 22


async def test_gateway_objects_have_the_rest_shapes(fd):
    """The gateway is not in the schema, but the objects it carries are: same builders as REST."""
    await fd.slash("alice", "board")
    await fd.click("alice", "e2e:refresh")
    events = dict(fd.dispatched)
    assert schema.check_object("UserPIIResponse", events["READY"]["user"]) == []
    guild = events["GUILD_CREATE"]
    for role in guild["roles"]:
        assert schema.check_object("GuildRoleResponse", role) == []
    for channel in guild["channels"]:
        assert schema.check_object("GuildChannelResponse", channel) == []
    for member in guild["members"]:
        assert schema.check_object("GuildMemberResponse", member) == []
    interactions = [d for e, d in fd.dispatched if e == "INTERACTION_CREATE"]
    assert len(interactions) == 2
    for inter in interactions:
        assert schema.check_object("GuildChannelResponse", inter["channel"]) == []
        member = {k: v for k, v in inter["member"].items() if k != "permissions"}
        assert schema.check_object("GuildMemberResponse", member) == []
    clicked = interactions[1]["message"]
    assert schema.check_object("MessageResponse", clicked) == []
    assert clicked["interaction_metadata"]["type"] == 2  # the /board response that carries the button


async def test_the_fake_refuses_posts_the_bots_channel_permissions_do_not_allow(fd):
    channel = fd.bot.get_channel(fd.channel.id)
    png = discord.File(io.BytesIO(board_png()), "board.png")
    await fd.deny_bot(None, ATTACH_FILES)
    async with asyncio.timeout(2):
        while channel.permissions_for(channel.guild.me).attach_files:  # CHANNEL_UPDATE reached the bot
            await asyncio.sleep(0.01)
    await channel.send("text is fine")
    with pytest.raises(discord.Forbidden) as err:
        await channel.send("a file is not", file=png)
    assert err.value.code == 50013
    await fd.deny_bot(None, SEND_MESSAGES)
    with pytest.raises(discord.Forbidden) as err:
        await channel.send("nor is text now")
    assert err.value.code == 50013
    await fd.deny_bot(None, VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as err:
        await channel.send("nothing")
    assert err.value.code == 50001
    r = await fd.slash("alice", "hello")  # interaction answers need no channel permission
    assert r.text == "hello"
    payload = [d for e, d in fd.dispatched if e == "INTERACTION_CREATE"][-1]
    assert not int(payload["app_permissions"]) & VIEW_CHANNEL  # the bot's permissions in the channel
    assert [m.content for m in fd.messages()] == ["text is fine"]


def test_the_speed_rewrite_of_unions_refuses_what_the_published_unions_refuse():
    """schema._discriminate turns oneOf-of-consts into enums and type-discriminated unions into
    if/then: the same instances must pass and fail as with the schema as published."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    published = schema.published()
    registry = Registry().with_resource("urn:p", Resource(contents=published, specification=DRAFT202012))
    samples = [
        [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "a", "label": "A"}]}],
        [{"type": 1, "components": [{"type": 2, "custom_id": "a"}]}],  # a button needs a style
        [{"type": 1, "components": [{"type": 99, "custom_id": "a"}]}],  # no such component
        [{"components": []}],  # no type at all
        ["not an object"],
        [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [{"label": "L", "value": "v"}]}]}],
        [{"type": 10, "content": "text display"}],
        [{"type": 17, "components": [{"type": 10, "content": "in a container"}]}],
    ]
    pointer = "#/components/schemas/MessageCreateRequest/properties/components"
    original = Draft202012Validator({"$ref": "urn:p" + pointer}, registry=registry)
    rewritten = schema._validator(pointer)
    verdicts = [(original.is_valid(s), rewritten.is_valid(s)) for s in samples]
    assert all(a == b for a, b in verdicts), verdicts
    assert [a for a, _ in verdicts] == [True, False, False, False, False, True, True, True]
    message_type = "#/components/schemas/MessageType"
    original = Draft202012Validator({"$ref": "urn:p" + message_type}, registry=registry)
    for value in (0, 19, 20, 13, 99, "0"):
        assert original.is_valid(value) == schema._validator(message_type).is_valid(value), value


# --------------------------------------------------------------------------- shards (issue 15)


class ShardBot(commands.AutoShardedBot):
    """One process's bot over some of the shards; /whoami says which shards answered."""

    def __init__(self, shard_ids: list[int], shard_count: int = 2):
        super().__init__(command_prefix="!", intents=discord.Intents.default(), shard_count=shard_count,
                         shard_ids=shard_ids)
        self.answered: list[int] = []

    async def setup_hook(self) -> None:
        @self.tree.command(name="whoami", description="Which shards answer here")
        async def whoami(interaction: discord.Interaction) -> None:
            self.answered.append(interaction.guild_id)
            await interaction.response.send_message(
                f"shards {self.shard_ids}: guild {interaction.guild_id} on shard {interaction.guild.shard_id}")

        await self.tree.sync()


async def test_shards_identify_get_their_guilds_and_only_their_guilds_events():
    async with FakeDiscord(shard_count=2, lifetime=60) as fake:
        north = fake.add_guild("North", ["fjord"], shard=0)
        south = fake.add_guild("South", ["strand"], shard=1)
        assert [(g.id >> 22) % 2 for g in (north, south)] == [0, 1] == [north.shard(2), south.shard(2)]
        bots = [ShardBot([0]), ShardBot([1])]
        for bot in bots:
            await fake.start_bot(bot)
        assert sorted(p["shard"] for p in fake.identify_payloads) == [[0, 2], [1, 2]]
        ready = [(shard, d) for (event, d), (_, shard, _) in zip(fake.dispatched, fake.dispatched_to, strict=True)
                 if event == "READY"]
        assert sorted(tuple(d["shard"]) for _, d in ready) == [(0, 2), (1, 2)]
        for shard, data in ready:  # READY names exactly the guilds of that shard
            assert data["shard"] == list(shard)
            assert {int(g["id"]) for g in data["guilds"]} == {g.id for g in fake.guilds.values()
                                                            if (g.id >> 22) % 2 == shard[0]}
        assert north.id in {g.id for g in bots[0].guilds} and north.id not in {g.id for g in bots[1].guilds}
        assert south.id in {g.id for g in bots[1].guilds} and south.id not in {g.id for g in bots[0].guilds}
        assert [c.name for c in bots[1].get_guild(south.id).text_channels] == ["strand"]

        r = await fake.slash("alice", "whoami", channel="fjord")
        assert r.shard == (0, 2) and r.text == f"shards [0]: guild {north.id} on shard 0"
        r = await fake.slash("bob", "whoami", channel="strand")
        assert r.shard == (1, 2) and r.text == f"shards [1]: guild {south.id} on shard 1"
        assert bots[0].answered.count(south.id) == 0 and bots[1].answered.count(north.id) == 0
        assert r.messages[0].guild_id == south.id

        gateway = await bots[0].http.get_bot_gateway()
        assert gateway[0] == 2  # /gateway/bot recommends the fake's shard count

        await fake.stop_bot(bots[1])  # shard 1 is down: Discord would not deliver its events
        with pytest.raises(FakeDiscordError, match="shard 1"):
            await fake.slash("bob", "whoami", channel="strand")
        assert (await fake.slash("alice", "whoami", channel="fjord")).shard == (0, 2)
        later = ShardBot([1])  # the restarted process gets its guild again
        await fake.start_bot(later)
        r = await fake.slash("bob", "whoami", channel="strand")
        assert r.shard == (1, 2) and later.answered == [south.id]

        identified = len(fake.identify_payloads)
        await fake.drop_connection(shard=1)  # the bot RESUMEs: same session, same shard
        await asyncio.wait_for(_resumed(fake), 10)
        assert len(fake.identify_payloads) == identified
        assert [sh for (event, _), (_, sh, _) in zip(fake.dispatched, fake.dispatched_to, strict=True)
                if event == "RESUMED"] == [(1, 2)]
        r = await fake.slash("bob", "whoami", channel="strand")
        assert r.shard == (1, 2) and later.answered == [south.id, south.id]

        east = fake.add_guild("East", ["shore"], shard=1)  # invited later: GUILD_CREATE on shard 1 only
        await fake.announce_guild(east)
        async with asyncio.timeout(5):
            while later.get_guild(east.id) is None:
                await asyncio.sleep(0.01)
        assert bots[0].get_guild(east.id) is None
        assert (await fake.slash("carol", "whoami", channel="shore")).shard == (1, 2)
        assert fake.internal_errors == [] and fake.unhandled == []


async def _resumed(fake: FakeDiscord) -> None:
    while not any(event == "RESUMED" for event, _ in fake.dispatched) or len(
            [s for s in fake._sessions if s.identified]) < 2:
        await asyncio.sleep(0.02)


async def test_an_identify_with_an_impossible_shard_is_closed_4010():
    async with FakeDiscord(shard_count=2, lifetime=30) as fake, ClientSession() as http:
        with pytest.raises(ValueError):
            fake.add_guild("Nowhere", ["void"], shard=2)
        with pytest.raises(ValueError):
            fake.add_guild("Again", ["general"])  # channel names are unique across the fake
        async with http.ws_connect(fake.gateway_url) as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": [2, 2],
                                               "properties": {}}})
            await ws.receive()
            assert ws.close_code == 4010
        async with http.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "shard": ["0", 2],
                                               "properties": {}}})
            await ws.receive()
            assert ws.close_code == 4010 and fake.identify_payloads[-1]["shard"] == ["0", 2]


async def test_threads_opened_from_a_message_take_messages_and_interactions(fd):
    channel = fd.bot.get_channel(fd.channels["general"].id)
    start = await channel.send(f"A game begins {fd.users['alice'].mention}")
    thread = await start.create_thread(name="Vikings: alice, bob", auto_archive_duration=1440)
    [fake] = fd.threads_of("general")
    assert fake.id == thread.id == start.id and fake.parent_id == channel.id and fake.name == "Vikings: alice, bob"
    assert fd.message(start.id).thread_id == thread.id
    assert fd.bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the client's cache
    inside = await thread.send("the first move")
    assert [m.id for m in fd.messages(fake)] == [inside.id] and fd.messages(fake)[0].channel_id == thread.id
    assert fd.message(start.id).notified == [fd.users["alice"].id]
    await inside.edit(content=f"edited {fd.users['bob'].mention}")
    assert fd.messages(fake)[0].notified == []  # an edit pings nobody
    r = await fd.slash("alice", "hello", channel=fake)  # an interaction from inside the thread
    assert r.channel_id == thread.id and r.messages[0].channel_id == thread.id
    with pytest.raises(discord.HTTPException) as again:
        await start.create_thread(name="twice")
    assert again.value.code == 160004
    fd.bot_permissions &= ~(1 << 35)  # no CREATE_PUBLIC_THREADS
    other = await channel.send("another")
    with pytest.raises(discord.Forbidden):
        await other.create_thread(name="refused")
    assert len(fd.threads_of("general")) == 1
