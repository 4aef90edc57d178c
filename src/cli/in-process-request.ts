import type { McpServer } from "../index.js";
import { META } from "../protocol/meta.js";
import { UI_EXTENSION, VIEW_MIME_TYPE } from "../protocol/ui.js";
import { followTask } from "./follow-task.js";
import { connectInProcess, type InProcessOptions } from "./in-process-client.js";
import { divertStdout, printError } from "./stdout.js";

const VIEWS_SHOWN = { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } };

/** "progress 3/10 copying" */
export function describeProgress(params: Record<string, unknown>): string {
  const total = params.total === undefined ? "" : `/${params.total}`;
  const message = typeof params.message === "string" ? ` ${params.message}` : "";
  return `progress ${params.progress}${total}${message}`;
}

/** "log info db: connected" */
export function describeLog(params: Record<string, unknown>): string {
  const logger = typeof params.logger === "string" ? ` ${params.logger}` : "";
  const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
  return `log ${params.level}${logger}: ${data}`;
}

/**
 * Sends one request to `server` through the in-process client, as a client
 * connected to `serve` would, and returns its result without what 2026-07-28
 * adds to results (their type, the server's identity, caching hints); a JSON-RPC error
 * rejects with its message. Progress and log notifications go to stderr, and
 * so does anything author code writes to stdout meanwhile. `answering` says
 * what the client can answer when a handler asks for input. A call answered
 * with a task (when `answering` declares the tasks extension) is followed to
 * its end, its status on stderr, and resolves to the task's result.
 */
export async function requestInProcess<T = Record<string, unknown>>(
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
  answering: Pick<InProcessOptions, "capabilities" | "fulfil"> = {},
): Promise<T> {
  const restoreStdout = divertStdout();
  try {
    const client = connectInProcess(server, {
      ...answering,
      // The developer's client: views and the tools only views call are there to try.
      capabilities: {
        ...answering.capabilities,
        extensions: { ...answering.capabilities?.extensions, ...VIEWS_SHOWN },
      },
      onNotification: (notification, notificationParams) => {
        if (notification === "notifications/progress")
          void printError(describeProgress(notificationParams));
        if (notification === "notifications/message")
          void printError(describeLog(notificationParams));
      },
    });
    try {
      let result = await client.request(method, params);
      // A call answered with a task: followed to its end, its status told as it changes.
      if (result.resultType === "task") {
        result = await followTask(client, result, answering.fulfil, (line) => {
          void printError(line);
        });
      }
      return withoutFraming(result) as T;
    } finally {
      await client.close();
    }
  } finally {
    restoreStdout();
  }
}

function withoutFraming({
  resultType: _type,
  ttlMs: _ttl,
  cacheScope: _scope,
  _meta,
  ...rest
}: Record<string, unknown>) {
  const { [META.serverInfo]: _server, ...own } = (_meta ?? {}) as Record<string, unknown>;
  return Object.keys(own).length > 0 ? { ...rest, _meta: own } : rest;
}

/** `there is no prompt "x" in dir; the prompts are a, b` */
export function noSuch(kind: string, name: string, dir: string, existing: string[]): string {
  const listed =
    existing.length > 0 ? `the ${kind}s are ${existing.join(", ")}` : `it has no ${kind}s`;
  return `there is no ${kind} "${name}" in ${dir}; ${listed}`;
}
