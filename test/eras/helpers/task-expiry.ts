/** A task server whose tasks live a short while, and what a stream tells of one that expires. */
import { expect } from "vitest";
import type { Json } from "../../server/helpers/raw-client.js";

/** Long enough to create a task and follow it on a loaded machine; tests wait for the notice, not this. */
export const TTL_MS = 3000;

export const EXPIRED = "The task's time to live passed before it finished";

/** `files` with its config's tasks kept TTL_MS. */
export function withTtl(files: Record<string, string>): Record<string, string> {
  const config = JSON.parse(files["mcp-dir.config.json"] ?? "{}") as Json;
  return {
    ...files,
    "mcp-dir.config.json": JSON.stringify({ ...config, tasks: { ttlMs: TTL_MS } }),
  };
}

/** The `notifications/tasks` params a listen stream sends for `created` once it has expired. */
export function expiredNotice(created: Json): Json {
  return {
    _meta: { "io.modelcontextprotocol/subscriptionId": expect.any(String) },
    taskId: created.taskId,
    status: "failed",
    statusMessage: EXPIRED,
    error: { code: -32603, message: EXPIRED },
    createdAt: created.createdAt,
    lastUpdatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    ttlMs: TTL_MS,
    pollIntervalMs: created.pollIntervalMs,
  };
}
