import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { AUTHOR_STDOUT, EXAMPLE_SERVER, runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const read = (...args: string[]) => runCli(["read", ...args, "--dir", "example-server"]);

// Each case runs the CLI on example-server, which it only reads, or on a folder of its own:
// the cases run at once.
describe.concurrent("mcp-dir read", () => {
  it("prints a text resource as it is", async ({ expect }) => {
    const config = await readFile(join(EXAMPLE_SERVER, "resources", "config.json"), "utf8");
    expect(await read("file:///config.json")).toEqual({ code: 0, stdout: config, stderr: "" });
  });

  it("reads a URI that a template matches", async ({ expect }) => {
    expect(await read("users://susan")).toEqual({
      code: 0,
      stdout:
        '{"id":"susan","name":"Susan Kare","email":"susan@example.com","team":"design","skills":["icons","typography"]}\n',
      stderr: "",
    });
  });

  it("prints a view's page: read is a client that shows views", async ({ expect }) => {
    const { code, stdout, stderr } = await read("ui://poll");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(
      /^<!doctype html>\n[\s\S]*<title>Poll<\/title>[\s\S]*<script type="module">/,
    );
  });

  it("summarises a blob, and prints the whole ReadResourceResult with --json", async ({
    expect,
  }) => {
    const logo = await readFile(join(EXAMPLE_SERVER, "resources", "logo.png"));
    expect(await read("file:///logo.png")).toEqual({
      code: 0,
      stdout: `[resource file:///logo.png, image/png, ${logo.length} bytes]\n`,
      stderr: "",
    });
    const whole = await read("file:///logo.png", "--json");
    expect(whole.code).toBe(0);
    expect(JSON.parse(whole.stdout)).toEqual({
      contents: [{ uri: "file:///logo.png", mimeType: "image/png", blob: logo.toString("base64") }],
    });
  });

  it("prints every content of a resource, and its logs on stderr", async ({ expect }) => {
    const dir = await createServerDir({
      "resources/report.ts": `import { defineResource } from "mcp-dir";

export default defineResource({
  uri: "report://today",
  read: (_uri, ctx) => {
    console.log("reading the report");
    ctx.log.warning("numbers are estimates");
    return {
      contents: [
        { uri: "report://today", mimeType: "text/plain", text: "Sales: 3" },
        { uri: "report://today/chart", mimeType: "image/png", blob: "${Buffer.from("chart").toString("base64")}" },
      ],
    };
  },
});
`,
    });
    expect(await runCli(["read", "report://today", "--dir", dir], AUTHOR_STDOUT)).toEqual({
      code: 0,
      stdout: "Sales: 3\n[resource report://today/chart, image/png, 5 bytes]\n",
      stderr: "reading the report\nlog warning: numbers are estimates\n",
    });
  });

  it("reads a file's URI typed as its path, unencoded, as the URI the resource lists", async ({
    expect,
  }) => {
    const dir = await createServerDir({
      "resources/docs/Getting started.md": "# Start\n",
      "resources/docs/café & co (2).md": "# Café\n",
      "resources/docs/100%.md": "# All\n",
    });
    const listed = await runCli(["list", dir, "--json"]);
    expect(JSON.parse(listed.stdout).resources.map((r: { uri: string }) => r.uri)).toEqual([
      "file:///docs/100%25.md",
      "file:///docs/Getting%20started.md",
      "file:///docs/caf%C3%A9%20%26%20co%20(2).md",
    ]);
    const results = await Promise.all(
      [
        "file:///docs/Getting started.md",
        "file:///docs/Getting%20started.md",
        "file:///docs/café & co (2).md",
        "file:///docs/100%.md",
      ].map((uri) => runCli(["read", uri, "--dir", dir])),
    );
    expect(results.map(({ stdout }) => stdout)).toEqual([
      "# Start\n",
      "# Start\n",
      "# Café\n",
      "# All\n",
    ]);
    expect(await runCli(["read", "file:///docs/Getting started.txt", "--dir", dir])).toEqual({
      code: 1,
      stdout: "",
      stderr: `mcp-dir read: no resource or template in ${dir} matches "file:///docs/Getting started.txt"; the resources are file:///docs/100%25.md, file:///docs/Getting%20started.md, file:///docs/caf%C3%A9%20%26%20co%20(2).md\n`,
    });
  });

  it("exits 1 with the server's error when a template's read finds nothing", async ({ expect }) => {
    expect(await read("users://nobody")).toEqual({
      code: 1,
      stdout: "",
      stderr: 'mcp-dir read: No team member with id "nobody" (JSON-RPC error -32002)\n',
    });
  });

  it("names the resources and templates there are when nothing matches, exit 1", async ({
    expect,
  }) => {
    const empty = await createServerDir({
      "tools/noop.ts": 'export default { description: "No-op", handler: () => "" };\n',
    });
    const results = await Promise.all([
      read("file:///nope.md"),
      runCli(["read", "file:///nope.md", "--dir", empty]),
      runCli(["read"]),
    ]);
    expect(results).toEqual([
      {
        code: 1,
        stdout: "",
        stderr:
          'mcp-dir read: no resource or template in example-server matches "file:///nope.md"; the resources are file:///config.json, file:///guide.md, file:///logo.png, ui://poll; the templates are users://{id}\n',
      },
      {
        code: 1,
        stdout: "",
        stderr: `mcp-dir read: no resource or template in ${empty} matches "file:///nope.md"; it has no resources\n`,
      },
      {
        code: 2,
        stdout: "",
        stderr: "mcp-dir: Missing the URI of the resource. See 'mcp-dir read --help'\n",
      },
    ]);
  });
});
