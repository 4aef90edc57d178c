/**
 * mcp-dir/testing's requests, with the official SDK clients' names and
 * result shapes, give the same results in both eras: a test written once
 * checks a server at 2026-07-28 and at any 2025 revision.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createServer,
  definePrompt,
  defineResource,
  defineTool,
  type McpServer,
} from "../../src/index.js";
import { createTestClient, RequestError, type TestClient } from "../../src/testing/index.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

const VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

function makeServer(): McpServer {
  return createServer({
    name: "requests",
    version: "1.2.3",
    instructions: "Echo things.",
    pageSize: 2,
  }).add(
    defineTool({
      name: "echo",
      description: "Echoes",
      input: { message: z.string() },
      handler: ({ message }) => message,
    }),
    defineTool({ name: "a", description: "A", handler: () => "a" }),
    defineTool({ name: "b", description: "B", handler: () => "b" }),
    definePrompt({
      name: "greet",
      description: "Greets",
      arguments: { who: z.string() },
      complete: { who: ["Ada", "Alan"] },
      get: ({ who }) => `Hello, ${who}`,
    }),
    defineResource({ name: "motd", uri: "memo://motd", read: () => "Be kind." }),
    defineResource({
      name: "note",
      uriTemplate: "notes://{id}",
      read: ({ params }) => `note ${params.id}`,
    }),
  );
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(removeServerDirs);

describe.each(VERSIONS)("a client at %s", (protocolVersion) => {
  let server: McpServer;
  let client: TestClient;
  beforeAll(() => {
    server = makeServer();
  });
  afterAll(() => server.close());
  const connect = async () => {
    client = await createTestClient(server, { protocolVersion });
    clients.push(client);
    return client;
  };

  it("speaks the revision asked for and knows the server", async () => {
    await connect();
    expect(client.protocolVersion).toBe(protocolVersion);
    expect(client.getServerVersion()).toMatchObject({ name: "requests", version: "1.2.3" });
    expect(client.getInstructions()).toBe("Echo things.");
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
  });

  it("lists every page, or the page a cursor names", async () => {
    await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["a", "b", "echo"]);
    const first = await client.request("tools/list", {});
    const second = await client.listTools({ cursor: first.nextCursor as string });
    expect(second.tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("calls, gets, reads and completes, with the results both eras share", async () => {
    await connect();
    expect(await client.callTool({ name: "echo", arguments: { message: "hi" } })).toEqual({
      content: [{ type: "text", text: "hi" }],
    });
    expect(await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).toEqual({
      description: "Greets",
      messages: [{ role: "user", content: { type: "text", text: "Hello, Ada" } }],
    });
    expect(await client.readResource({ uri: "notes://7" })).toEqual({
      contents: [{ uri: "notes://7", mimeType: "text/plain", text: "note 7" }],
    });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["memo://motd"]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "notes://{id}", name: "note" },
    ]);
    if (protocolVersion !== "2024-11-05") {
      expect(
        await client.complete({
          ref: { type: "ref/prompt", name: "greet" },
          argument: { name: "who", value: "A" },
        }),
      ).toEqual({ completion: { values: ["Ada", "Alan"], total: 2, hasMore: false } });
    }
  });

  it("takes the SDK clients' request options on every method, and _meta on lists", async () => {
    await connect();
    const options = { signal: AbortSignal.abort(new Error("stopped")) };
    const uri = "memo://motd";
    await expect(client.subscribeResource({ uri }, options)).rejects.toThrow("stopped");
    await expect(client.unsubscribeResource({ uri }, options)).rejects.toThrow("stopped");
    await expect(client.setLoggingLevel("info", options)).rejects.toThrow("stopped");
    const _meta = { "example.com/trace": "7" };
    expect((await client.listTools({ _meta })).tools).toHaveLength(3);
    expect((await client.listPrompts({ _meta })).prompts).toHaveLength(1);
    expect((await client.listResources({ _meta })).resources).toHaveLength(1);
    expect((await client.listResourceTemplates({ _meta })).resourceTemplates).toHaveLength(1);
  });

  it("rejects with the server's JSON-RPC error: its code, message and data", async () => {
    await connect();
    const error = await client.getPrompt({ name: "greet" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({
      code: -32602,
      message: 'Missing required argument for prompt "greet": who (JSON-RPC error -32602)',
    });
  });

  it("refuses a request made once closed, saying it was not sent", async () => {
    await connect();
    await client.close();
    const closed =
      "This client is closed (close() was called), so the request was not sent; make a new client for it";
    await expect(client.callTool({ name: "echo", arguments: { message: "hi" } })).rejects.toThrow(
      closed,
    );
    await expect(client.listTools()).rejects.toThrow(closed);
    await expect(client.subscribeResource({ uri: "memo://motd" })).rejects.toThrow(closed);
    await expect(client.setLoggingLevel("info")).rejects.toThrow(closed);
  });

  it("cancels a request whose signal aborts: the handler's signal aborts too", async () => {
    let aborted: (reason: unknown) => void = () => {};
    const seen = new Promise((resolve) => {
      aborted = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    server.add(
      defineTool({
        name: "hang",
        description: "Waits until cancelled",
        handler: (_args, ctx) =>
          new Promise((_, reject) => {
            ctx.signal.addEventListener("abort", () => {
              aborted(ctx.signal.reason);
              reject(ctx.signal.reason);
            });
            started();
          }),
      }),
    );
    await connect();
    const stop = new AbortController();
    const call = client.callTool({ name: "hang" }, { signal: stop.signal });
    await running;
    stop.abort(new Error("enough"));
    await expect(call).rejects.toThrow("enough");
    expect(String(await seen)).toMatch(/enough|cancel/i);
  });
});

describe("createTestClient", () => {
  it("loads a directory, and closes the server it made", async () => {
    const dir = await createServerDir({
      "tools/hello.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Says hello", handler: () => "hello" });
`,
    });
    const client = await createTestClient(dir);
    expect(await client.callTool({ name: "hello" })).toEqual({
      content: [{ type: "text", text: "hello" }],
    });
    await client.close();
    expect(client.server.closing.aborted).toBe(true);
  });

  it("refuses a directory with problems, naming each", async () => {
    const dir = await createServerDir({
      "tools/bad.ts": "export default {\n  description: 'x',,\n};\n",
    });
    await expect(createTestClient(dir)).rejects.toThrow(
      `createTestClient: ${dir} has 1 problem; fix it (or pass { watch: true } to serve the rest):\n  tools/bad.ts: SyntaxError: Expected identifier but found "," (2:20)`,
    );
  });

  it("names where a file went wrong as it is saved, though vitest formats this process's stack traces", async () => {
    // vitest's own Error.prepareStackTrace knows the source maps of what vitest transformed, not tsx's.
    expect(Error.prepareStackTrace).toBeTypeOf("function");
    const dir = await createServerDir({
      "tools/nameless.ts": `import { defineTool } from "mcp-dir";\n\nexport default defineTool({ name: "nameless", handler: () => "x" });\n`,
      "tools/missing.ts": `import { x } from "./_nope.js";\n\nexport default x;\n`,
    });
    await expect(createTestClient(dir)).rejects.toThrow(
      `createTestClient: ${dir} has 2 problems; fix them (or pass { watch: true } to serve the rest):
  tools/missing.ts: Cannot find module './_nope.js' imported from tools/missing.ts (1:19)
  tools/nameless.ts: Tool "nameless" is invalid (defined at 3:16):
  - description is missing: clients show it to the model, so say what the tool does`,
    );
  });

  it("refuses a path that is no directory, saying where it looked and what to pass", async () => {
    const parent = await createServerDir({});
    const cwd = process.cwd();
    await expect(createTestClient(join(parent, "my-server"))).rejects.toThrow(
      `createTestClient: ${join(parent, "my-server")} is not a directory; pass the folder of your server (a test in its test/ folder finds it with fileURLToPath(new URL("..", import.meta.url)))`,
    );
    await expect(createTestClient("./my-server")).rejects.toThrow(
      `createTestClient: ${join(cwd, "my-server")} is not a directory ("./my-server" from the working directory, ${cwd}); pass the folder of your server (a test in its test/ folder finds it with fileURLToPath(new URL("..", import.meta.url)))`,
    );
  });

  it("refuses a file that loads for too long, naming the option that raises the limit", async () => {
    const dir = await createServerDir({
      "tools/wait.ts": `await new Promise(() => {});\nexport default { description: "Waits", handler: () => "" };\n`,
    });
    await expect(createTestClient(dir, { loadTimeoutMs: 300 })).rejects.toThrow(
      `createTestClient: ${dir} has 1 problem; fix it (or pass { watch: true } to serve the rest):\n  tools/wait.ts: did not finish loading within 300 ms and was stopped: look for a loop or a wait at its top level that does not end, or raise the limit with --load-timeout <ms> (loadTimeoutMs in code)`,
    );
  });

  it("refuses a protocol revision it does not know, and watch without a directory", async () => {
    const server = makeServer();
    await expect(
      createTestClient(server, { protocolVersion: "2025-01-01" as "2025-11-25" }),
    ).rejects.toThrow(
      'protocolVersion must be "2026-07-28" or a 2025 revision (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25), got "2025-01-01"',
    );
    await expect(createTestClient(server, { watch: true })).rejects.toThrow(
      "createTestClient: watch needs a directory; pass the server's directory, or call watchServer(server, dir) yourself",
    );
    await server.close();
  });

  it("keeps two clients of one directory apart: each has its own server and module state", async () => {
    const dir = await createServerDir({
      "tools/count.ts": `import { defineTool } from "mcp-dir";
let count = 0;
export default defineTool({ description: "Counts its calls", handler: () => String(++count) });
`,
    });
    const first = await createTestClient(dir);
    const second = await createTestClient(dir);
    clients.push(first, second);
    expect(first.server).not.toBe(second.server);
    const count = async (client: TestClient) =>
      (await client.callTool({ name: "count" })).content[0];
    expect(await count(first)).toEqual({ type: "text", text: "1" });
    expect(await count(first)).toEqual({ type: "text", text: "2" });
    expect(await count(second)).toEqual({ type: "text", text: "1" });
  });
});
