// An MCP server from another implementation (the official TypeScript SDK, zod schemas),
// mounted by runtime/mcp/mount's interop test over stdio:
//
//	node server.mjs
//
// Its tools exercise what a mount passes through: validation (add, shout), a structured
// result and its output schema (add), progress and cancellation (wait, then cancelled says
// how many waits were cancelled), and tools/list_changed (enable registers a new tool).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "interop-ts", version: "1.0.0" });
let cancelled = 0;

server.registerTool(
  "add",
  {
    description: "Adds two numbers.",
    inputSchema: { a: z.number(), b: z.number() },
    outputSchema: { sum: z.number() },
    annotations: { readOnlyHint: true },
  },
  async ({ a, b }) => ({
    content: [{ type: "text", text: JSON.stringify({ sum: a + b }) }],
    structuredContent: { sum: a + b },
  }),
);

server.registerTool(
  "shout",
  {
    description: "Says text loudly.",
    inputSchema: { text: z.string().min(1).max(20) },
    annotations: { readOnlyHint: true },
  },
  async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
);

server.registerTool(
  "wait",
  { description: "Reports progress, then waits until cancelled.", annotations: { readOnlyHint: true } },
  async (extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 1, total: 2, message: "half way" } });
    }
    await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
    cancelled++;
    return { content: [{ type: "text", text: "cancelled" }] };
  },
);

server.registerTool(
  "cancelled",
  { description: "Says how many waits were cancelled.", annotations: { readOnlyHint: true } },
  async () => ({ content: [{ type: "text", text: String(cancelled) }] }),
);

server.registerTool(
  "enable",
  { description: "Adds the tool later.", annotations: { readOnlyHint: true } },
  async () => {
    server.registerTool(
      "later",
      { description: "Exists once enabled.", annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: "text", text: "here" }] }),
    );
    return { content: [{ type: "text", text: "enabled" }] };
  },
);

await server.connect(new StdioServerTransport());
