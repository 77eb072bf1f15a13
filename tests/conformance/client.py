"""The mcp-troupe client that the official MCP conformance suite drives: ``client.py <server-url>``.

``conformance client --command "python tests/conformance/client.py" --scenario NAME`` starts a mock server
for the scenario, runs this script with the server's URL appended as its last argument and the scenario's
name in ``MCP_CONFORMANCE_SCENARIO``, then judges what its mock server saw. The script connects through the
public API only, lists the tools, carries out the scenario's :data:`Plan`, and exits 0 when every call went
well, 1 otherwise with the reason on stderr.

The plans come from the scenario definitions of ``@modelcontextprotocol/conformance`` 0.1.16 and
0.2.0-alpha.12 (``src/scenarios/client/*.ts``) and are what a host would do, not the answers the suite wants:

- :class:`ExpectedCall`: one tool with set arguments, whose fixed server's answer is known in advance;
- :class:`UseEveryTool`: every listed tool at once, each with arguments made from its ``inputSchema``
  (the MRTR, invalid-``x-mcp-header`` and per-request ``_meta`` scenarios of 2026-07-28);
- :class:`CallsFromContext`: the calls the suite names in ``MCP_CONFORMANCE_CONTEXT`` (``toolCalls``),
  as a user would ask for them (the ``Mcp-Param-*`` header encodings);
- :class:`EchoSchemas`: each tool's ``inputSchema`` as the client holds it, handed to an echo tool
  (JSON Schema 2020-12 preservation);
- ``None``: connect and list, for scenarios judged on the handshake and listing alone.

The suite names the wire in ``MCP_CONFORMANCE_PROTOCOL_VERSION`` (alpha.12; 2025-11-25 by default); the
library's own version negotiation, not that variable, decides what is spoken.

The ``auth/*`` scenarios put an authorization server in front of the mock server. The server is configured
with ``auth: oauth``; the credential store lives in a fresh temporary directory (nothing is reused between
runs); and the client installs an in-process login (:class:`~mcp_troupe.auth.InteractiveLogin`) whose
"user" follows the authorization URL itself and reads the code from the redirect's ``Location``, as the
suite's mock authorization server approves every request without a page. What the suite hands over in
``MCP_CONFORMANCE_CONTEXT`` (pre-registered ``client_id`` / ``client_secret``, a private key, a workload
JWT, an IdP's ID token) becomes ``oauth:`` config; grants without a human never use the login.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never
from urllib.parse import parse_qsl, urlsplit

from mcp_troupe import (
    AuthError,
    CallHandle,
    ReconnectPolicy,
    ServerState,
    ToolSpec,
    Troupe,
    TroupeConfig,
    TroupeError,
)
from mcp_troupe.auth import InteractiveLogin, UserAuthorization, set_interactive_login
from mcp_troupe.config import OAuthConfig, ServerConfig
from mcp_troupe.host import ElicitationRequest, SamplingRequest, SamplingResult

SERVER = "conformance"
CONNECT_TIMEOUT = 25.0
CALL_TIMEOUT = 20.0
"""Seconds, inside the suite's limit for the whole client run (60 s, set by ``test_conformance.py``): a
loaded machine (two cores, many processes) once took over 10 s for a DPoP connect."""


@dataclass(frozen=True)
class ExpectedCall:
    """A tool the scenario's server offers, the arguments to call it with, and the text it answers."""

    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True)
class UseEveryTool:
    """Call every tool the server lists, all at once as a model issuing parallel tool calls would, each
    with arguments made from its ``inputSchema`` (:func:`arguments_for`); every call must succeed.

    Nothing about the answers is known in advance: the scenario's server judges what it received (the
    headers and ``_meta`` of each call, the MRTR retries), the client only that no call failed. A tool the
    library refused to offer (an invalid ``x-mcp-header``, say) is not listed, so it is never called.
    """


@dataclass(frozen=True)
class EchoSchemas:
    """Hand each other tool's ``inputSchema``, as the client holds it, to ``tool``'s ``argument``.

    The server compares what comes back with what it served, so this shows what the client kept of a schema
    (JSON Schema 2020-12 keywords, SEP-1613 / SEP-2106) after its own parsing and policy.
    """

    tool: str
    argument: str


@dataclass(frozen=True)
class CallsFromContext:
    """Make the calls the suite's context names (``toolCalls``: ``name`` and ``arguments`` each), in order.

    The suite plays the user here: it says which values to send (non-ASCII text, padding, control
    characters, ``null``), and its server checks how each was carried.
    """


Plan = ExpectedCall | UseEveryTool | EchoSchemas | CallsFromContext | None
"""What the client does once connected; ``None``: connect and list only."""

SCENARIOS: dict[str, Plan] = {
    # Handshake only: the server checks protocolVersion and clientInfo, and lists no tools.
    "initialize": None,
    # A stateless Streamable HTTP server (official TypeScript SDK) whose one tool records that it was called.
    "tools_call": ExpectedCall("add_numbers", {"a": 5, "b": 3}, "The sum of 5 and 3 is 8"),
    # The server ends the POST's SSE stream after a priming event (`id`, `retry: 500`) without the response;
    # the client must wait `retry` ms, resume with GET and Last-Event-ID, and read the response there
    # (SEP-1699).
    "sse-retry": ExpectedCall("test_reconnection", {}, "Reconnection test completed successfully"),
}

# The auth scenarios' mock MCP server (behind its authorization server) offers one tool, `test-tool`.
AUTH_CALL = ExpectedCall("test-tool", {}, "test")
# The server elicits a form whose five fields all have defaults; the host's "user" (accept_with_defaults)
# accepts without typing, so the answer must carry every default (SEP-1034), in the schema's order.
SCENARIOS["elicitation-sep1034-client-defaults"] = ExpectedCall(
    "test_client_elicitation_defaults",
    {},
    'Elicitation completed: {"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}',
)
AUTH_SCENARIOS = (
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/cross-app-access-complete-flow",
    "auth/enterprise-managed-authorization",
    "auth/wif-jwt-bearer",
    "auth/dpop",
    "auth/dpop-nonce",
)
SCENARIOS.update(dict.fromkeys(AUTH_SCENARIOS, AUTH_CALL))
SCENARIOS.update(
    {
        # The 2026-07-28 wire. request-metadata refuses the first request with -32022 and judges the retry
        # and every request's MCP-Protocol-Version header and _meta; its server lists no tools.
        "request-metadata": UseEveryTool(),
        # Four tools: two answer input_required (with and without requestState; the elicitation handler
        # answers), one is plain (called alongside the others: no MRTR state may leak into it), one answers
        # without resultType (complete, not retried).
        "sep-2322-client-request-state": UseEveryTool(),
        # A valid tool among eleven whose x-mcp-header declarations are invalid: only the valid one is
        # listed, and it must still be usable.
        "http-invalid-tool-headers": UseEveryTool(),
        # Two tools with x-mcp-header parameters; the suite names the values to call them with.
        "http-custom-headers": CallsFromContext(),
        # A 2020-12 schema round-tripped through the server's echo tool.
        "json-schema-2020-12-preservation": EchoSchemas("json_schema_echo", "schema"),
    }
)
# Connect and list is the whole client side of these: the server judges the handshake's headers
# (http-standard-headers), that a network $ref was not fetched while listing (json-schema-ref-no-deref),
# and what the skills extension read (sep-2640-*).
SCENARIOS.update(
    dict.fromkeys(
        (
            "http-standard-headers",
            "json-schema-ref-no-deref",
            "sep-2640-client-no-prefetch",
            "sep-2640-client-verify-digest",
            "sep-2640-client-verify-size",
            "sep-2640-client-verify-frontmatter",
        ),
        None,
    )
)
CIMD_URL = "https://conformance-test.local/client-metadata.json"
"""The Client ID Metadata Document URL the ``auth/basic-cimd`` scenario expects as ``client_id``."""
REDIRECT_URI = "http://127.0.0.1:9/callback"
"""Registered and sent, never listened on: the redirect's ``Location`` is read without following it."""


def oauth_settings(scenario: str) -> OAuthConfig:
    """What an operator would configure for the scenario's server (the suite's context, a CIMD URL)."""
    context: dict[str, Any] = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    client_id, secret = context.get("client_id"), context.get("client_secret")
    match scenario:
        case "auth/client-credentials-basic":
            return OAuthConfig(grant="client_credentials", client_id=client_id, client_secret=secret)
        case "auth/client-credentials-jwt":
            # private_key_jwt (RFC 7523): the suite hands over a PKCS#8 ES256 key, as an env var would.
            return OAuthConfig(
                grant="client_credentials",
                client_id=client_id,
                private_key=context.get("private_key_pem"),
                signing_algorithm=context.get("signing_algorithm"),
            )
        case "auth/cross-app-access-complete-flow" | "auth/enterprise-managed-authorization":
            return OAuthConfig(
                grant="enterprise",
                client_id=client_id,
                client_secret=secret,
                id_token=context.get("idp_id_token"),
                idp_token_endpoint=context.get("idp_token_endpoint"),
                idp_client_id=context.get("idp_client_id"),
            )
        case "auth/wif-jwt-bearer":
            return OAuthConfig(
                grant="workload_identity", client_id=client_id, assertion=context.get("valid_jwt")
            )
        case _:
            return OAuthConfig(
                client_id=client_id,
                client_secret=secret,
                client_metadata_url=CIMD_URL if scenario == "auth/basic-cimd" else None,
            )


def _authorization_redirect(url: str) -> tuple[int, str]:
    """GET the authorization URL as a browser would, without following the redirect (logs nothing)."""
    parts = urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = connection_class(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("GET", f"{parts.path}?{parts.query}")
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location", "")
    finally:
        connection.close()


async def approve(action: UserAuthorization) -> dict[str, str]:
    """The user agent: the mock authorization server approves at once and redirects with the code."""
    status, location = await asyncio.to_thread(_authorization_redirect, action.url)
    if status not in (301, 302, 303, 307, 308) or not location:
        raise AuthError(SERVER, f"the authorization endpoint answered HTTP {status}, not a redirect")
    return dict(parse_qsl(urlsplit(location).query, keep_blank_values=True))


def main(argv: list[str]) -> int:
    """Run the scenario named in ``MCP_CONFORMANCE_SCENARIO`` against the server URL in ``argv[-1]``."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    if len(argv) < 2:
        return _fail("usage: client.py <server-url> (the suite appends the URL)")
    if scenario not in SCENARIOS:
        return _fail(f"unknown scenario {scenario!r}; this client knows {sorted(SCENARIOS)}")
    url, plan = argv[-1], SCENARIOS[scenario]
    if scenario in AUTH_SCENARIOS:
        with tempfile.TemporaryDirectory(prefix="troupe-conformance-") as home:
            # A fresh credential store per run: the stores and key live under this directory only.
            os.environ["XDG_STATE_HOME"] = os.path.join(home, "state")
            os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")
            os.environ.pop("MCP_TROUPE_CREDENTIALS_KEY", None)
            set_interactive_login(InteractiveLogin(REDIRECT_URI, approve))
            server = ServerConfig(
                name=SERVER,
                url=url,
                connect_timeout=CONNECT_TIMEOUT,
                timeout=CALL_TIMEOUT,
                auth="oauth",
                oauth=oauth_settings(scenario),
            )
            return run(scenario, server, plan)
    server = ServerConfig(name=SERVER, url=url, connect_timeout=CONNECT_TIMEOUT, timeout=CALL_TIMEOUT)
    return run(scenario, server, plan)


def run(scenario: str, server: ServerConfig, plan: Plan) -> int:
    """Connect, list the tools, carry out the scenario's plan; 0 when everything went as promised."""
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={SERVER: server},
        network_policy="allow",
        # One connect, no retry: the suite judges a single run, and a retry would only hide the first failure.
        reconnect=ReconnectPolicy(max_attempts=0),
    )
    # A host that can answer what servers ask (the scenarios check that these are declared, and the
    # elicitation-defaults scenario that the schema's defaults fill what the "user" left out).
    with Troupe(
        config,
        elicitation_handler=accept_with_defaults,
        sampling_handler=scripted_model,
        roots=[os.getcwd()],
    ) as troupe:
        if not troupe.wait_ready(timeout=CONNECT_TIMEOUT + 5):
            return _fail(f"{SERVER} did not settle within {CONNECT_TIMEOUT + 5:.0f} s")
        (status,) = troupe.status()
        if status.state is not ServerState.READY:
            return _fail(f"{SERVER} is {status.state}: {status.last_error}")
        tools = {spec.original_name: spec for spec in troupe.tools() if spec.server == SERVER}
        print(f"{scenario}: ready ({status.protocol_version}), tools {sorted(tools)}", file=sys.stderr)
        match plan:
            case None:
                return 0
            case ExpectedCall():
                return expect_answer(troupe, tools, plan)
            case UseEveryTool():
                calls = [(name, arguments_for(spec.input_schema)) for name, spec in sorted(tools.items())]
                return make_calls(troupe, tools, calls, parallel=True)
            case EchoSchemas():
                if plan.tool not in tools:
                    return _fail(f"the server lists no tool {plan.tool!r}; it lists {sorted(tools)}")
                others = [spec for name, spec in sorted(tools.items()) if name != plan.tool]
                if not others:
                    return _fail(f"the server lists no tool besides {plan.tool!r} whose schema to echo")
                # The schema as the agent holds it (ToolSpec.input_schema), not as it went over the wire.
                calls = [(plan.tool, {plan.argument: dict(spec.input_schema)}) for spec in others]
                return make_calls(troupe, tools, calls, parallel=False)
            case CallsFromContext():
                try:
                    calls = context_calls()
                except ValueError as exc:
                    return _fail(str(exc))
                return make_calls(troupe, tools, calls, parallel=False)
            case _:
                assert_never(plan)


def expect_answer(troupe: Troupe, tools: Mapping[str, ToolSpec], expected: ExpectedCall) -> int:
    """Call the scenario's one tool and compare its answer with the one its fixed server gives."""
    if expected.tool not in tools:
        return _fail(f"the server lists no tool {expected.tool!r}; it lists {sorted(tools)}")
    try:
        result = troupe.call(tools[expected.tool].name, expected.arguments)
    except TroupeError as exc:
        return _fail(f"calling {expected.tool} failed: {exc!r}")
    print(f"{expected.tool} answered {result.text!r}", file=sys.stderr)
    if result.is_error or result.text != expected.text:
        return _fail(f"{expected.tool} answered {result.text!r} (is_error={result.is_error})")
    return 0


def make_calls(
    troupe: Troupe,
    tools: Mapping[str, ToolSpec],
    calls: Sequence[tuple[str, Mapping[str, Any]]],
    *,
    parallel: bool,
) -> int:
    """Make ``calls`` (tool, arguments), all started at once when ``parallel``; 0 when every one succeeded."""
    missing = sorted({name for name, _ in calls if name not in tools})
    if missing:
        return _fail(f"the server lists no tool {', '.join(missing)}; it lists {sorted(tools)}")
    failures: list[str] = []

    def settle(name: str, handle: CallHandle) -> None:
        try:
            result = handle.result()
        except TroupeError as exc:
            failures.append(f"calling {name} failed: {exc!r}")
            return
        print(f"{name} answered {result.text!r} (is_error={result.is_error})", file=sys.stderr)
        if result.is_error:
            failures.append(f"{name} answered with an error: {result.text!r}")

    if parallel:
        handles = [(name, troupe.submit(tools[name].name, arguments)) for name, arguments in calls]
        for name, handle in handles:
            settle(name, handle)
    else:
        for name, arguments in calls:
            settle(name, troupe.submit(tools[name].name, arguments))
    if failures:
        return _fail("; ".join(failures))
    return 0


def context_calls() -> list[tuple[str, dict[str, Any]]]:
    """The ``toolCalls`` of the suite's ``MCP_CONFORMANCE_CONTEXT``; ``ValueError`` names what is off."""
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    listed = context.get("toolCalls") if isinstance(context, dict) else None
    if not isinstance(listed, list) or not listed:
        raise ValueError("MCP_CONFORMANCE_CONTEXT names no toolCalls (a list of {name, arguments})")
    calls: list[tuple[str, dict[str, Any]]] = []
    for index, call in enumerate(listed):
        name = call.get("name") if isinstance(call, dict) else None
        arguments = call.get("arguments", {}) if isinstance(call, dict) else None
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise ValueError(
                f"MCP_CONFORMANCE_CONTEXT toolCalls[{index}] is not {{name, arguments}}: {call!r}"
            )
        calls.append((name, arguments))
    return calls


SAMPLE_BY_TYPE: dict[str, Any] = {
    "string": "example",
    "integer": 1,
    "number": 1.5,
    "boolean": True,
    "array": [],
    "null": None,
}
"""A value of each JSON Schema type, for a required property whose schema suggests none."""


def arguments_for(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments a model would fill in from an ``inputSchema``: every required property, nothing more."""
    properties = schema.get("properties")
    required = schema.get("required")
    if not isinstance(properties, Mapping) or not isinstance(required, list):
        return {}
    return {
        name: sample_value(properties[name])
        for name in required
        if isinstance(name, str) and isinstance(properties.get(name), Mapping)
    }


def sample_value(schema: Mapping[str, Any]) -> Any:
    """One value the property's schema allows: its default, const, first enum or example, else by type."""
    for keyword in ("default", "const"):
        if keyword in schema:
            return schema[keyword]
    for keyword in ("enum", "examples"):
        choices = schema.get(keyword)
        if isinstance(choices, list) and choices:
            return choices[0]
    kind = schema.get("type")
    if isinstance(kind, list):  # ["string", "null"]: the first type named
        kind = next((item for item in kind if isinstance(item, str)), None)
    if kind == "object":
        return arguments_for(schema)
    return SAMPLE_BY_TYPE.get(kind, "example") if isinstance(kind, str) else "example"


def accept_with_defaults(request: ElicitationRequest) -> dict[str, Any]:
    """The "user" accepts and types nothing: every field takes its schema default (SEP-1034)."""
    return {"action": "accept", "content": {}}


def scripted_model(request: SamplingRequest) -> SamplingResult:
    """A stand-in for the host's model: it answers every sampling request with one fixed line."""
    return SamplingResult(text="conformance client answer", model="scripted")


def _fail(reason: str) -> int:
    print(f"conformance client: {reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
