/**
 * mcp-dir/testing with `{ watch: true }`: the directory reloads on save, as
 * in `mcp-dir dev`, and a test awaits the reload or the change it makes.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestClient, type TestClient } from "../../src/testing/index.js";
import { toolFile } from "../dev/helpers/dev-server.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(removeServerDirs);

describe.each(["2026-07-28", "2025-11-25"] as const)("watching at %s", (protocolVersion) => {
  it("applies a save, tells the client, and says what failed while it fails", async () => {
    const dir = await createServerDir({ "tools/greet.ts": toolFile("Greets", "hello") });
    const client = await createTestClient(dir, { protocolVersion, watch: true });
    clients.push(client);

    const changed = client.nextNotification("notifications/prompts/list_changed");
    const reloaded = client.nextReload();
    await mkdir(join(dir, "prompts"));
    await writeFile(join(dir, "prompts/hi.md"), "---\ndescription: Says hi\n---\nHi.\n");
    expect((await reloaded).applied).toEqual(["prompts/hi.md"]);
    await changed;
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["hi"]);

    const broken = client.nextReload();
    await writeFile(join(dir, "tools/greet.ts"), "export default {\n  description: 'x',,\n};\n");
    expect((await broken).problems).toHaveLength(1);
    expect(client.problems.map((problem) => problem.file)).toEqual(["tools/greet.ts"]);
    expect((await client.callTool({ name: "greet" })).content).toEqual([
      { type: "text", text: "hello" },
    ]);
    // Told as a log message: at once (2025), with the request (2026-07-28).
    expect(client.notifications.filter(({ method }) => method === "notifications/message")).toEqual(
      [
        {
          method: "notifications/message",
          params: {
            level: "error",
            logger: "mcp-dir",
            data: {
              file: "tools/greet.ts",
              message: 'tools/greet.ts: SyntaxError: Expected identifier but found "," (2:20)',
            },
          },
        },
      ],
    );

    const fixed = client.nextReload();
    await writeFile(join(dir, "tools/greet.ts"), toolFile("Greets", "hello again"));
    expect((await fixed).fixed).toEqual(["tools/greet.ts"]);
    expect(client.problems).toEqual([]);
    expect((await client.callTool({ name: "greet" })).content).toEqual([
      { type: "text", text: "hello again" },
    ]);
  });
});

describe.each(["2026-07-28", "2025-11-25"] as const)("a reload at %s", (protocolVersion) => {
  it("resolves nextReload once the client has heard what the reload changed", async () => {
    const dir = await createServerDir({ "tools/greet.ts": toolFile("Greets", "hello") });
    const client = await createTestClient(dir, { protocolVersion, watch: true });
    clients.push(client);
    await client.subscribeResource({ uri: "file:///guide.md" });
    const reloaded = client.nextReload();
    await writeFile(join(dir, "tools/wave.ts"), toolFile("Waves", "wave"));
    await reloaded;
    expect(client.notifications).toEqual([
      { method: "notifications/tools/list_changed", params: {} },
    ]);

    const edited = client.nextReload();
    await mkdir(join(dir, "resources"));
    await writeFile(join(dir, "resources/guide.md"), "# Guide\n");
    await edited;
    expect(client.notifications.slice(1)).toEqual([
      { method: "notifications/resources/list_changed", params: {} },
      { method: "notifications/resources/updated", params: { uri: "file:///guide.md" } },
    ]);
  });
});

describe("watching", () => {
  it("warns when a save leaves a tool naming a view nothing serves, as a start does", async () => {
    const dir = await createServerDir({
      "tools/poll.ts": toolFile("Polls", "voted"),
      "tools/tally.ts": `export default { description: "Tallies", _meta: { ui: { resourceUri: "ui://poll" } }, handler: (): string => "tallied" };\n`,
      "views/poll.html": "<p>Poll</p>\n",
    });
    const client = await createTestClient(dir, { watch: true });
    clients.push(client);
    const reloaded = client.nextReload();
    await rm(join(dir, "views/poll.html"));
    const outcome = await reloaded;
    expect(outcome.removed).toEqual(["views/poll.html"]);
    expect(outcome.warnings).toEqual([
      {
        file: "tools/tally.ts",
        message:
          'Tool "tally" names the view ui://poll in _meta.ui.resourceUri, which nothing serves; there is no view',
      },
    ]);
  });

  it("serves what loads of a directory with problems, and the rest once fixed", async () => {
    const dir = await createServerDir({
      "tools/good.ts": toolFile("Good", "good"),
      "tools/bad.ts": "export default {\n  description: 'x',,\n};\n",
    });
    const client = await createTestClient(dir, { watch: true });
    clients.push(client);
    expect(client.problems.map((problem) => problem.file)).toEqual(["tools/bad.ts"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["good"]);
    const fixed = client.nextReload();
    await writeFile(join(dir, "tools/bad.ts"), toolFile("Bad no more", "fine"));
    expect((await fixed).fixed).toEqual(["tools/bad.ts"]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["bad", "good"]);
  });

  it("is refused nextReload without watch, saying how to get it", async () => {
    const dir = await createServerDir({ "tools/good.ts": toolFile("Good", "good") });
    const client = await createTestClient(dir);
    clients.push(client);
    await expect(client.nextReload()).rejects.toThrow(
      "nextReload: this client does not watch; create it with { watch: true }",
    );
  });

  it("keeps two watching clients of one directory apart: each reloads a saved helper, with its own state", async () => {
    const counter = (start: number) => `let count = ${start};
export const next = () => ++count;
`;
    const dir = await createServerDir({
      "lib/counter.ts": counter(0),
      "tools/count.ts": `import { defineTool } from "mcp-dir";
import { next } from "../lib/counter.ts";
export default defineTool({ description: "Counts its calls", handler: () => String(next()) });
`,
    });
    const first = await createTestClient(dir, { watch: true });
    const second = await createTestClient(dir, { watch: true });
    clients.push(first, second);
    const count = async (client: TestClient) =>
      (await client.callTool({ name: "count" })).content[0];
    expect(await count(first)).toEqual({ type: "text", text: "1" });
    expect(await count(first)).toEqual({ type: "text", text: "2" });
    expect(await count(second)).toEqual({ type: "text", text: "1" });

    const reloads = [first.nextReload(), second.nextReload()];
    await writeFile(join(dir, "lib/counter.ts"), counter(100));
    for (const reload of await Promise.all(reloads)) {
      expect(reload.applied).toEqual(["tools/count.ts"]);
    }
    expect(await count(first)).toEqual({ type: "text", text: "101" });
    expect(await count(first)).toEqual({ type: "text", text: "102" });
    expect(await count(second)).toEqual({ type: "text", text: "101" });

    // A save of the tool alone: each client's helper keeps its own count.
    const again = [first.nextReload(), second.nextReload()];
    await writeFile(
      join(dir, "tools/count.ts"),
      `import { defineTool } from "mcp-dir";
import { next } from "../lib/counter.ts";
export default defineTool({ description: "Counts its calls", handler: () => \`#\${next()}\` });
`,
    );
    for (const reload of await Promise.all(again))
      expect(reload.applied).toEqual(["tools/count.ts"]);
    expect(await count(first)).toEqual({ type: "text", text: "#103" });
    expect(await count(second)).toEqual({ type: "text", text: "#102" });
  });
});
