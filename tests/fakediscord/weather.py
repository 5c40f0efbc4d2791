"""Weather for the fake Discord (issue 29): a real network's round trips, failing servers and a
gateway that drops sessions, all drawn from one seeded RNG so that a run can be replayed.

``FakeDiscord(weather=Weather(seed=3))`` turns it on (default: no weather, as before). Every rule
cites its page of ``/work/shared/discord/docs``:

* **Latency** per REST call, uniform in ``latency`` (default 50–250 ms, a real round trip): half
  before the fake handles the request (it reaches Discord), half after (the answer travels back).
  The time rules read the fake's clock when the request *arrives*, so an initial response that
  latency pushes past 3 s is answered ``404 / 10062`` Unknown interaction, and follow-ups after
  15 minutes ``401 / 50027`` (receiving-and-responding.mdx, "Interaction Callback": "Interaction
  tokens are valid for 15 minutes ... you must send an initial response within 3 seconds").
  A person's interaction also takes half a round trip over the gateway to reach the bot (its
  3 s run from its creation), so a click's answer comes about one round trip after the click.
* **Server errors**: a share ``server_errors`` of REST calls is answered with a 5xx of
  ``statuses`` (opcodes-and-status-codes.mdx, "HTTP Response Codes": "502 (GATEWAY UNAVAILABLE)
  There was not a gateway available to process your request. Wait a bit and retry.", "5xx (SERVER
  ERROR) The server had an error processing your request (these are rare)"). The fake models
  every 5xx as *not processed* (nothing happened; the 502 line says so, and it makes a retry
  safe). discord.py (http.py, ``HTTPClient.request``) retries 500, 502, 504 and 524 itself, after
  1 + 2·tries seconds, up to 5 tries; a 503 on those routes (channels, messages, threads) reaches
  the bot as ``DiscordServerError``. Its webhook adapter (webhook/async_.py: interaction callbacks,
  follow-ups, ``@original``) retries every 5xx the same way. Like
  ``fail_next``, a 5xx counts for no rate-limit bucket (rate-limits.mdx: the limits are the
  API's; an answer of a failing gateway is not the API's).
* **Reconnect** (op 7; opcodes-and-status-codes.mdx "Gateway Opcodes": "You should attempt to
  reconnect and resume immediately"; gateway.mdx "Resuming", case 1): after a DISPATCH, with
  probability ``reconnects``; discord.py RESUMEs and the events sent meanwhile are replayed
  (gateway.mdx "Preparing to Resume": "the Gateway will send the missed events in order,
  finishing with a Resumed event"; ``gateway_rules.py``).
* **Invalid Session** (op 9 with ``d: false``; gateway.mdx "Preparing to Resume": "If the d field
  is set to false (which is most of the time), your app should disconnect ... then send an
  Identify"): after a DISPATCH, with probability ``invalid_sessions``; the session is gone for
  good (a RESUME of it gets op 9 again), the bot IDENTIFIEs and gets a new READY and its
  GUILD_CREATEs. Events of the gap are lost, as Discord's are for a dead session
  (``WeatherReport.events_lost``); a person whose click falls in the gap sees "This interaction
  failed" and clicks again once the bot is back (the fake's ``slash``/``click`` wait for the new
  session: ``clicks_delayed``).

Replaying: each draw comes from ``random.Random`` seeded by (seed, what is drawn, the route with
its ids blanked, how many times that route was asked before), not from one shared stream, so
requests of two tables interleaving differently do not change what each one meets.
``fd.weather.report`` holds the figures (REST calls, latency slept, 5xx served by status,
op 7 / op 9 sent, events lost, clicks delayed).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

_IDS = re.compile(r"/[^/]*\d{5,}[^/]*")  # a path segment holding a snowflake or a token


def route_of(method: str, path: str) -> str:
    """``method`` and ``path`` with its ids and tokens blanked: ``POST /channels/*/messages``."""
    return f"{method} {_IDS.sub('/*', path)}"


@dataclass
class WeatherReport:
    rest_calls: int = 0
    latency_slept: float = 0.0  # seconds: both halves of every REST round trip, interactions' way to the bot
    server_errors: Counter[int] = field(default_factory=Counter)  # status → how many served
    reconnects: int = 0  # op 7 sent
    invalid_sessions: int = 0  # op 9 d=false sent
    events_lost: int = 0  # DISPATCHes of an invalidated session's gap
    clicks_delayed: int = 0  # pushes that waited for the bot to be back after op 9

    def figures(self) -> dict[str, Any]:
        out = asdict(self)
        out["latency_slept"] = round(self.latency_slept, 2)
        out["server_errors"] = {str(k): v for k, v in sorted(self.server_errors.items())}
        out["server_errors_total"] = sum(self.server_errors.values())
        return out


@dataclass
class Weather:
    """What the network and Discord's servers do to the bot; see the module docstring."""

    seed: int = 0
    latency: tuple[float, float] = (0.05, 0.25)  # seconds per REST round trip, uniform
    server_errors: float = 0.03  # share of REST calls answered with a 5xx
    statuses: tuple[int, ...] = (500, 502, 503)
    reconnects: float = 0.03  # chance of op 7 after each DISPATCH
    invalid_sessions: float = 0.02  # chance of op 9 d=false after each DISPATCH
    report: WeatherReport = field(default_factory=WeatherReport)
    _asked: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        low, high = self.latency
        if not 0 <= low <= high:
            raise ValueError(f"latency must be 0 <= low <= high, not {self.latency}")
        for name in ("server_errors", "reconnects", "invalid_sessions"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} is a share between 0 and 1, not {getattr(self, name)}")
        if self.reconnects + self.invalid_sessions > 1:
            raise ValueError("reconnects + invalid_sessions must not exceed 1")
        if not all(500 <= s <= 599 for s in self.statuses) or (self.server_errors and not self.statuses):
            raise ValueError(f"statuses must be 5xx codes, not {self.statuses}")

    @classmethod
    def calm(cls) -> Weather:
        """No weather at all (for comparison in bench/weather.py)."""
        return cls(latency=(0.0, 0.0), server_errors=0.0, reconnects=0.0, invalid_sessions=0.0)

    def _rng(self, kind: str, key: str) -> random.Random:
        n = self._asked[f"{kind} {key}"]
        self._asked[f"{kind} {key}"] += 1
        return random.Random(f"{self.seed}|{kind}|{key}|{n}")

    def rest(self, method: str, path: str) -> tuple[float, float, int | None]:
        """For one REST call: (latency before handling, latency after, a 5xx status or None)."""
        rng = self._rng("rest", route_of(method, path))
        trip = rng.uniform(*self.latency)
        status = rng.choice(self.statuses) if self.statuses and rng.random() < self.server_errors else None
        self.report.rest_calls += 1
        self.report.latency_slept += trip
        if status is not None:
            self.report.server_errors[status] += 1
        return trip / 2, trip / 2, status

    def to_bot(self, event: str) -> float:
        """The way of a person's interaction from Discord to the bot over the gateway: half a
        round trip (its 3 s count from its creation, before that: receiving-and-responding.mdx)."""
        trip = self._rng("gateway-latency", event).uniform(*self.latency) / 2
        self.report.latency_slept += trip
        return trip

    def after_dispatch(self, event: str) -> int | None:
        """After a DISPATCH of ``event``: 7 (Reconnect), 9 (Invalid Session, d=false) or None."""
        draw = self._rng("gateway", event).random()
        if draw < self.reconnects:
            return 7
        if draw < self.reconnects + self.invalid_sessions:
            return 9
        return None
