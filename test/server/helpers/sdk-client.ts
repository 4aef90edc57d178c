/**
 * The official SDK client, connected to the fixture: a real stdio child
 * (connectSdk), or a fixture server in this process (connectSdkInMemory).
 */
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServer } from "../../../src/index.js";
import {
  type FixtureOptions,
  startFixtureServer,
} from "../../fixtures/programmatic/fixture-server.js";
import { inMemoryV1 } from "../../helpers/in-memory-pair.js";
import { FIXTURE, REPO_ROOT } from "./fixture.js";
import { Inbox } from "./inbox.js";

export interface SdkConnection {
  client: Client;
  transport: Transport;
  /** stderr so far: each item is the whole text received up to then. */
  stderr: Inbox<string>;
  /** The fixture server, when it runs in this process. */
  server?: McpServer;
}

const open = new Set<SdkConnection>();

export interface ConnectOptions {
  capabilities?: ClientOptions["capabilities"];
  /** The SDK's own list_changed handling (auto-refresh). */
  listChanged?: ClientOptions["listChanged"];
  env?: Record<string, string>;
  /** Runs before connecting: register request and notification handlers here. */
  setup?: (client: Client) => void;
}

export async function connectSdk(options: ConnectOptions = {}): Promise<SdkConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...options.env },
    stderr: "pipe",
  });
  const stderr = new Inbox<string>();
  let text = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    stderr.push(text);
  });
  const client = new Client(
    { name: "sdk-test-client", version: "9.9.9" },
    {
      capabilities: options.capabilities ?? {},
      ...(options.listChanged && { listChanged: options.listChanged }),
    },
  );
  options.setup?.(client);
  const connection = { client, transport, stderr };
  open.add(connection);
  await client.connect(transport);
  return connection;
}

/**
 * The same client connected in memory to a fixture server in this process:
 * for what is not about the process. `stderr` holds the server's own
 * diagnostics (its `warn`) and what the fixture's handlers report, not what
 * else handlers write to the process's stderr.
 */
export async function connectSdkInMemory(
  options: Omit<ConnectOptions, "env"> & { fixture?: FixtureOptions } = {},
): Promise<SdkConnection> {
  const stderr = new Inbox<string>();
  let text = "";
  const append = (line: string) => {
    text += line;
    stderr.push(text);
  };
  const server = await startFixtureServer({
    ...options.fixture,
    warn: (message) => append(`mcp-dir: ${message}\n`),
    report: append,
  });
  return connectSdkTo(server, options, stderr);
}

/**
 * The same client connected in memory to `server`, made in this process (a
 * directory loaded with loadServer, say); closeSdkClients closes the server too.
 */
export async function connectSdkTo(
  server: McpServer,
  options: Omit<ConnectOptions, "env"> = {},
  stderr = new Inbox<string>(),
): Promise<SdkConnection> {
  const client = new Client(
    { name: "sdk-test-client", version: "9.9.9" },
    {
      capabilities: options.capabilities ?? {},
      ...(options.listChanged && { listChanged: options.listChanged }),
    },
  );
  options.setup?.(client);
  const transport = inMemoryV1(server);
  const connection = { client, transport, stderr, server };
  open.add(connection);
  await client.connect(transport);
  return connection;
}

/** Closes every SDK client still open (which ends the child); call from afterEach/afterAll. */
export async function closeSdkClients(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(
    all.map(async ({ client, server }) => {
      await client.close();
      await server?.close();
    }),
  );
}
