import { afterAll, afterEach, describe, expect, it } from "vitest";
import { AUTHOR_STDOUT, runCli, stopAll } from "../cli/helpers/cli.js";
import {
  RESOURCE_UPDATED,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
  textOf,
  toolFile,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe("mcp-dir dev: terminal output", () => {
  it("is quiet by default: one line per reloaded file, nothing for a file no definition imports", async () => {
    const dev = await startDev(
      {
        "tools/a.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";

console.log("tools/a.ts is loading");
export default defineTool({ description: "A v1", input: { n: z.number() }, handler: ({ n }) => String(n) });
`,
        "lib/unused.ts": "export const unused = 1;\n",
      },
      AUTHOR_STDOUT,
    );
    expect(dev.lines()[0]).toBe("tools/a.ts is loading");

    dev.write("lib/unused.ts", "export const unused = 2;\n");
    dev.write("tools/b.ts", toolFile("B", "b"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    dev.write(
      "tools/a.ts",
      `import { defineTool } from "mcp-dir";

console.log("tools/a.ts is loading again");
export default defineTool({ description: "A v2", handler: () => "a v2" });
`,
    );
    await dev.waitForCount(TOOLS_CHANGED, 2);
    expect(textOf(await dev.client.callTool({ name: "a", arguments: {} }))).toBe("a v2");
    await dev.waitForLine(reloaded("tools/a.ts"));
    // Author code's console.log goes to stderr: stdout carries protocol messages only.
    expect(dev.lines().slice(3)).toEqual([
      expect.stringMatching(reloaded("tools/b.ts")),
      "tools/a.ts is loading again",
      expect.stringMatching(reloaded("tools/a.ts")),
    ]);
    expect(dev.errors).toEqual([]);
  });

  it("says more with --verbose: what changed on disk and what clients were told", async () => {
    const dev = await startDev(
      {
        "tools/a.ts": toolFile("A v1", "a v1"),
        "resources/guide.md": "Guide v1\n",
        "lib/unused.ts": "export const unused = 1;\n",
      },
      { args: ["--verbose"] },
    );
    await dev.client.subscribeResource({ uri: "file:///guide.md" });

    dev.write("tools/a.ts", toolFile("A v2", "a v2"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    await dev.waitForLine(/^mcp-dir dev: now /);
    expect(dev.lines().slice(2)).toEqual([
      "mcp-dir dev: changed: tools/a.ts",
      expect.stringMatching(reloaded("tools/a.ts")),
      "mcp-dir dev: now 1 tool, 0 prompts, 1 resource; list_changed: tools; updated: none",
    ]);

    dev.write("lib/unused.ts", "export const unused = 2;\n");
    await dev.waitForLine("mcp-dir dev: no definition file is affected");
    expect(dev.lines().slice(5)).toEqual([
      "mcp-dir dev: changed: lib/unused.ts",
      "mcp-dir dev: no definition file is affected",
    ]);

    dev.write("resources/guide.md", "Guide v2\n");
    await dev.waitForLine(/^mcp-dir dev: now /, 2);
    expect(dev.lines().slice(7)).toEqual([
      "mcp-dir dev: changed: resources/guide.md",
      expect.stringMatching(reloaded("resources/guide.md")),
      "mcp-dir dev: now 1 tool, 0 prompts, 1 resource; list_changed: none; updated: file:///guide.md",
    ]);

    dev.write("tools/a.ts", "export default {\n  handler: () => 1,\n");
    await dev.waitForLine("  (the last good version of tools/a.ts stays in service)");
    expect(dev.lines().slice(10)).toEqual([
      "mcp-dir dev: changed: tools/a.ts",
      "error: tools/a.ts: SyntaxError: Expected identifier but found end of file (3:1)",
      "  (the last good version of tools/a.ts stays in service)",
    ]);
    expect(textOf(await dev.client.callTool({ name: "a", arguments: {} }))).toBe("a v2");
  });

  it("with --verbose, names a URI template whose file changed among what was updated", async () => {
    const users = (version: string) => `import { defineResource } from "mcp-dir";
export default defineResource({
  uriTemplate: "users://{id}",
  read: ({ params }) => \`user \${params.id} ${version}\`,
});
`;
    const dev = await startDev({ "resources/users.ts": users("v1") }, { args: ["--verbose"] });
    await dev.client.subscribeResource({ uri: "users://ada" });
    dev.write("resources/users.ts", users("v2"));
    // The subscriber of a URI the template serves is told: the terminal says so too.
    expect((await dev.waitForCount(RESOURCE_UPDATED, 1)).params).toEqual({ uri: "users://ada" });
    expect(await dev.waitForLine(/^mcp-dir dev: now /)).toBe(
      "mcp-dir dev: now 0 tools, 0 prompts, 0 resources, 1 resource template; list_changed: none; updated: users://{id}",
    );
  });

  it("does not call an ignored file reloaded, nor a file that never loaded removed", async () => {
    const dev = await startDev({ "tools/a.ts": toolFile("A v1", "a v1") });
    dev.write("tools/notes.txt", "Not a tool\n");
    await dev.waitForLine(/^warning: tools\/notes\.txt: is ignored: /);
    dev.write("tools/broken.ts", "export default {\n");
    await dev.waitForLine("  (tools/broken.ts is not served until it loads)");
    dev.remove("tools/broken.ts");
    dev.remove("tools/notes.txt");
    // Saved after the removals: its reload comes with or after theirs.
    dev.write("tools/a.ts", toolFile("A v2", "a v2"));
    await dev.waitForLine(reloaded("tools/a.ts"));
    expect(dev.lines().slice(2)).toEqual([
      'warning: tools/notes.txt: is ignored: tools/ holds .ts, .mts, .js, .mjs files; start its name with "_" to keep it there quietly',
      "error: tools/broken.ts: SyntaxError: Expected identifier but found end of file (2:1)",
      "  (tools/broken.ts is not served until it loads)",
      expect.stringMatching(reloaded("tools/a.ts")),
    ]);
  });

  it("dev --help describes the command and its options", async () => {
    const { code, stdout, stderr } = await runCli(["dev", "--help"]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/^Usage: mcp-dir dev \[dir\] \[options\]\n\nServes \[dir\] /);
    expect(
      stdout,
    ).toContain(`Serves [dir] (default: the current directory) like 'serve', and watches it:
a saved, added, renamed or deleted file is applied in place, with no restart
and no dropped connection. Clients get notifications/tools/list_changed (and
prompts, resources) and resources/updated for subscribed resources. A file that
fails to load keeps its last good version in service; the error is printed
here and sent to clients as a log message.
`);
    expect(stdout).toContain("\n  --http ");
    expect(stdout).toContain(
      "\n  --verbose            Say what changed and what clients were told\n  -h, --help           Show this help\n",
    );
    expect(stdout).toMatch(/\nExamples:\n {2}npx mcp-dir dev my-server\n/);
  });
});
