/**
 * Middleware by folder, as a user writes it: the config's middleware, the
 * root `_middleware.ts`, and one in each of some folders of tools/, run
 * around the definitions below them, root first. One suite over stdio and
 * HTTP, in both eras (the v1 client in a 2025-11-25 session, the v2 client
 * pinned to 2026-07-28), against the real CLI.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  closeClients,
  connectClient,
  ERA_ROWS,
  type EraClient,
  serveOnce,
  type Target,
} from "./helpers/clients.js";

/** Each middleware adds its name to the trace the handlers read. */
const trace = (name: string) => `import { defineMiddleware } from "mcp-dir";
export default defineMiddleware(async (ctx, next) => {
  ctx.locals.trace = [...((ctx.locals.trace as string[] | undefined) ?? []), ${JSON.stringify(name)}];
  return next();
});
`;

const FILES = {
  "mcp-dir.config.ts": `import { defineConfig } from "mcp-dir";
export default defineConfig({
  name: "middleware-test",
  middleware: [(ctx, next) => { ctx.locals.trace = ["config"]; return next(); }],
});
`,
  "_middleware.ts": trace("root"),
  "tools/_middleware.ts": trace("tools"),
  "tools/echo.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Says who ran before it",
  input: { message: z.string() },
  handler: ({ message }, ctx) => \`\${(ctx.locals.trace as string[]).join(">")}: \${message}\`,
});
`,
  "tools/admin/_middleware.ts": `import { defineMiddleware } from "mcp-dir";
export default defineMiddleware({
  timeoutMs: 300,
  run: (ctx, next) => (ctx.args.token === "let-me-in" ? next() : "admins only"),
});
`,
  "tools/admin/ban.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Bans a user",
  input: { user: z.string(), token: z.string().optional() },
  handler: ({ user }, ctx) => \`\${(ctx.locals.trace as string[]).join(">")}: banned \${user}\`,
});
`,
  "tools/admin/hang.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Never answers",
  input: { token: z.string() },
  handler: () => new Promise(() => {}),
});
`,
  "tools/loud/_middleware.ts": `export default (ctx, next) => {
  ctx.args = { message: String(ctx.args.message).toUpperCase() };
  return next();
};
`,
  "tools/loud/shout.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Shouts",
  input: { message: z.string().regex(/^[A-Z ]+$/) },
  handler: ({ message }) => message,
});
`,
  "tools/limited/_middleware.ts": `export default async (ctx, next) => {
  if (ctx.args.n === 0) throw new Error("rate limited: try again in a minute");
  const result = await next();
  return { content: [...result.content, { type: "text", text: "counted" }] };
};
`,
  "tools/limited/count.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Counts",
  input: { n: z.number() },
  handler: ({ n }) => String(n),
});
`,
  "lib/queue-records.ts": `// What became of each queued call once its turn came, by key.
const records = new Map<string, { promise: Promise<string>; resolve: (what: string) => void }>();
export function queueRecord(key: string) {
  let entry = records.get(key);
  if (!entry) {
    let resolve: (what: string) => void = () => {};
    const promise = new Promise<string>((r) => (resolve = r));
    entry = { promise, resolve };
    records.set(key, entry);
  }
  return entry;
}
`,
  "tools/queued/_middleware.ts": `import { defineMiddleware } from "mcp-dir";
import { queueRecord } from "../../lib/queue-records";
// A queue whose turn comes only once the call's signal has aborted: by then it is cancelled or past its limit.
export default defineMiddleware({
  timeoutMs: 200,
  run: async (ctx, next) => {
    await ctx.progress(1);
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    const what = await next().then(
      (result) => "next() gave " + result.content.map((block) => block.text).join(""),
      (error) => "next() threw " + error.name + ": " + error.message,
    );
    queueRecord(String(ctx.args.key)).resolve(what);
    return what;
  },
});
`,
  "tools/queued/work.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Works, once the queue lets it",
  input: { key: z.string() },
  handler: () => "the handler's work",
});
`,
  "tools/queue-report.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { queueRecord } from "../lib/queue-records";
export default defineTool({
  description: "Waits, however long, until queued_work(key) had its turn, and says what came of it",
  input: { key: z.string() },
  timeoutMs: 0,
  handler: ({ key }) => queueRecord(key).promise,
});
`,
  "prompts/greet.ts": `import { definePrompt } from "mcp-dir";
import { z } from "zod";
export default definePrompt({
  arguments: { who: z.string() },
  get: ({ who }, ctx) => \`\${(ctx.locals.trace as string[]).join(">")}: hello \${who}\`,
});
`,
};

/** The server keeps nothing between calls: one HTTP server of the directory serves both HTTP rows. */
const serve = serveOnce();

let dir: string;

beforeAll(async () => {
  dir = await createServerDir(FILES);
});

afterAll(async () => {
  await closeClients();
  await stopAll();
  await removeServerDirs();
});

const texts = (result: Record<string, unknown>) =>
  (result.content as { text: string }[]).map((block) => block.text);

describe.each(ERA_ROWS)("middleware by folder, over %s, with the %s client", (transport, kind) => {
  let client: EraClient;

  beforeAll(async () => {
    const target: Target = await serve(transport, dir);
    client = await connectClient(kind, target);
  });

  it("runs the config's, the root's and each folder's, root first, around the handler", async () => {
    const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(texts(result)).toEqual(["config>root>tools: hi"]);
    const prompt = await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "config>root: hello Ada" } },
    ]);
  });

  it("lets a folder's middleware answer in the handler's place", async () => {
    const refused = await client.callTool({ name: "admin_ban", arguments: { user: "eve" } });
    expect([texts(refused), refused.isError]).toEqual([["admins only"], undefined]);
    const allowed = await client.callTool({
      name: "admin_ban",
      arguments: { user: "eve", token: "let-me-in" },
    });
    expect(texts(allowed)).toEqual(["config>root>tools: banned eve"]);
  });

  it("gives its subtree the time limit its folder file sets", async () => {
    const result = await client.callTool({
      name: "admin_hang",
      arguments: { token: "let-me-in" },
    });
    expect([result.isError, texts(result)]).toEqual([
      true,
      [
        'Tool "admin_hang" did not finish within the time limit of 300 ms that tools/admin/_middleware.ts sets and was stopped; to allow longer, raise timeoutMs there, or set timeoutMs in its defineTool (0: no limit)',
      ],
    ]);
  });

  it("does not run a handler whose call passed its time limit while its middleware waited", async () => {
    const key = `${transport} ${kind} limit`;
    const result = await client.callTool({ name: "queued_work", arguments: { key } });
    const limit =
      'Tool "queued_work" did not finish within the time limit of 200 ms that tools/queued/_middleware.ts sets and was stopped; to allow longer, raise timeoutMs there, or set timeoutMs in its defineTool (0: no limit)';
    expect([result.isError, texts(result)]).toEqual([true, [limit]]);
    const report = await client.callTool({ name: "queue-report", arguments: { key } });
    expect(texts(report)).toEqual([`next() threw TimeoutError: ${limit}`]);
  });

  it("does not run a handler whose call the client cancelled while its middleware waited", async () => {
    const key = `${transport} ${kind} cancel`;
    const controller = new AbortController();
    const call = client.callTool(
      { name: "queued_work", arguments: { key } },
      // The middleware reports progress once the call waits in it.
      { signal: controller.signal, onprogress: () => controller.abort("no longer needed") },
    );
    await expect(call).rejects.toThrow();
    const report = await client.callTool({ name: "queue-report", arguments: { key } });
    // Over 2026-07-28 HTTP the client cancels by closing the stream, which carries no reason.
    const reason =
      transport === "http" && kind !== "v1 at 2025-11-25"
        ? "The client closed the response stream"
        : "no longer needed";
    expect(texts(report)).toEqual([`next() threw AbortError: ${reason}`]);
  });

  it("validates arguments a middleware replaced", async () => {
    const result = await client.callTool({ name: "loud_shout", arguments: { message: "hey you" } });
    expect(texts(result)).toEqual(["HEY YOU"]);
  });

  it("makes a middleware's throw the handler's, and keeps what it changed", async () => {
    const counted = await client.callTool({ name: "limited_count", arguments: { n: 2 } });
    expect(texts(counted)).toEqual(["2", "counted"]);
    const limited = await client.callTool({ name: "limited_count", arguments: { n: 0 } });
    expect([limited.isError, texts(limited)]).toEqual([
      true,
      ["rate limited: try again in a minute"],
    ]);
  });
});

describe("a build of the directory", () => {
  it("runs the same middleware: the config's, the root's and each folder's", async () => {
    const out = join(dir, "dist-mcp");
    const built = await runCli(["build", dir, "--out", out]);
    expect([built.code, built.stderr]).toEqual([0, ""]);
    const client = new Client({ name: "middleware-build", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(out, "server.mjs")],
        stderr: "ignore",
      }),
    );
    try {
      const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
      expect(texts(result)).toEqual(["config>root>tools: hi"]);
    } finally {
      await client.close();
    }
  });
});

describe("what list and check say of middleware", () => {
  it("check names what each middleware wraps", async () => {
    const checked = await runCli(["check", dir]);
    expect(checked.code).toBe(0);
    expect(checked.stdout.split("\n").filter((line) => line.startsWith("middleware: "))).toEqual([
      "middleware: the config's middleware wraps 8 definitions: greet, admin_ban, admin_hang, echo, limited_count, loud_shout, queue-report, queued_work",
      "middleware: _middleware.ts wraps 8 definitions: greet, admin_ban, admin_hang, echo, limited_count, loud_shout, queue-report, queued_work",
      "middleware: tools/_middleware.ts wraps 7 definitions: admin_ban, admin_hang, echo, limited_count, loud_shout, queue-report, queued_work",
      "middleware: tools/admin/_middleware.ts wraps 2 definitions: admin_ban, admin_hang",
      "middleware: tools/limited/_middleware.ts wraps 1 definition: limited_count",
      "middleware: tools/loud/_middleware.ts wraps 1 definition: loud_shout",
      "middleware: tools/queued/_middleware.ts wraps 1 definition: queued_work",
    ]);
  });

  it("list gives each definition what wraps it, outermost first", async () => {
    const listed = await runCli(["list", dir, "--json"]);
    const tools = JSON.parse(listed.stdout).tools as { name: string; middleware?: string[] }[];
    expect(tools.find((tool) => tool.name === "admin_ban")?.middleware).toEqual([
      "(server)",
      "_middleware.ts",
      "tools/_middleware.ts",
      "tools/admin/_middleware.ts",
    ]);
  });
});
