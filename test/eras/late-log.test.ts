/**
 * A handler's log sent after its request has ended (it answered, or it was
 * cancelled) is not sent to a 2025-11-25 client, as 2026-07-28 sends nothing
 * for an ended request: over stdio and HTTP, the v1 SDK client against the
 * real CLI. The log is sent later by another call, through the ended
 * request's ctx, so nothing waits on a timer; that call then announces a
 * resource update, which travels after any such log (on HTTP both go on the
 * GET stream), so the client has heard everything it would be sent.
 */
import { describe, expect, it } from "vitest";
import { deferred } from "../http-cli/helpers.js";
import { connectClient, servedFiles } from "./helpers/clients.js";

const MARKER = "test://late-log/marker";

const FILES = {
  "tools/late.ts": `import { defineTool } from "mcp-dir";
/** The ctx of the last call of answers or waits-for-cancel, whose request has ended by the time it is used. */
let ended;
/** Resolves once the last call of waits-for-cancel is cancelled (a cancel over HTTP is a POST of its own). */
let stopped = Promise.resolve();
export const answers = defineTool({
  name: "answers",
  description: "Logs, and answers",
  handler: (_args, ctx) => {
    ended = ctx;
    ctx.log.info("while answering");
    return "answered";
  },
});
export const waitsForCancel = defineTool({
  name: "waits-for-cancel",
  description: "Logs, then waits until it is cancelled",
  handler: async (_args, ctx) => {
    ended = ctx;
    stopped = new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    ctx.log.info("while waiting");
    await stopped;
    return "cancelled";
  },
});
export const logsLate = defineTool({
  name: "logs-late",
  description: "Logs through the ended request's ctx, then announces the marker resource",
  handler: async (_args, ctx) => {
    await stopped;
    ended.log.info("after the end");
    ctx.log.info("from logs-late");
    ctx.resourceUpdated(${JSON.stringify(MARKER)});
    return "logged";
  },
});
`,
};

const serve = servedFiles(FILES);

/**
 * A v1 client of the served directory, subscribed to the marker: the log
 * messages it hears, in order, and `waiting`, resolved once the one of
 * waits-for-cancel is heard.
 */
async function connect(transport: "stdio" | "http") {
  const logged: unknown[] = [];
  const waiting = deferred();
  let marked = deferred();
  const client = await connectClient("v1 at 2025-11-25", await serve(transport), {
    onNotification: ({ method, params }) => {
      if (method === "notifications/message") logged.push(params?.data);
      if (params?.data === "while waiting") waiting.resolve();
      if (method === "notifications/resources/updated" && params?.uri === MARKER) marked.resolve();
    },
  });
  await client.subscribeResource({ uri: MARKER });
  /** Calls logs-late, and resolves once its marker has arrived. */
  const logLate = async () => {
    marked = deferred();
    expect(await client.callTool({ name: "logs-late" })).toEqual({
      content: [{ type: "text", text: "logged" }],
    });
    await marked.promise;
  };
  return { client, logged, logLate, waiting: waiting.promise };
}

describe.each(["stdio", "http"] as const)("over %s, a 2025-11-25 session", (transport) => {
  it("is not sent a log of a request that has answered", async () => {
    const { client, logged, logLate } = await connect(transport);
    expect(await client.callTool({ name: "answers" })).toEqual({
      content: [{ type: "text", text: "answered" }],
    });
    await logLate();
    expect(logged).toEqual(["while answering", "from logs-late"]);
  });

  it("is not sent a log of a request it cancelled", async () => {
    const { client, logged, logLate, waiting } = await connect(transport);
    const stop = new AbortController();
    const called = client.callTool({ name: "waits-for-cancel" }, { signal: stop.signal });
    await waiting;
    stop.abort(new Error("the test gave up"));
    await expect(called).rejects.toThrow("the test gave up");
    await logLate();
    expect(logged).toEqual(["while waiting", "from logs-late"]);
  });
});
