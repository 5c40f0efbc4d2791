"""What meadhall asks of a Discord server (issue 12): scopes, permissions, `meadhall invite`."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import discord
import pytest

from bot.cli import main
from bot.config import ConfigError, load_config
from bot.discord.permissions import NEEDED, REQUIRED, SCOPES, display_name, invite_url, missing

ROOT = Path(__file__).resolve().parents[2]


def test_required_permissions_are_exactly_the_listed_ones():
    assert REQUIRED == discord.Permissions(**{name: True for name, _why in NEEDED})
    assert sum(1 for _name, value in REQUIRED if value) == len(NEEDED)  # nothing else
    assert REQUIRED.value == 309237697536  # issue 24: Embed Links (1 << 14) joined
    assert REQUIRED.embed_links
    assert not REQUIRED.administrator and not REQUIRED.manage_threads and not REQUIRED.read_message_history


def test_invite_url_carries_exactly_that_permission_integer_and_the_scopes():
    query = parse_qs(urlparse(invite_url(1234567890)).query)
    assert query["client_id"] == ["1234567890"]
    assert query["permissions"] == [str(REQUIRED.value)]
    assert query["scope"] == [" ".join(SCOPES)] and SCOPES == ("bot", "applications.commands")


def test_invite_refuses_a_non_positive_application_id():
    with pytest.raises(ValueError, match="positive"):
        invite_url(0)


def test_readme_lists_every_permission_the_integer_and_the_scopes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Inviting the bot", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([A-Z][^|]+?) \|", section, flags=re.M)[1:]  # after the header
    assert [r.lower() for r in rows] == [display_name(n).lower() for n, _ in NEEDED]
    assert f"`{REQUIRED.value}`" in section and "`bot`" in section and "`applications.commands`" in section


def test_missing_names_the_permissions_in_discords_wording():
    assert missing(REQUIRED) == []
    assert missing(discord.Permissions(administrator=True)) == []
    have = discord.Permissions(view_channel=True, send_messages=True)
    assert missing(have) == ["Embed Links", "Attach Files", "Create Public Threads", "Send Messages In Threads"]


def test_meadhall_invite_prints_the_url(capsys, tmp_path):
    assert main(["--config", str(ROOT / "config.example.toml"), "invite", "--application-id", "42"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == invite_url(42) and f"permissions={REQUIRED.value}" in out[0]
    cfg = tmp_path / "c.toml"
    cfg.write_text("[discord]\napplication_id = 77\n", encoding="utf-8")
    assert main(["--config", str(cfg), "invite"]) == 0
    assert capsys.readouterr().out.startswith(invite_url(77))


def test_meadhall_invite_without_an_application_id_says_how_to_give_one(capsys, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("", encoding="utf-8")
    assert main(["--config", str(cfg), "invite"]) == 2
    assert "--application-id" in capsys.readouterr().err
    assert main(["--config", str(cfg), "invite", "--application-id", "-5"]) == 2
    assert "positive" in capsys.readouterr().err


def test_a_negative_application_id_in_the_config_is_refused(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[discord]\napplication_id = -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="application_id"):
        load_config(cfg, env={})


EMBED_LINKS = 1 << 14  # permissions.mdx, "Permissions" table: EMBED_LINKS 0x4000


async def test_a_channel_without_embed_links_still_plays_and_the_opener_is_told_once(tmp_path, caplog):
    """Issue 24: the game's first message carries an embed, so the invite asks for Embed Links
    (permissions.mdx, "Permissions": EMBED_LINKS). Where a channel takes it away the table still
    opens and plays; the opener is told once, privately, and the channel is logged once."""
    import logging

    from tests.discord.test_discord_bots import Host
    from tests.fakediscord import FakeDiscord

    caplog.set_level(logging.INFO, logger="bot.discord.refusals")
    async with FakeDiscord() as fd:
        await fd.deny_bot(None, EMBED_LINKS)
        host = Host(fd, tmp_path / "embeds.db")
        await host.start()
        try:
            r = await fd.slash("alice", "join", {"game": "vikings"})
            assert r.public_messages and "opens a table" in r.public_messages[0].content
            [told] = r.ephemeral_messages
            assert told.visible_to == fd.users["alice"].id and "Embed Links" in told.content
            assert (await fd.slash("bob", "join")).ephemeral_messages == []  # once
            r = await fd.slash("alice", "start")
            assert any(m.attachments for m in fd.messages()), "the game starts: its board picture is posted"
            logged = [m.getMessage() for m in caplog.records if "missing permission" in m.getMessage()]
            assert logged == [f"a table in this channel: missing permission(s) in channel {fd.channel.id}: Embed Links"]
        finally:
            await host.stop()
