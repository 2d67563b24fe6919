// get_weather on the official TypeScript SDK, for mcpload's TypeScript row. Run by mcpload:
//
//	node --expose-gc server.mjs stateless|stateful|stdio NODE_MODULES_DIR
//
// NODE_MODULES_DIR holds @modelcontextprotocol/sdk and zod (examples/mcp-server/testdata/interop
// after `npm ci`). Its first line on stderr is "mcpload-ready http=URL stats=URL", as the Go
// children's; the stats report the heap in use (after a collection with ?gc=1).
import { createRequire } from "node:module";
import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";

const [transport, modules] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), "mcpload.js"));
const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
const { StreamableHTTPServerTransport } = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
const { StdioServerTransport } = require("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = require("zod");

function newServer() {
  const server = new McpServer({ name: "ts", version: "1" });
  server.registerTool(
    "get_weather",
    {
      description: "Gets the current weather for a city. Returns temperature and conditions.",
      inputSchema: {
        city: z.string().min(1),
        unit: z.enum(["celsius", "fahrenheit"]).default("celsius"),
        days: z.number().int().min(0).max(7).default(0),
      },
      outputSchema: {
        city: z.string(),
        unit: z.string(),
        temperature: z.number(),
        conditions: z.string(),
        forecast: z.array(z.object({ day: z.number(), high: z.number(), low: z.number() })).optional(),
      },
    },
    async ({ city, unit, days }) => {
      // The same stand-in as examples/weather's GetWeather.
      const convert = (c) => (unit === "fahrenheit" ? (c * 9) / 5 + 32 : c);
      const base = ([...city].length % 10) + 12;
      const w = { city, unit, temperature: convert(base), conditions: "partly cloudy" };
      for (let day = 1; day <= days; day++) {
        (w.forecast ??= []).push({ day, high: convert(base + day), low: convert(base - 4 + day) });
      }
      return { content: [{ type: "text", text: JSON.stringify(w) }], structuredContent: w };
    },
  );
  return server;
}

function listen(handler) {
  return new Promise((resolve) => {
    const s = http.createServer(handler);
    s.keepAliveTimeout = 60_000;
    s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${s.address().port}`));
  });
}

const stats = await listen((req, res) => {
  if (req.url.includes("gc=1") && global.gc) {
    global.gc();
    global.gc();
  }
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify({ mallocs: 0, total_alloc: 0, live: process.memoryUsage().heapUsed }));
});

async function body(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
}

if (transport === "stdio") {
  await newServer().connect(new StdioServerTransport());
  process.stderr.write(`mcpload-ready http=- stats=${stats}/\n`);
} else if (transport === "stateless") {
  // The SDK's stateless pattern: a server and a transport per request.
  const url = await listen(async (req, res) => {
    const server = newServer();
    const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      t.close();
      server.close();
    });
    await server.connect(t);
    await t.handleRequest(req, res, req.method === "POST" ? await body(req) : undefined);
  });
  process.stderr.write(`mcpload-ready http=${url}/mcp stats=${stats}/\n`);
} else {
  const sessions = new Map();
  const url = await listen(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    const parsed = req.method === "POST" ? await body(req) : undefined;
    let t = id && sessions.get(id);
    if (!t) {
      if (id || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      t = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => sessions.set(sid, t) });
      t.onclose = () => t.sessionId && sessions.delete(t.sessionId);
      await newServer().connect(t);
    }
    await t.handleRequest(req, res, parsed);
  });
  process.stderr.write(`mcpload-ready http=${url}/mcp stats=${stats}/\n`);
}
