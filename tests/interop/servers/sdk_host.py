"""An official-SDK server (``MCPServer``) whose tools need the host: they elicit, sample, list roots, report
progress and log. Over stdio by default; ``--http`` serves Streamable HTTP on 127.0.0.1 (prints the port).

Tools:

- ``ask_profile()``: a form elicitation (``name`` required; ``age`` with default 30, ``colour`` an enum with a
  default); answers ``accept name=... age=... colour=...`` or the action.
- ``raw_form()``: a form elicitation through the low-level session with a schema the SDK's models would not
  build (a bound and a date format), returning the raw ``ElicitResult`` as JSON.
- ``visit()``: a URL-mode elicitation of ``https://auth.example.com/connect?session=1``.
- ``summarise(text)``: ``sampling/createMessage`` with a system prompt; answers the model's text.
- ``where()``: ``roots/list``; answers the URIs, comma-separated.
- ``count(steps, delay)``: reports progress ``i/steps`` with a message, sleeping ``delay`` between steps.
- ``chatty()``: logs at debug, info and warning, then answers ``done``.
- ``touch(uri)``: sends ``notifications/resources/updated`` for ``uri`` (after a ``resources/subscribe``).

It also has a prompt ``greet(language)`` and a template ``docs://{name}``, both completed by
``completion/complete`` (languages starting with what was typed; names within the chosen ``language``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys

from mcp import types
from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel, Field

server = MCPServer("sdk-host", version="1.0.0")


class Profile(BaseModel):
    name: str = Field(description="Your name")
    age: int = Field(default=30, description="Your age")
    colour: str = Field(default="blue", json_schema_extra={"enum": ["red", "blue"]})


@server.tool()
async def ask_profile(ctx: Context) -> str:
    """Ask the user for a profile."""
    result = await ctx.elicit("Who are you?", Profile)
    if result.action == "accept" and result.data is not None:
        return f"accept name={result.data.name} age={result.data.age} colour={result.data.colour}"
    return result.action


@server.tool()
async def raw_form(ctx: Context) -> str:
    """Ask for a bounded number and a date, and return the raw answer."""
    schema: types.ElicitRequestedSchema = {
        "type": "object",
        "properties": {
            "count": {"type": "integer", "minimum": 1, "maximum": 5, "default": 2},
            "when": {"type": "string", "format": "date"},
        },
        "required": ["when"],
    }
    result = await ctx.request_context.session.elicit("How many, and when?", schema)
    return json.dumps(result.model_dump(exclude_none=True), sort_keys=True)


@server.tool()
async def visit(ctx: Context) -> str:
    """Ask the user to visit a URL."""
    result = await ctx.elicit_url(
        "Connect your account", "https://auth.example.com/connect?session=1", "el-1"
    )
    return result.action


@server.tool()
async def summarise(text: str, ctx: Context) -> str:
    """Ask the host's model to summarise the text."""
    result = await ctx.request_context.session.create_message(
        [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))],
        max_tokens=50,
        system_prompt="Summarise in one line.",
    )
    content = result.content
    text_out = content.text if isinstance(content, types.TextContent) else repr(content)
    return f"{result.model}: {text_out}"


@server.tool()
async def where(ctx: Context) -> str:
    """List the client's roots."""
    result = await ctx.request_context.session.list_roots()
    return ",".join(str(root.uri) for root in result.roots)


@server.tool()
async def count(steps: int, delay: float, ctx: Context) -> str:
    """Count to ``steps``, reporting progress after each step."""
    for step in range(1, steps + 1):
        await asyncio.sleep(delay)
        await ctx.report_progress(step, steps, f"step {step}")
    return f"counted {steps}"


@server.tool()
async def chatty(ctx: Context) -> str:
    """Log three lines, then answer."""
    await ctx.debug("a debug line")
    await ctx.info("an info line", logger_name="chat")
    await ctx.warning({"problem": "a warning"})
    return "done"


@server.tool()
async def touch(uri: str, ctx: Context) -> str:
    """Tell the client that the resource changed."""
    await ctx.request_context.session.send_resource_updated(uri)
    return f"touched {uri}"


@server.prompt()
def greet(language: str) -> str:
    """Greet in a language."""
    return f"Say hello in {language}."


@server.resource("docs://{name}")
def doc(name: str) -> str:
    """One document."""
    return f"document {name}"


LANGUAGES = ["english", "esperanto", "estonian", "french"]


@server.completion()
async def complete(
    ref: types.PromptReference | types.ResourceTemplateReference,
    argument: types.CompletionArgument,
    context: types.CompletionContext | None,
) -> types.Completion | None:
    if isinstance(ref, types.PromptReference) and argument.name == "language":
        values = [language for language in LANGUAGES if language.startswith(argument.value)]
        return types.Completion(values=values, total=len(values), has_more=False)
    if isinstance(ref, types.ResourceTemplateReference) and argument.name == "name":
        chosen = (context.arguments or {}).get("language", "any") if context else "any"
        return types.Completion(
            values=[f"{chosen}-{argument.value}1", f"{chosen}-{argument.value}2"], has_more=True
        )
    return None


async def on_subscribe(ctx: object, params: types.SubscribeRequestParams) -> types.EmptyResult:
    return types.EmptyResult()


server._lowlevel_server.add_request_handler("resources/subscribe", types.SubscribeRequestParams, on_subscribe)
server._lowlevel_server.add_request_handler(
    "resources/unsubscribe", types.UnsubscribeRequestParams, on_subscribe
)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--http", action="store_true", help="serve Streamable HTTP on 127.0.0.1")
    parser.add_argument("--json", action="store_true", help="HTTP: answer application/json, not SSE")
    args = parser.parse_args(argv)
    if not args.http:
        server.run()
        return
    import uvicorn

    app = server.streamable_http_app(json_response=args.json)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(sock.getsockname()[1], flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)).run(sockets=[sock])


if __name__ == "__main__":
    main(sys.argv[1:])
