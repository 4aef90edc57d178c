import { mcpDirDependency } from "./mcp-dir-dependency.js";
import { ownPackage } from "./package-info.js";
import { TYPESCRIPT_DEFAULTS } from "./typescript-defaults.js";

/** A package name npm accepts, from a folder name: "My Server" → "my-server". */
export function packageNameFor(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|[-]+$/g, "");
  return name === "" ? "mcp-server" : name;
}

/** A range from a version or a range: "5.9.3" → "^5.9.3", "^4.1.0" stays. */
function caret(range: string): string {
  return /^\d/.test(range) ? `^${range}` : range;
}

/** What a server directory needs in its package.json; added to an existing one where missing. */
export interface PackageNeeds {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
}

/** What a server directory at `projectRoot` needs. */
export function packageNeeds(projectRoot: string): PackageNeeds {
  const { dependencies = {}, devDependencies = {} } = ownPackage();
  return {
    dependencies: {
      "mcp-dir": mcpDirDependency(projectRoot).spec,
      zod: dependencies.zod ?? "^4.0.0",
    },
    devDependencies: {
      "@types/node": caret(devDependencies["@types/node"] ?? "^20.19.0"),
      // Runs the TypeScript tests under node:test.
      tsx: caret(dependencies.tsx ?? "^4.0.0"),
      typescript: caret(devDependencies.typescript ?? "^5.9.0"),
    },
    scripts: {
      start: "mcp-dir serve .",
      dev: "mcp-dir dev .",
      list: "mcp-dir list .",
      check: "mcp-dir check .",
      typecheck: "tsc --noEmit",
      test: "node --import tsx --test test/*.test.ts",
    },
  };
}

/** The example of each folder: added only where the folder does not exist yet. */
export const FOLDER_EXAMPLES: readonly string[] = [
  "tools/greet.ts",
  "prompts/summarize.md",
  "resources/about.md",
  "views/greet.html",
];

/** The runners init writes the example's test for. */
export type TestRunner = "node:test" | "vitest";

/**
 * What the example's test is written for: node:test when init adds the test
 * script, vitest when the project's own runs vitest, none for another runner
 * (a node:test file would fail in it).
 */
export function exampleTestRunner(ownTestScript: string | undefined): TestRunner | "none" {
  if (ownTestScript === undefined) return "node:test";
  return /\bvitest\b/.test(ownTestScript) ? "vitest" : "none";
}

/** A test of an example, written only with it: its path, and the example's. */
export const EXAMPLE_TESTS: Readonly<Record<string, string>> = {
  "test/greet.test.ts": "tools/greet.ts",
};

/** Files of a whole project: written in a new one, never added to an existing npm project. */
export const NEW_PROJECT_ONLY: readonly string[] = ["package.json", "README.md", ".gitignore"];

/**
 * The files of a new server directory at `projectRoot`, by relative path.
 * `name` is the package's name; `view` adds the view of the tool greet.
 */
export function scaffoldFiles(
  name: string,
  projectRoot: string,
  {
    view = false,
    testRunner = "node:test",
  }: { view?: boolean; testRunner?: TestRunner | "none" } = {},
): Record<string, string> {
  const needs = packageNeeds(projectRoot);
  const packageJson = {
    name,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: needs.scripts,
    dependencies: needs.dependencies,
    devDependencies: needs.devDependencies,
  };
  const tsconfig = {
    compilerOptions: TYPESCRIPT_DEFAULTS,
    include: ["tools", "prompts", "resources", "test", "*.ts"],
  };
  return {
    "package.json": `${JSON.stringify(packageJson, null, 2)}\n`,
    "tsconfig.json": `${JSON.stringify(tsconfig, null, 2)}\n`,
    // What npm install and mcp-dir build write.
    ".gitignore": "node_modules/\ndist-mcp/\n",
    "mcp-dir.config.ts": CONFIG(name),
    "tools/greet.ts": GREET_TOOL,
    ...(testRunner !== "none" && { "test/greet.test.ts": GREET_TESTS[testRunner] }),
    "prompts/summarize.md": SUMMARIZE_PROMPT,
    "resources/about.md": ABOUT_RESOURCE(name),
    ...(view && { "views/greet.html": GREET_VIEW }),
    "README.md": README(name, view),
  };
}

const CONFIG = (name: string) => `import { defineConfig } from "mcp-dir";

// Optional: without this file the name and version come from package.json.
export default defineConfig({
  name: "${name}",
  instructions: "Greets people by name. Read file:///about.md to learn more.",
});
`;

const GREET_TOOL = `import { defineTool } from "mcp-dir";
import { z } from "zod";

// tools/greet.ts is the tool "greet": the name comes from the file's path.
export default defineTool({
  title: "Greet",
  description: "Greets someone by name",
  input: {
    name: z.string().describe("Who to greet"),
    excited: z.boolean().default(false).describe("End with an exclamation mark"),
  },
  annotations: { readOnlyHint: true },
  handler: ({ name, excited }) => \`Hello, \${name}\${excited ? "!" : "."}\`,
});
`;

const GREET_TEST = `import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTestClient, type TestClient } from "mcp-dir/testing";

// The server in this folder, served to a client in this process: no port, no child process.
const SERVER = fileURLToPath(new URL("..", import.meta.url));

describe("tools/greet.ts", () => {
  let client: TestClient;
  before(async () => {
    client = await createTestClient(SERVER);
  });
  after(() => client.close());

  it("greets by name", async () => {
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada." }]);
  });

  it("ends with an exclamation mark when excited", async () => {
    const result = await client.callTool({
      name: "greet",
      arguments: { name: "Ada", excited: true },
    });
    assert.deepEqual(result.content, [{ type: "text", text: "Hello, Ada!" }]);
  });
});
`;

const GREET_VITEST = `import { fileURLToPath } from "node:url";
import { createTestClient, type TestClient } from "mcp-dir/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The server in this folder, served to a client in this process: no port, no child process.
const SERVER = fileURLToPath(new URL("..", import.meta.url));

describe("tools/greet.ts", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(SERVER);
  });
  afterAll(() => client.close());

  it("greets by name", async () => {
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada." }]);
  });

  it("ends with an exclamation mark when excited", async () => {
    const result = await client.callTool({
      name: "greet",
      arguments: { name: "Ada", excited: true },
    });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
  });
});
`;

const GREET_TESTS: Readonly<Record<TestRunner, string>> = {
  "node:test": GREET_TEST,
  vitest: GREET_VITEST,
};

const SUMMARIZE_PROMPT = `---
title: Summarize
description: Summarize a text in a few sentences
arguments:
  - name: text
    description: The text to summarize
    required: true
  - name: audience
    description: Who the summary is for
---
Summarize the following text in three sentences or fewer, for {{audience}}:

{{text}}
`;

const ABOUT_RESOURCE = (name: string) => `# ${name}

This file is served as the resource \`file:///about.md\`: any file under
\`resources/\` that is not code is served as it is, with a mime type from its
extension.
`;

const README = (name: string, view: boolean) => `# ${name}

An MCP server built with [mcp-dir](https://www.npmjs.com/package/mcp-dir):
drop files into \`tools/\`, \`prompts/\`${view ? ", `resources/` and `views/` (interactive views of tools, for clients that show them)" : " and `resources/`"}.

\`\`\`sh
npm install
npx mcp-dir list .     # what it serves
npm run dev            # serve it over stdio, reloading every saved file
npm test               # the tests in test/ (node:test, with mcp-dir/testing)
npm run typecheck      # tsc --noEmit
\`\`\`

Client configuration (Claude Desktop, Cursor, VS Code...): a client starts the
server from a directory of its own, so give it absolute paths to this
folder's own install: the command is \`node\` with the arguments
\`/absolute/path/to/this/folder/node_modules/mcp-dir/dist/cli/main.js\`,
\`serve\` and \`/absolute/path/to/this/folder\`.
`;

/**
 * The view of the tool greet (views/greet.html, named like it): plain HTML
 * speaking MCP Apps to its host over postMessage, with no dependency.
 */
const GREET_VIEW = `---
title: Greeting
description: Shows a greeting, and greets again with more excitement
prefersBorder: true
---
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<style>
  body { font-family: system-ui, sans-serif; margin: 16px; }
  button { font: inherit; }
</style>
</head>
<body>
<p id="greeting">…</p>
<button id="again" disabled>Greet excitedly</button>
<script type="module">
  // views/greet.html is the view of the tool greet: clients that show views
  // (MCP Apps) render it with the tool's input and result. It talks to its
  // host in JSON-RPC over postMessage; @modelcontextprotocol/ext-apps's App
  // class does the same for a view written in TypeScript (views/greet.ts).
  const greeting = document.getElementById("greeting");
  const again = document.getElementById("again");
  const pending = new Map();
  let nextId = 1;
  let name = "";

  const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });
  const show = (result) => {
    greeting.textContent = result.content?.find((block) => block.type === "text")?.text ?? "";
  };

  window.addEventListener("message", ({ source, data }) => {
    if (source !== window.parent || data?.jsonrpc !== "2.0") return;
    if (data.method === undefined) {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (data.error) waiting?.reject(new Error(data.error.message));
      else waiting?.resolve(data.result);
    } else if (data.id !== undefined) {
      send({ id: data.id, result: {} }); // the host's requests (ping, teardown): nothing to do
    } else if (data.method === "ui/notifications/tool-input") {
      name = data.params.arguments.name;
    } else if (data.method === "ui/notifications/tool-result") {
      show(data.params);
      again.disabled = false;
    }
  });

  again.addEventListener("click", async () => {
    show(await request("tools/call", { name: "greet", arguments: { name, excited: true } }));
  });

  await request("ui/initialize", {
    appInfo: { name: "Greeting", version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: "2026-01-26",
  });
  send({ method: "ui/notifications/initialized", params: {} });
  // The host sizes the view's frame by what the view says it needs.
  new ResizeObserver(() => {
    const { width, height } = document.documentElement.getBoundingClientRect();
    const params = { width: Math.ceil(width), height: Math.ceil(height) };
    send({ method: "ui/notifications/size-changed", params });
  }).observe(document.documentElement);
</script>
</body>
</html>
`;
