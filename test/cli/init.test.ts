import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { SHOWS_VIEWS } from "../eras/helpers/clients.js";
import {
  createEmptyDir,
  linkPackages,
  linkRepoPackages,
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

/** What init writes for mcp-dir when run from this clone: a path to it, from the project. */
const cloneDependency = (project: string) => `file:${relative(project, REPO_ROOT)}`;

/** What init says on stderr when it writes that dependency. */
const cloneNote = (project: string) =>
  `mcp-dir init: this mcp-dir runs from ${REPO_ROOT.replace(/\/$/, "")}, not from an installed package, so package.json depends on that folder ("mcp-dir": "${cloneDependency(project)}"); npm install links it\n`;

// The describes run at once, each in folders of its own. The steps of this one run in
// order on one scaffold, but for its typecheck and its test script, which only read it.
describe.concurrent("mcp-dir init", () => {
  let parent: string;
  let dir: string;

  beforeAll(async () => {
    parent = await createEmptyDir();
    dir = join(parent, "My Server");
  });

  it.sequential("scaffolds a server directory and says what to do next", async ({ expect }) => {
    expect(await runCli(["init", dir])).toEqual({
      code: 0,
      stdout: `Created ${dir} with a tool (tools/greet.ts) and its test (test/greet.test.ts), a prompt (prompts/summarize.md) and a resource (resources/about.md).
Next:
  cd "${dir}" && npm install && npx mcp-dir serve .
`,
      stderr: cloneNote(dir),
    });
    expect(await filesUnder(dir)).toEqual([
      ".gitignore",
      "README.md",
      "mcp-dir.config.ts",
      "package.json",
      "prompts/summarize.md",
      "resources/about.md",
      "test/greet.test.ts",
      "tools/greet.ts",
      "tsconfig.json",
    ]);
    const own = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8"));
    const scaffolded = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    expect(scaffolded).toEqual({
      name: "my-server",
      version: "0.1.0",
      private: true,
      type: "module",
      scripts: {
        start: "mcp-dir serve .",
        dev: "mcp-dir dev .",
        list: "mcp-dir list .",
        check: "mcp-dir check .",
        typecheck: "tsc --noEmit",
        test: "node --import tsx --test test/*.test.ts",
      },
      dependencies: { "mcp-dir": cloneDependency(dir), zod: own.dependencies.zod },
      devDependencies: {
        "@types/node": own.devDependencies["@types/node"],
        tsx: own.dependencies.tsx,
        typescript: `^${own.devDependencies.typescript}`,
      },
    });
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toBe("node_modules/\ndist-mcp/\n");
  });

  it.sequential("depends on a folder npm install can link: this clone's, with its package.json", async ({
    expect,
  }) => {
    const { dependencies } = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    const linked = resolve(dir, (dependencies["mcp-dir"] as string).replace(/^file:/, ""));
    const own = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8"));
    const found = JSON.parse(await readFile(join(linked, "package.json"), "utf8"));
    expect({ name: found.name, version: found.version }).toEqual({
      name: "mcp-dir",
      version: own.version,
    });
    expect(await readFile(join(linked, "dist", "cli", "main.js"), "utf8")).toContain("mcp-dir");
  });

  it.sequential("makes a directory that check accepts and serve serves to a real client", async ({
    expect,
  }) => {
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

  it("passes its own typecheck script (tsc --noEmit with the tsconfig.json it wrote)", async ({
    expect,
  }) => {
    // What `npm install` would provide besides mcp-dir and zod, linked above.
    await linkRepoPackages(dir, ["typescript", "@types/node"]);
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    expect(await run(process.execPath, [tsc, "--noEmit"], dir)).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("passes its own test script (node:test with mcp-dir/testing, on the example tool)", async ({
    expect,
  }) => {
    // What `npm install` would provide besides mcp-dir and zod, linked above (the typecheck,
    // run at the same time, links typescript and @types/node, which tsx does not need).
    await linkRepoPackages(dir, ["tsx"]);
    const { code, stdout } = await run("npm", ["test", "--silent"], dir);
    expect({ code, pass: /^# pass 2$/m.test(stdout), fail: /^# fail 0$/m.test(stdout) }).toEqual({
      code: 0,
      pass: true,
      fail: true,
    });
  });

  it.sequential("never overwrites: a second init into the same directory adds nothing and says so", async ({
    expect,
  }) => {
    const before = await readFile(join(dir, "package.json"), "utf8");
    expect(await runCli(["init", dir])).toEqual({
      code: 0,
      stdout: `Nothing to add: ${dir} has everything init makes.
Left alone (already there): tsconfig.json, mcp-dir.config.ts, tools/, prompts/, resources/
Left alone in package.json: dependencies mcp-dir, zod; devDependencies @types/node, tsx, typescript; scripts start, dev, list, check, typecheck, test
Next:
  cd "${dir}" && npm install && npx mcp-dir serve .
`,
      stderr: "",
    });
    expect(await readFile(join(dir, "package.json"), "utf8")).toBe(before);
  });
});

describe.concurrent("mcp-dir init --view", () => {
  it("also scaffolds the view of the tool greet, which a client that shows views is offered", async ({
    expect,
  }) => {
    const dir = join(await createEmptyDir(), "greeter");
    expect(await runCli(["init", dir, "--view"])).toEqual({
      code: 0,
      stdout: `Created ${dir} with a tool (tools/greet.ts), its view (views/greet.html) and its test (test/greet.test.ts), a prompt (prompts/summarize.md) and a resource (resources/about.md).
Next:
  cd ${dir} && npm install && npx mcp-dir serve .
`,
      stderr: cloneNote(dir),
    });
    expect(await filesUnder(dir)).toContain("views/greet.html");
    await linkPackages(dir);
    expect(await runCli(["check", dir])).toEqual({
      code: 0,
      stdout: `view: ui://greet (views/greet.html) shows greet
mcp-dir check: ${dir} is fine: 1 tool, 1 prompt, 1 resource, 1 view
`,
      stderr: "",
    });
    const { client } = await connectToServe(dir, { capabilities: SHOWS_VIEWS });
    const [greet] = (await client.listTools()).tools;
    expect(greet?._meta).toEqual({ ui: { resourceUri: "ui://greet" } });
    const { contents } = await client.readResource({ uri: "ui://greet" });
    expect(contents[0]).toMatchObject({
      mimeType: "text/html;profile=mcp-app",
      _meta: { ui: { prefersBorder: true } },
    });
    // test/views/browser.test.ts renders it in chromium.
  });
});

describe.concurrent("mcp-dir init in the current directory", () => {
  it("scaffolds an empty current directory", async ({ expect }) => {
    const cwd = await createEmptyDir();
    expect(await runCli(["init"], { cwd })).toEqual({
      code: 0,
      stdout: `Created a server with a tool (tools/greet.ts) and its test (test/greet.test.ts), a prompt (prompts/summarize.md) and a resource (resources/about.md).
Next:
  npm install && npx mcp-dir serve .
`,
      stderr: cloneNote(cwd),
    });
    expect(await filesUnder(cwd)).toContain("tools/greet.ts");
    // The folder's name, as npm accepts it ("mcp-dir-test-AbC123" → "mcp-dir-test-abc123").
    expect(JSON.parse(await readFile(join(cwd, "package.json"), "utf8")).name).toBe(
      basename(cwd).toLowerCase(),
    );
  });

  it("adds a server to an existing npm project, leaving what it has alone", async ({ expect }) => {
    const cwd = await createEmptyDir();
    const packageJson = `{
    "name": "shop",
    "version": "2.0.0",
    "scripts": {
        "start": "node index.js"
    },
    "dependencies": {
        "express": "^5.0.0",
        "zod": "^3.25.0"
    },
    "devDependencies": {
        "typescript": "~5.8.0"
    }
}
`;
    const existing = {
      "package.json": packageJson,
      "README.md": "# Shop\n",
      "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n',
      "index.js": "console.log('shop');\n",
      "resources/logo.svg": "<svg/>",
    };
    for (const [path, content] of Object.entries(existing)) {
      await mkdir(dirname(join(cwd, path)), { recursive: true });
      await writeFile(join(cwd, path), content);
    }
    expect(await runCli(["init", "."], { cwd })).toEqual({
      code: 0,
      stdout: `Added: mcp-dir.config.ts, tools/greet.ts, test/greet.test.ts, prompts/summarize.md
Added to package.json: dependencies mcp-dir; devDependencies @types/node, tsx; scripts dev, list, check, typecheck, test
Left alone (already there): tsconfig.json, resources/
Left alone in package.json: dependencies zod; devDependencies typescript; scripts start
Next:
  npm install && npx mcp-dir serve .
`,
      stderr: cloneNote(cwd),
    });
    expect(await filesUnder(cwd)).toEqual([
      "README.md",
      "index.js",
      "mcp-dir.config.ts",
      "package.json",
      "prompts/summarize.md",
      "resources/logo.svg",
      "test/greet.test.ts",
      "tools/greet.ts",
      "tsconfig.json",
    ]);
    for (const path of ["README.md", "tsconfig.json", "index.js", "resources/logo.svg"]) {
      expect(await readFile(join(cwd, path), "utf8")).toBe(existing[path as keyof typeof existing]);
    }
    const own = JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8"));
    // Indented as it was; only additions.
    expect(await readFile(join(cwd, "package.json"), "utf8")).toBe(`{
    "name": "shop",
    "version": "2.0.0",
    "scripts": {
        "start": "node index.js",
        "dev": "mcp-dir dev .",
        "list": "mcp-dir list .",
        "check": "mcp-dir check .",
        "typecheck": "tsc --noEmit",
        "test": "node --import tsx --test test/*.test.ts"
    },
    "dependencies": {
        "express": "^5.0.0",
        "mcp-dir": "${cloneDependency(cwd)}",
        "zod": "^3.25.0"
    },
    "devDependencies": {
        "@types/node": "${own.devDependencies["@types/node"]}",
        "tsx": "${own.dependencies.tsx}",
        "typescript": "~5.8.0"
    }
}
`);
    expect(await readFile(join(cwd, "mcp-dir.config.ts"), "utf8")).toContain('name: "shop"');
  });

  it("refuses a package.json that is not JSON, changing nothing", async ({ expect }) => {
    const cwd = await createEmptyDir();
    await writeFile(join(cwd, "package.json"), "{ name: shop }\n");
    const { code, stdout, stderr } = await runCli(["init"], { cwd });
    expect({ code, stdout }).toEqual({ code: 1, stdout: "" });
    expect(stderr).toMatch(
      /^mcp-dir init: package\.json is not valid JSON \(.+\); fix it and run init again\n$/,
    );
    expect(await filesUnder(cwd)).toEqual(["package.json"]);
  });
});

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

describe.concurrent("mcp-dir init where a file stands", () => {
  it("says the path is a file, not a folder, and writes nothing (exit 1)", async ({ expect }) => {
    const parent = await createEmptyDir();
    const file = join(parent, "notes");
    await writeFile(file, "my notes\n");
    for (const dir of [file, join(file, "server")]) {
      expect(await runCli(["init", dir])).toEqual({
        code: 1,
        stdout: "",
        stderr: `mcp-dir init: ${file} is a file, not a folder; give init a folder to create or to add a server to (mcp-dir init my-server)\n`,
      });
    }
    expect(await readFile(file, "utf8")).toBe("my notes\n");
    expect(await readdir(parent)).toEqual(["notes"]);
  });
});
