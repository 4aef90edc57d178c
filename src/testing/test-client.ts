import { isAbsolute, resolve } from "node:path";
import { type ClientOptions, InMemoryClient } from "../client/index.js";
import type { ReloadOutcome, ServerWatcher } from "../loader/dev/index.js";
import { isDirectory } from "../loader/is-directory.js";
import { formatProblem, type LoadProblem } from "../loader/problems.js";
import type { McpServer } from "../server/server.js";

export interface TestClientOptions extends ClientOptions {
  /**
   * With a directory: watch it and apply every save in place, as `mcp-dir dev`
   * does (a file that fails keeps its last good version, and the rest is
   * served from the start even when some files fail).
   */
  watch?: boolean;
  /** With a directory: how long one file may take to load. Default 5000 ms. */
  loadTimeoutMs?: number;
}

const EVERY_KIND = ["tools", "prompts", "resources", "views", "tasks"] as const;

/**
 * A client of an MCP server in this process, for tests: `InMemoryClient`'s
 * requests (the official SDK clients' names and result shapes), in either
 * era, plus the server it talks to and, with `watch`, its reloads.
 */
export class TestClient extends InMemoryClient {
  private constructor(
    options: ClientOptions,
    /** The server under test (made from the directory, or the one given). */
    readonly server: McpServer,
    private readonly ownsServer: boolean,
    private readonly watcher: ServerWatcher | undefined,
  ) {
    super(options);
  }

  /** See createTestClient. */
  static async create(
    dirOrServer: string | McpServer,
    options: TestClientOptions = {},
  ): Promise<TestClient> {
    const { watch = false, loadTimeoutMs, ...clientOptions } = options;
    if (typeof dirOrServer !== "string") {
      if (watch) {
        throw new TypeError(
          "createTestClient: watch needs a directory; pass the server's directory, or call watchServer(server, dir) yourself",
        );
      }
      const client = new TestClient(clientOptions, dirOrServer, false, undefined);
      await client.open(dirOrServer, clientOptions);
      return client;
    }
    await requireDirectory(dirOrServer);
    const { loadServer } = await import("../loader/load-server.js");
    const { server, problems } = await loadServer(
      dirOrServer,
      watch ? { announce: EVERY_KIND } : {},
      loadTimeoutMs === undefined ? {} : { loadTimeoutMs },
    );
    if (problems.length > 0 && !watch) {
      await server.close();
      throw new Error(describeProblems(dirOrServer, problems));
    }
    let watcher: ServerWatcher | undefined;
    if (watch) {
      const { watchServer } = await import("../loader/dev/watch-server.js");
      watcher = await watchServer(server, dirOrServer);
    }
    const client = new TestClient(clientOptions, server, true, watcher);
    try {
      await client.open(server, clientOptions);
    } catch (error) {
      await watcher?.close();
      await server.close();
      throw error;
    }
    return client;
  }

  /**
   * With `watch`: what the next reload did (files applied, removed, problems),
   * once it is done and this client has heard the notifications it made.
   * Ask before you save, so the reload cannot come first.
   */
  async nextReload(): Promise<ReloadOutcome> {
    if (!this.watcher) {
      throw new Error("nextReload: this client does not watch; create it with { watch: true }");
    }
    const outcome = await this.watcher.nextReload();
    // The server sends the list changes and resource updates of a turn at its
    // end (setImmediate): this turn's are sent, and so delivered, before ours.
    await new Promise((resolve) => setImmediate(resolve));
    return outcome;
  }

  /** With `watch`: the files that fail to load now, with what is wrong with each. */
  get problems(): readonly LoadProblem[] {
    return this.watcher?.problems ?? [];
  }

  /** Closes the client, stops watching, and closes the server it made (a server given stays open). */
  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      // Closed as well when super.close() rejects with what onNotification threw.
      await this.watcher?.close();
      if (this.ownsServer) await this.server.close();
    }
  }
}

/** Refuses a path that is no directory, saying where it looked (a relative path is the working directory's). */
async function requireDirectory(dir: string): Promise<void> {
  const root = resolve(dir);
  if (await isDirectory(root)) return;
  const from = isAbsolute(dir)
    ? ""
    : ` (${JSON.stringify(dir)} from the working directory, ${process.cwd()})`;
  throw new Error(
    `createTestClient: ${root} is not a directory${from}; pass the folder of your server (a test in its test/ folder finds it with fileURLToPath(new URL("..", import.meta.url)))`,
  );
}

function describeProblems(dir: string, problems: readonly LoadProblem[]): string {
  const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
  const listed = problems.map((problem) => `  ${formatProblem(problem)}`).join("\n");
  return `createTestClient: ${dir} has ${count}; fix ${problems.length === 1 ? "it" : "them"} (or pass { watch: true } to serve the rest):\n${listed}`;
}

/**
 * A client of the server in directory `dir` (loaded in this process), or of
 * a server you made: no port, no child process. 2026-07-28 by default;
 * `protocolVersion` picks a 2025 revision. Close it when done.
 */
export function createTestClient(
  dirOrServer: string | McpServer,
  options?: TestClientOptions,
): Promise<TestClient> {
  return TestClient.create(dirOrServer, options);
}
