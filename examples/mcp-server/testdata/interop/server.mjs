// An MCP server from another implementation, the official TypeScript SDK 1.32.2 (zod
// schemas; a 2025-11-25 server), mounted by runtime/mcp/mount's interop test over stdio:
//
//	node server.mjs
//
// Its tools are server-tools.mjs's and confirm, which asks the user with an
// elicitation/create request sent while the call runs (tied to it by relatedRequestId, which
// stdio does not carry on the wire).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

import { answerSchema, answered, confirmTool, registerTools } from "./server-tools.mjs";

const server = new McpServer({ name: "interop-ts", version: "1.0.0" });
let negotiated;
registerTools(server, {
  request: (extra) => ({ meta: extra._meta, notify: extra.sendNotification, signal: extra.signal }),
  protocol: () => negotiated,
});
server.registerTool(...confirmTool, async ({ step }, extra) => {
  const res = await server.server.elicitInput(
    { message: `Go on with ${step}?`, requestedSchema: z.toJSONSchema(answerSchema) },
    { relatedRequestId: extra.requestId },
  );
  if (res.action !== "accept") return { content: [{ type: "text", text: `not answered (${res.action})` }] };
  return answered(step, answerSchema.parse(res.content));
});

const transport = new StdioServerTransport();
// 1.32.2 keeps no negotiated version: it is the one its initialize result names.
const send = transport.send.bind(transport);
transport.send = (message, options) => {
  if (message.result?.protocolVersion) negotiated = message.result.protocolVersion;
  return send(message, options);
};
await server.connect(transport);
