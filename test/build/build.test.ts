/**
 * `mcp-dir build` of example-server, run by each real runtime (Node, Bun and
 * Deno from the npm registry, Cloudflare's workerd through Miniflare): the
 * official v2 client makes the same calls of each as of `serve
 * example-server`, and gets the same answers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, connectClient, type EraClient, shared } from "../eras/helpers/clients.js";
import { EXAMPLE_SERVER, REPO_ROOT, runCli, startCli, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

type Runtime = "node" | "bun" | "deno" | "cloudflare";
const BIN = join(REPO_ROOT, "node_modules", ".bin");

/** The same calls of every server; results compared without what each era adds. */
const CALLS: [string, (client: EraClient) => Promise<Record<string, unknown>>][] = [
  ["tools/list", (c) => c.listTools()],
  [
    "tools/call",
    (c) => c.callTool({ name: "calculator", arguments: { operation: "add", a: 2, b: 3 } }),
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
  [
    "completion/complete",
    (c) =>
      c.complete({
        ref: { type: "ref/resource", uri: "users://{id}" },
        argument: { name: "id", value: "a" },
      }),
  ],
];

const programs = new Set<ChildProcess>();
const workers = new Set<Miniflare>();

/** Runs a program and resolves with the URL its banner names ("… at http://…"). */
function startProgram(command: string, args: string[]): Promise<string> {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  programs.add(child);
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const url = / at (http:\/\/\S+)\n/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`${command} exited (${code}):\n${stderr}`)));
  });
}

async function serveBuilt(runtime: Runtime, out: string): Promise<string> {
  const bundle = join(out, "server.mjs");
  const http = ["--http", "--port", "0"];
  if (runtime === "node") return startProgram(process.execPath, [bundle, ...http]);
  if (runtime === "bun") return startProgram(join(BIN, "bun"), [bundle, ...http]);
  if (runtime === "deno") return startProgram(join(BIN, "deno"), ["run", "-A", bundle, ...http]);
  const worker = new Miniflare({
    modules: true,
    scriptPath: bundle,
    modulesRoot: out,
    compatibilityDate: "2026-04-01",
    compatibilityFlags: ["nodejs_compat"],
    port: 0,
  });
  workers.add(worker);
  return new URL("/mcp", await worker.ready).href;
}

let outRoot: string;
let reference: Record<string, unknown>[];

beforeAll(async () => {
  outRoot = await createServerDir({});
  const served = await connectClient("v2 pinned to 2026-07-28", {
    url: (await startCli(["serve", EXAMPLE_SERVER, "--http", "--port", "0"])).url,
  });
  reference = [];
  for (const [, call] of CALLS) reference.push(shared(await call(served)));
});

afterAll(async () => {
  await closeClients();
  await stopAll();
  for (const child of programs) child.kill("SIGKILL");
  await Promise.all([...workers].map((worker) => worker.dispose()));
  await removeServerDirs();
});

describe.each(["node", "bun", "deno", "cloudflare"] as const)("a build for %s", (runtime) => {
  let out: string;

  beforeAll(async () => {
    out = join(outRoot, runtime);
    const built = await runCli(["build", EXAMPLE_SERVER, "--out", out, "--target", runtime]);
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(
      new RegExp(
        `^mcp-dir build: .+ \\(6 tools, 2 prompts, 3 resources, 1 resource template\\) for ${runtime}: `,
      ),
    );
  });

  it("answers the official v2 client as serve example-server does, over HTTP", async () => {
    const client = await connectClient("v2 pinned to 2026-07-28", {
      url: await serveBuilt(runtime, out),
    });
    const answers: Record<string, unknown>[] = [];
    for (const [, call] of CALLS) answers.push(shared(await call(client)));
    expect(answers).toEqual(reference);
  });
});

describe("a build's other ways in", () => {
  it("serves a 2025 client (the v1 SDK) without sessions on Deno", async () => {
    const out = join(outRoot, "deno");
    const client = await connectClient("v1 at 2025-11-25", { url: await serveBuilt("deno", out) });
    expect(client.protocolVersion()).toBe("2025-11-25");
    expect(shared(await client.listTools())).toEqual(reference[0]);
    expect(shared((await CALLS[1]?.[1](client)) ?? {})).toEqual(reference[1]);
  });

  it("serves stdio when run by Node without --http", async () => {
    const client = new ClientV1({ name: "build-test", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(outRoot, "node", "server.mjs")],
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
    const manifest = JSON.parse(
      await readFile(join(outRoot, "cloudflare", "manifest.json"), "utf8"),
    );
    expect(manifest).toMatchObject({
      name: "example-server",
      version: "1.0.0",
      target: "cloudflare",
      main: "server.mjs",
      tools: ["calculator", "chart", "primes", "team_invite", "team_lookup", "text_stats"],
      resourceTemplates: ["users://{id}"],
    });
    expect(await readFile(join(outRoot, "cloudflare", "wrangler.toml"), "utf8")).toBe(
      `# Deploy with: npx wrangler deploy (from this folder)
name = "example-server"
main = "server.mjs"
compatibility_date = "2026-04-01"
compatibility_flags = ["nodejs_compat"]
`,
    );
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
