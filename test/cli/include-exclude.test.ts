/**
 * `include` and `exclude` in mcp-dir.config.ts decide what loads, and every
 * command that loads a directory obeys them: check, list, serve and build
 * (dev: test/dev/include-exclude.test.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyDir, createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { connectToServe, runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const tool = (description: string) =>
  `export default { description: ${JSON.stringify(description)}, handler: () => "ok" };\n`;
/** A file that must never load: importing it throws, and its text is unique. */
const NEVER_LOAD = 'throw new Error("EXCLUDED-FILE-WAS-LOADED");\n';

const FILES = {
  "mcp-dir.config.ts": `export default {
  exclude: ["tools/drafts/**", "resources/private", "**/*.draft.md"],
};
`,
  "tools/echo.ts": tool("Echoes"),
  "tools/drafts/wip.ts": NEVER_LOAD,
  "tools/drafts/deeper/more.ts": NEVER_LOAD,
  "prompts/hello.md": "Hello\n",
  "prompts/later.draft.md": "---\ndescription: [unclosed\n---\n",
  "resources/guide.md": "# Guide\n",
  "resources/private/key.txt": "secret\n",
};

describe("exclude in mcp-dir.config.ts", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await createServerDir(FILES);
  });

  it("mcp-dir check: excluded files are not loaded, nor checked", async () => {
    expect(await runCli(["check", dir])).toEqual({
      code: 0,
      stdout: `mcp-dir check: ${dir} is fine: 1 tool, 1 prompt, 1 resource\n`,
      stderr: "",
    });
  });

  it("mcp-dir list: lists only what loads", async () => {
    const { code, stdout } = await runCli(["list", dir]);
    expect(code).toBe(0);
    expect(stdout).toBe(`KIND      NAME      SOURCE              DESCRIPTION
tool      echo      tools/echo.ts       Echoes
prompt    hello     prompts/hello.md
resource  guide.md  resources/guide.md  file:///guide.md

1 tool, 1 prompt, 1 resource
`);
  });

  it("mcp-dir serve: a client sees only what loads", async () => {
    const { client } = await connectToServe(dir);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["hello"]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      "file:///guide.md",
    ]);
  });

  it("mcp-dir build: excluded files are not bundled", async () => {
    const out = join(await createEmptyDir(), "dist-mcp");
    const built = await runCli(["build", dir, "--out", out]);
    expect(built.code).toBe(0);
    const manifest = JSON.parse(await readFile(join(out, "manifest.json"), "utf8"));
    expect(manifest.files).toEqual(["prompts/hello.md", "resources/guide.md", "tools/echo.ts"]);
    expect(await readFile(join(out, "server.mjs"), "utf8")).not.toContain("EXCLUDED-FILE");
  });
});

describe("include in mcp-dir.config.ts", () => {
  it("loads only the files it matches, less what exclude matches", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({
        include: ["tools/public/**/*.ts", "resources/*.md"],
        exclude: ["tools/public/old.ts"],
      }),
      "tools/public/echo.ts": tool("Echoes"),
      "tools/public/nested/ping.ts": tool("Pings"),
      "tools/public/old.ts": NEVER_LOAD,
      "tools/admin.ts": NEVER_LOAD,
      "prompts/hello.md": "Hello\n",
      "resources/guide.md": "# Guide\n",
      "resources/data/table.csv": "a,b\n",
    });
    const { code, stdout } = await runCli(["list", dir]);
    expect(code).toBe(0);
    expect(stdout).toBe(`KIND      NAME                SOURCE                       DESCRIPTION
tool      public_echo         tools/public/echo.ts         Echoes
tool      public_nested_ping  tools/public/nested/ping.ts  Pings
resource  guide.md            resources/guide.md           file:///guide.md

2 tools, 0 prompts, 1 resource
`);
  });
});

describe("include and exclude that are not lists of patterns", () => {
  it("are errors naming the file, the option and the pattern", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.ts": `export default {
  include: ["**/*.ts", "!tools/x.ts", "/srv/tools/**", "tools/../../etc/**", ""],
  exclude: "tools/drafts/**",
};
`,
      "tools/echo.ts": tool("Echoes"),
    });
    const { code, stdout } = await runCli(["check", dir]);
    expect(code).toBe(1);
    expect(
      stdout,
    ).toBe(`error: mcp-dir.config.ts: include[0] must start with tools/, prompts/, resources/ or views/ (the folders that load), got "**/*.ts"
error: mcp-dir.config.ts: include[1] must not start with "!"; list the pattern in exclude instead
error: mcp-dir.config.ts: include[2] must be relative to the server directory, got "/srv/tools/**"
error: mcp-dir.config.ts: include[3] must stay inside the server directory (no ".."), got "tools/../../etc/**"
error: mcp-dir.config.ts: include[4] must not be empty
error: mcp-dir.config.ts: exclude must be a list of glob patterns, such as ["tools/drafts/**"]
mcp-dir check: 6 problems in ${dir}; fix them and run again
`);
  });
});
