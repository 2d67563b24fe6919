// The checks that client.mjs (the TypeScript SDK 1.32.2) and client-v2.mjs (its v2 line,
// @modelcontextprotocol/client) make of examples/mcp-server, written once against what the two
// clients share. Each prints one line per check ("ok NAME" or "FAIL NAME: why") after a line
// "protocol VERSION" naming the revision the client negotiated; interop_test.go asserts both.
//
// What the server can do depends on the revision and the transport: stateless HTTP before
// 2026-07-28 has no way to reach the client (approval fails closed, a handler's question is
// refused, a cancel is not routed); on 2026-07-28 the server asks through input-required
// results, which the client answers by calling again, so stateless HTTP asks too.

// FIRST_MODERN is the first revision of the "modern era" (no initialize, per-request _meta,
// input-required results).
const FIRST_MODERN = "2026-07-28";

// parseArgs reads the command line both clients take:
//
//	node CLIENT [OPTIONS] stdio PATH-TO-SERVER-BINARY [ARGS...] (ARGS go to the server)
//	node CLIENT [OPTIONS] http URL
//
// OPTIONS: --stateless (the HTTP server keeps no session), --token=TOKEN (the bearer token to
// send over HTTP), --protocol=VERSION (the only revision to offer; client-v2.mjs).
export function parseArgs(argv) {
  const args = { stateless: false };
  let i = 2;
  for (; argv[i]?.startsWith("--"); i++) {
    const [name, value] = argv[i].slice(2).split(/=(.*)/s);
    if (name === "stateless" && value === undefined) args.stateless = true;
    else if ((name === "token" || name === "protocol") && value) args[name] = value;
    else usage(argv, `unknown option ${argv[i]}`);
  }
  [args.mode, args.target, ...args.rest] = argv.slice(i);
  if ((args.mode !== "stdio" && args.mode !== "http") || !args.target) usage(argv, "no transport");
  return args;
}

function usage(argv, why) {
  console.log(`FAIL usage (${why}): ${argv[1]} [--stateless] [--token=TOKEN] [--protocol=VERSION] stdio SERVER [ARGS...] | http URL`);
  process.exit(2);
}

// connect connects client over the transport args names, built with the SDK's classes
// (Stdio and HTTP), and returns what watchTransport watches of it.
export async function connect(client, args, { Stdio, HTTP }) {
  const transport =
    args.mode === "stdio"
      ? new Stdio({ command: args.target, args: args.rest, stderr: "inherit" })
      : new HTTP(new URL(args.target), {
          requestInit: args.token ? { headers: { Authorization: `Bearer ${args.token}` } } : undefined,
        });
  client.onerror = (err) => console.log(`note (client): ${err}`);
  const watched = watchTransport(transport);
  await client.connect(transport);
  return watched;
}

// watchTransport counts the requests the client sends by method and records the protocol
// version a 2025-era client adopts from the initialize result (both SDKs call
// setProtocolVersion when a transport has it).
function watchTransport(transport) {
  const sent = new Map();
  const watched = { sent, protocol: undefined };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (message.method) sent.set(message.method, (sent.get(message.method) ?? 0) + 1);
    return send(message, options);
  };
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    watched.protocol = version;
    setProtocolVersion?.(version);
  };
  return watched;
}

// elicited holds the messages of the questions answerQuestions was asked.
const elicited = [];

// answerQuestions is the elicitation handler of both clients. It answers as a user would:
// it approves what asks "Allow …" and answers "blue" to anything else.
export async function answerQuestions(req) {
  elicited.push(req.params.message);
  if (req.params.message.startsWith("Allow")) {
    return { action: "accept", content: { approve: true } };
  }
  return { action: "accept", content: { answer: "blue" } };
}

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

const text = (res) => res.content?.[0]?.text ?? "";

// runChecks makes every check and exits: 0 when all passed, 1 otherwise.
//
// peer holds the connected client, args (parseArgs's), watched (connect's) and what differs
// between the SDKs: callTool(params, options) with the request options (onprogress, signal),
// listToolNames() returning the names and the number of tools/list requests it took, and
// protocol, the negotiated revision.
export async function runChecks(peer) {
  const { client, callTool, protocol } = peer;
  const { stateless } = peer.args;
  const { sent } = peer.watched;
  const modern = protocol >= FIRST_MODERN;
  // reachesClient: the server can ask the user and hear of a cancel.
  const reachesClient = !stateless || modern;
  let failed = 0;
  console.log(`protocol ${protocol}`);
  const check = async (name, fn) => {
    try {
      await fn();
      console.log(`ok ${name}`);
    } catch (err) {
      failed++;
      // The message and where it was thrown: the SDKs' stacks are long and say little more.
      const at = err?.stack
        ?.split("\n")
        .find((line) => line.includes("checks.mjs") && !line.includes("at assert "))
        ?.trim();
      console.log(`FAIL ${name}: ${err?.message ?? err}${at ? ` (${at})` : ""}`);
    }
  };

  await check("tools/list with pagination", async () => {
    const { names, pages } = await peer.listToolNames();
    assert(pages > 1, `one page only (${pages}); start the server with -page-size`);
    assert(
      JSON.stringify(names) === JSON.stringify(["ask", "count", "get_weather", "send_note", "table", "whoami"]),
      `tools: ${names}`,
    );
  });

  await check("valid call with structured content", async () => {
    const res = await callTool({ name: "get_weather", arguments: { city: "Tokyo", days: 1 } });
    assert(!res.isError, text(res));
    assert(res.structuredContent?.city === "Tokyo", JSON.stringify(res.structuredContent));
  });

  await check("invalid arguments are a tool error the model can fix", async () => {
    const res = await callTool({ name: "get_weather", arguments: { citty: "Tokyo" } });
    assert(res.isError, "not an error");
    assert(text(res).includes('did you mean "city"'), text(res));
  });

  await check("handler error", async () => {
    const res = await callTool({ name: "get_weather", arguments: { city: "Atlantis" } });
    assert(res.isError && text(res).includes("no weather station"), text(res));
  });

  await check("structured result larger than the cap", async () => {
    // The SDKs validate structuredContent against the tool's outputSchema (1.x threw before).
    const res = await callTool({ name: "table", arguments: { rows: 2000 } });
    assert(!res.isError, text(res));
    assert(res.structuredContent.rows.length === 2000, "structuredContent is not whole");
    assert(text(res).length <= 1024, `the model reads ${text(res).length} bytes`);
    const link = res.content.find((c) => c.type === "resource_link");
    assert(link, "no resource_link");
    const read = await client.readResource({ uri: link.uri });
    assert(JSON.parse(read.contents[0].text).rows.length === 2000, "resources/read");
    // It is this user's: on 2026-07-28 no cache may serve it to another (SEP-2549).
    assert(!modern || read.cacheScope === "private", `resources/read cacheScope ${read.cacheScope}`);
  });

  await check("progress", async () => {
    const seen = [];
    // A pause after each report: the SDK handles notifications a tick after responses, so a
    // notification read together with the response would reach no handler.
    const res = await callTool(
      { name: "count", arguments: { to: 3, step_millis: 30 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    assert(!res.isError, text(res));
    assert(JSON.stringify(seen) === "[1,2,3]", `progress: ${JSON.stringify(seen)}`);
  });

  await check("cancellation", async () => {
    const controller = new AbortController();
    const call = callTool(
      { name: "count", arguments: { to: 1000, step_millis: 50 } },
      {
        signal: controller.signal,
        onprogress: (p) => {
          if (p.progress >= 2) controller.abort("enough");
        },
      },
    );
    let aborted = false;
    try {
      await call;
    } catch {
      aborted = true;
    }
    assert(aborted, "the call was not aborted");
    if (!reachesClient) return; // stateless HTTP before 2026-07-28 cannot route the cancellation (documented)
    // The handler saw its ctx cancelled: the session remembers where it stopped. (Each
    // stateless request would be a session of its own; interop_test.go starts the stateless
    // server with -token, which keys sessions by user.)
    for (let i = 0; i < 100; i++) {
      const who = await callTool({ name: "whoami", arguments: {} });
      if (who.structuredContent.cancelled_at > 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the handler never saw the cancellation");
  });

  // calls counts the tools/call requests fn sends: on 2026-07-28 a question is an
  // input-required result, answered by calling again.
  const calls = async (fn) => {
    const before = sent.get("tools/call") ?? 0;
    const res = await fn();
    return { res, calls: sent.get("tools/call") - before };
  };

  await check("approval by elicitation", async () => {
    const { res, calls: n } = await calls(() => callTool({ name: "send_note", arguments: { to: "Ann", text: "hi" } }));
    if (!reachesClient) {
      // No way to reach the client: fail closed.
      assert(res.isError && text(res).includes("approval"), text(res));
      return;
    }
    assert(!res.isError, text(res));
    assert(text(res) === "Sent to Ann: hi", text(res));
    assert(elicited.some((m) => m.includes("send_note") && m.includes("Risk: medium")), JSON.stringify(elicited));
    assert(n === (modern ? 2 : 1), `${n} tools/call requests`);
  });

  await check("elicitation from a handler", async () => {
    const { res, calls: n } = await calls(() => callTool({ name: "ask", arguments: { question: "Favourite colour?" } }));
    if (!reachesClient) {
      assert(res.isError && text(res).includes("elicitation"), text(res));
      return;
    }
    assert(!res.isError && text(res) === "blue", text(res));
    assert(elicited.includes("Favourite colour?"), JSON.stringify(elicited));
    assert(n === (modern ? 2 : 1), `${n} tools/call requests`);
  });

  await client.close();
  process.exit(failed ? 1 : 0);
}
