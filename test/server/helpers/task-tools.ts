/**
 * Tools that run as tasks, steered by the test without sleeping (gates it
 * opens, why each run was aborted), and a 2026-07-28 client of a server in
 * the same process: what the task tests of one process and of Redis share.
 */
import { z } from "zod";
import { defineTool, type McpServer } from "../../../src/index.js";
import type { StoredTask } from "../../../src/server/tasks/task-store.js";
import type { Json } from "./raw-client.js";

const TASKS = "io.modelcontextprotocol/tasks";

/** Gates by key, opened by the test; and why each run's signal was aborted. */
export const gates = new Map<string, () => void>();
export const aborted: string[] = [];

export const waits = defineTool({
  name: "waits",
  description: "Waits for its gate",
  task: "optional",
  timeoutMs: 0,
  input: { key: z.string() },
  handler: ({ key }, ctx) =>
    new Promise<string>((resolve, reject) => {
      gates.set(key, () => resolve(`done ${key}`));
      ctx.signal.addEventListener("abort", () => {
        aborted.push(`${key}: ${ctx.signal.reason.message}`);
        reject(ctx.signal.reason);
      });
    }),
});

export const asks = defineTool({
  name: "asks",
  description: "Asks once working",
  task: "optional",
  input: { key: z.string() },
  handler: async ({ key }, ctx) => {
    await new Promise<void>((resolve) => gates.set(key, resolve));
    const answer = await ctx.elicit({ message: "Name?", schema: { name: z.string() } });
    return answer.action === "accept" ? `Hello, ${answer.content.name}` : "nobody";
  },
});

/** Forgets the gates and the abort reasons of the last test. */
export function resetTaskTools(): void {
  gates.clear();
  aborted.length = 0;
}

let nextId = 0;

/**
 * One 2026-07-28 request of a client that declares tasks (and elicitation),
 * as `principal` when given (the subject a transport verified).
 */
export async function send(
  target: McpServer,
  method: string,
  params: Json,
  principal?: string,
  /** Told each notification the request sends (a listen stream's, say). */
  notify: (message: Json) => void = () => {},
): Promise<Json> {
  const response = await target.serveRequest(
    {
      jsonrpc: "2.0",
      id: ++nextId,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {
            elicitation: {},
            extensions: { [TASKS]: {} },
          },
        },
      },
    },
    {
      notify,
      // The caller a transport verified: its subject is the principal tasks are bound to.
      ...(principal !== undefined && {
        auth: {
          subject: principal,
          clientId: undefined,
          scopes: [],
          expiresAt: undefined,
          claims: {},
        },
      }),
    },
  );
  return JSON.parse(JSON.stringify(response));
}

/** Resolves with the task once `server`'s store tells of it with `status` (or of its end: undefined). */
export function told(
  server: McpServer,
  taskId: string,
  status?: string,
): Promise<StoredTask | undefined> {
  return new Promise((resolve) => {
    const stop = server.tasks.store.subscribe((id, task) => {
      if (id !== taskId || task?.status !== status) return;
      stop();
      resolve(task);
    });
  });
}
