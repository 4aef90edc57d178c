import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createEmptyDir,
  linkPackages,
  REPO_ROOT,
  removeServerDirs,
} from "../loader/helpers/server-dir.js";
import { connectToServe, runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? filesUnder(dir, `${prefix}${entry.name}/`)
        : Promise.resolve([`${prefix}${entry.name}`]),
    ),
  );
  return nested.flat().sort();
}

describe("mcp-dir init", () => {
  let parent: string;
  let dir: string;

  beforeAll(async () => {
    parent = await createEmptyDir();
    dir = join(parent, "My Server");
  });

  it("scaffolds a server directory and says what to do next", async () => {
    expect(await runCli(["init", dir])).toEqual({
      code: 0,
      stdout: `Created ${dir} with a tool (tools/greet.ts), a prompt (prompts/summarize.md) and a resource (resources/about.md).
Next:
  cd "${dir}" && npm install && npx mcp-dir serve .
`,
      stderr: "",
    });
    expect(await filesUnder(dir)).toEqual([
      ".gitignore",
      "README.md",
      "mcp-dir.config.ts",
      "package.json",
      "prompts/summarize.md",
      "resources/about.md",
      "tools/greet.ts",
      "tsconfig.json",
    ]);
    const own = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8"));
    const scaffolded = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    expect(scaffolded).toMatchObject({
      name: "my-server",
      type: "module",
      dependencies: { "mcp-dir": `^${own.version}`, zod: own.dependencies.zod },
    });
  });

  it("makes a directory that check accepts and serve serves to a real client", async () => {
    // What `npm install` would provide: mcp-dir (this repository) and zod.
    await linkPackages(dir);
    expect(await runCli(["check", dir])).toEqual({
      code: 0,
      stdout: `mcp-dir check: ${dir} is fine: 1 tool, 1 prompt, 1 resource\n`,
      stderr: "",
    });
    const { client } = await connectToServe(dir);
    expect(client.getServerVersion()).toEqual({ name: "my-server", version: "0.1.0" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["greet"]);
    expect(
      await client.callTool({ name: "greet", arguments: { name: "Ada", excited: true } }),
    ).toEqual({ content: [{ type: "text", text: "Hello, Ada!" }] });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["summarize"]);
    const prompt = await client.getPrompt({
      name: "summarize",
      arguments: { text: "A long text.", audience: "children" },
    });
    expect(prompt.messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: "Summarize the following text in three sentences or fewer, for children:\n\nA long text.",
        },
      },
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(["file:///about.md"]);
    const about = await client.readResource({ uri: "file:///about.md" });
    expect(about.contents[0]).toMatchObject({ mimeType: "text/markdown" });
  });

  it("never overwrites: a second init into the same directory exits 1", async () => {
    expect(await runCli(["init", dir])).toEqual({
      code: 1,
      stdout: "",
      stderr: `mcp-dir init: ${dir} already has package.json, tsconfig.json, .gitignore, mcp-dir.config.ts, tools/greet.ts, prompts/summarize.md, resources/about.md, README.md; choose an empty or new directory\n`,
    });
  });
});
