// An MCP client from another implementation, the official TypeScript SDK 1.32.2 (a 2025-11-25
// client), checking examples/mcp-server with the checks of checks.mjs. Run by
// interop_test.go:
//
//	node client.mjs stdio PATH-TO-SERVER-BINARY [ARGS...]
//	node client.mjs [--stateless] [--token=TOKEN] http URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

import { answerQuestions, connect, parseArgs, runChecks } from "./checks.mjs";

const args = parseArgs(process.argv);
if (args.protocol) {
  console.log("FAIL usage: 1.32.2 always offers 2025-11-25 (--protocol is for client-v2.mjs)");
  process.exit(2);
}
const client = new Client({ name: "interop", version: "1.0.0" }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, answerQuestions);

const watched = await connect(client, args, { Stdio: StdioClientTransport, HTTP: StreamableHTTPClientTransport });

await runChecks({
  client,
  args,
  watched,
  protocol: watched.protocol,
  callTool: (params, options) => client.callTool(params, undefined, options),
  listToolNames: async () => {
    const names = [];
    let cursor;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    return { names, pages };
  },
});
