// A server built on the TypeScript SDK's 1.x line (@modelcontextprotocol/sdk 1.32.2, which speaks up to
// 2025-11-25 and knows nothing of 2026-07-28), over stdio or Streamable HTTP.
//
//   node ts_sdk_server.mjs                                    # stdio
//   node ts_sdk_server.mjs --http [--json] [--stateless] [--port N] [--exit-on-stdin-eof]
//
// Run it with the cached Node.js 22 (tests/interop/npm.py: node22()). The SDK is imported from the test cache,
// .cache/npm/node_modules at the project root, or from $TROUPE_NPM_MODULES when that is set. Over HTTP it binds
// 127.0.0.1, prints the port on the first line of stdout and serves /mcp: stateful by default (one server and
// transport per Mcp-Session-Id, as the SDK's examples do), or --stateless (a fresh server and transport per
// POST, sessionIdGenerator undefined); --json answers with application/json instead of SSE. It exits on
// SIGTERM/SIGINT, and on stdin EOF (stdio always; HTTP with --exit-on-stdin-eof).
//
// The catalog mirrors servers/sdk_eras.py where the 1.x SDK can: add (structuredContent {result}), forecast
// (object outputSchema), slow (progress notifications when the call carries a progressToken), confirm
// (elicitation/create, form mode), add_tool (registers a tool, and McpServer sends
// notifications/tools/list_changed), whoami (the protocol version this connection negotiated), fail (isError),
// the resource resource://eras/readme, the template resource://eras/greeting/{name} and the prompt review.
// There is no route tool: x-mcp-header is a 2026-07-28 feature.

import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = process.env.TROUPE_NPM_MODULES ?? resolve(here, "../../../.cache/npm/node_modules");
const sdkRoot = join(modules, "@modelcontextprotocol/sdk/dist/esm");
if (!existsSync(sdkRoot)) {
  process.stderr.write(`ts_sdk_server: ${sdkRoot} is missing; run \`.venv/bin/python -m tests.interop.npm\`\n`);
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(sdkRoot, path)).href);
const { McpServer, ResourceTemplate } = await load("server/mcp.js");
const { StdioServerTransport } = await load("server/stdio.js");
const { StreamableHTTPServerTransport } = await load("server/streamableHttp.js");
const { isInitializeRequest } = await load("types.js");
const { z } = await import(pathToFileURL(join(modules, "zod/index.js")).href);

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 && index + 1 < args.length ? args[index + 1] : fallback;
};

// One McpServer per connection (stdio), per session (stateful HTTP) or per POST (stateless HTTP). Tools added
// by add_tool are kept here so that every later McpServer of this process offers them too.
const addedTools = [];

function buildServer() {
  const server = new McpServer(
    { name: "ts-sdk", version: "1.32.2-interop" },
    { instructions: "mcp-troupe interop server on the TypeScript SDK 1.x." },
  );
  let negotiated;

  server.registerTool(
    "add",
    {
      description: "Add two integers.",
      inputSchema: { a: z.number().int(), b: z.number().int() },
      outputSchema: { result: z.number().int() },
    },
    async ({ a, b }) => ({
      content: [{ type: "text", text: String(a + b) }],
      structuredContent: { result: a + b },
    }),
  );

  server.registerTool(
    "forecast",
    {
      description: "A fixed forecast for a city, as structured output.",
      inputSchema: { city: z.string(), days: z.number().int().default(3) },
      outputSchema: { city: z.string(), days: z.number().int(), highs: z.array(z.number().int()), summary: z.string() },
    },
    async ({ city, days }) => {
      const highs = Array.from({ length: days }, (_, day) => 20 + ((city.length + day) % 7));
      const forecast = { city, days, highs, summary: `${days} days in ${city}` };
      return { content: [{ type: "text", text: JSON.stringify(forecast) }], structuredContent: forecast };
    },
  );

  server.registerTool(
    "slow",
    {
      description: "Sleep `seconds` in `steps` steps, reporting progress after each.",
      inputSchema: { seconds: z.number(), steps: z.number().int().default(4) },
    },
    async ({ seconds, steps }, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await new Promise((done) => setTimeout(done, (seconds * 1000) / steps));
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: steps, message: `step ${step} of ${steps}` },
          });
        }
      }
      return { content: [{ type: "text", text: `slept ${seconds}s in ${steps} steps` }] };
    },
  );

  server.registerTool(
    "confirm",
    { description: "Ask the user to confirm `action` (elicitation/create).", inputSchema: { action: z.string() } },
    async ({ action }) => {
      const answer = await server.server.elicitInput({
        mode: "form",
        message: `Really ${action}?`,
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean", description: "Go ahead?" } },
          required: ["confirm"],
        },
      });
      const yes = answer.action === "accept" && answer.content?.confirm === true;
      return { content: [{ type: "text", text: `${yes ? "confirmed" : "not confirmed"} ${action}` }] };
    },
  );

  const registerAdded = (name) =>
    server.registerTool(name, { description: `Added at run time by add_tool(${JSON.stringify(name)}).` }, async () => ({
      content: [{ type: "text", text: `${name} ok` }],
    }));

  server.registerTool(
    "add_tool",
    { description: "Register a tool called `name`; the SDK announces it with list_changed.", inputSchema: { name: z.string() } },
    async ({ name }) => {
      addedTools.push(name);
      registerAdded(name); // McpServer sends notifications/tools/list_changed once connected
      return { content: [{ type: "text", text: `added ${name}` }] };
    },
  );

  server.registerTool("whoami", { description: "The protocol version this connection negotiated." }, async (extra) => ({
    content: [{ type: "text", text: negotiated ?? extra.requestInfo?.headers?.["mcp-protocol-version"] ?? "unknown" }],
  }));

  server.registerTool("fail", { description: "Always fail, as an isError result." }, async () => ({
    content: [{ type: "text", text: "fail was called, and it failed as asked" }],
    isError: true,
  }));

  server.registerResource(
    "readme",
    "resource://eras/readme",
    { mimeType: "text/plain", description: "A fixed text resource." },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "mcp-troupe interop: the TypeScript SDK 1.x server." }] }),
  );
  server.registerResource(
    "greeting",
    new ResourceTemplate("resource://eras/greeting/{name}", { list: undefined }),
    { mimeType: "text/plain", description: "A greeting for the name in the URI." },
    async (uri, { name }) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: `Hello, ${name}, from the TypeScript SDK.` }] }),
  );
  server.registerPrompt(
    "review",
    { description: "Ask for a review of a piece of code.", argsSchema: { code: z.string() } },
    ({ code }) => ({ messages: [{ role: "user", content: { type: "text", text: `Please review this code:\n\n${code}` } }] }),
  );

  for (const name of addedTools) registerAdded(name);

  // The negotiated version is in our own answer to initialize; watch the transport's outgoing messages for it.
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (typeof message?.result?.protocolVersion === "string") negotiated = message.result.protocolVersion;
      return send(message, options);
    };
    return connect(transport);
  };
  return server;
}

function readBody(request) {
  return new Promise((done, fail) => {
    const chunks = [];
    let size = 0;
    request.on("data", (chunk) => {
      size += chunk.length;
      if (size > 4 * 1024 * 1024) request.destroy(new Error("request body over 4 MiB"));
      else chunks.push(chunk);
    });
    request.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
    request.on("error", fail);
  });
}

function jsonError(response, status, message) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
}

async function serveHttp() {
  const json = flag("--json");
  const stateless = flag("--stateless");
  const sessions = new Map(); // Mcp-Session-Id -> transport

  const http = createServer(async (request, response) => {
    try {
      const path = new URL(request.url, "http://127.0.0.1").pathname;
      if (path !== "/mcp") return jsonError(response, 404, "not found: serve /mcp");
      const body = request.method === "POST" ? await readBody(request) : undefined;
      let parsed;
      if (body !== undefined) {
        try {
          parsed = JSON.parse(body);
        } catch {
          return jsonError(response, 400, "Parse error: the body is not JSON");
        }
      }
      if (stateless) {
        if (request.method !== "POST") return jsonError(response, 405, "Method not allowed: stateless server");
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
        const server = buildServer();
        response.on("close", () => {
          transport.close();
          server.close();
        });
        await server.connect(transport);
        return await transport.handleRequest(request, response, parsed);
      }
      const sessionId = request.headers["mcp-session-id"];
      let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        if (request.method !== "POST" || !isInitializeRequest(parsed)) {
          return jsonError(response, sessionId ? 404 : 400, sessionId ? "Session not found" : "Bad Request: no session");
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: json,
          onsessioninitialized: (id) => sessions.set(id, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await buildServer().connect(transport);
      }
      await transport.handleRequest(request, response, parsed);
    } catch (error) {
      if (!response.headersSent) jsonError(response, 500, `internal error: ${error}`);
      else response.end();
    }
  });
  const port = Number(option("--port", "0"));
  await new Promise((done) => http.listen(port, "127.0.0.1", done));
  process.stdout.write(`${http.address().port}\n`);
  const stop = () => {
    for (const transport of sessions.values()) transport.close();
    http.close();
    http.closeAllConnections();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  if (flag("--exit-on-stdin-eof")) {
    process.stdin.on("end", stop);
    process.stdin.resume();
  }
}

async function serveStdio() {
  const server = buildServer();
  const stop = () => server.close().finally(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stdin.on("end", stop);
  await server.connect(new StdioServerTransport());
}

if (flag("--http")) await serveHttp();
else await serveStdio();
