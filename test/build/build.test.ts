/**
 * `mcp-dir build` of example-server, run by each real runtime (Node, Bun and
 * Deno from the npm registry, Cloudflare's workerd through Miniflare): the
 * official v2 client makes the same calls of each as of `serve
 * example-server`, and gets the same answers.
 */
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeClients,
  connectClient,
  type EraClient,
  SHOWS_VIEWS,
  shared,
} from "../eras/helpers/clients.js";
import { EXAMPLE_SERVER, runCli, startCli, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  buildExample,
  type Door,
  startDoor,
  stopWorkers,
  type Target,
} from "./helpers/runtimes.js";

/**
 * The same calls of every server; results compared without what each era
 * adds. Each client shows views, so the view and its links are compared too.
 */
const CALLS: [string, (client: EraClient) => Promise<Record<string, unknown>>][] = [
  ["tools/list", (c) => c.listTools()],
  [
    "tools/call",
    (c) => c.callTool({ name: "calculator", arguments: { operation: "add", a: 2, b: 3 } }),
  ],
  [
    "tools/call (a folder's middleware answers)",
    (c) => c.callTool({ name: "text_stats", arguments: { text: "   " } }),
  ],
  ["prompts/list", (c) => c.listPrompts()],
  [
    "prompts/get",
    (c) => c.getPrompt({ name: "standup", arguments: { yesterday: "fixed it", today: "ship" } }),
  ],
  ["resources/list", (c) => c.listResources()],
  ["resources/templates/list", (c) => c.listResourceTemplates()],
  ["resources/read (static)", (c) => c.readResource({ uri: "file:///config.json" })],
  ["resources/read (template)", (c) => c.readResource({ uri: "users://ada" })],
  ["resources/read (view)", (c) => c.readResource({ uri: "ui://poll" })],
  [
    "completion/complete",
    (c) =>
      c.complete({
        ref: { type: "ref/resource", uri: "users://{id}" },
        argument: { name: "id", value: "a" },
      }),
  ],
];

/** The door each target is served through: its runtime, as a program (Workers: workerd). */
const DOOR_OF: Readonly<Record<Target, Door>> = {
  node: "node",
  bun: "bun",
  deno: "deno",
  cloudflare: "workerd",
};

/** Each build's door, started once: the cases that connect to it only read (none calls a tool that votes or writes). */
const doors = new Map<Target, Promise<string>>();

/** A Worker serves nothing without a token unless told it is meant to be open, as here. */
function serveBuilt(target: Target, out: string): Promise<string> {
  let url = doors.get(target);
  if (url === undefined) {
    url = startDoor(
      DOOR_OF[target],
      { dir: EXAMPLE_SERVER, out },
      {
        MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE: "1",
      },
    );
    doors.set(target, url);
  }
  return url;
}

let outRoot: string;
/** `serve example-server --http`, which every build is compared with: the cases only read. */
let servedUrl: string;
let reference: Record<string, unknown>[];

beforeAll(async () => {
  outRoot = await createServerDir({});
  servedUrl = (await startCli(["serve", EXAMPLE_SERVER, "--http", "--port", "0"])).url;
  const served = await connectClient(
    "v2 pinned to 2026-07-28",
    { url: servedUrl },
    { capabilities: SHOWS_VIEWS },
  );
  reference = [];
  for (const [, call] of CALLS) reference.push(shared(await call(served)));
});

afterAll(async () => {
  await closeClients();
  await stopAll();
  await stopWorkers();
  await removeServerDirs();
});

describe.each(["node", "bun", "deno", "cloudflare"] as const)("a build for %s", (runtime) => {
  let out: string;

  beforeAll(async () => {
    // Made once per run: another file may have asked for it first.
    const built = await buildExample(runtime);
    out = built.out;
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(
      new RegExp(
        `^mcp-dir build: .+ \\(10 tools, 2 prompts, 3 resources, 1 resource template, 1 view\\) for ${runtime}: `,
      ),
    );
  });

  it("answers the official v2 client as serve example-server does, over HTTP", async () => {
    const client = await connectClient(
      "v2 pinned to 2026-07-28",
      { url: await serveBuilt(runtime, out) },
      { capabilities: SHOWS_VIEWS },
    );
    const answers: Record<string, unknown>[] = [];
    for (const [, call] of CALLS) answers.push(shared(await call(client)));
    expect(answers).toEqual(reference);
  });
});

describe("a build's other ways in", () => {
  it("serves a 2025 client (the v1 SDK) a session on Deno", async () => {
    // The Deno program the 2026-07-28 client above was answered by, when it ran: a session of its own.
    const { out } = await buildExample("deno");
    const client = await connectClient(
      "v1 at 2025-11-25",
      { url: await serveBuilt("deno", out) },
      { capabilities: SHOWS_VIEWS },
    );
    expect(client.protocolVersion()).toBe("2025-11-25");
    // 2025-11-25 lists which tools run as tasks, as 2026-07-28 does not: compare with serve's list at 2025.
    const served = await connectClient(
      "v1 at 2025-11-25",
      { url: servedUrl },
      { capabilities: SHOWS_VIEWS },
    );
    expect(shared(await client.listTools())).toEqual(shared(await served.listTools()));
    expect(shared((await CALLS[1]?.[1](client)) ?? {})).toEqual(reference[1]);
  });

  it("serves stdio when run by Node without --http", async () => {
    const client = new ClientV1({ name: "build-test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join((await buildExample("node")).out, "server.mjs")],
        stderr: "ignore",
      }),
    );
    try {
      expect(
        await client.callTool({ name: "calculator", arguments: { operation: "add", a: 2, b: 3 } }),
      ).toEqual({
        content: [{ type: "text", text: "5" }],
      });
    } finally {
      await client.close();
    }
  });

  it("writes a manifest, and a wrangler.toml for Cloudflare", async () => {
    const { readFile } = await import("node:fs/promises");
    const { out } = await buildExample("cloudflare");
    const manifest = JSON.parse(await readFile(join(out, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "example-server",
      version: "1.0.0",
      target: "cloudflare",
      main: "server.mjs",
      tools: [
        "calculator",
        "chart",
        "poll",
        "poll_vote",
        "primes",
        "report",
        "team_invite",
        "team_lookup",
        "temperature",
        "text_stats",
      ],
      resourceTemplates: ["users://{id}"],
    });
    expect(await readFile(join(out, "wrangler.toml"), "utf8")).toBe(
      `# Deploy with: npx wrangler deploy (from this folder)
# The Worker serves nothing until it has a token: npx wrangler secret put MCP_DIR_AUTH_TOKEN
# (and npx wrangler secret put MCP_DIR_STATE_KEY, so every isolate signs requestState alike).
name = "example-server"
main = "server.mjs"
compatibility_date = "2026-04-01"
compatibility_flags = ["nodejs_compat"]

# A server meant to be open to anyone, with no token:
# [vars]
# MCP_DIR_ALLOW_UNAUTHENTICATED_REMOTE = "1"
`,
    );
  });

  it("bundles a YAML parser only for a server with Markdown prompts", async () => {
    const { readFile } = await import("node:fs/promises");
    // esbuild names each file it bundles in a comment where its code starts.
    const holdsYaml = (bundle: string) => /^\/\/ node_modules\/yaml\//m.test(bundle);
    const { out: example } = await buildExample("node");
    expect(holdsYaml(await readFile(join(example, "server.mjs"), "utf8"))).toBe(true);
    const dir = await createServerDir({
      "tools/echo.mjs": 'export default { description: "Echo", handler: () => "hi" };\n',
      "resources/notes.md": "# Notes\n",
    });
    const out = join(outRoot, "no-prompts");
    expect(await runCli(["build", dir, "--out", out])).toMatchObject({ code: 0, stderr: "" });
    expect(holdsYaml(await readFile(join(out, "server.mjs"), "utf8"))).toBe(false);
  });

  it("fails on a broken directory with the errors check gives, and writes nothing", async () => {
    const dir = await createServerDir({
      "tools/broken.ts": "export default { description: 'no handler' };\n",
    });
    const out = join(outRoot, "broken");
    const [built, checked] = await Promise.all([
      runCli(["build", dir, "--out", out]),
      runCli(["check", dir]),
    ]);
    expect(built.code).toBe(1);
    const errors = (text: string) => text.split("\n").filter((line) => line.startsWith("error: "));
    expect(errors(built.stderr)).toEqual(errors(checked.stdout));
    expect(errors(built.stderr)).toHaveLength(1);
    const { access } = await import("node:fs/promises");
    await expect(access(out)).rejects.toThrow(/ENOENT/);
  });
});
