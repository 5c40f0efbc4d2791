"""Discord's REST rate limits, as the fake applies them (issue 24).

Source: Discord's docs, ``/work/shared/discord/docs/rate-limits.mdx`` (a copy of
``developers/topics/rate-limits.mdx``):

* "Header Format": every answer carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch
  seconds), ``-Reset-After`` (seconds, decimals allowed) and ``-Bucket`` (a string naming the limit
  "non-inclusive of top-level resources in the path"); ``X-RateLimit-Scope`` (``user``, ``global``,
  ``shared``) and ``X-RateLimit-Global`` only come with a 429.
* Intro: "per-route rate limits often account for top-level resources within the path": channels
  (``channel_id``), guilds (``guild_id``) and webhooks (``webhook_id`` or ``webhook_id + webhook_token``).
  So a bucket here is (a bucket name, its major parameter).
* "Exceeding A Rate Limit": a 429 with ``{"message", "retry_after", "global"}`` and a
  ``Retry-After`` header. (discord.py also needs a ``Via`` header, else it takes the 429 for a
  Cloudflare ban and raises: the fake sends ``Via: 1.1 google`` as Discord's front does.)
* "Global Rate Limit": "All bots can make up to 50 requests per second"; "Interaction endpoints are
  not bound to the bot's Global Rate Limit" (receiving-and-responding.mdx "Followup Messages >
  Endpoints" says the same of the callback, ``@original`` and follow-up endpoints).

The docs give no per-route numbers ("rate limits should not be hard coded"): the defaults below are
the counts Discord's headers announce in practice for these routes (5 messages per 5 s per channel,
5 webhook executions per 2 s per webhook, ...). Windows are measured on the fake's clock
(``FakeDiscord.clock``), so a test can ``advance`` past them. ``RateLimits(scale=0.1)`` keeps
Discord's *counts* and shrinks every per-route window by the factor (the global 1 s window is never
scaled): whole-game tests keep the bot's limiter running without waiting 5 s per burst.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Limit:
    """``count`` requests per ``window`` seconds."""

    count: int
    window: float


@dataclass(frozen=True)
class RateLimits:
    """The limits of one fake Discord. ``enabled=False`` turns every limit (and header) off."""

    message_create: Limit = Limit(5, 5.0)  # POST /channels/{channel}/messages, per channel
    message_edit: Limit = Limit(5, 5.0)  # PATCH/DELETE /channels/{channel}/messages/{id}, per channel
    interaction_callback: Limit = Limit(5, 5.0)  # POST /interactions/{id}/{token}/callback, per interaction
    webhook: Limit = Limit(5, 2.0)  # /webhooks/{app}/{token}..., per webhook id + token
    thread_create: Limit = Limit(5, 5.0)  # POST /channels/{channel}/messages/{id}/threads, per channel
    default: Limit = Limit(5, 1.0)  # any other route, per method + route + major parameter
    global_per_second: int = 50  # rate-limits.mdx "Global Rate Limit"
    scale: float = 1.0  # multiplies every per-route window (not the global second)
    enabled: bool = True

    @classmethod
    def off(cls) -> RateLimits:
        return cls(enabled=False)

    def scaled(self, scale: float) -> RateLimits:
        return replace(self, scale=scale)


@dataclass
class Verdict:
    """What the limiter says of one request: headers for the answer, or a 429."""

    headers: dict[str, str]
    retry_after: float | None = None  # set: answer 429
    scope: str = "user"  # user / global / shared (rate-limits.mdx "Header Format")

    @property
    def limited(self) -> bool:
        return self.retry_after is not None

    def body(self) -> dict[str, object]:
        # rate-limits.mdx "Rate Limit Response Structure" (+ ``code``, which the schema's Error needs)
        message = "You are being rate limited." if self.scope != "shared" else "The resource is being rate limited."
        return {"message": message, "retry_after": self.retry_after, "global": self.scope == "global", "code": 0}

    def limited_headers(self) -> dict[str, str]:
        assert self.retry_after is not None
        out = dict(self.headers)
        out.update({"Retry-After": str(math.ceil(self.retry_after)), "X-RateLimit-Scope": self.scope,
                    "Via": "1.1 google"})
        if self.scope == "global":
            out["X-RateLimit-Global"] = "true"
        return out


@dataclass
class _Window:
    limit: Limit
    started: float
    used: int = 0


_ID = r"(\d+)"
# (method regex, path regex, bucket name, limit attribute, bound to the global limit)
_ROUTES: list[tuple[str, re.Pattern[str], str, str, bool]] = [
    (m, re.compile(p), name, attr, glob)
    for m, p, name, attr, glob in [
        ("POST", rf"/channels/{_ID}/messages", "channel-message-create", "message_create", True),
        ("PATCH|DELETE", rf"/channels/{_ID}/messages/\d+", "channel-message-edit", "message_edit", True),
        ("POST", rf"/channels/{_ID}/messages/\d+/threads", "thread-create", "thread_create", True),
        # interaction endpoints: receiving-and-responding.mdx "Followup Messages > Endpoints" and
        # rate-limits.mdx "Global Rate Limit": not bound to the global limit
        ("POST", rf"/interactions/{_ID}/[^/]+/callback", "interaction-callback", "interaction_callback", False),
        (".*", r"/webhooks/(\d+/[^/]+)(?:/.*)?", "webhook", "webhook", False),
    ]
]
_MAJOR = re.compile(r"^/(?:channels|guilds)/(\d+)")


def bucket_of(method: str, path: str) -> tuple[str, str, str, bool]:
    """(bucket name, major parameter, limit attribute, bound to the global limit) of a request."""
    for m, pattern, name, attr, glob in _ROUTES:
        hit = pattern.fullmatch(path)
        if hit is not None and re.fullmatch(m, method):
            return name, hit.group(1), attr, glob
    major = _MAJOR.match(path)
    template = re.sub(r"/\d+", "/{id}", path)
    return f"{method} {template}", major.group(1) if major else "", "default", True


class Limiter:
    """Fixed windows per bucket and a global one per token, read on ``clock()``."""

    def __init__(self, limits: RateLimits, clock, wall_clock):
        self.limits = limits
        self._clock = clock  # monotonic (the fake's virtual clock)
        self._wall = wall_clock  # epoch seconds on the same virtual clock, for X-RateLimit-Reset
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global: dict[str, _Window] = {}

    @staticmethod
    def bucket_hash(name: str) -> str:
        return hashlib.sha1(name.encode()).hexdigest()[:32]

    def _window(self, store: dict, key, limit: Limit) -> _Window:
        now = self._clock()
        w = store.get(key)
        if w is None or now >= w.started + w.limit.window:
            w = store[key] = _Window(limit, now)
        return w

    def check(self, method: str, path: str, who: str) -> Verdict | None:
        """Count the request; None when limits are off. ``who``: the bot token or "ip"."""
        if not self.limits.enabled:
            return None
        name, major, attr, glob = bucket_of(method, path)
        base: Limit = getattr(self.limits, attr)
        limit = Limit(base.count, base.window * self.limits.scale)
        now = self._clock()
        if glob:
            g = self._window(self._global, who, Limit(self.limits.global_per_second, 1.0))
            if g.used >= g.limit.count:
                retry = max(g.started + g.limit.window - now, 0.001)
                return Verdict({}, retry_after=retry, scope="global")
            g.used += 1
        w = self._window(self._windows, (name, major), limit)
        reset_after = max(w.started + limit.window - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(limit.count),
            "X-RateLimit-Remaining": str(max(limit.count - w.used - 1, 0)),
            "X-RateLimit-Reset": f"{self._wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.bucket_hash(name),
        }
        if w.used >= limit.count:
            headers["X-RateLimit-Remaining"] = "0"
            return Verdict(headers, retry_after=max(reset_after, 0.001), scope="user")
        w.used += 1
        return Verdict(headers)
