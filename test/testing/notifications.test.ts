/**
 * mcp-dir/testing hands over notifications as they come, in both eras: log
 * messages and progress of a request, list changes, resource updates.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createServer, defineResource, defineTool, type McpServer } from "../../src/index.js";
import { createTestClient, type TestClient } from "../../src/testing/index.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});
afterAll(removeServerDirs);

function makeServer(warn?: (message: string) => void): McpServer {
  const server = createServer({ name: "notifications", version: "1.0.0", warn }).add(
    defineTool({
      name: "work",
      description: "Logs and reports progress",
      handler: async (_args, ctx) => {
        ctx.log.info("starting");
        await ctx.progress(1, 2, "half");
        await ctx.progress(2, 2);
        ctx.log.debug({ done: true }, "worker");
        return "done";
      },
    }),
    defineTool({
      name: "touch",
      description: "Says the memo changed",
      handler: (_args, ctx) => {
        ctx.resourceUpdated("memo://today");
        return "touched";
      },
    }),
    defineResource({ name: "today", uri: "memo://today", read: () => "memo" }),
  );
  opened.push(server);
  return server;
}

describe.each(["2026-07-28", "2025-11-25"] as const)("notifications at %s", (protocolVersion) => {
  const connect = async (server: McpServer, options = {}) => {
    const client = await createTestClient(server, { protocolVersion, ...options });
    opened.push(client);
    return client;
  };

  it("log messages and progress of a request, in order, to onprogress and the log", async () => {
    const seen: string[] = [];
    const client = await connect(makeServer(), {
      onNotification: ({ method }: { method: string }) => seen.push(method),
    });
    const progress: unknown[] = [];
    const result = await client.callTool(
      { name: "work" },
      { onprogress: (update) => progress.push(update) },
    );
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toEqual([
      { progress: 1, total: 2, message: "half" },
      { progress: 2, total: 2 },
    ]);
    expect(
      client.notifications.map(({ method, params }) => [method, params.level ?? params.progress]),
    ).toEqual([
      ["notifications/message", "info"],
      ["notifications/progress", 1],
      ["notifications/progress", 2],
      ["notifications/message", "debug"],
    ]);
    expect(seen).toEqual(client.notifications.map(({ method }) => method));
    expect(client.notifications[3]?.params).toEqual({
      level: "debug",
      logger: "worker",
      data: { done: true },
    });
  });

  it("an onNotification that throws fails the test at close, once, and misses nothing", async () => {
    const warnings: string[] = [];
    const seen: string[] = [];
    const client = await createTestClient(
      makeServer((message) => warnings.push(message)),
      {
        protocolVersion,
        onNotification: ({ method }) => {
          seen.push(method);
          if (method === "notifications/message") throw new Error("boom");
        },
      },
    );
    const result = await client.callTool({ name: "work" });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    await client.callTool({ name: "work" });
    expect(seen).toHaveLength(4);
    expect(seen).toEqual(client.notifications.map(({ method }) => method));
    expect(warnings).toEqual([]);
    const closing = client.close();
    await expect(closing).rejects.toThrow(
      "The onNotification callback threw on notifications/message: boom (and on 3 more notifications after it); the client went on receiving every notification",
    );
    await expect(closing.catch((error: Error) => error.cause)).resolves.toEqual(new Error("boom"));
    await expect(client.close()).resolves.toBeUndefined();
  });

  it("no list change for the definitions a server had before the client came", async () => {
    const server = makeServer().add(
      defineTool({
        name: "io",
        description: "Waits for I/O, as a handler reading a file does",
        handler: async (_args, ctx) => {
          await new Promise((resolve) => setImmediate(resolve));
          ctx.log.info("read");
          return "read";
        },
      }),
    );
    const client = await connect(server);
    await client.callTool({ name: "io" });
    expect(client.notifications).toEqual([
      { method: "notifications/message", params: { level: "info", data: "read" } },
    ]);
  });

  it("no log message below the level asked for", async () => {
    const client = await connect(makeServer(), { logLevel: "info" });
    await client.callTool({ name: "work" });
    expect(client.notifications.map(({ params }) => params.level)).toEqual(["info"]);
  });

  it("list changes and updates of subscribed resources, until unsubscribed", async () => {
    const server = makeServer();
    const client = await connect(server);
    const changed = client.nextNotification("notifications/tools/list_changed");
    server.add(defineTool({ name: "later", description: "Added later", handler: () => "" }));
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("later");

    await client.subscribeResource({ uri: "memo://today" });
    await client.callTool({ name: "touch" });
    const updated = await client.waitForNotification("notifications/resources/updated");
    expect(updated.params).toMatchObject({ uri: "memo://today" });

    await client.unsubscribeResource({ uri: "memo://today" });
    const second = client.nextNotification("notifications/tools/list_changed");
    await client.callTool({ name: "touch" });
    server.add(defineTool({ name: "last", description: "Added last", handler: () => "" }));
    await second;
    const updates = client.notifications.filter(
      ({ method }) => method === "notifications/resources/updated",
    );
    expect(updates).toHaveLength(1);
  });

  it("no more updates once unsubscribed, after two subscribes to one URI at once", async () => {
    const server = makeServer();
    const client = await connect(server);
    await Promise.all([
      client.subscribeResource({ uri: "memo://today" }),
      client.subscribeResource({ uri: "memo://today" }),
    ]);
    await client.callTool({ name: "touch" });
    await client.waitForNotification("notifications/resources/updated");
    await client.unsubscribeResource({ uri: "memo://today" });
    const changed = client.nextNotification("notifications/tools/list_changed");
    await client.callTool({ name: "touch" });
    server.add(defineTool({ name: "later", description: "Added later", handler: () => "" }));
    await changed;
    const updates = client.notifications.filter(
      ({ method }) => method === "notifications/resources/updated",
    );
    expect(updates).toEqual([
      { method: "notifications/resources/updated", params: { uri: "memo://today" } },
    ]);
  });

  it("no updates after an unsubscribe made while the subscribe was under way", async () => {
    const server = makeServer();
    const client = await connect(server);
    const subscribed = client.subscribeResource({ uri: "memo://today" });
    await client.unsubscribeResource({ uri: "memo://today" });
    await subscribed;
    const changed = client.nextNotification("notifications/tools/list_changed");
    await client.callTool({ name: "touch" });
    server.add(defineTool({ name: "later", description: "Added later", handler: () => "" }));
    await changed;
    expect(client.notifications.map(({ method }) => method)).toEqual([
      "notifications/tools/list_changed",
    ]);
  });

  it("gives list changes and updates as both eras share them, with no listen stream's id", async () => {
    const server = makeServer();
    const client = await connect(server);
    await client.subscribeResource({ uri: "memo://today" });
    const changed = client.nextNotification("notifications/tools/list_changed");
    server.add(defineTool({ name: "later", description: "Added later", handler: () => "" }));
    expect((await changed).params).toEqual({});
    await client.callTool({ name: "touch" });
    const updated = await client.waitForNotification("notifications/resources/updated");
    expect(updated.params).toEqual({ uri: "memo://today" });
  });

  it("tells a test still waiting that the client closed", async () => {
    const client = await connect(makeServer());
    opened.pop();
    const waiting = client.nextNotification("notifications/prompts/list_changed");
    await client.close();
    await expect(waiting).rejects.toThrow(
      "The client closed while waiting for notifications/prompts/list_changed",
    );
  });
});

describe("what a client asks to hear", () => {
  it("a listen stream of its own on 2026-07-28, with what the server agreed to", async () => {
    const server = makeServer();
    const client = await createTestClient(server);
    opened.push(client);
    const stream = await client.listen({ promptsListChanged: true, toolsListChanged: true });
    // The server has no prompts, so it announces no prompt changes.
    expect(stream.honoredFilter).toEqual({ toolsListChanged: true });
    await stream.close();
    expect(await stream.closed).toBe("local");
  });

  it("no listen stream on a 2025 revision, saying what replaces it", async () => {
    const client = await createTestClient(makeServer(), { protocolVersion: "2025-06-18" });
    opened.push(client);
    await expect(client.listen({ toolsListChanged: true })).rejects.toThrow(
      "subscriptions/listen is 2026-07-28's; a 2025-06-18 session is told of list changes as they happen, and subscribes to resources with subscribeResource",
    );
  });

  it.each(["2026-07-28", "2025-11-25"] as const)(
    "setLoggingLevel at %s: only log messages at that level or above from then on",
    async (protocolVersion) => {
      const client = await createTestClient(makeServer(), { protocolVersion });
      opened.push(client);
      await client.setLoggingLevel("info");
      await client.callTool({ name: "work" });
      expect(client.notifications.map(({ params }) => params.level)).toEqual(["info"]);
    },
  );
});

describe("two clients of one server", () => {
  it("do not hear each other's log messages or progress", async () => {
    const server = makeServer();
    const [first, second]: TestClient[] = await Promise.all([
      createTestClient(server),
      createTestClient(server, { protocolVersion: "2025-11-25" }),
    ]);
    opened.push(first as TestClient, second as TestClient);
    await first?.callTool({ name: "work" });
    expect(first?.notifications).toHaveLength(2);
    expect(second?.notifications).toEqual([]);
  });
});

describe("a client of a directory whose onNotification throws", () => {
  it("still closes the server it made when close() rejects", async () => {
    const dir = await createServerDir({
      "tools/logs.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Logs", handler: (_args, ctx) => { ctx.log.info("hi"); return "ok"; } });
`,
    });
    const client = await createTestClient(dir, {
      onNotification: () => {
        throw new Error("boom");
      },
    });
    await client.callTool({ name: "logs" });
    await expect(client.close()).rejects.toThrow(
      "The onNotification callback threw on notifications/message: boom; the client went on receiving every notification",
    );
    expect(client.server.closing.aborted).toBe(true);
  });
});
