/**
 * Inputs and outputs written with Standard Schema libraries that give JSON
 * Schema (valibot through toStandardJsonSchema, ArkType): listed with the
 * library's JSON Schema, validated with its own validator, refused clearly
 * when they cannot serve. The real libraries, as dev dependencies.
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import { compileTool, defineTool, type ToolDefinition } from "../../src/define/index.js";
import { definitionError, fakeContext } from "./helpers.js";

const ctx = fakeContext();

const weatherValibot = toStandardJsonSchema(
  v.object({
    city: v.pipe(v.string(), v.minLength(2)),
    days: v.optional(v.pipe(v.number(), v.integer()), 3),
  }),
);

const weatherArkType = type({ city: "string >= 2", days: type("number.integer").default(3) });

/** Defines a tool named "t" with the given input and returns its problems. */
function inputProblems(input: unknown): string[] {
  return definitionError(() =>
    defineTool({ name: "t", description: "d", input: input as never, handler: () => "" }),
  ).problems;
}

function tool(definition: ToolDefinition) {
  return compileTool(definition, "t");
}

describe("Standard Schema inputs: the library's JSON Schema, in input mode", () => {
  it("lists a valibot object as @valibot/to-json-schema converts it, without $schema", () => {
    const weather = tool(
      defineTool({ description: "d", input: weatherValibot, handler: () => "" }),
    );
    expect(weather.descriptor.inputSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", minLength: 2 },
        days: { type: "integer", default: 3 },
      },
      required: ["city"],
    });
  });

  it("lists an ArkType object as ArkType converts it: a default is optional in input", () => {
    const weather = tool(
      defineTool({ description: "d", input: weatherArkType, handler: () => "" }),
    );
    expect(weather.descriptor.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string", minLength: 2 }, days: { type: "integer" } },
      required: ["city"],
    });
  });

  it("leaves valibot's checks out of the JSON Schema, as zod leaves refinements, and still runs them", async () => {
    const even = tool(
      defineTool({
        description: "d",
        input: toStandardJsonSchema(
          v.object({
            n: v.pipe(
              v.number(),
              v.check((n) => n % 2 === 0, "must be even"),
            ),
          }),
        ),
        handler: ({ n }) => String(n),
      }),
    );
    expect(even.descriptor.inputSchema).toEqual({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    expect(await even.call({ n: 3 }, ctx)).toEqual({
      content: [{ type: "text", text: 'Invalid arguments for tool "t": n: must be even' }],
      isError: true,
    });
  });
});

describe("Standard Schema inputs: validated by the library", () => {
  it("passes valibot's parsed value (defaults applied) to the handler", async () => {
    const weather = tool(
      defineTool({
        description: "d",
        input: weatherValibot,
        handler: (args) => JSON.stringify(args),
      }),
    );
    expect(await weather.call({ city: "Oslo" }, ctx)).toEqual({
      content: [{ type: "text", text: '{"city":"Oslo","days":3}' }],
    });
  });

  it("gives valibot's issues, path and message, as isError", async () => {
    const weather = tool(
      defineTool({ description: "d", input: weatherValibot, handler: () => "" }),
    );
    expect(await weather.call({ city: 7, days: 1.5 }, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "t": city: Invalid type: Expected string but received 7; days: Invalid integer: Received 1.5',
        },
      ],
      isError: true,
    });
  });

  it("gives ArkType's issues, path and message, as isError; its morphs reach the handler", async () => {
    const weather = tool(
      defineTool({
        description: "d",
        input: weatherArkType,
        handler: (args) => JSON.stringify(args),
      }),
    );
    expect(await weather.call({ city: "Oslo" }, ctx)).toEqual({
      content: [{ type: "text", text: '{"city":"Oslo","days":3}' }],
    });
    expect(await weather.call({ city: "O", days: "3" }, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "t": city: city must be at least length 2 (was 1); days: days must be a number (was a string)',
        },
      ],
      isError: true,
    });
  });

  it("names nested fields by path, from valibot's path items", async () => {
    const order = tool(
      defineTool({
        description: "d",
        input: toStandardJsonSchema(v.object({ items: v.array(v.object({ qty: v.number() })) })),
        handler: () => "",
      }),
    );
    expect(await order.call({ items: [{ qty: 1 }, { qty: "2" }] }, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "t": items.1.qty: Invalid type: Expected number but received "2"',
        },
      ],
      isError: true,
    });
  });

  it("says what is wrong with arguments that are not an object, with no path", async () => {
    const weather = tool(
      defineTool({ description: "d", input: weatherArkType, handler: () => "" }),
    );
    expect(await weather.call(5, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "t": must be an object (was a number)',
        },
      ],
      isError: true,
    });
  });

  it("awaits a validator that answers with a Promise (valibot's async checks)", async () => {
    const taken = new Set(["ada"]);
    const user = v.objectAsync({
      user: v.pipeAsync(
        v.string(),
        v.checkAsync(async (name) => !taken.has(name), "is taken"),
      ),
    });
    const signUp = tool(
      defineTool({
        description: "d",
        // toStandardJsonSchema's types take synchronous schemas; it converts an async one alike.
        input: toStandardJsonSchema(user as unknown as v.GenericSchema<{ user: string }>),
        handler: ({ user }) => `welcome ${user}`,
      }),
    );
    expect(await signUp.call({ user: "ada" }, ctx)).toEqual({
      content: [{ type: "text", text: 'Invalid arguments for tool "t": user: is taken' }],
      isError: true,
    });
    expect(await signUp.call({ user: "grace" }, ctx)).toEqual({
      content: [{ type: "text", text: "welcome grace" }],
    });
  });
});

describe("Standard Schema outputs: the library's JSON Schema in output mode, results validated", () => {
  const forecast = type({ high: "number", unit: type("'C' | 'F'").default("C") });

  it("lists the output type: a default is required in output", () => {
    const weather = tool(
      defineTool({ description: "d", output: forecast, handler: () => ({ high: 20 }) }),
    );
    expect(weather.descriptor.outputSchema).toEqual({
      type: "object",
      properties: { high: { type: "number" }, unit: { enum: ["C", "F"] } },
      required: ["high", "unit"],
    });
  });

  it("returns the library's parsed result as structuredContent", async () => {
    const weather = tool(
      defineTool({ description: "d", output: forecast, handler: () => ({ high: 20 }) }),
    );
    expect(await weather.call({}, ctx)).toEqual({
      content: [{ type: "text", text: '{"high":20,"unit":"C"}' }],
      structuredContent: { high: 20, unit: "C" },
    });
  });

  it("turns a result the library refuses into isError with its issue", async () => {
    const weather = tool(
      defineTool({
        name: "weather",
        description: "d",
        output: toStandardJsonSchema(v.object({ high: v.number() })),
        handler: () => ({ high: "warm" }) as never,
      }),
    );
    expect(await weather.call({}, ctx)).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "weather" returned a result that does not match its output schema: high: Invalid type: Expected number but received "warm"',
        },
      ],
      isError: true,
    });
  });
});

describe("Standard Schemas that cannot serve: refused when defined", () => {
  it("refuses a bare valibot schema, naming the package that gives its JSON Schema", () => {
    expect(inputProblems(v.object({ city: v.string() }))).toEqual([
      'input is a valibot schema that gives no JSON Schema (it does not implement Standard JSON Schema, ~standard.jsonSchema); wrap it with toStandardJsonSchema from "@valibot/to-json-schema" (npm install @valibot/to-json-schema): toStandardJsonSchema(v.object({ ... }))',
    ]);
  });

  it("refuses another library's schema that gives no JSON Schema, naming the library", () => {
    const bare = {
      "~standard": { version: 1, vendor: "acme", validate: (value: unknown) => ({ value }) },
    };
    expect(inputProblems(bare)).toEqual([
      "input is an acme schema that gives no JSON Schema (it does not implement Standard JSON Schema, ~standard.jsonSchema); use a version of acme that implements Standard JSON Schema, or write it as a JSON Schema object",
    ]);
  });

  it("refuses a JSON Schema converter that cannot validate", () => {
    const converterOnly = {
      "~standard": {
        version: 1,
        vendor: "acme",
        jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) },
      },
    };
    expect(inputProblems(converterOnly)).toEqual([
      "input is an acme value with no validator (~standard.validate): give the schema itself, which validates",
    ]);
  });

  it("refuses a schema that does not describe an object, saying how to wrap it in its library", () => {
    expect(inputProblems(type("string"))).toEqual([
      'input must describe an object (MCP requires "type": "object"), got "string"; wrap it in an arktype object schema ({ value: ... })',
    ]);
    expect(inputProblems(toStandardJsonSchema(v.array(v.string())))).toEqual([
      'input must describe an object (MCP requires "type": "object"), got "array"; wrap it in a valibot object schema ({ value: ... })',
    ]);
  });

  it("refuses a shape of valibot schemas: only zod schemas make a shape", () => {
    expect(inputProblems({ city: v.string() })).toEqual([
      'input property "city" is a valibot schema, and only zod schemas make a shape; give a valibot object schema instead of the shape',
    ]);
  });

  it("gives the library's words for what it cannot convert", () => {
    const problems = definitionError(() =>
      defineTool({
        name: "t",
        description: "d",
        output: toStandardJsonSchema(
          v.object({
            n: v.pipe(
              v.string(),
              v.transform((text) => text.length),
            ),
          }),
        ),
        handler: () => ({ n: "x" }),
      }),
    ).problems;
    expect(problems).toEqual([
      'output cannot be converted to JSON Schema: The "transform" action cannot be converted to JSON Schema.',
    ]);
  });
});

describe("Standard Schema types", () => {
  it("types a handler's arguments from the library's output type", () => {
    defineTool({
      description: "d",
      input: weatherValibot,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
        return "";
      },
    });
    defineTool({
      description: "d",
      input: weatherArkType,
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
        return "";
      },
    });
  });

  it("checks a handler's return against the output schema's input type", () => {
    const output = type({ high: "number", unit: type("'C' | 'F'").default("C") });
    defineTool({ description: "d", output, handler: () => ({ high: 1 }) });
    defineTool({
      description: "d",
      output,
      // @ts-expect-error high must be a number
      handler: () => ({ high: "1" }),
    });
  });

  it("types what ctx.elicit gives back from the library's output type", () => {
    defineTool({
      description: "d",
      handler: async (_args, c) => {
        const answer = await c.elicit({ message: "Seats?", schema: type({ seats: "number" }) });
        if (answer.action === "accept")
          expectTypeOf(answer.content).toEqualTypeOf<{ seats: number }>();
        return "";
      },
    });
  });

  it("refuses a bare valibot schema before it runs", () => {
    const bare = v.object({ city: v.string() });
    const define = () =>
      defineTool({
        name: "t",
        description: "d",
        // @ts-expect-error a valibot schema gives its JSON Schema only through toStandardJsonSchema
        input: bare,
        handler: () => "",
      });
    expect(define).toThrow("input is a valibot schema that gives no JSON Schema");
  });
});
