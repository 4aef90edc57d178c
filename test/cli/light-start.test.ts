import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, REPO_ROOT, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

const scratch = mkdtempSync(join(tmpdir(), "mcp-dir-loads-"));
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
  rmSync(scratch, { recursive: true, force: true });
});

const PRELOAD = pathToFileURL(join(REPO_ROOT, "test", "cli", "helpers", "record-loads.mjs")).href;
let runs = 0;

/**
 * The source files whose code a file of dist/ holds: esbuild names each one
 * (`// src/...`) where its code starts (scripts/build-code.mjs); an entry point is
 * its own source.
 */
function sourcesOf(distFile: string): string[] {
  const named =
    readFileSync(join(REPO_ROOT, distFile), "utf8").match(/^\/\/ src\/\S+\.ts$/gm) ?? [];
  const entry = distFile.startsWith("dist/chunks/")
    ? []
    : [distFile.replace(/^dist\//, "src/").replace(/\.js$/, ".ts")];
  return [...entry, ...named.map((comment) => comment.slice(3))];
}

const recorded = new Map<string, Promise<{ code: number | null; loaded: string[] }>>();

/**
 * The modules `mcp-dir <args>` loads: packages' files, and mcp-dir's own sources (src/...).
 * Each command line (with its environment) runs once for the file: two cases that look at
 * what one command loads read one record.
 */
function modulesLoadedBy(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; loaded: string[] }> {
  const key = JSON.stringify([args, env]);
  let loads = recorded.get(key);
  if (loads === undefined) {
    loads = recordLoads(args, env);
    recorded.set(key, loads);
  }
  return loads;
}

async function recordLoads(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; loaded: string[] }> {
  const record = join(scratch, `loads-${runs++}.txt`);
  const { code } = await runCli(args, {
    env: { ...env, NODE_OPTIONS: `--import=${PRELOAD}`, MCP_DIR_RECORD_LOADS: record },
  });
  const root = pathToFileURL(join(REPO_ROOT, "/")).href;
  const loaded = readFileSync(record, "utf8")
    .split("\n")
    .filter((url) => url.startsWith(root))
    .map((url) => url.slice(root.length))
    .flatMap((path) => (path.startsWith("dist/") ? sourcesOf(path) : [path]));
  return { code, loaded };
}

// What a server needs (the loader, the engine, every package: zod, tsx…) loads when a command runs;
// help, the version and a usage error answer without it.
const MACHINERY = /^(node_modules\/|src\/(loader\/load-server|server\/|vendor\/))/;

describe("what the CLI loads before it has work to do", () => {
  it.each([
    [["--help"], 0],
    [["--version"], 0],
    [["serve", "--help"], 0],
    [["call", "--help"], 0],
    [["list", "--no-such-flag"], 2],
  ])("mcp-dir %j loads no server machinery", async (args, exitCode) => {
    const { code, loaded } = await modulesLoadedBy(args);
    expect(code).toBe(exitCode);
    expect(loaded).toContain("src/cli/main.ts");
    expect(loaded.filter((path) => MACHINERY.test(path))).toEqual([]);
  });

  it("serve loads nothing of OpenTelemetry when the process has none set up", async () => {
    const { code, loaded } = await modulesLoadedBy(["serve", "example-server"]);
    expect(code).toBe(0);
    expect(loaded).toContain("src/server/server.ts");
    expect(
      loaded.filter((path) => /^(src\/otel\/|node_modules\/@opentelemetry\/)/.test(path)),
    ).toEqual([]);
  });

  it("dev loads nothing of the dev UI without --ui", async () => {
    const { code, loaded } = await modulesLoadedBy(["dev", "example-server"]);
    expect(code).toBe(0);
    expect(loaded).toContain("src/cli/dev-watch.ts");
    expect(loaded.filter((path) => path.startsWith("src/dev-ui/"))).toEqual([]);
  });

  it("serve loads nothing of Redis without a Redis to share, nor list with one", async () => {
    const isRedis = (path: string) => path.startsWith("node_modules/@redis/");
    const served = await modulesLoadedBy(["serve", "example-server"]);
    expect(served.code).toBe(0);
    expect(served.loaded.filter(isRedis)).toEqual([]);
    // An in-process command serves no one else, whatever the environment says.
    const listed = await modulesLoadedBy(["list", "example-server"], {
      MCP_DIR_REDIS_URL: "redis://127.0.0.1:1",
    });
    expect(listed.code).toBe(0);
    expect(listed.loaded.filter(isRedis)).toEqual([]);
  });

  it("serve over stdio loads nothing of the HTTP door, nor another command's code", async () => {
    const dir = await createServerDir({
      "tools/echo.mjs": 'export default { description: "Echo", handler: () => "hi" };\n',
    });
    const { code, loaded } = await modulesLoadedBy(["serve", dir]);
    expect(code).toBe(0);
    expect(loaded).toContain("src/transports/stdio.ts");
    expect(loaded.filter((path) => /^src\/transports\/http\/(serve|door)\.ts$/.test(path))).toEqual(
      [],
    );
    expect(loaded.filter((path) => path.startsWith("src/cli/commands/"))).toEqual([
      "src/cli/commands/serve.ts",
    ]);
    expect(loaded.filter((path) => /^src\/(client|build)\//.test(path))).toEqual([]);
  });

  it("loads the machinery once a command runs, and no JSON Schema validator for a server whose schemas are zod", async () => {
    const { code, loaded } = await modulesLoadedBy(["list", "example-server"]);
    expect(code).toBe(0);
    expect(loaded).toContain("src/loader/load-server.ts");
    expect(loaded.some((path) => path.startsWith("node_modules/zod/"))).toBe(true);
    expect(loaded.filter((path) => path.startsWith("node_modules/@cfworker/"))).toEqual([]);
  });

  const ZOD_TOOL = `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({ description: "Echo", input: { message: z.string() }, handler: ({ message }) => message });
`;
  const JSON_TOOL = `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Echo", input: { type: "object", properties: { message: { type: "string" } } }, handler: () => "hi" });
`;

  it.each([
    ['compiled to CommonJS (no "type": "module")', false, ".cjs"],
    ["written as ES modules", { type: "module" }, ".js"],
  ] as const)(
    "loads one copy of zod for files %s, the one they import",
    async (_scope, packageJson, extension) => {
      const dir = await createServerDir({ "tools/echo.ts": ZOD_TOOL }, { packageJson });
      const { code, loaded } = await modulesLoadedBy(["list", dir]);
      expect(code).toBe(0);
      const zodModules = loaded.filter((path) => /^node_modules\/zod\/.*\.c?js$/.test(path));
      expect(zodModules.length).toBeGreaterThan(20);
      expect(zodModules.filter((path) => !path.endsWith(extension))).toEqual([]);
    },
  );

  it("loads no zod for a server whose schemas are JSON Schema", async () => {
    const dir = await createServerDir({ "tools/echo.ts": JSON_TOOL }, { packageJson: false });
    const { code, loaded } = await modulesLoadedBy(["list", dir]);
    expect(code).toBe(0);
    expect(loaded).toContain("src/loader/load-server.ts");
    expect(loaded.filter((path) => path.startsWith("node_modules/zod/"))).toEqual([]);
  });

  it("loads fast-glob and yaml as one file each, not as the packages' many", async () => {
    const { code, loaded } = await modulesLoadedBy(["list", "example-server"]);
    expect(code).toBe(0);
    // example-server's prompts/*.md need yaml; its scan, fast-glob.
    // Each once, though the ES loader and the CommonJS one both record an imported .cjs file.
    expect(new Set(loaded.filter((path) => path.startsWith("src/vendor/")))).toEqual(
      new Set(["src/vendor/fast-glob.cjs", "src/vendor/yaml.cjs"]),
    );
    const theirs =
      /^node_modules\/(fast-glob|yaml|@nodelib|micromatch|picomatch|braces|fill-range|fastq|merge2|glob-parent)\//;
    expect(loaded.filter((path) => theirs.test(path))).toEqual([]);
  });

  it("loads no zod 3 for a server whose schemas are zod 4", async () => {
    const { code, loaded } = await modulesLoadedBy(["list", "example-server"]);
    expect(code).toBe(0);
    expect(loaded.filter((path) => path.startsWith("node_modules/zod/v3/"))).toEqual([]);
  });
});
