import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type DevServer,
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

async function toolNames(dev: DevServer): Promise<string[]> {
  return (await dev.client.listTools()).tools.map((tool) => tool.name);
}

/** Waits for the n-th tools/list_changed, then proves with a round trip that no other came. */
async function toolsChanged(dev: DevServer, n: number): Promise<void> {
  await dev.waitForCount(TOOLS_CHANGED, n);
  await dev.client.ping();
  expect(dev.count(TOOLS_CHANGED)).toBe(n);
}

describe("mcp-dir dev: tool files", () => {
  it("applies an added, edited, renamed and deleted tool file in place, one list_changed each", async () => {
    const dev = await startDev({ "tools/echo.ts": toolFile("Echoes", "echo") });
    expect(await toolNames(dev)).toEqual(["echo"]);

    dev.write(
      "tools/greet.ts",
      `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Greets v1",
  input: { name: z.string() },
  handler: ({ name }) => \`Hello \${name}\`,
});
`,
    );
    await toolsChanged(dev, 1);
    expect((await dev.client.listTools()).tools).toEqual([
      { name: "echo", description: "Echoes", inputSchema: { type: "object", properties: {} } },
      {
        name: "greet",
        description: "Greets v1",
        inputSchema: {
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
        },
      },
    ]);
    expect(textOf(await dev.client.callTool({ name: "greet", arguments: { name: "Ann" } }))).toBe(
      "Hello Ann",
    );

    dev.write(
      "tools/greet.ts",
      `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Greets v2",
  input: { name: z.string() },
  handler: ({ name }) => \`Hi \${name}!\`,
});
`,
    );
    await toolsChanged(dev, 2);
    expect(textOf(await dev.client.callTool({ name: "greet", arguments: { name: "Ann" } }))).toBe(
      "Hi Ann!",
    );
    expect((await dev.client.listTools()).tools[1]?.description).toBe("Greets v2");

    dev.rename("tools/greet.ts", "tools/people/salute.ts");
    await toolsChanged(dev, 3);
    expect(await toolNames(dev)).toEqual(["echo", "people_salute"]);
    expect(
      textOf(await dev.client.callTool({ name: "people_salute", arguments: { name: "Bo" } })),
    ).toBe("Hi Bo!");

    dev.remove("tools/people/salute.ts");
    await toolsChanged(dev, 4);
    expect(await toolNames(dev)).toEqual(["echo"]);
    await expect(dev.client.callTool({ name: "people_salute", arguments: {} })).rejects.toThrow(
      'Unknown tool: "people_salute"',
    );

    await dev.waitForLine("mcp-dir dev: removed tools/people/salute.ts");
    const lines = dev.lines();
    expect(lines.slice(0, 2)).toEqual([
      `mcp-dir dev: watching ${dev.dir} for changes`,
      `mcp-dir dev: serving ${dev.dir.split("/").pop()} 0.0.0 from ${dev.dir} (1 tool, 0 prompts, 0 resources) over stdio; waiting for a client on stdin`,
    ]);
    const rest = lines.slice(2);
    expect(rest).toHaveLength(5);
    expect(rest[0]).toMatch(reloaded("tools/greet.ts"));
    expect(rest[1]).toMatch(reloaded("tools/greet.ts"));
    // A rename is one reload: the new file in, the old one out, in one registry change.
    expect(rest[2]).toMatch(reloaded("tools/people/salute.ts"));
    expect(rest[3]).toBe("mcp-dir dev: removed tools/greet.ts");
    expect(rest[4]).toBe("mcp-dir dev: removed tools/people/salute.ts");
    expect(dev.notifications.items.map((n) => n.method)).toEqual(Array(4).fill(TOOLS_CHANGED));
    expect(dev.errors).toEqual([]);
  });

  it("renames a file whose tool has an explicit name without a collision or a list change", async () => {
    const dev = await startDev({
      "tools/a.ts": toolFile("Named", "same tool", '\n  name: "named",'),
    });
    dev.rename("tools/a.ts", "tools/b.ts");
    await dev.waitForLine("mcp-dir dev: removed tools/a.ts");
    expect(dev.lines().slice(2)).toEqual([
      expect.stringMatching(reloaded("tools/b.ts")),
      "mcp-dir dev: removed tools/a.ts",
    ]);
    expect(textOf(await dev.client.callTool({ name: "named", arguments: {} }))).toBe("same tool");
    // The list is the same as before: nothing to tell the client.
    expect(dev.notifications.items).toEqual([]);
  });

  it("folds a burst of saves into one reload and one list_changed", async () => {
    const dev = await startDev({
      "tools/burst.ts": toolFile("Burst v0", "v0"),
      "tools/other.ts": toolFile("Other v0", "other v0"),
    });
    // An editor saves in bursts: several writes in a row.
    for (let version = 1; version <= 5; version++) {
      dev.write("tools/burst.ts", toolFile(`Burst v${version}`, `v${version}`));
    }
    await dev.waitForCount(TOOLS_CHANGED, 1);
    expect(textOf(await dev.client.callTool({ name: "burst", arguments: {} }))).toBe("v5");
    await dev.waitForLine(reloaded("tools/burst.ts"));

    // Another file's reload comes after any second reload of the burst would have.
    dev.write("tools/other.ts", toolFile("Other v1", "other v1"));
    await toolsChanged(dev, 2);
    expect(textOf(await dev.client.callTool({ name: "other", arguments: {} }))).toBe("other v1");
    expect(dev.lines().filter((line) => reloaded("tools/burst.ts").test(line))).toHaveLength(1);
    expect(dev.lines().slice(2)).toEqual([
      expect.stringMatching(reloaded("tools/burst.ts")),
      expect.stringMatching(reloaded("tools/other.ts")),
    ]);
  });

  it("offers tasks from the start, so a tool saved later that runs only as a task runs for a session open already", async () => {
    const dev = await startDev({ "tools/echo.ts": toolFile("Echoes", "echo") });
    dev.write(
      "tools/report.ts",
      toolFile("Writes a report", "the report", '\n  task: "required",'),
    );
    await toolsChanged(dev, 1);
    // As a host does on list_changed: the SDK calls as a task what the list says runs as one.
    const { tools } = await dev.client.listTools();
    expect(tools.map((tool) => [tool.name, tool.execution])).toEqual([
      ["echo", undefined],
      ["report", { taskSupport: "required" }],
    ]);
    const stream = dev.client.experimental.tasks.callToolStream(
      { name: "report", arguments: {} },
      CallToolResultSchema,
    );
    const ends = [];
    for await (const message of stream) if (message.type !== "taskStatus") ends.push(message);
    expect(ends.map(({ type }) => type)).toEqual(["taskCreated", "result"]);
    expect(ends[1]).toMatchObject({ result: { content: [{ type: "text", text: "the report" }] } });
  });

  it("lets a call in flight finish on the version it started with", async () => {
    const slow = (version: string) => `import { defineTool } from "mcp-dir";

const VERSION = "${version}";

export default defineTool({
  description: "Waits for the gate (${version})",
  handler: async (_args, ctx) => {
    const gate = new Promise((resolve) => {
      (globalThis as { openGate?: () => void }).openGate = () => resolve(undefined);
    });
    ctx.log.info("slow call started");
    await gate;
    return \`finished on \${VERSION}\`;
  },
});
`;
    const dev = await startDev({
      "tools/slow.ts": slow("v1"),
      "tools/open-gate.ts": `import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Opens the gate a slow call waits for",
  handler: () => {
    (globalThis as { openGate?: () => void }).openGate?.();
    return "opened";
  },
});
`,
    });
    const first = dev.client.callTool({ name: "slow", arguments: {} });
    await dev.notifications.waitFor(
      (n) => n.method === "notifications/message" && n.params?.data === "slow call started",
      "the slow call to start",
    );

    dev.write("tools/slow.ts", slow("v2"));
    await toolsChanged(dev, 1);
    const tools = (await dev.client.listTools()).tools;
    expect(tools.find((tool) => tool.name === "slow")?.description).toBe("Waits for the gate (v2)");

    expect(textOf(await dev.client.callTool({ name: "open-gate", arguments: {} }))).toBe("opened");
    expect(textOf(await first)).toBe("finished on v1");

    const second = dev.client.callTool({ name: "slow", arguments: {} });
    await dev.notifications.waitForCount(
      (n) => n.method === "notifications/message" && n.params?.data === "slow call started",
      2,
      "the second slow call to start",
    );
    expect(textOf(await dev.client.callTool({ name: "open-gate", arguments: {} }))).toBe("opened");
    expect(textOf(await second)).toBe("finished on v2");
  });
});
