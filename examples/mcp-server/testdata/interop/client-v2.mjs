// An MCP client from another implementation, the official TypeScript SDK's v2 line
// (@modelcontextprotocol/client 2.4.0), checking examples/mcp-server with the checks of
// checks.mjs. Run by interop_test.go:
//
//	node client-v2.mjs [--protocol=VERSION] stdio PATH-TO-SERVER-BINARY [ARGS...]
//	node client-v2.mjs [--protocol=VERSION] [--stateless] [--token=TOKEN] http URL
//
// By default it negotiates as v2 does when asked to ('auto'): a server/discover probe first,
// 2026-07-28 when the server offers it, else the 2025 initialize handshake (the go-sdk
// refuses 2026-07-28 over stateful HTTP). --protocol=VERSION makes it a 2025-era client
// offering only VERSION.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

import { answerQuestions, connect, parseArgs, runChecks } from "./checks.mjs";

const args = parseArgs(process.argv);
const client = new Client(
  { name: "interop-v2", version: "1.0.0" },
  {
    capabilities: { elicitation: {} },
    ...(args.protocol ? { supportedProtocolVersions: [args.protocol] } : { versionNegotiation: { mode: "auto" } }),
  },
);
client.setRequestHandler("elicitation/create", answerQuestions);

const watched = await connect(client, args, { Stdio: StdioClientTransport, HTTP: StreamableHTTPClientTransport });

await runChecks({
  client,
  args,
  watched,
  protocol: client.getNegotiatedProtocolVersion(),
  callTool: (params, options) => client.callTool(params, options),
  // v2 walks every page itself when no cursor is given; the pages are the requests it sent.
  listToolNames: async () => {
    const before = watched.sent.get("tools/list") ?? 0;
    const { tools } = await client.listTools(undefined, { cacheMode: "bypass" });
    return { names: tools.map((t) => t.name), pages: watched.sent.get("tools/list") - before };
  },
});
