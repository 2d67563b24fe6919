// The tools server.mjs (the TypeScript SDK 1.32.2) and server-v2.mjs (its v2 line) both serve,
// for what runtime/mcp/mount's interop test checks a mount passes through: validation (add,
// shout), a structured result and its output schema (add), progress and cancellation (wait,
// then cancelled says how many waits were cancelled), tools/list_changed (enable registers a
// new tool) and protocol (the revision the call came on).
import { z } from "zod";

// The count of waits cancelled, over all connections.
let cancelled = 0;

// registerTools registers the tools on server (either SDK's McpServer). request(extra) gives
// what the SDK hands a handler as { meta, notify, signal }: the request's _meta, a function
// sending a notification tied to the request, and the request's abort signal. protocol()
// is the revision negotiated.
export function registerTools(server, { request, protocol }) {
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
      const { meta, notify, signal } = request(extra);
      const token = meta?.progressToken;
      if (token !== undefined) {
        await notify({
          method: "notifications/progress",
          params: { progressToken: token, progress: 1, total: 2, message: "half way" },
        });
      }
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
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

  server.registerTool(
    "protocol",
    { description: "Says the protocol revision of this call.", annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: "text", text: protocol() ?? "unknown" }] }),
  );
}

// confirmTool is the name and config of confirm, which asks the user whether to go on with
// a step (the question's message is "Go on with STEP?") and says what they answered; each
// server asks as its SDK does.
export const confirmTool = [
  "confirm",
  {
    description: "Asks the user whether to go on with a step, and says what they answered.",
    inputSchema: { step: z.string().min(1).max(40) },
    annotations: { readOnlyHint: true },
  },
];

// answerSchema is what confirm asks: whether to go on, and a note the answer carries back.
export const answerSchema = z.object({ ok: z.boolean(), note: z.string().optional() });

// answered is confirm's result for an accepted answer.
export function answered(step, answer) {
  const text = `${answer.ok ? "going on with" : "stopping"} ${step}${answer.note ? `: ${answer.note}` : ""}`;
  return { content: [{ type: "text", text }] };
}
