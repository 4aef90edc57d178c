/**
 * The official SDK client over a real stdio child running the fixture.
 */
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FIXTURE, REPO_ROOT } from "./fixture.js";
import { Inbox } from "./inbox.js";

export interface SdkConnection {
  client: Client;
  transport: StdioClientTransport;
  /** stderr so far: each item is the whole text received up to then. */
  stderr: Inbox<string>;
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
    args: ["--import", "tsx", FIXTURE],
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

/** Closes every SDK client still open (which ends the child); call from afterEach/afterAll. */
export async function closeSdkClients(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(all.map(({ client }) => client.close()));
}
