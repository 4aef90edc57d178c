/**
 * The official clients of both protocol eras, behind one small interface, so
 * one behaviour suite runs against every combination: the v1 SDK client
 * (`@modelcontextprotocol/sdk`, 2025-11-25 sessions) and the v2 client
 * (`@modelcontextprotocol/client`) pinned to 2026-07-28 or in `auto` mode,
 * over stdio or Streamable HTTP to the real CLI: `serve` run by this process
 * (its stdio a pair of streams, its HTTP on a port of 127.0.0.1) unless a
 * suite asks for a process of its own.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll } from "vitest";
import { startCommandHere } from "../../cli/helpers/cli.js";
import type { StreamClientTransport } from "../../helpers/stream-client-transport.js";
import { CLI, REPO_ROOT, startCli, startCliHere, stopAll } from "../../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../../loader/helpers/server-dir.js";

export type ClientKind = "v1 at 2025-11-25" | "v2 pinned to 2026-07-28" | "v2 in auto mode";
export type TransportKind = "stdio" | "http";

export const CLIENT_KINDS: readonly ClientKind[] = [
  "v1 at 2025-11-25",
  "v2 pinned to 2026-07-28",
  "v2 in auto mode",
];

/** The era each client ends up speaking with a dual-era server. */
export const VERSION_OF: Readonly<Record<ClientKind, string>> = {
  "v1 at 2025-11-25": "2025-11-25",
  "v2 pinned to 2026-07-28": "2026-07-28",
  "v2 in auto mode": "2026-07-28",
};

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

/** What the suites use of a client; both SDKs' clients have these methods. */
export interface EraClient {
  readonly kind: ClientKind;
  listTools(): Promise<Result>;
  callTool(
    params: Params,
    options?: { onprogress?: (progress: Params) => void; signal?: AbortSignal },
  ): Promise<Result>;
  listPrompts(): Promise<Result>;
  getPrompt(params: Params): Promise<Result>;
  listResources(): Promise<Result>;
  listResourceTemplates(): Promise<Result>;
  readResource(params: Params): Promise<Result>;
  /** 2025 sessions only: 2026-07-28 subscribes through `v2.listen`. */
  subscribeResource(params: Params): Promise<Result>;
  unsubscribeResource(params: Params): Promise<Result>;
  complete(params: Params): Promise<Result>;
  getInstructions(): string | undefined;
  getServerVersion(): Result | undefined;
  getServerCapabilities(): Result | undefined;
  /** The protocol revision in use once connected. */
  protocolVersion(): string | undefined;
  /** The v2 client's client itself, for what only it has (listen, discover). */
  readonly v2?: ClientV2;
  close(): Promise<void>;
}

const INFO = { name: "eras-test-client", version: "1.0.0" };
const open = new Set<EraClient>();

/**
 * Where the server is: a command each stdio client starts (in this process,
 * or spawned with `spawn`), or a URL (HTTP).
 */
export type Target = { stdio: string[]; spawn?: boolean } | { url: string };

/** For a behaviour that must hold in both eras: one client of each, over each transport. */
export const ERA_ROWS: readonly [TransportKind, ClientKind][] = (
  ["stdio", "http"] as const
).flatMap((transport) =>
  (["v1 at 2025-11-25", "v2 pinned to 2026-07-28"] as const).map(
    (kind): [TransportKind, ClientKind] => [transport, kind],
  ),
);

/** How a directory's server runs: `spawn` for a process of its own (each stdio client's, or HTTP's one). */
export interface ServeOptions {
  spawn?: boolean;
}

/**
 * The real CLI serving `dir`: started by each stdio client, or once for HTTP,
 * in this process (what a case checks is what it answers, over stdio's framing
 * or HTTP; the stdio wire suite and the CLI's own tests spawn it) unless
 * `spawn` says otherwise.
 */
export async function serveDir(
  transport: TransportKind,
  dir: string,
  { spawn = false }: ServeOptions = {},
): Promise<Target> {
  if (transport === "stdio") return { stdio: ["serve", dir], spawn };
  const args = ["serve", dir, "--http", "--port", "0"];
  return { url: (await (spawn ? startCli(args) : startCliHere(args))).url };
}

/**
 * serveDir for a file whose cases need no server of their own (they only
 * read, or keep to names and keys of their own): each directory's HTTP server
 * is started on first use and reached by every later row and client (one per
 * file, not one per row); stdio still starts one server per client. Make
 * one per file; the file's stopAll (http-cli/helpers) ends the servers.
 */
export function serveOnce(
  options: ServeOptions = {},
): (transport: TransportKind, dir: string) => Promise<Target> {
  const started = new Map<string, Promise<Target>>();
  return (transport, dir) => {
    if (transport === "stdio") return serveDir(transport, dir, options);
    let target = started.get(dir);
    if (target === undefined) {
      target = serveDir(transport, dir, options);
      started.set(dir, target);
    }
    return target;
  };
}

/**
 * A suite's one directory of `files` (then `prepare`d), made before its cases
 * and removed after them with every client and server they opened: served
 * over a transport on demand, as serveOnce serves it.
 */
export function servedFiles(
  files: Record<string, string>,
  prepare?: (dir: string) => Promise<void>,
  options: ServeOptions = {},
): (transport: TransportKind) => Promise<Target> {
  const serve = serveOnce(options);
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await createServerDir(files);
    await prepare?.(dir);
  });
  afterAll(async () => {
    await closeClients();
    await stopAll();
    await removeServerDirs();
  });
  return (transport) => {
    if (dir === undefined) throw new Error("servedFiles: served before its beforeAll ran");
    return serve(transport, dir);
  };
}

/** A protocol error as both clients report it (the v1 client prefixes "MCP error <code>: "). */
export async function refusal(
  request: Promise<unknown>,
): Promise<{ code: unknown; message: string }> {
  try {
    await request;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    return { code, message: message.replace(/^MCP error -?\d+: /, "") };
  }
  throw new Error("the request was answered, not refused");
}

/** The requests a server makes of its client: sent (2025) or embedded in input_required (2026). */
export type InputMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";
export const INPUT_METHODS: readonly InputMethod[] = [
  "elicitation/create",
  "sampling/createMessage",
  "roots/list",
];

/** The capabilities of a client that shows views (MCP Apps): the extension with its MIME type. */
export const SHOWS_VIEWS = {
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
};

export interface ClientSetup {
  capabilities?: Record<string, unknown>;
  /** Answers the server's requests; each SDK calls it through its own handler registration. */
  answer?: (method: InputMethod, params: Params) => Result | Promise<Result>;
  /** Told of `notifications/elicitation/complete` (2025-11-25 sessions). */
  onElicitationComplete?: (elicitationId: string) => void;
  /** v1 only: told of every notification no handler of the client's own takes (logs, resource updates). */
  onNotification?: (notification: { method: string; params?: Params }) => void;
}

export async function connectClient(
  kind: ClientKind,
  target: Target,
  setup: ClientSetup = {},
): Promise<EraClient> {
  const client =
    kind === "v1 at 2025-11-25"
      ? await connectV1(target, setup)
      : await connectV2(kind, target, setup);
  open.add(client);
  return client;
}

/** The v1 client tells a transport the negotiated version only when it can be told. */
class StdioWithVersionV1 extends StdioTransportV1 {
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }
}

/** How a stdio client spawns `target`'s command. */
function spawned(target: { stdio: string[] }) {
  return {
    command: process.execPath,
    args: [CLI, ...target.stdio],
    cwd: REPO_ROOT,
    stderr: "ignore" as const,
  };
}

/** `target`'s command run by this process, for a stdio client: its end of the command's stdio. */
async function commandHere(target: { stdio: string[] }): Promise<StreamClientTransport> {
  return (await startCommandHere(target.stdio)).transport;
}

const V1_SCHEMAS = {
  "elicitation/create": ElicitRequestSchema,
  "sampling/createMessage": CreateMessageRequestSchema,
  "roots/list": ListRootsRequestSchema,
} as const;

async function connectV1(
  target: Target,
  { capabilities, answer, onElicitationComplete, onNotification }: ClientSetup,
): Promise<EraClient> {
  const client = new ClientV1(INFO, { capabilities: capabilities ?? {} });
  if (onNotification) {
    client.fallbackNotificationHandler = async (notification) => onNotification(notification);
  }
  if (onElicitationComplete) {
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) =>
      onElicitationComplete(notification.params.elicitationId),
    );
  }
  if (answer) {
    for (const method of INPUT_METHODS) {
      client.setRequestHandler(
        V1_SCHEMAS[method] as typeof ElicitRequestSchema,
        // biome-ignore lint/suspicious/noExplicitAny: each SDK types its results per method.
        async (request) => (await answer(method, request.params ?? {})) as any,
      );
    }
  }
  const transport =
    "url" in target
      ? new HttpTransportV1(new URL(target.url))
      : target.spawn
        ? new StdioWithVersionV1(spawned(target))
        : await commandHere(target);
  await client.connect(transport);
  return adapt(client, "v1 at 2025-11-25", () => {
    return (transport as { protocolVersion?: string }).protocolVersion;
  });
}

async function connectV2(
  kind: ClientKind,
  target: Target,
  { capabilities, answer }: ClientSetup,
): Promise<EraClient> {
  const versionNegotiation =
    kind === "v2 in auto mode" ? { mode: "auto" as const } : { mode: { pin: "2026-07-28" } };
  const client = new ClientV2(INFO, {
    versionNegotiation,
    capabilities: capabilities ?? {},
  } as ConstructorParameters<typeof ClientV2>[1]);
  if (answer) {
    for (const method of INPUT_METHODS) {
      client.setRequestHandler(
        method as "elicitation/create",
        // biome-ignore lint/suspicious/noExplicitAny: each SDK types its results per method.
        async (request) => (await answer(method, request.params ?? {})) as any,
      );
    }
  }
  const transport =
    "url" in target
      ? new HttpTransportV2(new URL(target.url))
      : target.spawn
        ? new StdioTransportV2(spawned(target))
        : await commandHere(target);
  await client.connect(transport);
  const negotiated = client as unknown as { getNegotiatedProtocolVersion(): string | undefined };
  return { ...adapt(client, kind, () => negotiated.getNegotiatedProtocolVersion()), v2: client };
}

/** The calls both clients have, bound to `client` (whose private fields need it as `this`). */
function adapt(client: object, kind: ClientKind, version: () => string | undefined): EraClient {
  const c = client as Record<string, (...args: unknown[]) => unknown>;
  const call =
    <T>(name: string) =>
    (...args: unknown[]) =>
      c[name]?.call(client, ...args) as T;
  return {
    kind,
    listTools: call("listTools"),
    // v1 takes (params, resultSchema?, options?), v2 (params, options?).
    callTool: (params, options) =>
      (kind === "v1 at 2025-11-25"
        ? c.callTool?.call(client, params, undefined, options)
        : c.callTool?.call(client, params, options)) as Promise<Result>,
    listPrompts: call("listPrompts"),
    getPrompt: call("getPrompt"),
    listResources: call("listResources"),
    listResourceTemplates: call("listResourceTemplates"),
    readResource: call("readResource"),
    subscribeResource: call("subscribeResource"),
    unsubscribeResource: call("unsubscribeResource"),
    complete: call("complete"),
    getInstructions: call("getInstructions"),
    getServerVersion: call("getServerVersion"),
    getServerCapabilities: call("getServerCapabilities"),
    protocolVersion: version,
    close: call("close"),
  };
}

/** Closes every client a test opened (a stdio client's command run here ends with it; stopAll stops one that did not). */
export async function closeClients(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(all.map((client) => client.close().catch(() => {})));
}

/**
 * A result as both eras share it: 2026-07-28 adds `resultType`, the server's
 * identity in `_meta` and, on lists and reads, caching hints.
 */
export function shared(result: Result): Result {
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, _meta, ...rest } = result;
  const meta = { ...(_meta as Record<string, unknown> | undefined) };
  delete meta["io.modelcontextprotocol/serverInfo"];
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}
