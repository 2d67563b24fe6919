// An MCP server from another implementation, the official TypeScript SDK's v2 line
// (@modelcontextprotocol/server 2.4.0, zod schemas), mounted by runtime/mcp/mount's interop
// test over stdio:
//
//	node server-v2.mjs
//
// It serves both eras from one factory (serveStdio): 2026-07-28 to a client that opens with
// server/discover, as the mount's go-sdk client does, and 2025-11-25 to one that opens with
// initialize. Its tools are server-tools.mjs's and confirm, which asks the user for the
// call: on 2026-07-28 with an input-required result (the input request keyed go_on),
// answered by the client calling again; before it with an elicitation/create request.
import { McpServer, acceptedContent, inputRequired } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

import { answerSchema, answered, confirmTool, registerTools } from "./server-tools.mjs";

serveStdio(() => {
  const server = new McpServer({ name: "interop-ts-v2", version: "1.0.0" });
  const protocol = () => server.server.getNegotiatedProtocolVersion();
  registerTools(server, {
    request: (ctx) => ({ meta: ctx.mcpReq._meta, notify: ctx.mcpReq.notify, signal: ctx.mcpReq.signal }),
    protocol,
  });
  server.registerTool(...confirmTool, async ({ step }, ctx) => {
    const question = { message: `Go on with ${step}?`, requestedSchema: answerSchema };
    if (protocol() < "2026-07-28") {
      const res = await ctx.mcpReq.elicitInput({ ...question, requestedSchema: z.toJSONSchema(answerSchema) });
      if (res.action !== "accept") return { content: [{ type: "text", text: `not answered (${res.action})` }] };
      return answered(step, answerSchema.parse(res.content));
    }
    // The answer comes on the call made again, under the key it was asked with.
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "go_on", answerSchema);
    if (answer === undefined) {
      return inputRequired({ inputRequests: { go_on: inputRequired.elicit(question) } });
    }
    return answered(step, answer);
  });
  return server;
});
