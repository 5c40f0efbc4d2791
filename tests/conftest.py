"""Fixtures shared by the Discord end-to-end tests."""

from __future__ import annotations

import pytest

from tests.fakediscord import FakeDiscord


@pytest.fixture
async def fd():
    """A fake Discord on 127.0.0.1 that must end the test with no unhandled or broken request."""
    async with FakeDiscord(lifetime=150) as fake:
        yield fake
        assert fake.internal_errors == [] and fake.unhandled == []
        fake.assert_schema_clean()  # issue 12: requests and answers as Discord's schema says
