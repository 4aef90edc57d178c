import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type DevServer,
  LOG_MESSAGE,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
  textOf,
  toolFile,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

/** The n-th log notification at level error, once it arrives: its `data`. */
async function nthError(dev: DevServer, n: number): Promise<unknown> {
  const found = await dev.notifications.waitForCount(
    (item) => item.method === LOG_MESSAGE && item.params?.level === "error",
    n,
    `${n} log message(s) at level error`,
  );
  const params = found[n - 1]?.params;
  expect(params?.logger).toBe("mcp-dir");
  return params?.data;
}

/** The stderr lines after the two that every start prints (watching, serving). */
const afterStart = (dev: DevServer) => dev.lines().slice(2);

describe("mcp-dir dev: a file that fails to load", () => {
  it("keeps the last good version in service through a syntax error, a throw, an invalid definition and a name collision, then recovers", async () => {
    const dev = await startDev({
      "tools/x.ts": toolFile("X v1", "x v1"),
      "tools/other.ts": toolFile("Other", "other"),
    });
    const stillV1 = async () =>
      expect(textOf(await dev.client.callTool({ name: "x", arguments: {} }))).toBe("x v1");

    // A syntax error: its location, from the parser.
    dev.write("tools/x.ts", 'export default {\n  description: "x",\n  handler: () => {\n};\n');
    expect(await nthError(dev, 1)).toEqual({
      file: "tools/x.ts",
      message: 'tools/x.ts: SyntaxError: Expected "}" but found ";" (4:2)',
    });
    await stillV1();
    await dev.waitForLine("  (the last good version of tools/x.ts stays in service)");
    expect(afterStart(dev)).toEqual([
      'error: tools/x.ts: SyntaxError: Expected "}" but found ";" (4:2)',
      "  (the last good version of tools/x.ts stays in service)",
    ]);

    // A throw while it is imported: where it threw.
    dev.write("tools/x.ts", 'const ready = false;\nif (!ready) throw new Error("not ready");\n');
    expect(await nthError(dev, 2)).toEqual({
      file: "tools/x.ts",
      message: "tools/x.ts: threw while loading: Error: not ready (2:19)",
    });
    await stillV1();

    // A definition that is invalid.
    dev.write("tools/x.ts", 'export default { description: "no handler" };\n');
    expect(await nthError(dev, 3)).toEqual({
      file: "tools/x.ts",
      message:
        'tools/x.ts (export "default"): Tool "x" is invalid:\n  - handler is missing: add handler: (args, ctx) => result',
    });
    await stillV1();

    // A name another file has.
    dev.write("tools/x.ts", toolFile("X as other", "x as other", '\n  name: "other",'));
    expect(await nthError(dev, 4)).toEqual({
      file: "tools/x.ts",
      message:
        'tools/x.ts: Tool "other" is defined in both tools/other.ts and tools/x.ts; rename one of them',
    });
    await stillV1();
    expect(textOf(await dev.client.callTool({ name: "other", arguments: {} }))).toBe("other");

    // Fixed: served again, and the client told.
    dev.write("tools/x.ts", toolFile("X v2", "x v2"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "x", arguments: {} }))).toBe("x v2");
    await dev.waitForLine(reloaded("tools/x.ts", " \\(fixed\\)"));
    expect(afterStart(dev)).toEqual([
      'error: tools/x.ts: SyntaxError: Expected "}" but found ";" (4:2)',
      "  (the last good version of tools/x.ts stays in service)",
      "error: tools/x.ts: threw while loading: Error: not ready (2:19)",
      "  (the last good version of tools/x.ts stays in service)",
      'error: tools/x.ts (export "default"): Tool "x" is invalid:',
      "  - handler is missing: add handler: (args, ctx) => result",
      "  (the last good version of tools/x.ts stays in service)",
      'error: tools/x.ts: Tool "other" is defined in both tools/other.ts and tools/x.ts; rename one of them',
      "  (the last good version of tools/x.ts stays in service)",
      expect.stringMatching(reloaded("tools/x.ts", " \\(fixed\\)")),
    ]);
    // Nothing was said to the client but the errors and the one list change.
    await dev.client.ping();
    expect(dev.notifications.items.map((n) => n.method)).toEqual([
      LOG_MESSAGE,
      LOG_MESSAGE,
      LOG_MESSAGE,
      LOG_MESSAGE,
      TOOLS_CHANGED,
    ]);
    expect(dev.errors).toEqual([]);
  });

  it("says a new file that fails is not served until it loads", async () => {
    const dev = await startDev({ "tools/a.ts": toolFile("A", "a") });
    dev.write("tools/new.ts", "export default {\n  description: 'new',,\n};\n");
    expect(await nthError(dev, 1)).toEqual({
      file: "tools/new.ts",
      message: 'tools/new.ts: SyntaxError: Expected identifier but found "," (2:22)',
    });
    await dev.waitForLine("  (tools/new.ts is not served until it loads)");
    expect(afterStart(dev)).toEqual([
      'error: tools/new.ts: SyntaxError: Expected identifier but found "," (2:22)',
      "  (tools/new.ts is not served until it loads)",
    ]);
    dev.write("tools/new.ts", toolFile("New", "new"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "new", arguments: {} }))).toBe("new");
  });

  it("recovers a file that collided once the file it collided with is renamed away", async () => {
    const dev = await startDev({
      "tools/first.ts": toolFile("First", "first", '\n  name: "shared",'),
      "tools/second.ts": toolFile("Second", "second"),
    });
    dev.write("tools/second.ts", toolFile("Second", "second", '\n  name: "shared",'));
    expect(await nthError(dev, 1)).toEqual({
      file: "tools/second.ts",
      message:
        'tools/second.ts: Tool "shared" is defined in both tools/first.ts and tools/second.ts; rename one of them',
    });
    // The other file changes its name: the failing one is tried again and now loads.
    dev.write("tools/first.ts", toolFile("First", "first", '\n  name: "first",'));
    await dev.waitForLine(reloaded("tools/second.ts", " \\(fixed\\)"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "shared", arguments: {} }))).toBe("second");
    expect(textOf(await dev.client.callTool({ name: "first", arguments: {} }))).toBe("first");
    expect((await dev.client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "first",
      "shared",
    ]);
  });
});

describe("mcp-dir dev: starting with problems", () => {
  it("serves what loaded, tells the client that connects of what did not, keeps running and serves a broken file once it is fixed", async () => {
    const dev = await startDev({
      "tools/good.ts": toolFile("Good", "good"),
      "tools/broken.ts": "export default {\n  description: 'x',\n  handler: () => {\n};\n",
    });
    expect(dev.lines()).toEqual([
      'error: tools/broken.ts: SyntaxError: Expected "}" but found ";" (4:2)',
      `mcp-dir dev: 1 problem in ${dev.dir}; fix it and save: the rest is served meanwhile`,
      `mcp-dir dev: watching ${dev.dir} for changes`,
      `mcp-dir dev: serving ${dev.dir.split("/").pop()} 0.0.0 from ${dev.dir} (1 tool, 0 prompts, 0 resources) over stdio; waiting for a client on stdin`,
    ]);
    // The client connected after the file failed: the error still reaches it, once.
    expect(await nthError(dev, 1)).toEqual({
      file: "tools/broken.ts",
      message: 'tools/broken.ts: SyntaxError: Expected "}" but found ";" (4:2)',
    });
    expect((await dev.client.listTools()).tools.map((tool) => tool.name)).toEqual(["good"]);
    expect(textOf(await dev.client.callTool({ name: "good", arguments: {} }))).toBe("good");

    dev.write("tools/broken.ts", toolFile("Fixed", "fixed"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "broken", arguments: {} }))).toBe("fixed");
    await dev.waitForLine(reloaded("tools/broken.ts", " \\(fixed\\)"));
    expect(dev.notifications.items.map((n) => n.method)).toEqual([LOG_MESSAGE, TOOLS_CHANGED]);
  });

  it("serves the first of two files that share a name, and the second once renamed", async () => {
    const dev = await startDev({
      "tools/a.ts": toolFile("A", "a", '\n  name: "same",'),
      "tools/b.ts": toolFile("B", "b", '\n  name: "same",'),
      "tools/c.ts": toolFile("C", "c"),
    });
    expect(dev.lines()[0]).toBe(
      'error: tools/b.ts: Tool "same" is defined in both tools/a.ts and tools/b.ts; rename one of them',
    );
    expect((await dev.client.listTools()).tools.map((tool) => tool.name)).toEqual(["c", "same"]);
    expect(textOf(await dev.client.callTool({ name: "same", arguments: {} }))).toBe("a");

    dev.write("tools/b.ts", toolFile("B", "b", '\n  name: "bee",'));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "bee", arguments: {} }))).toBe("b");
    await dev.waitForLine(reloaded("tools/b.ts", " \\(fixed\\)"));
  });

  it("recovers a file broken by a helper it imports once the helper is fixed", async () => {
    const dev = await startDev({
      "tools/uses-helper.ts": `import { defineTool } from "mcp-dir";
import { word } from "../lib/word.js";

export default defineTool({ description: "Uses a helper", handler: () => word });
`,
      "lib/word.ts": 'throw new Error("helper not ready");\n',
    });
    expect(dev.lines()[0]).toBe(
      "error: tools/uses-helper.ts: threw while loading: Error: helper not ready (lib/word.ts:1:7)",
    );
    expect((await dev.client.listTools()).tools).toEqual([]);

    dev.write("lib/word.ts", 'export const word = "ready";\n');
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "uses-helper", arguments: {} }))).toBe("ready");
    await dev.waitForLine(reloaded("tools/uses-helper.ts", " \\(fixed\\)"));
  });
});
