/**
 * `server.setNotice`: one way to tell every client of something about the
 * server as a whole (a file that fails to load in dev), in both eras, whether
 * it connected before or after. The official clients of each era, and a raw
 * 2025 session over stdio's transport, in this process.
 */
import { Client as ClientV2, LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import {
  LoggingMessageNotificationSchema,
  type Notification,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, defineTool, type McpServer, type ServerOptions } from "../../src/index.js";
import { inMemoryV1, inMemoryV2 } from "../helpers/in-memory-pair.js";
import { Inbox } from "./helpers/inbox.js";
import { RawClient } from "./helpers/raw-client.js";

const INFO = { name: "notices-test", version: "1.0.0" };
const BROKEN = {
  level: "error",
  logger: "mcp-dir",
  data: { file: "tools/x.ts", message: "tools/x.ts: SyntaxError" },
} as const;

const servers: McpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function makeServer(options: Partial<ServerOptions> = {}): McpServer {
  const server = createServer({ name: "notices", version: "1.0.0", ...options }).add(
    defineTool({ name: "ping", description: "Answers", handler: () => "pong" }),
  );
  servers.push(server);
  return server;
}

describe("server.setNotice", () => {
  it("tells each 2025 session at once, as a log message, and nothing when withdrawn", async () => {
    const server = makeServer();
    const client = new ClientV1(INFO, { capabilities: {} });
    const logs = new Inbox<Notification>();
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n));
    await client.connect(inMemoryV1(server));

    server.setNotice("tools/x.ts", [BROKEN]);
    expect((await logs.waitFor(() => true, "the notice")).params).toEqual(BROKEN);
    server.setNotice("tools/x.ts", undefined);
    await client.callTool({ name: "ping", arguments: {} });
    expect(logs.items).toHaveLength(1);
    await client.close();
  });

  it("tells a 2025 session that connects later what stands, once it is initialized", async () => {
    const server = makeServer();
    server.setNotice("tools/x.ts", [BROKEN]);
    const client = new ClientV1(INFO, { capabilities: {} });
    const logs = new Inbox<Notification>();
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n));
    await client.connect(inMemoryV1(server));

    expect((await logs.waitFor(() => true, "the notice")).params).toEqual(BROKEN);
    await client.callTool({ name: "ping", arguments: {} });
    expect(logs.items).toHaveLength(1);
    await client.close();
  });

  it("tells a 2025 session each notice once, after notifications/initialized, at its log level", async () => {
    const server = makeServer({ logLevel: "info" });
    const client = RawClient.serving(server);
    await client.result("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    server.setNotice("tools/x.ts", [BROKEN]);
    server.setNotice("tools/y.ts", [{ ...BROKEN, data: "withdrawn before it was told" }]);
    server.setNotice("tools/y.ts", undefined);
    server.setNotice("tools/z.ts", [{ level: "debug", data: "below the session's level" }]);
    // Not initialized yet: nothing is told.
    await client.result("ping");
    expect(client.withMethod("notifications/message")).toEqual([]);

    client.notify("notifications/initialized");
    await client.result("ping");
    server.setNotice("tools/w.ts", [{ level: "warning", data: "set once initialized" }]);
    // Said twice: nothing is told twice.
    client.notify("notifications/initialized");
    await client.result("ping");
    expect(client.withMethod("notifications/message").map((m) => m.params)).toEqual([
      BROKEN,
      { level: "warning", data: "set once initialized" },
    ]);
    await client.close();
  });

  it("tells each 2026-07-28 request that asks for log messages at its level, while it stands", async () => {
    const server = makeServer();
    const client = new ClientV2(INFO, {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    } as ConstructorParameters<typeof ClientV2>[1]);
    const logs: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => {
      logs.push(n.params);
    });
    await client.connect(inMemoryV2(server));
    const call = (level?: string) =>
      client.callTool({
        name: "ping",
        arguments: {},
        ...(level && { _meta: { [LOG_LEVEL_META_KEY]: level } }),
      });

    server.setNotice("tools/x.ts", [BROKEN]);
    await call("debug");
    expect(logs).toEqual([BROKEN]);
    await call("debug");
    expect(logs).toEqual([BROKEN, BROKEN]);
    // Asked for nothing, or only for what is more severe: not told.
    await call();
    await call("critical");
    expect(logs).toHaveLength(2);

    server.setNotice("tools/x.ts", undefined);
    await call("debug");
    expect(logs).toHaveLength(2);
    await client.close();
  });

  it("is never sent on a 2026-07-28 listen stream, where log messages may not go", async () => {
    const server = makeServer();
    // The v2 client's listen() sends no log level: the request as the revision allows it.
    const received = new Inbox<string>();
    const stop = new AbortController();
    const listening = server.serveRequest(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "subscriptions/listen",
        params: {
          notifications: { toolsListChanged: true },
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            [LOG_LEVEL_META_KEY]: "debug",
          },
        },
      },
      { notify: (n) => received.push(n.method), signal: stop.signal },
    );
    await received.waitFor((method) => method.endsWith("/acknowledged"), "the acknowledgement");

    server.setNotice("tools/x.ts", [BROKEN]);
    server.add(defineTool({ name: "later", description: "Added later", handler: () => "" }));
    await received.waitFor((method) => method.endsWith("/list_changed"), "tools/list_changed");
    expect(received.items).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    stop.abort();
    expect(await listening).toBeUndefined();
  });

  it("refuses a message whose level is not a log level, naming the levels", () => {
    const server = makeServer();
    expect(() =>
      server.setNotice("tools/x.ts", [{ level: "loud" as "error", data: "hello" }]),
    ).toThrow(
      'setNotice: "loud" is not a log level; use one of debug, info, notice, warning, error, critical, alert, emergency',
    );
  });
});
