import type { McpServer } from "../index.js";
import { connectInProcess } from "./in-process-client.js";
import { divertStdout, printError } from "./stdout.js";

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
 * connected to `serve` would, and returns its result (a JSON-RPC error
 * rejects with its message). Progress and log notifications go to stderr, and
 * so does anything author code writes to stdout meanwhile.
 */
export async function requestInProcess(
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
): Promise<unknown> {
  const restoreStdout = divertStdout();
  try {
    const client = await connectInProcess(server, (notification, notificationParams) => {
      if (notification === "notifications/progress")
        void printError(describeProgress(notificationParams));
      if (notification === "notifications/message")
        void printError(describeLog(notificationParams));
    });
    try {
      return await client.request(method, params);
    } finally {
      await client.close();
    }
  } finally {
    restoreStdout();
  }
}

/** `there is no prompt "x" in dir; the prompts are a, b` */
export function noSuch(kind: string, name: string, dir: string, existing: string[]): string {
  const listed =
    existing.length > 0 ? `the ${kind}s are ${existing.join(", ")}` : `it has no ${kind}s`;
  return `there is no ${kind} "${name}" in ${dir}; ${listed}`;
}
