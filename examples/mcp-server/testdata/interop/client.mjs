// An MCP client from another implementation (the official TypeScript SDK) checking
// examples/mcp-server. Run by interop_test.go:
//
//	node client.mjs stdio PATH-TO-SERVER-BINARY [ARGS...]
//	node client.mjs http URL [stateless]
//
// It prints one line per check ("ok NAME" or "FAIL NAME: why") and exits 1 if any failed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [mode, target, ...rest] = process.argv.slice(2);
const stateless = rest.includes("stateless");
let failed = 0;

async function check(name, fn) {
  try {
    await fn();
    console.log(`ok ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}: ${err?.stack ?? err}`);
  }
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

const client = new Client({ name: "interop", version: "1.0.0" }, { capabilities: { elicitation: {} } });
const elicited = [];
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  elicited.push(req.params.message);
  if (req.params.message.startsWith("Allow")) {
    return { action: "accept", content: { approve: true } };
  }
  return { action: "accept", content: { answer: "blue" } };
});

const transport =
  mode === "stdio"
    ? new StdioClientTransport({ command: target, args: rest, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target));
client.onerror = (err) => console.log(`note (client): ${err}`);
await client.connect(transport);
const text = (res) => res.content?.[0]?.text ?? "";

await check("tools/list with pagination", async () => {
  const names = [];
  let cursor;
  let pages = 0;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 20);
  assert(pages > 1, `one page only (${pages}); start the server with -page-size`);
  assert(
    JSON.stringify(names) === JSON.stringify(["ask", "count", "get_weather", "send_note", "table", "whoami"]),
    `tools: ${names}`,
  );
});

await check("valid call with structured content", async () => {
  const res = await client.callTool({ name: "get_weather", arguments: { city: "Tokyo", days: 1 } });
  assert(!res.isError, text(res));
  assert(res.structuredContent?.city === "Tokyo", JSON.stringify(res.structuredContent));
});

await check("invalid arguments are a tool error the model can fix", async () => {
  const res = await client.callTool({ name: "get_weather", arguments: { citty: "Tokyo" } });
  assert(res.isError, "not an error");
  assert(text(res).includes('did you mean "city"'), text(res));
});

await check("handler error", async () => {
  const res = await client.callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
  assert(res.isError && text(res).includes("no weather station"), text(res));
});

await check("structured result larger than the cap", async () => {
  // The SDK validates structuredContent against the tool's outputSchema (it threw before).
  const res = await client.callTool({ name: "table", arguments: { rows: 2000 } });
  assert(!res.isError, text(res));
  assert(res.structuredContent.rows.length === 2000, "structuredContent is not whole");
  assert(text(res).length <= 1024, `the model reads ${text(res).length} bytes`);
  const link = res.content.find((c) => c.type === "resource_link");
  assert(link, "no resource_link");
  const read = await client.readResource({ uri: link.uri });
  assert(JSON.parse(read.contents[0].text).rows.length === 2000, "resources/read");
});

await check("progress", async () => {
  const seen = [];
  // A pause after each report: the SDK handles notifications a tick after responses, so a
  // notification read together with the response would reach no handler.
  const res = await client.callTool({ name: "count", arguments: { to: 3, step_millis: 30 } }, undefined, {
    onprogress: (p) => seen.push(p.progress),
  });
  assert(!res.isError, text(res));
  assert(JSON.stringify(seen) === "[1,2,3]", `progress: ${JSON.stringify(seen)}`);
});

await check("cancellation", async () => {
  const controller = new AbortController();
  const call = client.callTool({ name: "count", arguments: { to: 1000, step_millis: 50 } }, undefined, {
    signal: controller.signal,
    onprogress: (p) => {
      if (p.progress >= 2) controller.abort("enough");
    },
  });
  let aborted = false;
  try {
    await call;
  } catch {
    aborted = true;
  }
  assert(aborted, "the call was not aborted");
  if (stateless) return; // stateless HTTP before 2026-07-28 cannot route the cancellation (documented)
  // The handler saw its ctx cancelled: the session remembers where it stopped.
  for (let i = 0; i < 100; i++) {
    const who = await client.callTool({ name: "whoami", arguments: {} });
    if (who.structuredContent.cancelled_at > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the handler never saw the cancellation");
});

await check("approval by elicitation", async () => {
  const res = await client.callTool({ name: "send_note", arguments: { to: "Ann", text: "hi" } });
  if (stateless) {
    // No way to reach the client: fail closed.
    assert(res.isError && text(res).includes("approval"), text(res));
    return;
  }
  assert(!res.isError, text(res));
  assert(text(res) === "Sent to Ann: hi", text(res));
  assert(elicited.some((m) => m.includes("send_note") && m.includes("Risk: medium")), JSON.stringify(elicited));
});

await check("elicitation from a handler", async () => {
  const res = await client.callTool({ name: "ask", arguments: { question: "Favourite colour?" } });
  if (stateless) {
    assert(res.isError && text(res).includes("elicitation"), text(res));
    return;
  }
  assert(!res.isError && text(res) === "blue", text(res));
});

await client.close();
process.exit(failed ? 1 : 0);
