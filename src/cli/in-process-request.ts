import { type ClientOptions, InMemoryClient, type Progress } from "../client/index.js";
import type { McpServer } from "../index.js";
import { UI_EXTENSION, VIEW_MIME_TYPE } from "../protocol/ui.js";
import { divertStdout, printError } from "./stdout.js";

const VIEWS_SHOWN = { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } };

/** The longest a timer may wait: it holds the process open, never fires in practice. */
const HOLD_OPEN_MS = 2 ** 31 - 1;

/** "progress 3/10 copying" */
export function describeProgress({ progress, total, message }: Progress): string {
  return `progress ${progress}${total === undefined ? "" : `/${total}`}${message === undefined ? "" : ` ${message}`}`;
}

/** "log info db: connected" */
export function describeLog(params: Record<string, unknown>): string {
  const logger = typeof params.logger === "string" ? ` ${params.logger}` : "";
  const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
  return `log ${params.level}${logger}: ${data}`;
}

/** The request options `call`, `get` and `read` send with: progress to stderr. */
export const SHOW_PROGRESS = {
  onprogress: (progress: Progress) => void printError(describeProgress(progress)),
};

/**
 * Connects the in-memory client (the one `mcp-dir/testing` gives) to
 * `server` as a 2026-07-28 client, runs `ask` with it, and closes it. Log
 * messages go to stderr, and so does anything author code writes to stdout
 * meanwhile; a JSON-RPC error rejects with its message. `answering` says
 * what the client can answer when a handler asks for input. The process is
 * held open until the answer comes: a handler's time limit holds none (a
 * hung handler must not keep a server alive), so a handler that never
 * settles would otherwise end the process, silently, before its limit.
 */
export async function requestInProcess<T>(
  server: McpServer,
  ask: (client: InMemoryClient) => Promise<T>,
  answering: ClientOptions = {},
): Promise<T> {
  const restoreStdout = divertStdout();
  const holdOpen = setInterval(() => {}, HOLD_OPEN_MS);
  try {
    const client = await InMemoryClient.connect(server, {
      ...answering,
      // The developer's client: views and the tools only views call are there to try.
      capabilities: {
        ...answering.capabilities,
        extensions: { ...answering.capabilities?.extensions, ...VIEWS_SHOWN },
      },
      clientInfo: { name: "mcp-dir", version: "0" },
      onNotification: ({ method, params }) => {
        if (method === "notifications/message") void printError(describeLog(params));
      },
    });
    try {
      return await ask(client);
    } finally {
      await client.close();
    }
  } finally {
    clearInterval(holdOpen);
    restoreStdout();
  }
}

/** `there is no prompt "x" in dir; the prompts are a, b` */
export function noSuch(kind: string, name: string, dir: string, existing: string[]): string {
  const listed =
    existing.length > 0 ? `the ${kind}s are ${existing.join(", ")}` : `it has no ${kind}s`;
  return `there is no ${kind} "${name}" in ${dir}; ${listed}`;
}
