/**
 * Replicas of one folder, as a deployment runs them: the real CLI, `serve
 * --http`, twice, with the same MCP_DIR_STATE_KEY (the test helpers' default)
 * and the same MCP_DIR_REDIS_URL, against a real redis-server.
 */

import { expect } from "vitest";
import { TASK_SERVER } from "../eras/helpers/task-server.js";
import { type SseEvent, SseReader } from "../helpers/sse-reader.js";
import { postStateless } from "../helpers/stateless-post.js";
import {
  type CliServer,
  openGetStream,
  openSession,
  post,
  postHeaders,
  startCli,
} from "../http-cli/helpers.js";
import { Inbox } from "../server/helpers/inbox.js";
import type { Json } from "../server/helpers/raw-client.js";

/** The config of a replicated server whose lease lasts `leaseMs`. */
const replicatedConfig = (leaseMs: number) =>
  JSON.stringify({ name: "replicated", version: "1.0.0", redis: { leaseMs } });

/**
 * The task fixtures (gates a test opens, asks, runs cancelled), with a short
 * lease so that a replica killed is found out soon, a resource whose updates
 * code announces, and a tool that streams before it answers (2025).
 */
export const REPLICATED_SERVER = {
  ...TASK_SERVER,
  "mcp-dir.config.json": replicatedConfig(1500),
  "resources/board.ts": `import { defineResource } from "mcp-dir";
export default defineResource({
  uri: "memo://board",
  description: "A board whose changes code announces",
  read: () => "the board",
});`,
  "tools/touch.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Announces that memo://board changed",
  handler: (_args, ctx) => {
    ctx.resourceUpdated("memo://board");
    return "touched";
  },
});`,
  "tools/stream.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { gate } from "../lib/gates.js";
export default defineTool({
  description: "Reports progress, waits for its gate, then answers",
  input: { key: z.string() },
  handler: async ({ key }, ctx) => {
    await ctx.progress(1, 2, "waiting for " + key);
    return "streamed " + (await gate(key).promise);
  },
});`,
};

/**
 * The same server with a lease no pause of a loaded machine outlasts: a task
 * it runs ends only as it ends it (the others cannot take it for an orphan).
 */
export const STEADY_SERVER = {
  ...REPLICATED_SERVER,
  "mcp-dir.config.json": replicatedConfig(600_000),
};

/** `mcp-dir serve dir --http` on a free port, sharing `redisUrl` with its other replicas. */
export function startReplica(
  dir: string,
  redisUrl: string,
  command: "serve" | "dev" = "serve",
): Promise<CliServer> {
  return startCli([command, dir, "--http", "--port", "0"], {
    env: { MCP_DIR_REDIS_URL: redisUrl },
  });
}

/**
 * A 2025 session on `a` calls `tool` with `key` (id 7, progress token 1);
 * its stream is read to its first progress, then resumed on `b` after it:
 * the stream's priming event, and the resumed stream.
 */
export async function resumedAfterProgress(
  a: CliServer,
  b: CliServer,
  tool: string,
  key: string,
): Promise<{ primed: SseEvent | undefined; resumed: SseReader }> {
  const sessionId = await openSession(a.url);
  const response = await post(
    a.url,
    {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: tool, arguments: { key }, _meta: { progressToken: 1 } },
    },
    postHeaders(sessionId),
  );
  const first = new SseReader(response);
  const primed = await first.next();
  const progressed = await first.next();
  expect(JSON.parse(progressed?.data ?? "").method).toBe("notifications/progress");
  const resumed = new SseReader(
    await openGetStream(b.url, sessionId, { "last-event-id": progressed?.id ?? "" }),
  );
  return { primed, resumed };
}

/** Two replicas of `dir` sharing `redisUrl`, started together. */
export async function startPair(dir: string, redisUrl: string): Promise<[CliServer, CliServer]> {
  const [first, second] = await Promise.all([
    startReplica(dir, redisUrl),
    startReplica(dir, redisUrl),
  ]);
  return [first, second];
}

export interface ListenStream {
  /** Every notification the stream carried after its acknowledgement, in order. */
  readonly notifications: Inbox<Json>;
}

/** A 2026-07-28 `subscriptions/listen` stream on `url`; resolves once it is acknowledged. */
export async function listenTo(url: string, filter: Json): Promise<ListenStream> {
  const response = await postStateless(url, {
    id: 1,
    method: "subscriptions/listen",
    params: { notifications: filter },
  });
  const reader = new SseReader(response);
  const first = await reader.nextMessage();
  if (first?.message.method !== "notifications/subscriptions/acknowledged") {
    throw new Error(`the listen stream began with ${JSON.stringify(first?.message)}`);
  }
  const notifications = new Inbox<Json>();
  void (async () => {
    for (let event = await reader.nextMessage(); event; event = await reader.nextMessage()) {
      notifications.push(event.message as Json);
    }
  })().catch(() => {});
  return { notifications };
}
