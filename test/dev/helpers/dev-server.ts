/**
 * `mcp-dir dev <tmpdir>` with the official SDK client over stdio, and the
 * means to edit its directory and wait for what follows: every notification
 * the client receives and every line the server prints on stderr land in
 * inboxes that a test waits on (never a sleep).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type ClientCapabilities,
  type JSONRPCMessage,
  LoggingMessageNotificationSchema,
  type Notification,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CLI, startCommandHere } from "../../cli/helpers/cli.js";
import { createServerDir, REPO_ROOT, removeServerDirs } from "../../loader/helpers/server-dir.js";
import { Inbox } from "../../server/helpers/inbox.js";

export const TOOLS_CHANGED = "notifications/tools/list_changed";
export const PROMPTS_CHANGED = "notifications/prompts/list_changed";
export const RESOURCES_CHANGED = "notifications/resources/list_changed";
export const RESOURCE_UPDATED = "notifications/resources/updated";
export const LOG_MESSAGE = "notifications/message";

export const WATCHING = "mcp-dir dev: watching";

export interface DevServer {
  /** The server directory (a temporary folder, removed by stopDevServers). */
  readonly dir: string;
  readonly client: Client;
  /** Every notification from the server, in order of arrival. */
  readonly notifications: Inbox<Notification>;
  /** stderr: each item is the whole text received up to then. */
  readonly stderr: Inbox<string>;
  /** Errors the client saw (a line on stdout that is not a message, say). */
  readonly errors: Error[];
  /** The whole of stderr so far, split into lines. */
  lines(): string[];
  /** How many notifications of `method` arrived so far. */
  count(method: string): number;
  /** Waits until `n` notifications of `method` have arrived in all; returns the n-th. */
  waitForCount(method: string, n: number): Promise<Notification>;
  /** Waits until stderr has a line matching `pattern`, `times` times in all. */
  waitForLine(pattern: RegExp | string, times?: number): Promise<string>;
  /** Writes a file of the server directory (relative path), making its folders. */
  write(file: string, content: string): void;
  remove(file: string): void;
  rename(from: string, to: string): void;
}

const running = new Set<{ client: Client }>();

function matchesLine(pattern: RegExp | string, line: string): boolean {
  return typeof pattern === "string" ? line === pattern : pattern.test(line);
}

/**
 * Makes a server directory with `files`, starts `mcp-dir dev` on it (with
 * `args` after the directory) and connects the SDK client. Resolves once the
 * watcher reported its initial scan done, so every edit from then on is seen.
 */
export async function startDev(
  files: Record<string, string>,
  options: {
    args?: string[];
    packageJson?: Record<string, unknown>;
    capabilities?: ClientCapabilities;
    /** Run dev as a child process (see connectDev). */
    spawn?: boolean;
  } = {},
): Promise<DevServer> {
  const dir = await createServerDir(
    files,
    options.packageJson ? { packageJson: options.packageJson } : {},
  );
  return connectDev(dir, options.args, options.capabilities, {}, { spawn: options.spawn === true });
}

/**
 * Starts `mcp-dir dev <dir> ...args` on an existing directory and connects the
 * SDK client. The command runs in this process, its stdio a pair of streams
 * (startCommandHere): what a case checks is what dev reloads, prints and tells
 * clients. With `env` (added to the few variables the SDK passes on) or
 * `spawn` it runs as a child process, as from a shell.
 */
export async function connectDev(
  dir: string,
  args: string[] = [],
  capabilities: ClientCapabilities = {},
  env: Record<string, string> = {},
  { spawn = false } = {},
): Promise<DevServer> {
  const stderr = new Inbox<string>();
  let text = "";
  const heard = (all: string) => {
    text = all;
    stderr.push(text);
  };
  let transport: Transport;
  if (spawn || Object.keys(env).length > 0) {
    const child = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "dev", dir, ...args],
      cwd: REPO_ROOT,
      stderr: "pipe",
      env,
    });
    child.stderr?.on("data", (chunk: Buffer) => heard(text + chunk.toString("utf8")));
    transport = child;
  } else {
    transport = (await startCommandHere(["dev", dir, ...args], heard)).transport;
  }
  const notifications = new Inbox<Notification>();
  const client = new Client({ name: "mcp-dir-dev-test", version: "1.0.0" }, { capabilities });
  for (const schema of [
    ToolListChangedNotificationSchema,
    PromptListChangedNotificationSchema,
    ResourceListChangedNotificationSchema,
    ResourceUpdatedNotificationSchema,
    LoggingMessageNotificationSchema,
  ]) {
    client.setNotificationHandler(schema, async (notification) => {
      notifications.push(notification);
    });
  }
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  running.add({ client });
  await client.connect(transport);
  // The SDK handles a notification in a microtask but settles a response at once:
  // handing responses over a macrotask later makes every notification sent before
  // a response be counted by the time the test sees that response.
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ("method" in message) deliver?.(message);
    else setImmediate(() => deliver?.(message));
  };

  const lines = () => text.split("\n").slice(0, -1);
  const count = (method: string) => notifications.items.filter((n) => n.method === method).length;
  const server: DevServer = {
    dir,
    client,
    notifications,
    stderr,
    errors,
    lines,
    count,
    async waitForCount(method, n) {
      const found = await notifications.waitForCount((item) => item.method === method, n, method);
      return found[n - 1] as Notification;
    },
    async waitForLine(pattern, times = 1) {
      const what = `${times} stderr line(s) matching ${pattern}`;
      await stderr.waitFor(
        () => lines().filter((line) => matchesLine(pattern, line)).length >= times,
        what,
      );
      return lines().filter((line) => matchesLine(pattern, line))[times - 1] as string;
    },
    write(file, content) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), content);
    },
    remove(file) {
      rmSync(join(dir, file));
    },
    rename(from, to) {
      mkdirSync(dirname(join(dir, to)), { recursive: true });
      renameSync(join(dir, from), join(dir, to));
    },
  };
  await server.waitForLine(new RegExp(`^${WATCHING} `));
  return server;
}

/**
 * Closes every client: its transport ends the server's stdin, which ends
 * `mcp-dir dev`, and kills the child (SIGTERM, then SIGKILL) if it does not exit.
 */
export async function stopDevServers(): Promise<void> {
  const all = [...running];
  running.clear();
  await Promise.all(all.map(({ client }) => client.close()));
}

export { removeServerDirs };

/** The text of a tool call's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  return content?.[0]?.text ?? JSON.stringify(result);
}

/** A tool file: `defineTool` with a description and a handler returning `reply`. */
export function toolFile(description: string, reply: string, extra = ""): string {
  return `import { defineTool } from "mcp-dir";

export default defineTool({
  description: ${JSON.stringify(description)},${extra}
  handler: () => ${JSON.stringify(reply)},
});
`;
}

/** The terminal line for a reload of `file`; `fixed` is " (fixed)" when it recovered. */
export function reloaded(file: string, fixed = ""): RegExp {
  return new RegExp(`^mcp-dir dev: reloaded ${file.replaceAll(".", "\\.")}${fixed} in \\d+ ms$`);
}

/**
 * A code file whose top-level code leaves `marker` behind when it is imported:
 * proof that a file which must never load did not. It imports nothing but
 * node:fs, so it would run anywhere, even outside a server directory.
 */
export function leavesMarker(marker: string): string {
  return `import { writeFileSync } from "node:fs";

writeFileSync(${JSON.stringify(marker)}, "imported");

export const imported = true;
`;
}
