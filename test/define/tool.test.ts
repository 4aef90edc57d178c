import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import {
  type CompiledTool,
  compileTool,
  DefinitionError,
  defineTool,
  definitionKind,
  type HandlerContext,
  nameWarning,
  type SchemaInput,
  type ToolDefinition,
} from "../../src/define/index.js";
import type { CallToolResult } from "../../src/protocol/index.js";
import { definitionError, fakeContext } from "./helpers.js";

const ACCEPTED =
  "use a zod object (z.object({...})), a shape of zod schemas ({ name: z.string() }), or a JSON Schema object ({ type: 'object', properties: {...} })";

const ctx = fakeContext();

function compiled(definition: ToolDefinition, fallback = "t"): CompiledTool {
  return compileTool(definition, fallback);
}

/** Defines a tool with one bad input and returns its problems. */
function inputProblems(input: unknown): string[] {
  return definitionError(() =>
    defineTool({ name: "t", description: "d", input: input as never, handler: () => "" }),
  ).problems;
}

describe("defineTool: definitions", () => {
  it("returns a branded copy of the config", () => {
    const config = { description: "Echo", handler: () => "x" };
    const definition = defineTool(config);
    expect(definitionKind(definition)).toBe("tool");
    expect(definition).not.toBe(config);
    expect(definition.description).toBe("Echo");
    expect(Object.keys(definition)).toEqual(["description", "handler"]);
  });

  it("uses the fallback name unless the definition names itself", () => {
    const unnamed = defineTool({ description: "d", handler: () => "" });
    expect(compiled(unnamed, "math_add").name).toBe("math_add");
    const named = defineTool({ name: "add", description: "d", handler: () => "" });
    expect(compiled(named, "math_add").name).toBe("add");
    expect(compiled(named, "math_add").descriptor.name).toBe("add");
  });

  it("builds the descriptor with only the fields that were given", () => {
    const tool = compiled(
      defineTool({
        name: "echo",
        title: "Echo",
        description: "Echoes back the input",
        icons: [{ src: "https://example.com/echo.png", mimeType: "image/png" }],
        annotations: { readOnlyHint: true },
        _meta: { team: "core" },
        handler: () => "",
      }),
    );
    expect(tool.kind).toBe("tool");
    expect(tool.descriptor).toEqual({
      name: "echo",
      title: "Echo",
      description: "Echoes back the input",
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      icons: [{ src: "https://example.com/echo.png", mimeType: "image/png" }],
      _meta: { team: "core" },
    });
    const bare = compiled(defineTool({ name: "bare", description: "d", handler: () => "" }));
    expect(Object.keys(bare.descriptor)).toEqual(["name", "description", "inputSchema"]);
  });

  it("reports a missing description and handler together", () => {
    const error = definitionError(() => defineTool({ name: "t" } as never));
    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.name).toBe("DefinitionError");
    expect(error.problems).toEqual([
      "handler is missing: add handler: (args, ctx) => result",
      "description is missing: clients show it to the model, so say what the tool does",
    ]);
    expect(error.message).toBe(
      'Tool "t" is invalid:\n' +
        "  - handler is missing: add handler: (args, ctx) => result\n" +
        "  - description is missing: clients show it to the model, so say what the tool does",
    );
  });

  it("says whether a call may run as a task, in the descriptor 2025-11-25 lists", () => {
    const plain = compiled(defineTool({ name: "p", description: "d", handler: () => "" }));
    expect(plain.taskSupport).toBe("forbidden");
    expect(plain.descriptor.execution).toBeUndefined();
    const task = compiled(
      defineTool({ name: "t", description: "d", task: "required", handler: () => "" }),
    );
    expect(task.taskSupport).toBe("required");
    expect(task.descriptor.execution).toEqual({ taskSupport: "required" });
  });

  it("refuses a task support that is none of the three", () => {
    const error = definitionError(() =>
      defineTool({ name: "t", description: "d", task: "sometimes" as never, handler: () => "" }),
    );
    expect(error.problems).toEqual([
      'task must be "optional", "required" or "forbidden" (the default), not "sometimes"',
    ]);
  });

  it("treats a blank description as missing", () => {
    const error = definitionError(() =>
      defineTool({ name: "t", description: "   ", handler: () => "" }),
    );
    expect(error.problems).toEqual([
      "description is missing: clients show it to the model, so say what the tool does",
    ]);
  });

  it.each([
    ["", '""'],
    ["has space", '"has space"'],
    ["tab\there", '"tab\\there"'],
  ])("rejects the name %j: empty, or with white space or control characters", (name, quoted) => {
    const error = definitionError(() => defineTool({ name, description: "d", handler: () => "" }));
    expect(error.problems).toEqual([
      `Tool name ${quoted} is invalid: use 1 to 128 letters, digits, "_", "-" or "."`,
    ]);
    expect(error.message.split("\n")[0]).toBe(`Tool ${quoted} is invalid:`);
  });

  it("accepts names of letters, digits, _, - and . up to 128 characters (SEP-986)", () => {
    for (const name of ["a", "math_add", "code-review", "admin.tools.list", "x".repeat(128)]) {
      expect(compiled(defineTool({ name, description: "d", handler: () => "" })).name).toBe(name);
      expect(nameWarning(name, "Tool")).toBeUndefined();
    }
  });

  it("accepts, with a warning, names the spec discourages", () => {
    expect(compiled(defineTool({ name: "héllo", description: "d", handler: () => "" })).name).toBe(
      "héllo",
    );
    expect(nameWarning("héllo", "Tool")).toBe(
      'Tool name "héllo" has characters other than letters, digits, "_", "-" and ".", which MCP discourages and some clients refuse; rename it',
    );
    expect(nameWarning("x".repeat(129), "Tool")).toBe(
      `Tool name "${"x".repeat(129)}" is longer than 128 characters, which MCP discourages and some clients refuse; rename it`,
    );
  });

  it("lists every problem in order: name, handler, description, input, output", () => {
    const error = definitionError(() =>
      defineTool({
        name: "bad name",
        description: "",
        input: 5 as never,
        output: z.string() as never,
        handler: undefined as never,
      }),
    );
    expect(error.problems).toEqual([
      'Tool name "bad name" is invalid: use 1 to 128 letters, digits, "_", "-" or "."',
      "handler is missing: add handler: (args, ctx) => result",
      "description is missing: clients show it to the model, so say what the tool does",
      `input got a number; ${ACCEPTED}`,
      'output must describe an object (MCP requires "type": "object"), got "string"; wrap it: z.object({ value: ... })',
    ]);
  });
});

describe("defineTool: input schemas", () => {
  it("converts a zod 4 shape in input mode (defaults are optional)", () => {
    const tool = compiled(
      defineTool({
        name: "t",
        description: "d",
        input: {
          message: z.string().describe("Message to echo"),
          times: z.number().int().default(1),
          loud: z.boolean().optional(),
        },
        handler: () => "",
      }),
    );
    expect(tool.descriptor.inputSchema).toEqual({
      type: "object",
      properties: {
        message: { type: "string", description: "Message to echo" },
        times: { type: "integer", default: 1 },
        loud: { type: "boolean" },
      },
      required: ["message"],
    });
  });

  it("converts a zod 4 z.object the same way as its shape", () => {
    const shape = { a: z.string(), b: z.number().optional() };
    const fromShape = compiled(defineTool({ description: "d", input: shape, handler: () => "" }));
    const fromObject = compiled(
      defineTool({ description: "d", input: z.object(shape), handler: () => "" }),
    );
    expect(fromObject.descriptor.inputSchema).toEqual(fromShape.descriptor.inputSchema);
    expect(fromObject.descriptor.inputSchema).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "number" } },
      required: ["a"],
    });
  });

  it("converts a zod 3 shape through zod-to-json-schema, without $schema", () => {
    const tool = compiled(
      defineTool({
        name: "t",
        description: "d",
        input: { city: z3.string().describe("City name"), days: z3.number().optional() },
        handler: () => "",
      }),
    );
    expect(tool.descriptor.inputSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: "City name" },
        days: { type: "number" },
      },
      required: ["city"],
    });
  });

  it("gives zod 3 and zod 4 the same JSON Schema: extra keys accepted in, refused out, unless strict", () => {
    const schemaOf = (input: SchemaInput, output: SchemaInput) =>
      compiled(defineTool({ name: "t", description: "d", input, output, handler: () => ({}) }))
        .descriptor;
    const zod4 = schemaOf(
      {
        n: z.number().int().min(0),
        inner: z.object({ s: z.string() }),
        strict: z.strictObject({}),
      },
      { n: z.number().int() },
    );
    const zod3 = schemaOf(
      {
        n: z3.number().int().min(0),
        inner: z3.object({ s: z3.string() }),
        strict: z3.object({}).strict(),
      },
      { n: z3.number().int() },
    );
    const expected = {
      inputSchema: {
        type: "object",
        properties: {
          n: { type: "integer", minimum: 0 },
          inner: { type: "object", properties: { s: { type: "string" } }, required: ["s"] },
          strict: { type: "object", properties: {}, additionalProperties: false },
        },
        required: ["n", "inner", "strict"],
      },
      outputSchema: {
        type: "object",
        properties: { n: { type: "integer" } },
        required: ["n"],
        additionalProperties: false,
      },
    };
    expect(zod4).toMatchObject(expected);
    expect(zod3).toMatchObject(expected);
  });

  it.each([
    [
      "a zod 4 date",
      { when: z.date() },
      'input field "when" is a date, which JSON cannot carry, so every call would fail; use z.iso.datetime() (a string) or z.coerce.date()',
    ],
    [
      "a zod 4 bigint in an array",
      { ids: z.array(z.object({ id: z.bigint() })) },
      'input field "ids[].id" is a bigint, which JSON cannot carry, so every call would fail; use z.number().int(), or a string',
    ],
    [
      "a zod 3 date",
      { when: z3.date().optional() },
      'input field "when" is a date, which JSON cannot carry, so every call would fail; use z.iso.datetime() (a string) or z.coerce.date()',
    ],
    [
      "a zod 3 map",
      { index: z3.map(z3.string(), z3.number()) },
      'input field "index" is a map, which JSON cannot carry, so every call would fail; use z.record(...)',
    ],
    [
      "a zod 3 date behind z3.lazy",
      { node: z3.lazy(() => z3.object({ when: z3.date() })) },
      'input field "node.when" is a date, which JSON cannot carry, so every call would fail; use z.iso.datetime() (a string) or z.coerce.date()',
    ],
    [
      "a zod 4 date behind z.lazy",
      { node: z.lazy(() => z.object({ when: z.date() })) },
      'input field "node.when" is a date, which JSON cannot carry, so every call would fail; use z.iso.datetime() (a string) or z.coerce.date()',
    ],
  ])("refuses %s at definition time, naming the field", (_, input, problem) => {
    expect(
      definitionError(() =>
        defineTool({ name: "t", description: "d", input: input as SchemaInput, handler: () => "" }),
      ).problems,
    ).toEqual([problem]);
  });

  it("refuses x-mcp-header marks the 2026 revision forbids, and keeps valid ones", () => {
    const input = {
      type: "object" as const,
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        ratio: { type: "number", "x-mcp-header": "Ratio" },
      },
    };
    expect(
      definitionError(() => defineTool({ name: "t", description: "d", input, handler: () => "" }))
        .problems,
    ).toEqual([
      'input property "ratio": "x-mcp-header" needs a string, integer or boolean property, not "number"',
    ]);
    const region = { type: "object" as const, properties: { region: input.properties.region } };
    expect(
      compiled(defineTool({ name: "t", description: "d", input: region, handler: () => "" }))
        .descriptor.inputSchema,
    ).toEqual(region);
  });

  it("accepts z.coerce.date(): it takes the string a client sends", () => {
    const tool = compiled(
      defineTool({
        name: "t",
        description: "d",
        input: { when: z.coerce.date() },
        handler: () => "",
      }),
    );
    expect(tool.descriptor.inputSchema).toMatchObject({ required: ["when"] });
  });

  it("converts a recursive zod 4 schema (a getter) to a $ref, and validates a nested call", async () => {
    interface Category {
      name: string;
      parent?: Category | undefined;
    }
    const Category: z.ZodType<Category> = z.object({
      name: z.string(),
      get parent() {
        return Category.optional();
      },
    });
    const tool = compiled(
      defineTool({
        description: "d",
        input: z.object({ category: Category }),
        handler: ({ category }) => `${category.name} in ${category.parent?.name}`,
      }),
    );
    expect(tool.descriptor.inputSchema).toMatchObject({
      properties: { category: { $ref: "#/$defs/__schema0" } },
      $defs: { __schema0: { properties: { parent: { $ref: "#/$defs/__schema0" } } } },
    });
    expect(await tool.call({ category: { name: "b", parent: { name: "a" } } }, ctx)).toEqual({
      content: [{ type: "text", text: "b in a" }],
    });
    expect(
      definitionError(() =>
        defineTool({
          name: "t",
          description: "d",
          input: { when: Category.or(z.date()) },
          handler: () => "",
        }),
      ).problems,
    ).toEqual([
      'input field "when" is a date, which JSON cannot carry, so every call would fail; use z.iso.datetime() (a string) or z.coerce.date()',
    ]);
  });

  it("converts a recursive zod 3 schema (z3.lazy) to a $ref as zod 4's, and validates a nested call", async () => {
    interface Category {
      name: string;
      parent?: Category | undefined;
    }
    const Category: z3.ZodType<Category> = z3.lazy(() =>
      z3.object({ name: z3.string(), parent: Category.optional() }),
    );
    const zod4Category: z.ZodType<Category> = z.object({
      name: z.string(),
      get parent() {
        return zod4Category.optional();
      },
    });
    const schemaOf = (input: SchemaInput) =>
      compiled(defineTool({ description: "d", input, handler: () => "" })).descriptor.inputSchema;
    const category = {
      type: "object",
      properties: { name: { type: "string" }, parent: { $ref: "#/$defs/__schema0" } },
      required: ["name"],
    };
    const expected = {
      type: "object",
      properties: {
        category: { $ref: "#/$defs/__schema0" },
        also: { $ref: "#/$defs/__schema0" },
      },
      required: ["category", "also"],
      $defs: { __schema0: category },
    };
    expect(schemaOf(z3.object({ category: Category, also: Category }))).toEqual(expected);
    expect(schemaOf(z.object({ category: zod4Category, also: zod4Category }))).toEqual(expected);
    // The whole input recursive: the root is "#", as zod 4 has it.
    const Tree: z3.ZodType<{ children: unknown[] }> = z3.lazy(() =>
      z3.object({ children: z3.array(Tree) }),
    );
    expect(schemaOf(Tree as never)).toEqual({
      type: "object",
      properties: { children: { type: "array", items: { $ref: "#" } } },
      required: ["children"],
    });
    const tool = compiled(
      defineTool({
        description: "d",
        input: { category: Category },
        handler: ({ category }) => `${category.name} in ${category.parent?.name}`,
      }),
    );
    expect(await tool.call({ category: { name: "b", parent: { name: "a" } } }, ctx)).toEqual({
      content: [{ type: "text", text: "b in a" }],
    });
  });

  it("converts a zod 3 z3.object", () => {
    const tool = compiled(
      defineTool({
        description: "d",
        input: z3.object({ tags: z3.array(z3.string()) }),
        handler: () => "",
      }),
    );
    expect(tool.descriptor.inputSchema).toEqual({
      type: "object",
      properties: { tags: { type: "array", items: { type: "string" } } },
      required: ["tags"],
    });
  });

  it("serves a JSON Schema object exactly as written, $schema included", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object" as const,
      properties: { q: { type: "string" } },
      required: ["q"],
    };
    const tool = compiled(defineTool({ description: "d", input: schema, handler: () => "" }));
    expect(tool.descriptor.inputSchema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
    });
  });

  it("treats an empty shape as no arguments", () => {
    const tool = compiled(defineTool({ description: "d", input: {}, handler: () => "" }));
    expect(tool.descriptor.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("rejects a number", () => {
    expect(inputProblems(42)).toEqual([`input got a number; ${ACCEPTED}`]);
  });

  it("rejects an array", () => {
    expect(inputProblems([z.string()])).toEqual([`input got an array; ${ACCEPTED}`]);
  });

  it("rejects null and a string", () => {
    expect(inputProblems(null)).toEqual([`input got null; ${ACCEPTED}`]);
    expect(inputProblems("message")).toEqual([`input got a string; ${ACCEPTED}`]);
  });

  it("rejects a shape that mixes zod 3 and zod 4", () => {
    expect(inputProblems({ a: z.string(), b: z3.string() })).toEqual([
      "input mixes zod 3 and zod 4 schemas in one shape; use one zod version per schema",
    ]);
  });

  it("names the property of a shape that is not a zod schema", () => {
    expect(inputProblems({ a: z.string(), b: "string" })).toEqual([
      `input property "b" is a string, not a zod schema; ${ACCEPTED}`,
    ]);
  });

  it("rejects a zod schema that is not an object", () => {
    const wrap =
      'must describe an object (MCP requires "type": "object"), got "string"; wrap it: z.object({ value: ... })';
    expect(inputProblems(z.string())).toEqual([`input ${wrap}`]);
    expect(inputProblems(z3.string())).toEqual([`input ${wrap}`]);
    expect(inputProblems(z.array(z.string()))).toEqual([
      'input must describe an object (MCP requires "type": "object"), got "array"; wrap it: z.object({ value: ... })',
    ]);
  });
});

describe("defineTool: output schemas", () => {
  const output = { sum: z.number(), unit: z.string().default("none") };

  it("puts the output-mode JSON Schema in the descriptor (defaults are required)", () => {
    const tool = compiled(
      defineTool({ name: "add", description: "d", output, handler: () => ({ sum: 1 }) }),
    );
    expect(tool.descriptor.outputSchema).toEqual({
      type: "object",
      properties: { sum: { type: "number" }, unit: { type: "string", default: "none" } },
      required: ["sum", "unit"],
      additionalProperties: false,
    });
  });

  it("returns validated structuredContent and its JSON as text", async () => {
    const tool = compiled(
      defineTool({ name: "add", description: "d", output, handler: () => ({ sum: 3 }) }),
    );
    expect(await tool.call({}, ctx)).toEqual({
      content: [{ type: "text", text: '{"sum":3,"unit":"none"}' }],
      structuredContent: { sum: 3, unit: "none" },
    });
  });

  it("turns a mismatching object into isError naming the field", async () => {
    const tool = compiled(
      defineTool({
        name: "add",
        description: "d",
        output,
        handler: () => ({ sum: "three" }) as never,
      }),
    );
    expect(await tool.call({}, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "add" returned a result that does not match its output schema: sum: Invalid input: expected number, received string',
        },
      ],
      isError: true,
    });
  });

  it.each([
    ["a string", "3", "string"],
    ["a number", 3, "number"],
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
  ])("turns %s returned instead of an object into isError", async (_, value, described) => {
    const tool = compiled(
      defineTool({ name: "add", description: "d", output, handler: () => value as never }),
    );
    expect(await tool.call({}, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: `Tool "add" declares an output schema, so its handler must return an object matching it; it returned ${described}`,
        },
      ],
      isError: true,
    });
  });

  it("refuses structured output JSON cannot send whole: a Set or a Promise in a field of any type, a BigInt", async () => {
    const loose = { sum: z.number(), seen: z.any() };
    const outcome = async (seen: unknown) =>
      compiled(
        defineTool({
          name: "add",
          description: "d",
          output: loose,
          handler: () => ({ sum: 1, seen }),
        }),
      ).call({}, ctx);
    expect(await outcome(new Set([1]))).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "add" returned an object holding a Set at seen, which JSON would send as {} and lose its values; put [...set] (an array) there instead',
        },
      ],
      isError: true,
    });
    expect(await outcome(Promise.resolve([1]))).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "add" returned an object holding a Promise at seen, which JSON would send as {} and lose what it resolves to; await it and put what it resolves to there',
        },
      ],
      isError: true,
    });
    expect(await outcome(1n)).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "add" returned an object that cannot be sent as JSON (Do not know how to serialize a BigInt); return an object of JSON values that matches its output schema',
        },
      ],
      isError: true,
    });
  });

  it("passes through a full CallToolResult whose structuredContent matches", async () => {
    const result: CallToolResult = {
      content: [{ type: "text", text: "3 apples" }],
      structuredContent: { sum: 3, unit: "apples" },
    };
    const tool = compiled(
      defineTool({ name: "add", description: "d", output, handler: () => result }),
    );
    expect(await tool.call({}, ctx)).toBe(result);
  });

  it("checks the structuredContent of a full CallToolResult", async () => {
    const tool = compiled(
      defineTool({
        name: "add",
        description: "d",
        output,
        handler: () => ({ content: [], structuredContent: { sum: "x" } }),
      }),
    );
    expect(await tool.call({}, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "add" returned a result that does not match its output schema: sum: Invalid input: expected number, received string',
        },
      ],
      isError: true,
    });
  });

  it("requires structuredContent in a full CallToolResult", async () => {
    const tool = compiled(
      defineTool({ name: "add", description: "d", output, handler: () => ({ content: [] }) }),
    );
    expect(await tool.call({}, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "add" declares an output schema but returned no structuredContent',
        },
      ],
      isError: true,
    });
  });

  it("passes an error result through without checking its structuredContent", async () => {
    const result: CallToolResult = { content: [{ type: "text", text: "no" }], isError: true };
    const tool = compiled(
      defineTool({ name: "add", description: "d", output, handler: () => result }),
    );
    expect(await tool.call({}, ctx)).toBe(result);
  });

  it("accepts a zod 3 output schema", async () => {
    const tool = compiled(
      defineTool({
        name: "t",
        description: "d",
        output: z3.object({ ok: z3.boolean() }),
        handler: () => ({ ok: true }),
      }),
    );
    expect(tool.descriptor.outputSchema).toEqual({
      type: "object",
      properties: { ok: { type: "boolean" } },
      required: ["ok"],
      additionalProperties: false,
    });
    expect(await tool.call({}, ctx)).toEqual({
      content: [{ type: "text", text: '{"ok":true}' }],
      structuredContent: { ok: true },
    });
  });
});

describe("defineTool: calls", () => {
  it("validates arguments and passes the parsed values and ctx to the handler", async () => {
    let seen: unknown;
    let seenCtx: HandlerContext | undefined;
    const tool = compiled(
      defineTool({
        name: "echo",
        description: "d",
        input: { message: z.string(), times: z.number().default(2) },
        handler: (args, c) => {
          seen = args;
          seenCtx = c;
          return args.message.repeat(args.times);
        },
      }),
    );
    expect(await tool.call({ message: "ab" }, ctx)).toEqual({
      content: [{ type: "text", text: "abab" }],
    });
    expect(seen).toEqual({ message: "ab", times: 2 });
    expect(seenCtx).toBe(ctx);
  });

  it("turns a failed validation into isError naming the field", async () => {
    const tool = compiled(
      defineTool({
        name: "echo",
        description: "d",
        input: { message: z.string() },
        handler: () => "unreachable",
      }),
    );
    expect(await tool.call({}, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "echo": message: Invalid input: expected string, received undefined',
        },
      ],
      isError: true,
    });
    expect(await tool.call({ message: 7 }, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "echo": message: Invalid input: expected string, received number',
        },
      ],
      isError: true,
    });
  });

  it("names nested fields by path and joins several issues", async () => {
    const tool = compiled(
      defineTool({
        name: "t",
        description: "d",
        input: { user: z.object({ name: z.string() }), n: z.number() },
        handler: () => "",
      }),
    );
    const result = await tool.call({ user: {}, n: "x" }, ctx);
    expect(result.content).toEqual([
      {
        type: "text",
        text: 'Invalid arguments for tool "t": user.name: Invalid input: expected string, received undefined; n: Invalid input: expected number, received string',
      },
    ]);
  });

  it("uses zod 3 messages for zod 3 schemas", async () => {
    const tool = compiled(
      defineTool({ name: "t", description: "d", input: { n: z3.number() }, handler: () => "" }),
    );
    expect(await tool.call({ n: "1" }, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "t": n: Expected number, received string',
        },
      ],
      isError: true,
    });
  });

  it("runs async refinements", async () => {
    const tool = compiled(
      defineTool({
        name: "t",
        description: "d",
        input: { code: z.string().refine(async (v) => v === "ok", "code is wrong") },
        handler: ({ code }) => `got ${code}`,
      }),
    );
    expect(await tool.call({ code: "ok" }, ctx)).toEqual({
      content: [{ type: "text", text: "got ok" }],
    });
    expect(await tool.call({ code: "no" }, ctx)).toEqual({
      content: [{ type: "text", text: 'Invalid arguments for tool "t": code: code is wrong' }],
      isError: true,
    });
  });

  it("treats missing arguments as an empty object", async () => {
    const tool = compiled(
      defineTool({ name: "t", description: "d", handler: (args) => JSON.stringify(args) }),
    );
    expect(await tool.call(undefined, ctx)).toEqual({ content: [{ type: "text", text: "{}" }] });
  });

  it("with a JSON Schema input, validates arguments fully before the handler runs", async () => {
    let runs = 0;
    const tool = compiled(
      defineTool({
        name: "j",
        description: "d",
        input: {
          type: "object",
          properties: {
            a: { type: "number" },
            b: { type: "number", minimum: 0 },
            nested: {
              type: "object",
              properties: { name: { type: "string" } },
              required: ["name"],
            },
          },
          required: ["a", "b"],
          additionalProperties: false,
        },
        handler: ({ a, b }) => {
          runs++;
          return String(Number(a) + Number(b));
        },
      }),
    );
    const refused = (message: string) => ({
      content: [{ type: "text", text: `Invalid arguments for tool "j": ${message}` }],
      isError: true,
    });
    expect(await tool.call({ a: "1", b: 2 }, ctx)).toEqual(
      refused('a: Instance type "string" is invalid. Expected "number"'),
    );
    expect(await tool.call({}, ctx)).toEqual(refused("a: is required; b: is required"));
    expect(await tool.call({ a: 1, b: -5, zzz: true }, ctx)).toEqual(
      refused("b: -5 is less than 0; zzz: is not allowed here"),
    );
    expect(await tool.call({ a: 1, b: 1, nested: {} }, ctx)).toEqual(
      refused("nested.name: is required"),
    );
    expect(await tool.call([1], ctx)).toEqual(
      refused('Instance type "array" is invalid. Expected "object"'),
    );
    expect(runs).toBe(0);
    expect(await tool.call({ a: 1, b: 2 }, ctx)).toEqual({
      content: [{ type: "text", text: "3" }],
    });
  });

  it("validates a JSON Schema input in the dialect its $schema names: draft-07", async () => {
    const tool = compiled(
      defineTool({
        name: "d7",
        description: "d",
        input: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { when: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
        },
        handler: () => "ok",
      }),
    );
    // draft-07's array form of items is a tuple.
    expect(await tool.call({ when: ["x", 1] }, ctx)).toEqual({
      content: [{ type: "text", text: "ok" }],
    });
    expect((await tool.call({ when: [1, "x"] }, ctx)).isError).toBe(true);
  });

  it("refuses a JSON Schema whose dialect it cannot validate, at definition time", () => {
    expect(
      inputProblems({ $schema: "https://example.com/my-dialect", type: "object", properties: {} }),
    ).toEqual([
      'input declares the JSON Schema dialect "https://example.com/my-dialect", which mcp-dir cannot validate; use 2020-12 (leave $schema out) or draft-07 ("http://json-schema.org/draft-07/schema#")',
    ]);
  });

  it("with a JSON Schema output, a structured result that does not match is the tool's error", async () => {
    const tool = compiled(
      defineTool({
        name: "o",
        description: "d",
        output: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
        handler: () => ({ count: "three" }),
      }),
    );
    const result = await tool.call({}, ctx);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content).toEqual([
      {
        type: "text",
        text: expect.stringContaining(
          'count: Instance type "string" is invalid. Expected "number"',
        ),
      },
    ]);
  });

  it("turns a thrown Error into isError with its message", async () => {
    const tool = compiled(
      defineTool({
        name: "t",
        description: "d",
        handler: () => {
          throw new Error("database is down");
        },
      }),
    );
    expect(await tool.call({}, ctx)).toEqual({
      content: [{ type: "text", text: "database is down" }],
      isError: true,
    });
  });

  it("turns a rejected promise or a thrown non-Error into isError", async () => {
    const rejects = compiled(
      defineTool({
        name: "t",
        description: "d",
        handler: async () => Promise.reject(new TypeError("bad type")),
      }),
    );
    expect(await rejects.call({}, ctx)).toEqual({
      content: [{ type: "text", text: "bad type" }],
      isError: true,
    });
    const throwsString = compiled(
      defineTool({
        name: "t",
        description: "d",
        handler: () => {
          throw "plain string";
        },
      }),
    );
    expect(await throwsString.call({}, ctx)).toEqual({
      content: [{ type: "text", text: "plain string" }],
      isError: true,
    });
  });

  it("awaits an async handler", async () => {
    const tool = compiled(
      defineTool({ name: "t", description: "d", handler: async () => ({ a: 1 }) }),
    );
    expect(await tool.call({}, ctx)).toEqual({ content: [{ type: "text", text: '{"a":1}' }] });
  });
});

describe("defineTool: types", () => {
  it("infers handler arguments from a zod 4 shape", () => {
    defineTool({
      description: "d",
      input: { message: z.string(), count: z.number().optional() },
      handler: (args, c) => {
        expectTypeOf(args).toEqualTypeOf<{ message: string; count?: number | undefined }>();
        expectTypeOf(c).toEqualTypeOf<HandlerContext>();
        return args.message;
      },
    });
  });

  it("infers handler arguments from z.object, applying defaults", () => {
    defineTool({
      description: "d",
      input: z.object({ tags: z.array(z.string()), limit: z.number().default(10) }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ tags: string[]; limit: number }>();
        return "";
      },
    });
  });

  it("infers handler arguments from zod 3 shapes and objects", () => {
    defineTool({
      description: "d",
      input: { city: z3.string() },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string }>();
        return "";
      },
    });
    defineTool({
      description: "d",
      input: z3.object({ n: z3.number() }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: number }>();
        return "";
      },
    });
  });

  it("gives a JSON Schema input loose arguments and no input none", () => {
    defineTool({
      description: "d",
      input: { type: "object", properties: { q: { type: "string" } } },
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return "";
      },
    });
    defineTool({
      description: "d",
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
        return "";
      },
    });
  });

  it("checks the handler's return against the output schema", () => {
    defineTool({
      description: "d",
      output: { sum: z.number() },
      handler: () => ({ sum: 1 }),
    });
    defineTool({
      description: "d",
      output: { sum: z.number() },
      // @ts-expect-error sum must be a number
      handler: () => ({ sum: "1" }),
    });
    expectTypeOf(defineTool).returns.toEqualTypeOf<ToolDefinition>();
  });

  it("takes a full CallToolResult written inline, or declared as one", () => {
    defineTool({
      description: "d",
      input: { n: z.number() },
      output: { sum: z.number() },
      handler: ({ n }) => {
        expectTypeOf(n).toEqualTypeOf<number>();
        return { content: [{ type: "text", text: `${n}` }], structuredContent: { sum: n } };
      },
    });
    defineTool({
      description: "d",
      output: { sum: z.number() },
      handler: async () => ({
        content: [{ type: "text", text: "1" }],
        structuredContent: { sum: 1 },
      }),
    });
    defineTool({
      description: "d",
      output: { sum: z.number() },
      // an error result needs no structuredContent, as the runtime checks none
      handler: () => ({ content: [{ type: "text", text: "no" }], isError: true }),
    });
    // Declared as the type, as handlers have always been able to: the runtime checks its structuredContent.
    const declared: CallToolResult = { content: [], structuredContent: { sum: 1 } };
    defineTool({ description: "d", output: { sum: z.number() }, handler: () => declared });
    defineTool({
      description: "d",
      output: { sum: z.number() },
      handler: async () => declared,
    });
    defineTool({
      description: "d",
      output: { sum: z.number() },
      // @ts-expect-error a plain value must match the output
      handler: () => ({ sum: "1" }),
    });
  });

  it("lets a tool without output resolve a promise of its own with anything", () => {
    defineTool({
      description: "d",
      handler: () => new Promise((resolve) => resolve("done")),
    });
  });
});
