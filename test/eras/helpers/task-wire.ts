/**
 * A raw 2026-07-28 client of the real CLI, over stdio or Streamable HTTP,
 * for the tasks extension, which no official client speaks yet: requests
 * with the envelope added (and, over HTTP, the headers that mirror them),
 * and listen streams whose notifications a test waits for.
 */

import { SseReader } from "../../helpers/sse-reader.js";
import { postStateless } from "../../helpers/stateless-post.js";
import { startCli } from "../../http-cli/helpers.js";
import { Inbox } from "../../server/helpers/inbox.js";
import { type Json, RawClient } from "../../server/helpers/raw-client.js";

export const TASKS = "io.modelcontextprotocol/tasks";

/** What a client that follows tasks declares: the extension, and what tasks may ask. */
export const DECLARING = { elicitation: {}, extensions: { [TASKS]: {} } };

export interface Listening {
  readonly acknowledged: Json;
  /** The first `notifications/tasks` of the stream, received or to come, that matches. */
  waitFor(matches: (notification: Json) => boolean, what: string): Promise<Json>;
}

export interface TaskWire {
  /** Sends one request and resolves with the response message (result or error). */
  request(method: string, params: Json, capabilities?: Json): Promise<Json>;
  /** Opens a listen stream for `taskIds`; resolves with its acknowledgement, once it has come. */
  listen(taskIds: string[]): Promise<Listening>;
  /**
   * Resolves with the task (as `tasks/get` and `notifications/tasks` show it,
   * without `resultType` and `_meta`) once it has `status`: read once a listen
   * stream follows it, then from the stream.
   */
  until(taskId: string, status: string): Promise<Json>;
}

function envelope(params: Json, capabilities: Json): Json {
  return {
    ...params,
    _meta: {
      ...params._meta,
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    },
  };
}

/** A client of `mcp-dir serve dir`, over `transport`. */
export async function taskWire(transport: "stdio" | "http", dir: string): Promise<TaskWire> {
  if (transport === "stdio") return following(overStdio(dir));
  const { url } = await startCli(["serve", dir, "--http", "--port", "0"]);
  return httpTaskWire(url);
}

/** A client of the server at `url` (Streamable HTTP). */
export function httpTaskWire(url: string): TaskWire {
  return following(overHttp(url));
}

function following(wire: Omit<TaskWire, "until">): TaskWire {
  return {
    ...wire,
    async until(taskId, status) {
      const stream = await wire.listen([taskId]);
      const now = await wire.request("tasks/get", { taskId });
      const { resultType: _type, _meta, ...read } = now.result ?? {};
      if (read.status === status) return read;
      const { params } = await stream.waitFor(
        (message) => message.params.status === status,
        `task ${taskId} to be ${status}`,
      );
      const { _meta: _tag, ...told } = params;
      return told;
    },
  };
}

function overStdio(dir: string): Omit<TaskWire, "until"> {
  const client = RawClient.cli(["serve", dir]);
  return {
    request: (method, params, capabilities = DECLARING) =>
      client.request(method, envelope(params, capabilities)),
    async listen(taskIds) {
      const id = client.id();
      const since = client.messages.items.length;
      client.send({
        jsonrpc: "2.0",
        id,
        method: "subscriptions/listen",
        params: envelope({ notifications: { taskIds } }, DECLARING),
      });
      const ours = (message: Json) =>
        message.params?._meta?.["io.modelcontextprotocol/subscriptionId"] === id;
      const acknowledged = await client.messages.waitFor(
        (message) => message.method === "notifications/subscriptions/acknowledged" && ours(message),
        "the listen stream's acknowledgement",
        since,
      );
      return {
        acknowledged,
        waitFor: (matches, what) =>
          client.messages.waitFor(
            (message) =>
              message.method === "notifications/tasks" && ours(message) && matches(message),
            what,
            since,
          ),
      };
    },
  };
}

function overHttp(url: string): Omit<TaskWire, "until"> {
  let nextId = 0;
  const post = (method: string, params: Json, capabilities: Json) => {
    const named = params.name ?? params.taskId;
    const { _meta, ...rest } = params;
    return postStateless(url, {
      id: ++nextId,
      method,
      params: rest,
      ...(typeof named === "string" && { name: named }),
      meta: { ..._meta, "io.modelcontextprotocol/clientCapabilities": capabilities },
    });
  };
  return {
    async request(method, params, capabilities = DECLARING) {
      const response = await post(method, params, capabilities);
      if (!response.headers.get("content-type")?.includes("text/event-stream")) {
        return response.json();
      }
      // Progress went first: the response is the stream's last message.
      const reader = new SseReader(response);
      let last: Json;
      for (let event = await reader.nextMessage(); event; event = await reader.nextMessage()) {
        last = event.message;
      }
      return last;
    },
    async listen(taskIds) {
      const response = await post(
        "subscriptions/listen",
        { notifications: { taskIds } },
        DECLARING,
      );
      const reader = new SseReader(response);
      const first = await reader.nextMessage();
      const notifications = new Inbox<Json>();
      const read = async () => {
        for (let event = await reader.nextMessage(); event; event = await reader.nextMessage()) {
          if (event.message.method === "notifications/tasks") notifications.push(event.message);
        }
      };
      void read().catch(() => {});
      return {
        acknowledged: first?.message,
        waitFor: (matches, what) => notifications.waitFor(matches, what),
      };
    },
  };
}
