/**
 * Tools whose input, output and elicitation schemas are written with valibot
 * (through toStandardJsonSchema) and ArkType, served by the real CLI over
 * stdio and HTTP to the official clients of both eras: `tools/list` shows the
 * JSON Schema each library gives, and the library validates what comes in,
 * what goes out and what the user answers, in its own words.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { linkRepoPackages } from "../loader/helpers/server-dir.js";
import { connectClient, ERA_ROWS, type EraClient, servedFiles, shared } from "./helpers/clients.js";

const FILES = {
  "tools/forecast-valibot.ts": `import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { defineTool } from "mcp-dir";
import * as v from "valibot";
export default defineTool({
  description: "A forecast, with valibot schemas",
  input: toStandardJsonSchema(
    v.object({
      city: v.pipe(v.string(), v.minLength(2)),
      days: v.optional(v.pipe(v.number(), v.integer()), 3),
      broken: v.optional(v.boolean(), false),
    }),
  ),
  output: toStandardJsonSchema(v.object({ city: v.string(), high: v.number() })),
  handler: ({ city, days, broken }) => ({ city, high: broken ? "warm" : 20 + days }) as { city: string; high: number },
});`,
  "tools/forecast-arktype.ts": `import { type } from "arktype";
import { defineTool } from "mcp-dir";
export default defineTool({
  description: "A forecast, with ArkType schemas",
  input: type({ city: "string >= 2", days: type("number.integer").default(3), "broken?": "boolean" }),
  output: type({ city: "string", high: "number", unit: type("'C' | 'F'").default("C") }),
  handler: ({ city, days, broken }) => ({ city, high: broken ? "warm" : 20 + days }) as { city: string; high: number },
});`,
  "tools/ask-valibot.ts": `import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { defineTool } from "mcp-dir";
import * as v from "valibot";
const seats = toStandardJsonSchema(v.object({ seats: v.pipe(v.number(), v.integer(), v.minValue(1)) }));
export default defineTool({
  description: "Asks how many seats, with a valibot schema",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "How many seats?", schema: seats });
    return answer.action === "accept" ? "seats: " + answer.content.seats : answer.action;
  },
});`,
  "tools/ask-arktype.ts": `import { type } from "arktype";
import { defineTool } from "mcp-dir";
const seats = type({ seats: "number.integer >= 1" });
export default defineTool({
  description: "Asks how many seats, with an ArkType schema",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "How many seats?", schema: seats });
    return answer.action === "accept" ? "seats: " + answer.content.seats : answer.action;
  },
});`,
};

/** What each library gives, as tools/list shows it. */
const LISTED = [
  {
    name: "ask-arktype",
    description: "Asks how many seats, with an ArkType schema",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "ask-valibot",
    description: "Asks how many seats, with a valibot schema",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "forecast-arktype",
    description: "A forecast, with ArkType schemas",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string", minLength: 2 },
        days: { type: "integer" },
        broken: { type: "boolean" },
      },
      required: ["city"],
    },
    outputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        high: { type: "number" },
        unit: { enum: ["C", "F"] },
      },
      required: ["city", "high", "unit"],
    },
  },
  {
    name: "forecast-valibot",
    description: "A forecast, with valibot schemas",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string", minLength: 2 },
        days: { type: "integer", default: 3 },
        broken: { type: "boolean", default: false },
      },
      required: ["city"],
    },
    outputSchema: {
      type: "object",
      properties: { city: { type: "string" }, high: { type: "number" } },
      required: ["city", "high"],
    },
  },
];

/**
 * The server keeps nothing between calls: one HTTP server of the directory
 * serves both HTTP rows. In a process of its own: the directory's ArkType is
 * a second copy in a process whose test files import ArkType too, and once
 * that copy has served, the test files' copy lists a default in input mode
 * that it otherwise leaves out (test/define/standard-schema.test.ts).
 */
const serve = servedFiles(
  FILES,
  async (dir) => {
    await linkRepoPackages(dir, ["valibot", "@valibot/to-json-schema", "arktype"]);
  },
  { spawn: true },
);

const textOf = (result: Record<string, unknown>) =>
  (result.content as { text?: string }[]).map((block) => block.text).join("");

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  let client: EraClient;
  /** What the user answers to "How many seats?". */
  let seats: unknown = 2;
  /** The schema of each form the client was asked to show. */
  const shown: unknown[] = [];

  beforeAll(async () => {
    client = await connectClient(kind, await serve(transport), {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      answer: (_method, params) => {
        shown.push(params.requestedSchema);
        return { action: "accept", content: { seats } };
      },
    });
  });

  it("lists each tool with the JSON Schema its library gives", async () => {
    const { tools } = shared(await client.listTools()) as { tools: { name: string }[] };
    const byName = [...tools].sort((a, b) => a.name.localeCompare(b.name));
    expect(byName).toEqual(LISTED);
  });

  it("passes valibot's parsed arguments to the handler and returns its checked output", async () => {
    const result = await client.callTool({
      name: "forecast-valibot",
      arguments: { city: "Oslo" },
    });
    expect(shared(result)).toEqual({
      content: [{ type: "text", text: '{"city":"Oslo","high":23}' }],
      structuredContent: { city: "Oslo", high: 23 },
    });
  });

  it("passes ArkType's parsed arguments to the handler and returns its parsed output", async () => {
    const result = await client.callTool({
      name: "forecast-arktype",
      arguments: { city: "Oslo", days: 1 },
    });
    expect(shared(result)).toEqual({
      content: [{ type: "text", text: '{"city":"Oslo","high":21,"unit":"C"}' }],
      structuredContent: { city: "Oslo", high: 21, unit: "C" },
    });
  });

  it("answers bad arguments with isError in valibot's words", async () => {
    const result = await client.callTool({
      name: "forecast-valibot",
      arguments: { city: "O", days: 1.5 },
    });
    expect(shared(result)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "forecast-valibot": city: Invalid length: Expected >=2 but received 1; days: Invalid integer: Received 1.5',
        },
      ],
      isError: true,
    });
  });

  it("answers bad arguments with isError in ArkType's words", async () => {
    const result = await client.callTool({
      name: "forecast-arktype",
      arguments: { city: 7 },
    });
    expect(shared(result)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "forecast-arktype": city: city must be a string (was a number)',
        },
      ],
      isError: true,
    });
  });

  it.each([
    ["forecast-valibot", 'high: Invalid type: Expected number but received "warm"'],
    ["forecast-arktype", "high: high must be a number (was a string)"],
  ])("checks %s's structured output with its library", async (name, issue) => {
    const result = await client.callTool({ name, arguments: { city: "Oslo", broken: true } });
    expect(shared(result)).toEqual({
      content: [
        {
          type: "text",
          text: `Tool "${name}" returned a result that does not match its output schema: ${issue}`,
        },
      ],
      isError: true,
    });
  });

  it.each([
    ["ask-valibot", "seats: Invalid value: Expected >=1 but received 0"],
    ["ask-arktype", "seats: seats must be at least 1 (was 0)"],
  ])("elicits with %s's schema and checks the answer with its library", async (name, issue) => {
    seats = 2;
    shown.length = 0;
    expect(textOf(await client.callTool({ name, arguments: {} }))).toBe("seats: 2");
    expect(shown).toEqual([
      {
        type: "object",
        properties: { seats: { type: "integer", minimum: 1 } },
        required: ["seats"],
      },
    ]);
    seats = 0;
    try {
      expect(shared(await client.callTool({ name, arguments: {} }))).toEqual({
        content: [
          {
            type: "text",
            text: `The client's answer does not match the elicitation schema: ${issue}`,
          },
        ],
        isError: true,
      });
    } finally {
      seats = 2;
    }
  });
});
