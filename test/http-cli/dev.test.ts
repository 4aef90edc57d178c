/**
 * `mcp-dir dev <dir> --http --port 0`, the real CLI: a saved file reaches
 * connected SDK clients as notifications on their GET stream (list_changed,
 * resources/updated, a log message for a file that fails), in place.
 */
import { join } from "node:path";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  type CliServer,
  connect,
  deferred,
  openGetStream,
  openSession,
  SseReader,
  saveFile,
  spawnCli,
  startCli,
  stopAll,
  text,
} from "./helpers.js";

afterEach(stopAll);
afterAll(removeServerDirs);

const greet = (description: string, reply: string) => `import { defineTool } from "mcp-dir";

export default defineTool({
  description: ${JSON.stringify(description)},
  handler: () => ${JSON.stringify(reply)},
});
`;

/** A temporary server directory served by `mcp-dir dev --http`, watched before this resolves. */
async function startDev(files: Record<string, string>): Promise<{ dir: string; dev: CliServer }> {
  const dir = await createServerDir(files, {
    packageJson: { name: "dev-http", version: "0.1.0", type: "module" },
  });
  const dev = await startCli(["dev", dir, "--http", "--port", "0"]);
  await dev.waitForStderr(/^mcp-dir dev: watching .+ for changes$/m);
  return { dir, dev };
}

describe("mcp-dir dev --http", () => {
  it("says it watches, then serves, on stderr", async () => {
    const { dev } = await startDev({ "tools/greet.ts": greet("Says hello", "hello") });
    expect(dev.stderr()).toMatch(
      /^mcp-dir dev: watching \S+ for changes\nmcp-dir dev: serving dev-http 0\.1\.0 from \S+ \(1 tool, 0 prompts, 0 resources\) at http:\/\/127\.0\.0\.1:\d+\/mcp\n$/,
    );
  });

  it("sends tools/list_changed on the GET stream when a tool file is saved; the list then shows the change", async () => {
    const { dir, dev } = await startDev({ "tools/greet.ts": greet("Says hello", "hello") });
    const changed = deferred();
    const connection = await connect(dev.url, {
      setup: (client) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.resolve()),
    });
    const { client, transport } = connection;
    const before = await client.listTools();
    expect(before.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["greet", "Says hello"],
    ]);
    const sessionId = transport.sessionId;

    await saveFile(join(dir, "tools", "greet.ts"), greet("Says hello loudly", "HELLO"));
    await changed.promise;

    await connection.onGetStream(
      'data: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"',
    );
    const after = await client.listTools();
    expect(after.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["greet", "Says hello loudly"],
    ]);
    expect(text(await client.callTool({ name: "greet", arguments: {} }))).toBe("HELLO");
    // Same process, same session: nothing restarted.
    expect(transport.sessionId).toBe(sessionId);
    expect(dev.child.exitCode).toBeNull();
    await dev.waitForStderr(/^mcp-dir dev: reloaded tools\/greet\.ts in \d+ ms$/m);
  });

  it("announces an added tool file to every connected client", async () => {
    const { dir, dev } = await startDev({ "tools/greet.ts": greet("Says hello", "hello") });
    const clients = await Promise.all(
      [0, 1].map(async () => {
        const changed = deferred();
        const connection = await connect(dev.url, {
          setup: (client) =>
            client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
              changed.resolve(),
            ),
        });
        return { ...connection, changed: changed.promise };
      }),
    );
    await saveFile(join(dir, "tools", "wave.ts"), greet("Waves", "o/"));
    for (const { client, changed, onGetStream } of clients) {
      await changed;
      await onGetStream('"method":"notifications/tools/list_changed"');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["greet", "wave"]);
    }
  });

  it("sends resources/updated to a subscriber of a saved static resource, on the GET stream", async () => {
    const { dir, dev } = await startDev({ "resources/notes.md": "# Notes\n\nfirst\n" });
    const updated = deferred<string>();
    const connection = await connect(dev.url, {
      setup: (client) =>
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
          updated.resolve(notification.params.uri),
        ),
    });
    const { client } = connection;
    await client.subscribeResource({ uri: "file:///notes.md" });

    await saveFile(join(dir, "resources", "notes.md"), "# Notes\n\nsecond\n");
    expect(await updated.promise).toBe("file:///notes.md");
    await connection.onGetStream(
      'data: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///notes.md"}}',
    );
    const read = await client.readResource({ uri: "file:///notes.md" });
    expect(read.contents).toEqual([
      { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes\n\nsecond\n" },
    ]);
  });

  it("keeps the last good version of a file that fails and tells clients with a log message", async () => {
    const { dir, dev } = await startDev({ "tools/greet.ts": greet("Says hello", "hello") });
    const logged = deferred<{ level: string; logger?: string; data: unknown }>();
    const connection = await connect(dev.url, {
      setup: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
          logged.resolve(notification.params),
        ),
    });
    const { client } = connection;

    await saveFile(join(dir, "tools", "greet.ts"), "export default {\n");
    const log = await logged.promise;
    expect(log).toMatchObject({
      level: "error",
      logger: "mcp-dir",
      data: { file: "tools/greet.ts", message: expect.stringMatching(/^tools\/greet\.ts: /) },
    });
    await connection.onGetStream('"method":"notifications/message"');
    expect(text(await client.callTool({ name: "greet", arguments: {} }))).toBe("hello");
    await dev.waitForStderr(/the last good version of tools\/greet\.ts stays in service/);
  });

  it("serves a file saved while it starts, after the load and before it watches", async () => {
    const dir = await createServerDir({
      "tools/greet.ts": greet("Says hello", "hello"),
      "tools/broken.ts": "export default {,};\n",
    });
    const dev = spawnCli(["dev", dir, "--http", "--port", "0"]);
    // The load is over once its problems are printed; the watcher starts after.
    await dev.waitForStderr(/^error: tools\/broken\.ts: /m);
    await saveFile(join(dir, "tools", "greet.ts"), greet("Says hello again", "hello again"));
    await dev.waitForStderr(/^mcp-dir dev: reloaded tools\/greet\.ts in \d+ ms$/m);
    const [, url = ""] = await dev.waitForStderr(/ at (http:\/\/\S+)\n/);
    const { client } = await connect(url);
    expect(text(await client.callTool({ name: "greet", arguments: {} }))).toBe("hello again");
  });

  it("replays a change made while the GET stream was dropped to the GET that resumes with Last-Event-ID", async () => {
    const { dir, dev } = await startDev({ "tools/greet.ts": greet("Says hello", "hello") });
    const sessionId = await openSession(dev.url);
    const first = new SseReader(await openGetStream(dev.url, sessionId));
    const priming = await first.next();
    expect(priming).toMatchObject({ data: "", retry: 1000, id: expect.stringMatching(/^0\.\d+$/) });
    await first.cancel();

    await saveFile(join(dir, "tools", "greet.ts"), greet("Says hello again", "hello"));
    // The registry changed (and the notification was stored) before this line is printed.
    await dev.waitForStderr(/^mcp-dir dev: reloaded tools\/greet\.ts in \d+ ms$/m);

    const resumed = new SseReader(
      await openGetStream(dev.url, sessionId, { "last-event-id": priming?.id as string }),
    );
    expect((await resumed.nextMessage())?.message).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: {},
    });
    await resumed.cancel();
  });
});
