/**
 * `mcp-dir dev` tells a 2026-07-28 client of every save on its
 * subscriptions/listen stream, over stdio and over HTTP: the official v2
 * client, pinned to 2026-07-28, against the real CLI.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO_ROOT, startCliHere, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";

const tool = (description: string) => `import { defineTool } from "mcp-dir";
export default defineTool({ description: ${JSON.stringify(description)}, handler: () => "ok" });
`;
const prompt = (description: string) => `---\ndescription: ${description}\n---\nSay hello.\n`;

const FILES = {
  "tools/greet.ts": tool("Greets, version 1"),
  "prompts/hello.md": prompt("Hello, version 1"),
  "resources/notes.txt": "first notes\n",
};

const CHANGES = [
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
  "notifications/resources/updated",
] as const;

describe.each(["stdio", "http"] as const)(
  "mcp-dir dev over %s, to a 2026 listen stream",
  (over) => {
    let dir: string;
    let client: Client;
    const received = new Inbox<{ method: string; params: Record<string, unknown> }>();

    beforeAll(async () => {
      dir = await createServerDir(FILES);
      client = new Client({ name: "dev-listen-test", version: "1.0.0" }, {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      } as ConstructorParameters<typeof Client>[1]);
      for (const method of CHANGES) {
        client.setNotificationHandler(method, (notification) => {
          received.push({ method, params: (notification.params ?? {}) as Record<string, unknown> });
        });
      }
      // The banner comes after the watcher's first scan, and a client is served only after it.
      const transport =
        over === "stdio"
          ? new StdioClientTransport({
              command: process.execPath,
              args: [CLI, "dev", dir],
              cwd: REPO_ROOT,
              stderr: "ignore",
            })
          : new StreamableHTTPClientTransport(
              new URL((await startCliHere(["dev", dir, "--http", "--port", "0"])).url),
            );
      await client.connect(transport);
    });

    afterAll(async () => {
      await client.close();
      await stopAll();
      await removeServerDirs();
    });

    const save = async (file: string, content: string) => {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), content);
    };

    it("acknowledges every filter dev can honour, then delivers each kind of change", async () => {
      const subscription = await client.listen({
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ["file:///notes.txt"],
      });
      expect(subscription.honoredFilter).toEqual({
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ["file:///notes.txt"],
      });

      await save("tools/greet.ts", tool("Greets, version 2"));
      await received.waitFor((n) => n.method === CHANGES[0], "tools/list_changed");
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t.description])).toEqual([["greet", "Greets, version 2"]]);

      await save("prompts/hello.md", prompt("Hello, version 2"));
      await received.waitFor((n) => n.method === CHANGES[1], "prompts/list_changed");
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.description)).toEqual(["Hello, version 2"]);

      await save("resources/more.txt", "more\n");
      await received.waitFor((n) => n.method === CHANGES[2], "resources/list_changed");

      await save("resources/notes.txt", "second notes\n");
      const updated = await received.waitFor((n) => n.method === CHANGES[3], "resources/updated");
      expect(updated.params.uri).toBe("file:///notes.txt");
      const { contents } = await client.readResource({ uri: "file:///notes.txt" });
      expect(contents).toEqual([
        { uri: "file:///notes.txt", mimeType: "text/plain", text: "second notes\n" },
      ]);

      await subscription.close();
      expect(await subscription.closed).toBe("local");
    });

    it("tells of a file that fails to load with each request that asks for log messages, until it is fixed", async () => {
      const logs: unknown[] = [];
      client.setNotificationHandler("notifications/message", (notification) => {
        logs.push(notification.params);
      });
      const greet = () =>
        client.callTool({ name: "greet", arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: "error" } });
      const subscription = await client.listen({ toolsListChanged: true });

      received.items.length = 0;
      await save("tools/greet.ts", "export default {\n  description: 'x',,\n};\n");
      // Saves are applied in order: once the next one is told, the broken one was tried.
      await save("tools/marker.ts", tool("Marks"));
      await received.waitFor((n) => n.method === CHANGES[0], "tools/list_changed");
      const message = 'tools/greet.ts: SyntaxError: Expected identifier but found "," (2:20)';
      const told = { level: "error", logger: "mcp-dir", data: { file: "tools/greet.ts", message } };
      // The file's last good version answers; the problem comes with it, as long as it stands.
      expect(await greet()).toMatchObject({ content: [{ type: "text", text: "ok" }] });
      expect(logs).toEqual([told]);
      await greet();
      expect(logs).toEqual([told, told]);

      received.items.length = 0;
      await save("tools/greet.ts", tool("Greets, version 3"));
      await received.waitFor((n) => n.method === CHANGES[0], "tools/list_changed");
      await greet();
      expect(logs).toEqual([told, told]);
      await subscription.close();
    });
  },
);
