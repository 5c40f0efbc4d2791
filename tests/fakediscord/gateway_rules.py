"""What Discord's gateway enforces at login and gives back on RESUME (issue 24), for the fake.

Kept out of ``server.py`` (a few one-line hooks call it): every rule cites Discord's page in
``/work/shared/discord/docs``.

* **Session start limit** (gateway.mdx, "Get Gateway Bot" and "Session Start Limit Object"):
  ``GET /gateway/bot`` answers ``session_start_limit`` {total, remaining, reset_after,
  max_concurrency}; each IDENTIFY the fake accepts takes one from ``remaining``. gateway.mdx,
  "Identifying" (warning): upon hitting the limit "all active sessions for the app will be
  terminated, the bot token will be reset": an IDENTIFY with ``remaining == 0`` closes every
  session of the bot and this one with 4004 Authentication failed, and so does every IDENTIFY
  after it (the token is no longer valid; the fake's REST keeps taking it, a simplification).
* **Max concurrency** (gateway.mdx, "Identifying" and "Sharding" / "Max Concurrency"):
  ``rate_limit_key = shard_id % max_concurrency``; one IDENTIFY per key per ``identify_window``
  (Discord: 5 s, "Number of identify requests allowed per 5 seconds"); over it the fake answers
  op 9 Invalid Session with ``d: false`` (opcodes-and-status-codes.mdx, "Gateway Opcodes").
  ``identify_window=0`` (the fake's default) leaves the rule off, so tests that restart a bot
  at once stay quick; tests of the rule pass ``FakeDiscord(identify_window=5.0)``.
* **Sharding required** (gateway.mdx, "Sharding": "Each shard can only support a maximum of
  2500 guilds"; opcodes-and-status-codes.mdx, "Gateway Close Event Codes": 4011 "The session
  would have handled too many guilds"): a session whose shard would get more than
  ``max_guilds_per_shard`` guilds is closed with 4011.
* **Resuming** (gateway.mdx, "Resuming" / "Preparing to Resume": "the Gateway will send the
  missed events in order, finishing with a Resumed event"): every DISPATCH a session was sent
  (or would have been sent while it was disconnected) is kept with its sequence number; a RESUME
  with ``seq`` gets those after ``seq`` again, then RESUMED. ``await fd.gateway_rules.drop(shard,
  missed=[(event, data)])`` closes a shard's connection with events the bot never received (lost
  in flight); ``await fd.gateway_rules.reconnect(shard)`` sends op 7 Reconnect (gateway.mdx,
  "Resuming", case 1), after which discord.py RESUMEs; ``await fd.gateway_rules.invalidate(shard)``
  sends op 9 with ``d: false``, after which discord.py IDENTIFIEs again (issue 29, weather.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord, _Session

DISCORD_IDENTIFY_WINDOW = 5.0  # gateway.mdx, "Session Start Limit Object": max_concurrency per 5 s
DISCORD_GUILDS_PER_SHARD = 2500  # gateway.mdx, "Sharding"
DAY_MS = 24 * 60 * 60 * 1000  # gateway.mdx, "Identifying": 1000 IDENTIFY calls in a 24-hour period


class GatewayRules:
    def __init__(
        self,
        fd: FakeDiscord,
        *,
        max_concurrency: int = 1,
        identify_window: float = 0.0,
        session_starts: int = 1000,
        max_guilds_per_shard: int = DISCORD_GUILDS_PER_SHARD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.fd = fd
        self.max_concurrency = max_concurrency
        self.identify_window = identify_window
        self.total = session_starts
        self.remaining = session_starts
        self.max_guilds_per_shard = max_guilds_per_shard
        self.clock = clock
        self.started = clock()
        self.token_reset = False
        self._last_identify: dict[int, float] = {}  # rate_limit_key → when its last IDENTIFY was let in
        self.identifies: list[tuple[float, int, str]] = []  # (when, shard id, "ready" | "op9" | close code)
        self._events: dict[str, list[dict[str, Any]]] = {}  # session id → DISPATCH payloads sent, in order
        self._detached: dict[str, _Session] = {}  # session id → a resumable session whose socket closed
        self.replayed: list[tuple[str, int]] = []  # (event, seq) sent again after a RESUME
        self._closing: set[asyncio.Future[Any]] = set()
        self.invalidated: set[int] = set()  # shards whose session got op 9 d=false, not identified again

    # ------------------------------------------------------------------ GET /gateway/bot
    def session_start_limit(self) -> dict[str, int]:
        """gateway.mdx, "Session Start Limit Object"."""
        reset_after = max(0, DAY_MS - int((self.clock() - self.started) * 1000))
        return {"total": self.total, "remaining": self.remaining, "reset_after": reset_after,
                "max_concurrency": self.max_concurrency}

    # ------------------------------------------------------------------ IDENTIFY
    async def admit(self, session: _Session, shard: tuple[int, int]) -> bool:
        """Whether an IDENTIFY (token and shard already checked) may start a session; if not, the
        session was answered as Discord does (op 9, or closed with 4004/4011)."""
        now = self.clock()
        if self.token_reset or self.remaining <= 0:
            self.token_reset = True
            self.identifies.append((now, shard[0], "4004"))
            for other in list(self.fd._sessions):  # closed at once: each waits for its bot's answer
                other.identified = False
                if other is not session:
                    self._closing.add(asyncio.ensure_future(other.ws.close(code=4004, message=b"Authentication failed.")))
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return False
        key = shard[0] % self.max_concurrency  # gateway.mdx, "Max Concurrency"
        last = self._last_identify.get(key)
        if self.identify_window > 0 and last is not None and now - last < self.identify_window:
            self.identifies.append((now, shard[0], "op9"))
            await self.fd._send(session, {"op": 9, "d": False})  # gateway.mdx, "Identifying"
            return False
        self._last_identify[key] = now
        self.remaining -= 1
        guilds = sum(1 for _g in self.guilds_on(shard))
        if guilds > self.max_guilds_per_shard:
            self.identifies.append((now, shard[0], "4011"))
            await session.ws.close(code=4011, message=b"Sharding required.")
            return False
        self.identifies.append((now, shard[0], "ready"))
        self.invalidated.discard(shard[0])
        return True

    def op9_count(self) -> int:
        return sum(1 for _when, _shard, what in self.identifies if what == "op9")

    # ------------------------------------------------------------------ DISPATCH and RESUME
    def sent(self, session: _Session, payload: dict[str, Any]) -> None:
        """Every DISPATCH (op 0) the fake sends, kept for a RESUME of its session."""
        if payload.get("op") == 0:
            self._events.setdefault(session.id, []).append(payload)

    def detached(self, session: _Session) -> None:
        """A session's socket closed: events for its shard wait for its RESUME."""
        if session.id in self.fd._identified:
            self._detached[session.id] = session

    def buffer(self, event: str, data: dict[str, Any], guild_id: int) -> int | None:
        """An event for a guild whose shard's session is disconnected but resumable: kept (with
        the next sequence number) for its RESUME. None: no such session."""
        for sid, session in reversed(list(self._detached.items())):
            if session.serves(guild_id):
                session.seq += 1
                self._events.setdefault(sid, []).append({"op": 0, "t": event, "s": session.seq, "d": data})
                self.fd.dispatched.append((event, data))
                self.fd.dispatched_to.append((event, session.shard, sid))
                return session.seq
        return None

    async def replay(self, session: _Session, seq: int) -> None:
        """A RESUME with ``seq``: the events after it again, in order (RESUMED follows)."""
        self._detached.pop(session.id, None)
        for payload in list(self._events.get(session.id, [])):
            if int(payload["s"]) > seq:
                self.replayed.append((str(payload["t"]), int(payload["s"])))
                await self.fd._send(session, payload)
                session.seq = max(session.seq, int(payload["s"]))

    async def drop(self, shard: int = 0, *, missed: Iterable[tuple[str, dict[str, Any]]] = (),
                   code: int = 4000) -> None:
        """Close ``shard``'s connection (4000 Unknown error: resumable) with ``missed`` events
        counted as sent on it but never received by the bot (lost in flight)."""
        for session in list(self.fd._sessions):
            if session.identified and session.shard[0] == shard:
                for event, data in missed:
                    session.seq += 1
                    self._events.setdefault(session.id, []).append({"op": 0, "t": event, "s": session.seq, "d": data})
                    self.fd.dispatched.append((event, data))
                    self.fd.dispatched_to.append((event, session.shard, session.id))
                session.identified = False
                self._detached[session.id] = session
                await session.ws.close(code=code, message=b"Unknown error.")

    async def reconnect(self, shard: int = 0) -> None:
        """Op 7 Reconnect to ``shard``'s session (gateway.mdx, "Resuming", case 1)."""
        for session in list(self.fd._sessions):
            if session.identified and session.shard[0] == shard:
                session.identified = False
                self._detached[session.id] = session
                await self.fd._send(session, {"op": 7, "d": None})

    async def invalidate(self, shard: int = 0) -> None:
        """Op 9 Invalid Session with ``d: false`` to ``shard``'s session (gateway.mdx, "Preparing
        to Resume": "If the d field is set to false (which is most of the time), your app should
        disconnect ... then send an Identify"): the session is gone, a RESUME of it gets op 9 again,
        and its events until a new IDENTIFY are lost (``invalidated`` until then)."""
        for session in list(self.fd._sessions):
            if session.identified and session.shard[0] == shard:
                session.identified = False
                self.fd._identified.pop(session.id, None)
                self._detached.pop(session.id, None)
                self.invalidated.add(shard)
                await self.fd._send(session, {"op": 9, "d": False})

    def resumable(self, guild_id: int) -> bool:
        """Whether a disconnected session that serves ``guild_id`` may still RESUME (its events
        wait for it)."""
        return any(s.serves(guild_id) for s in self._detached.values())

    def guilds_on(self, shard: tuple[int, int]) -> Iterable[int]:
        """The guilds whose events go to ``shard`` (gateway.mdx, "Sharding Formula")."""
        return (g for g in self.fd.guilds if (g >> 22) % shard[1] == shard[0])
