/**
 * watchServer as a library: a program's own server keeps serving what its
 * directory holds, save after save, in this process. The official clients
 * of both eras, connected in memory.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client as ClientV2, LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type Notification,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  createServer,
  defineTool,
  loadServer,
  type McpServer,
  type ReloadOutcome,
  type ServerWatcher,
  watchServer,
} from "../../src/index.js";
import { inMemoryV1, inMemoryV2 } from "../helpers/in-memory-pair.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";
import { textOf, toolFile } from "./helpers/dev-server.js";

const INFO = { name: "watch-server-test", version: "1.0.0" };
const opened: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});
afterAll(removeServerDirs);

async function watched(server: McpServer, dir: string): Promise<ServerWatcher> {
  const watcher = await watchServer(server, dir);
  opened.push(server, watcher);
  return watcher;
}

async function sessionOf(server: McpServer) {
  const client = new ClientV1(INFO, { capabilities: {} });
  const changes = new Inbox<Notification>();
  client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => changes.push(n));
  await client.connect(inMemoryV1(server));
  opened.push(client);
  return { client, changes };
}

describe("watchServer", () => {
  it("carries on the load of a server loadServer made: a save is served, and sessions told", async () => {
    const dir = await createServerDir({ "tools/greet.ts": toolFile("Greets", "hello") });
    const { server } = await loadServer(dir);
    const watcher = await watched(server, dir);
    const { client, changes } = await sessionOf(server);

    const reloaded = watcher.nextReload();
    await writeFile(join(dir, "tools/greet.ts"), toolFile("Greets warmly", "hello there"));
    const outcome = await reloaded;
    expect([outcome.applied, outcome.problems]).toEqual([["tools/greet.ts"], []]);
    await changes.waitFor(() => true, "tools/list_changed");
    expect(textOf(await client.callTool({ name: "greet", arguments: {} }))).toBe("hello there");
  });

  it("serves a file saved after the load read it and before the watcher watched, and only that file", async () => {
    // As a save made while `mcp-dir dev` starts: tools/other.ts was written just before the load.
    const dir = await createServerDir({
      "tools/greet.ts": toolFile("Greets", "hello"),
      "tools/other.ts": toolFile("Other", "other"),
    });
    const { server } = await loadServer(dir);
    await writeFile(join(dir, "tools/greet.ts"), toolFile("Greets warmly", "hello there"));
    const outcomes: ReloadOutcome[] = [];
    const watcher = await watchServer(server, dir, { onReload: (o) => void outcomes.push(o) });
    opened.push(server, watcher);

    expect(outcomes.map((outcome) => outcome.applied)).toEqual([["tools/greet.ts"]]);
    const { client } = await sessionOf(server);
    expect(textOf(await client.callTool({ name: "greet", arguments: {} }))).toBe("hello there");
  });

  it("gives a server made in code its directory's files, beside its own, helpers included", async () => {
    const dir = await createServerDir({
      "tools/word.ts": `import { defineTool } from "mcp-dir";
import { word } from "../lib/word.js";

export default defineTool({ description: "Says the word", handler: () => word });
`,
      "lib/word.ts": 'export const word = "first";\n',
    });
    const server = createServer({ name: "in-code", version: "1.0.0" }).add(
      defineTool({ name: "own", description: "The program's own", handler: () => "own" }),
    );
    const watcher = await watched(server, dir);
    const { client } = await sessionOf(server);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["own", "word"]);

    // The helper's importers are known to the watcher, though it did not load the server.
    const reloaded = watcher.nextReload();
    await writeFile(join(dir, "lib/word.ts"), 'export const word = "second";\n');
    expect((await reloaded).applied).toEqual(["tools/word.ts"]);
    expect(textOf(await client.callTool({ name: "word", arguments: {} }))).toBe("second");
    expect(textOf(await client.callTool({ name: "own", arguments: {} }))).toBe("own");
  });

  it("reloads a file once, though its event comes after a reload's scan found it", async () => {
    // As when a file is renamed into a new folder before chokidar watches it: the next
    // reload's scan finds it, then the watcher's look into the new folder reports it.
    // Here it is written while a reload runs, before that reload scans.
    const dir = await createServerDir({ "prompts/standup.md": "Stand up\n" });
    const { server } = await loadServer(dir);
    const outcomes = new Inbox<ReloadOutcome>();
    let written = false;
    const watcher = await watchServer(server, dir, {
      onChange: async () => {
        if (written) return;
        written = true;
        await writeFile(join(dir, "prompts/retro.md"), "Run a retro\n");
      },
      onReload: (outcome) => outcomes.push(outcome),
    });
    opened.push(server, watcher);

    await writeFile(join(dir, "prompts/standup.md"), "Stand up, v2\n");
    await outcomes.waitFor(() => true, "the first reload");
    // chokidar reports a new file of a folder by reading the folder: never before retro.md.
    await writeFile(join(dir, "prompts/wrap-up.md"), "Wrap up\n");
    await outcomes.waitFor((o) => o.applied.includes("prompts/wrap-up.md"), "prompts/wrap-up.md");
    expect(outcomes.items.map((outcome) => outcome.applied)).toEqual([
      ["prompts/retro.md", "prompts/standup.md"],
      ["prompts/wrap-up.md"],
    ]);
  });

  it("takes a file deleted while it loaded for removed, not for a file that fails", async () => {
    const dir = await createServerDir({ "tools/greet.ts": toolFile("Greets", "hello") });
    const { server } = await loadServer(dir);
    const watcher = await watched(server, dir);
    const reloaded = watcher.nextReload();
    // As when it is deleted while it loads (a branch checked out): its load fails for that.
    await writeFile(
      join(dir, "tools/greet.ts"),
      'import { unlinkSync } from "node:fs";\n\nunlinkSync(import.meta.filename);\nthrow new Error("read half of it");\n',
    );
    const outcome = await reloaded;
    expect([outcome.applied, outcome.removed, outcome.problems]).toEqual([
      [],
      ["tools/greet.ts"],
      [],
    ]);
    expect(watcher.problems).toEqual([]);
    expect(server.registry.sources()).toEqual([]);
  });

  it("tells every client of a file that fails while it fails: sessions at once, 2026-07-28 requests that ask", async () => {
    const dir = await createServerDir({ "tools/x.ts": toolFile("X", "x v1") });
    const { server } = await loadServer(dir);
    const watcher = await watched(server, dir);
    const session = new ClientV1(INFO, { capabilities: {} });
    const sessionLogs = new Inbox<unknown>();
    session.setNotificationHandler(
      (await import("@modelcontextprotocol/sdk/types.js")).LoggingMessageNotificationSchema,
      (n) => sessionLogs.push(n.params),
    );
    await session.connect(inMemoryV1(server));
    opened.push(session);
    const modern = new ClientV2(INFO, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as ConstructorParameters<typeof ClientV2>[1]);
    const modernLogs: unknown[] = [];
    modern.setNotificationHandler("notifications/message", (n) => {
      modernLogs.push(n.params);
    });
    await modern.connect(inMemoryV2(server));
    opened.push(modern);
    const callX = () =>
      modern.callTool({ name: "x", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "debug" } });

    const broken = watcher.nextReload();
    await writeFile(join(dir, "tools/x.ts"), "export default {\n  description: 'x',,\n};\n");
    const message = `tools/x.ts: SyntaxError: Expected identifier but found "," (2:20)`;
    expect((await broken).problems.map((p) => `${p.file}: ${p.message}`)).toEqual([message]);
    expect(watcher.problems.map((p) => p.file)).toEqual(["tools/x.ts"]);
    const told = { level: "error", logger: "mcp-dir", data: { file: "tools/x.ts", message } };
    expect(await sessionLogs.waitFor(() => true, "the session's log message")).toEqual(told);
    expect(textOf(await callX())).toBe("x v1");
    expect(modernLogs).toEqual([told]);

    const fixed = watcher.nextReload();
    await writeFile(join(dir, "tools/x.ts"), toolFile("X", "x v2"));
    expect((await fixed).fixed).toEqual(["tools/x.ts"]);
    expect(watcher.problems).toEqual([]);
    expect(textOf(await callX())).toBe("x v2");
    expect(modernLogs).toEqual([told]);
    expect(sessionLogs.items).toEqual([told]);
  });

  it("refuses a directory whose config file has problems, naming them", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ name: "x", pageSize: -1 }),
      "tools/greet.ts": toolFile("Greets", "hello"),
    });
    const server = createServer({ name: "in-code", version: "1.0.0" });
    opened.push(server);
    await expect(watchServer(server, dir)).rejects.toThrow(
      /^watchServer: the config file of .* has problems; fix them first:\n {2}mcp-dir\.config\.json: /,
    );
  });

  it("reads a saved config file as a start would, for the outcome, and serves on as it started", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ name: "first" }),
      "tools/greet.ts": toolFile("Greets", "hello"),
    });
    const { server } = await loadServer(dir);
    const watcher = await watched(server, dir);
    let reloaded = watcher.nextReload();
    await writeFile(join(dir, "mcp-dir.config.json"), JSON.stringify({ name: "", pageSize: 5 }));
    expect(await reloaded).toMatchObject({
      configChanged: true,
      config: {
        saved: ["mcp-dir.config.json"],
        file: "mcp-dir.config.json",
        problems: [{ file: "mcp-dir.config.json", message: "name must be non-empty text" }],
        warnings: [],
      },
    });
    expect(server.serverInfo().name).toBe("first");
    reloaded = watcher.nextReload();
    await writeFile(join(dir, "tools/greet.ts"), toolFile("Greets warmly", "hello there"));
    expect((await reloaded).config).toBeUndefined();
  });

  it("stops: a reload still awaited is told the watcher closed", async () => {
    const dir = await createServerDir({ "tools/greet.ts": toolFile("Greets", "hello") });
    const { server } = await loadServer(dir);
    opened.push(server);
    const watcher = await watchServer(server, dir);
    const next = watcher.nextReload();
    await watcher.close();
    await expect(next).rejects.toThrow("The watcher was closed");
    // No reload can come any more: one asked for now is told so at once.
    await expect(watcher.nextReload()).rejects.toThrow("The watcher was closed");
  });
});
