"""Discord's published OpenAPI schema, used to hold both sides of the fake to it (issue 12).

``../shared/discord/openapi.json`` (Discord's own ``specs/openapi.json``, see its README) says
which routes exist, what each request body may contain and what Discord answers. This module
finds the route of a request path, and validates

* a request body (JSON, or the ``payload_json`` part of a multipart upload) against the
  route's ``requestBody`` schema for that method, and
* a response body against the route's response schema for that status (``200``, else the
  ``4XX`` class), so the fake only answers in shapes Discord really sends.

Validation uses ``jsonschema`` (Draft 2020-12, which OpenAPI 3.1 uses) with ``referencing``;
validators are compiled once per (route, method, part) and cached for the whole test session,
as the document is large (1.2 MB).

The two differences between the schema and what Discord accepts that the README documents are
applied, and nothing else:

1. snowflake ids may be JSON integers (``SnowflakeType`` accepts a non-negative integer too);
2. an attachment's ``id`` in a message payload is the index of the upload — a small integer,
   which leniency 1 already admits; no other change is needed for it.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

# The project's copy (CI clones the repository alone); a test checks it equals the shared one.
SCHEMA_PATH = Path(__file__).resolve().parent / "discord-openapi.json"
SHARED_PATH = Path(__file__).resolve().parents[3] / "shared" / "discord" / "openapi.json"
_URI = "urn:discord:openapi"
_METHODS = ("get", "put", "post", "patch", "delete")


def schema_file() -> Path:
    return SCHEMA_PATH


@functools.cache
def document() -> dict[str, Any]:
    """The schema as published, with the README's leniencies applied (see the module docstring)."""
    doc = json.loads(schema_file().read_text(encoding="utf-8"))
    schemas = doc["components"]["schemas"]
    snowflake = copy.deepcopy(schemas["SnowflakeType"])
    # Leniency 1 (README): Discord accepts snowflakes sent as JSON integers (discord.py sends some).
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    _discriminate(doc, schemas)
    return doc


def _type_values(schemas: dict[str, Any], branch: Any) -> tuple[frozenset[Any], bool] | None:
    """For a ``$ref`` branch to an object schema that requires ``type`` and restricts it to an
    ``enum``/``const``: the allowed ``type`` values, and whether the branch demands an object."""
    if not isinstance(branch, dict) or set(branch) - {"$ref"} or not branch.get("$ref", "").startswith(
            "#/components/schemas/"):
        return None
    target = schemas.get(branch["$ref"].rsplit("/", 1)[1])
    if not isinstance(target, dict) or "type" not in (target.get("required") or []):
        return None
    spec = (target.get("properties") or {}).get("type")
    if not isinstance(spec, dict):
        return None
    values = spec.get("enum", [spec["const"]] if "const" in spec else None)
    if not values:
        return None
    return frozenset(values), target.get("type") == "object"


def _discriminate(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite, in place, every ``oneOf`` of distinct ``const`` values into an ``enum``, and every
    ``oneOf``/``anyOf`` whose branches are told apart by their ``type``
    field (disjoint ``enum`` values, each branch requiring ``type``) into an equivalent
    ``if``/``then`` per branch. An instance can satisfy at most one such branch, so ``oneOf``,
    ``anyOf`` and "the branch its ``type`` names" accept exactly the same instances; jsonschema
    then validates one branch instead of all of them (message components: 7 kinds, nested),
    which makes checking many times faster, and its errors come from that branch."""
    if isinstance(node, list):
        for item in node:
            _discriminate(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for key in ("oneOf", "anyOf"):
        branches = node.get(key)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        if all(isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"}
               for b in branches):
            values = [b["const"] for b in branches]
            if len({json.dumps(v) for v in values}) == len(values):
                # Discord's enums: a oneOf of distinct consts (with titles) accepts what an enum accepts
                del node[key]
                node.setdefault("allOf", []).append({"enum": values})
            continue
        found = [_type_values(schemas, b) for b in branches]
        if any(f is None for f in found):
            continue
        sets = [f[0] for f in found]  # type: ignore[index]
        if sum(len(v) for v in sets) != len(frozenset().union(*sets)):
            continue  # overlapping values: not a discriminator
        every = sorted(frozenset().union(*sets), key=repr)
        rewritten: list[dict[str, Any]] = [{"required": ["type"], "properties": {"type": {"enum": every}}}]
        if all(f[1] for f in found):  # type: ignore[index]
            rewritten[0]["type"] = "object"
        for branch, values in zip(branches, sets, strict=True):
            rewritten.append({"if": {"required": ["type"], "properties": {"type": {"enum": sorted(values, key=repr)}}},
                              "then": branch})
        del node[key]
        node.setdefault("allOf", []).extend(rewritten)
    for value in list(node.values()):
        _discriminate(value, schemas)


@functools.cache
def published() -> dict[str, Any]:
    """The schema exactly as published (for reading limits, which the leniencies do not touch)."""
    return json.loads(schema_file().read_text(encoding="utf-8"))


@functools.cache
def _registry() -> Registry:
    return Registry().with_resource(_URI, Resource(contents=document(), specification=DRAFT202012))


@dataclass(frozen=True)
class Route:
    template: str  # as in the schema, e.g. "/channels/{channel_id}/messages"
    pattern: re.Pattern[str]
    literals: int  # how many segments are fixed text: "/users/@me" beats "/users/{user_id}"


@functools.cache
def routes() -> tuple[Route, ...]:
    out = []
    for template in document()["paths"]:
        parts = template.strip("/").split("/")
        regex = "/" + "/".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
        literals = sum(not p.startswith("{") for p in parts)
        out.append(Route(template, re.compile(regex), literals))
    return tuple(sorted(out, key=lambda r: -r.literals))


@functools.cache
def find_route(path: str) -> str | None:
    """The schema's path template for a concrete request path (without ``/api/v10``)."""
    candidates = [r for r in routes() if r.pattern.fullmatch(path)]
    return candidates[0].template if candidates else None


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def _validator(pointer: str) -> Draft202012Validator:
    return Draft202012Validator(
        {"$ref": _URI + pointer}, registry=_registry(), format_checker=Draft202012Validator.FORMAT_CHECKER
    )


def _where(error: Any) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)


def _deepest(error: Any) -> list[Any]:
    """The errors that explain ``error``: in an anyOf/oneOf, those of the branch that came closest.

    Branches refused on their ``type`` discriminator (``enum``/``const``) are not the intended
    ones; among the rest, the branch with the fewest errors is reported.
    """
    if not error.context:
        return [error]
    branches: dict[Any, list[Any]] = {}
    for sub in error.context:
        branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)

    def off_type(errs: list[Any]) -> bool:
        return any(e.validator in ("enum", "const") and list(e.relative_path) == ["type"] for e in errs)

    candidates = [errs for errs in branches.values() if not off_type(errs)] or list(branches.values())
    best = min(candidates, key=len)
    return [leaf for sub in best for leaf in _deepest(sub)]


def _describe(validator: Draft202012Validator, instance: Any, limit: int = 8) -> list[str]:
    """Readable problems: each failure's JSON path and reason (inside unions, the closest branch's)."""
    out: list[str] = []
    for err in validator.iter_errors(instance):
        for leaf in _deepest(err):
            message = leaf.message
            if len(message) > 160:  # jsonschema quotes the whole value: say which rule it broke
                message = f"{repr(leaf.instance)[:60]}... breaks {leaf.validator} {leaf.validator_value!r}"[:300]
            line = f"{_where(leaf)}: {message}"
            if line not in out:
                out.append(line)
    return sorted(out)[:limit]


def check_object(name: str, instance: Any) -> list[str]:
    """Problems of ``instance`` as the named schema object (e.g. a gateway payload's ``member``
    against ``GuildMemberResponse``: the gateway is not in the schema, its objects are)."""
    return [f"{name} {p}" for p in _describe(_validator(_pointer("components", "schemas", name)), instance)]


class SchemaChecker:
    """Checks one request or response against the schema; counts what it checked.

    ``totals`` adds up, over the test session, what the checkers made with ``count=True`` (those
    of the fake Discord) checked; tests/conftest.py reports it.
    """

    totals = {"requests": 0, "responses": 0, "request_violations": 0, "response_violations": 0, "seconds": 0.0}

    def __init__(self, *, count: bool = False) -> None:
        self.totals = SchemaChecker.totals if count else dict.fromkeys(SchemaChecker.totals, 0)
        self.requests_checked = 0
        self.responses_checked = 0

    def check_request(self, method: str, path: str, body: Any, *, multipart: bool = False) -> list[str]:
        """Problems with a request: an unknown route or method, or a body the schema refuses."""
        self.requests_checked += 1
        self.totals["requests"] += 1
        started = time.perf_counter()
        problems = self._request_problems(method, path, body, multipart)
        self.totals["seconds"] += time.perf_counter() - started
        self.totals["request_violations"] += len(problems)
        return problems

    def _request_problems(self, method: str, path: str, body: Any, multipart: bool) -> list[str]:
        template = find_route(path)
        if template is None:
            return [f"{method} {path}: no such route in Discord's schema"]
        item = document()["paths"][template]
        op = item.get(method.lower())
        if op is None:
            allowed = [m.upper() for m in _METHODS if m in item]
            return [f"{method} {template}: the schema has no {method} for this route (only {allowed})"]
        request_body = op.get("requestBody")
        if request_body is None:
            if body not in (None, "", {}):
                return [f"{method} {template}: the schema takes no body, got {str(body)[:80]!r}"]
            return []
        if body is None:
            if request_body.get("required"):
                return [f"{method} {template}: a body is required"]
            return []
        kind = "application/json"
        if kind not in request_body["content"]:
            return [f"{method} {template}: the schema takes no JSON body"]
        pointer = _pointer("paths", template, method.lower(), "requestBody", "content", kind, "schema")
        part = " (payload_json)" if multipart else ""
        return [f"{method} {template}{part} request {p}" for p in _describe(_validator(pointer), body)]

    def check_response(self, method: str, path: str, status: int, body: Any) -> list[str]:
        """Problems with what the fake answered: a status the schema does not list, or a wrong shape."""
        self.responses_checked += 1
        self.totals["responses"] += 1
        started = time.perf_counter()
        problems = self._response_problems(method, path, status, body)
        self.totals["seconds"] += time.perf_counter() - started
        self.totals["response_violations"] += len(problems)
        return problems

    def _response_problems(self, method: str, path: str, status: int, body: Any) -> list[str]:
        template = find_route(path)
        if template is None:
            return []  # the request itself was already reported
        op = document()["paths"][template].get(method.lower())
        if op is None:
            return []
        responses = op["responses"]
        key = str(status) if str(status) in responses else f"{status // 100}XX"
        if key not in responses:
            return [f"{method} {template}: the schema lists no {status} answer (only {sorted(responses)})"]
        response = responses[key]
        if "$ref" in response:
            name = response["$ref"].rsplit("/", 1)[-1]
            response = document()["components"]["responses"][name]
            pointer = _pointer("components", "responses", name, "content", "application/json", "schema")
        else:
            pointer = _pointer("paths", template, method.lower(), "responses", key, "content", "application/json",
                               "schema")
        content = response.get("content")
        if not content:
            if body is not None:
                return [f"{method} {template} -> {status}: the schema has no body here, the fake sent one"]
            return []
        if body is None:
            return [f"{method} {template} -> {status}: the schema has a body here, the fake sent none"]
        return [f"{method} {template} -> {status} response {p}" for p in _describe(_validator(pointer), body)]


def component(name: str) -> dict[str, Any]:
    """A named schema of ``components/schemas`` as published."""
    return published()["components"]["schemas"][name]
