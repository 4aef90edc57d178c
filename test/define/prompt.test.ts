import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import {
  type CompiledPrompt,
  compilePrompt,
  definePrompt,
  definitionKind,
  type PromptDefinition,
} from "../../src/define/index.js";
import type { ContentBlock, GetPromptResult } from "../../src/protocol/index.js";
import { definitionError, fakeContext, jsonRpcError } from "./helpers.js";

const ctx = fakeContext();
const ROLE_PROBLEM =
  'MCP prompts have only "user" and "assistant" roles; put system-level guidance in the server\'s instructions or in a user message';

const compiled = (definition: PromptDefinition, fallback = "p"): CompiledPrompt =>
  compilePrompt(definition, fallback);

/** A prompt whose get returns `value`, compiled. */
const returning = (value: unknown, description?: string) =>
  compiled(
    definePrompt({
      name: "p",
      ...(description !== undefined && { description }),
      get: () => value as never,
    }),
  );

describe("definePrompt: definitions", () => {
  it("returns a branded copy and takes the fallback name unless named", () => {
    const definition = definePrompt({ messages: [{ role: "user", content: "hi" }] });
    expect(definitionKind(definition)).toBe("prompt");
    expect(compiled(definition, "code-review").name).toBe("code-review");
    expect(compiled(definePrompt({ name: "x", get: () => "" }), "y").name).toBe("x");
  });

  it("builds the descriptor with only the fields that were given", () => {
    const prompt = compiled(
      definePrompt({
        name: "review",
        title: "Code review",
        description: "Reviews code",
        icons: [{ src: "https://example.com/r.svg" }],
        _meta: { v: 1 },
        arguments: [{ name: "code", title: "Code", description: "The code", required: true }],
        get: () => "",
      }),
    );
    expect(prompt.kind).toBe("prompt");
    expect(prompt.descriptor).toEqual({
      name: "review",
      title: "Code review",
      description: "Reviews code",
      arguments: [{ name: "code", title: "Code", description: "The code", required: true }],
      icons: [{ src: "https://example.com/r.svg" }],
      _meta: { v: 1 },
    });
    expect(compiled(definePrompt({ name: "bare", get: () => "" })).descriptor).toEqual({
      name: "bare",
    });
  });

  it("takes an argument list as given", () => {
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: [
          { name: "code", description: "The code", required: true },
          { name: "language" },
        ],
        get: () => "",
      }),
    );
    expect(prompt.descriptor.arguments).toEqual([
      { name: "code", description: "The code", required: true },
      { name: "language" },
    ]);
  });

  it("derives arguments from a zod 4 shape: descriptions and required", () => {
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: {
          code: z.string().describe("The code to review"),
          language: z.string().optional().describe("Its language"),
          tone: z.string().default("kind"),
        },
        get: () => "",
      }),
    );
    expect(prompt.descriptor.arguments).toEqual([
      { name: "code", description: "The code to review", required: true },
      { name: "language", description: "Its language" },
      { name: "tone" },
    ]);
  });

  it("derives arguments from a zod 3 shape", () => {
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: { city: z3.string().describe("City"), unit: z3.string().optional() },
        get: () => "",
      }),
    );
    expect(prompt.descriptor.arguments).toEqual([
      { name: "city", description: "City", required: true },
      { name: "unit" },
    ]);
  });

  it("rejects an argument listed twice and one without a name", () => {
    const error = definitionError(() =>
      definePrompt({
        name: "p",
        arguments: [{ name: "a" }, { name: "b" }, { name: "a" }, { name: "" }],
        get: () => "",
      }),
    );
    expect(error.problems).toEqual([
      'argument "a" is listed twice; argument names must be unique',
      "every argument needs a name",
    ]);
  });

  it("rejects a zod shape argument that is not a schema", () => {
    const error = definitionError(() =>
      definePrompt({ name: "p", arguments: { a: "text" } as never, get: () => "" }),
    );
    expect(error.problems).toEqual([
      `arguments property "a" is a string, not a zod schema; use a zod object (z.object({...})), a shape of zod schemas ({ name: z.string() }), or a JSON Schema object ({ type: 'object', properties: {...} })`,
    ]);
  });

  it("rejects a system message in static messages at definition time", () => {
    const error = definitionError(() =>
      definePrompt({
        name: "p",
        messages: [
          { role: "system" as never, content: "You are terse." },
          { role: "user", content: "hi" },
        ],
      }),
    );
    expect(error.problems).toEqual([`message role "system" is not allowed: ${ROLE_PROBLEM}`]);
    expect(error.message).toBe(
      `Prompt "p" is invalid:\n  - message role "system" is not allowed: ${ROLE_PROBLEM}`,
    );
  });

  it("needs exactly one of get and messages", () => {
    const problem = "give exactly one of get: (args, ctx) => messages, or messages: [...]";
    expect(definitionError(() => definePrompt({ name: "p" })).problems).toEqual([problem]);
    expect(
      definitionError(() =>
        definePrompt({ name: "p", get: () => "", messages: [{ role: "user", content: "x" }] }),
      ).problems,
    ).toEqual([problem]);
  });

  it("rejects invalid names", () => {
    const error = definitionError(() => definePrompt({ name: "code review", get: () => "" }));
    expect(error.problems).toEqual([
      'Prompt name "code review" is invalid: use 1 to 128 letters, digits, "_", "-" or "."',
    ]);
    expect(error.message.split("\n")[0]).toBe('Prompt "code review" is invalid:');
  });

  it("requires complete keys to be argument names", () => {
    const error = definitionError(() =>
      definePrompt({
        name: "p",
        arguments: [{ name: "language" }, { name: "style" }],
        complete: { language: ["go"], lang: ["go"] } as never,
        get: () => "",
      }),
    );
    expect(error.problems).toEqual(["complete.lang does not match any argument (language, style)"]);
    const none = definitionError(() =>
      definePrompt({ name: "p", complete: { x: ["a"] } as never, get: () => "" }),
    );
    expect(none.problems).toEqual(["complete.x does not match any argument (there are none)"]);
  });

  it("requires completers to be arrays or functions", () => {
    const error = definitionError(() =>
      definePrompt({
        name: "p",
        arguments: [{ name: "language" }],
        complete: { language: "go" as never },
        get: () => "",
      }),
    );
    expect(error.problems).toEqual(["complete.language must be an array of strings or a function"]);
  });

  it("keeps its completers", () => {
    const languages = ["go", "rust"];
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: [{ name: "language" }],
        complete: { language: languages },
        get: () => "",
      }),
    );
    expect(prompt.complete).toEqual({ language: languages });
    expect(compiled(definePrompt({ name: "q", get: () => "" })).complete).toEqual({});
  });
});

describe("definePrompt: get", () => {
  it("leaves a placeholder named like an inherited property blank, not Object's method", async () => {
    const prompt = compiled(
      definePrompt({
        name: "p",
        messages: [{ role: "user", content: "[{{constructor}}][{{toString}}]" }],
      }),
    );
    expect(await prompt.get({}, ctx)).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "[][]" } }],
    });
  });

  it("fills {{placeholders}} in static messages, blanks for missing ones", async () => {
    const prompt = compiled(
      definePrompt({
        name: "p",
        description: "Greets",
        arguments: [{ name: "name", required: true }, { name: "style" }],
        messages: [
          { role: "user", content: "Say hello to {{name}} in a {{ style }} way. {{unknown}}!" },
          { role: "assistant", content: { type: "text", text: "Hello {{name}}" } },
          { role: "user", content: { type: "image", data: "{{name}}", mimeType: "image/png" } },
        ],
      }),
    );
    expect(await prompt.get({ name: "Ada", style: "formal" }, ctx)).toEqual({
      description: "Greets",
      messages: [
        { role: "user", content: { type: "text", text: "Say hello to Ada in a formal way. !" } },
        { role: "assistant", content: { type: "text", text: "Hello Ada" } },
        { role: "user", content: { type: "image", data: "{{name}}", mimeType: "image/png" } },
      ],
    });
    expect(await prompt.get({ name: "Bo" }, ctx)).toEqual({
      description: "Greets",
      messages: [
        { role: "user", content: { type: "text", text: "Say hello to Bo in a  way. !" } },
        { role: "assistant", content: { type: "text", text: "Hello Bo" } },
        { role: "user", content: { type: "image", data: "{{name}}", mimeType: "image/png" } },
      ],
    });
  });

  it("fills placeholders with zod defaults", async () => {
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: { code: z.string(), tone: z.string().default("kind") },
        messages: [{ role: "user", content: "Review {{code}}, be {{tone}}" }],
      }),
    );
    expect(await prompt.get({ code: "x()" }, ctx)).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Review x(), be kind" } }],
    });
  });

  it("reports one missing required argument", async () => {
    const prompt = compiled(
      definePrompt({
        name: "review",
        arguments: [{ name: "code", required: true }, { name: "language" }],
        get: () => "",
      }),
    );
    const error = await jsonRpcError(prompt.get({ language: "go" }, ctx));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Missing required argument for prompt "review": code');
  });

  it("reports every missing required argument, with no arguments at all", async () => {
    const prompt = compiled(
      definePrompt({
        name: "review",
        arguments: { code: z.string(), language: z.string(), note: z.string().optional() },
        get: () => "",
      }),
    );
    const error = await jsonRpcError(prompt.get(undefined, ctx));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Missing required arguments for prompt "review": code, language');
  });

  it("validates zod-shape arguments", async () => {
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: { n: z.string().regex(/^\d+$/, "must be digits") },
        get: ({ n }) => n,
      }),
    );
    const error = await jsonRpcError(prompt.get({ n: "abc" }, ctx));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Invalid arguments for prompt "p": n: must be digits');
  });

  it("reads number and boolean arguments from the strings every client sends", async () => {
    let seen: unknown;
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: { count: z.number().int(), loud: z.boolean().optional(), word: z.string() },
        get: (args) => {
          seen = args;
          return "ok";
        },
      }),
    );
    await prompt.get({ count: " 3 ", loud: "true", word: "3" }, ctx);
    expect(seen).toEqual({ count: 3, loud: true, word: "3" });
  });

  it("says in a prompt's terms which argument strings hold no number or boolean", async () => {
    const prompt = compiled(
      definePrompt({
        name: "brainstorm",
        arguments: { count: z.number().int(), loud: z.boolean().optional(), ratio: z.number() },
        get: () => "ok",
      }),
    );
    const error = await jsonRpcError(prompt.get({ count: "abc", loud: "yes", ratio: "1.5e" }, ctx));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      'Invalid arguments for prompt "brainstorm": count: "abc" is not a whole number; loud: "yes" is neither "true" nor "false"; ratio: "1.5e" is not a number (prompt arguments are strings: this prompt reads numbers and booleans from them)',
    );
    const fraction = await jsonRpcError(prompt.get({ count: "2.5", ratio: "0.5" }, ctx));
    expect(fraction.message).toBe(
      'Invalid arguments for prompt "brainstorm": count: "2.5" is not a whole number (prompt arguments are strings: this prompt reads numbers and booleans from them)',
    );
  });

  it("passes parsed arguments and ctx to get", async () => {
    let seen: unknown[] = [];
    const prompt = compiled(
      definePrompt({
        name: "p",
        arguments: { code: z.string(), tone: z.string().default("kind") },
        get: (args, c) => {
          seen = [args, c];
          return "ok";
        },
      }),
    );
    await prompt.get({ code: "x" }, ctx);
    expect(seen).toEqual([{ code: "x", tone: "kind" }, ctx]);
  });

  it("turns a string into one user message, with the prompt's description", async () => {
    expect(await returning("Review this", "Reviews").get({}, ctx)).toEqual({
      description: "Reviews",
      messages: [{ role: "user", content: { type: "text", text: "Review this" } }],
    });
    expect(await returning("Review this").get({}, ctx)).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Review this" } }],
    });
  });

  it("turns a content block into one user message", async () => {
    const block: ContentBlock = { type: "resource_link", uri: "file:///a", name: "a" };
    expect(await returning(block).get({}, ctx)).toEqual({
      messages: [{ role: "user", content: block }],
    });
  });

  it("takes one message, with string or block content", async () => {
    expect(await returning({ role: "assistant", content: "Sure." }).get({}, ctx)).toEqual({
      messages: [{ role: "assistant", content: { type: "text", text: "Sure." } }],
    });
    expect(
      await returning({ role: "user", content: { type: "text", text: "Hi" } }).get({}, ctx),
    ).toEqual({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }] });
  });

  it("takes an array of messages", async () => {
    const value = [
      { role: "user", content: "Question?" },
      { role: "assistant", content: { type: "text", text: "Answer." } },
    ];
    expect(await returning(value, "QA").get({}, ctx)).toEqual({
      description: "QA",
      messages: [
        { role: "user", content: { type: "text", text: "Question?" } },
        { role: "assistant", content: { type: "text", text: "Answer." } },
      ],
    });
  });

  it("takes a full result, keeping its own description and _meta", async () => {
    const full: GetPromptResult = {
      description: "Own",
      messages: [{ role: "user", content: { type: "text", text: "x" } }],
      _meta: { k: 1 },
    };
    expect(await returning(full, "Definition's").get({}, ctx)).toEqual(full);
    const noDescription = { messages: [{ role: "user", content: "y" }] };
    expect(await returning(noDescription, "Definition's").get({}, ctx)).toEqual({
      description: "Definition's",
      messages: [{ role: "user", content: { type: "text", text: "y" } }],
    });
  });

  it("rejects a system message returned from get", async () => {
    const error = await jsonRpcError(
      returning([{ role: "system", content: "Be terse" }]).get({}, ctx),
    );
    expect(error.code).toBe(-32603);
    expect(error.message).toBe(`Prompt "p" returned a message with role "system": ${ROLE_PROBLEM}`);
    const inResult = await jsonRpcError(
      returning({ messages: [{ role: "system", content: "x" }] }).get({}, ctx),
    );
    expect(inResult.message).toBe(
      `Prompt "p" returned a message with role "system": ${ROLE_PROBLEM}`,
    );
  });

  it("rejects a message whose content is not a content block", async () => {
    const error = await jsonRpcError(returning({ role: "user", content: 5 }).get({}, ctx));
    expect(error.code).toBe(-32603);
    expect(error.message).toBe(
      'Prompt "p" returned a message whose content is not a content block',
    );
  });

  it("rejects a return value that is not a string or an object", async () => {
    for (const [value, described] of [
      [undefined, "undefined"],
      [null, "null"],
      [7, "a number"],
    ] as const) {
      const error = await jsonRpcError(returning(value).get({}, ctx));
      expect(error.code).toBe(-32603);
      expect(error.message).toBe(
        `Prompt "p" returned ${described}; return a string, a message, an array of messages, or { messages }`,
      );
    }
  });
});

describe("definePrompt: types", () => {
  it("infers get arguments from an argument list", () => {
    definePrompt({
      arguments: [{ name: "code", required: true }, { name: "language" }],
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ code: string } & { language?: string }>();
        return args.code;
      },
    });
  });

  it("infers get arguments from a zod shape", () => {
    definePrompt({
      arguments: { code: z.string(), language: z.string().optional() },
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ code: string; language?: string | undefined }>();
        return [
          { role: "user", content: args.code },
          { role: "assistant", content: { type: "text", text: "ok" } },
        ];
      },
    });
  });

  it("types complete keys by argument name", () => {
    definePrompt({
      arguments: [{ name: "language" }],
      complete: { language: ["go"] },
      get: () => "",
    });
    expect(() =>
      definePrompt({
        name: "p",
        arguments: [{ name: "language" }],
        // @ts-expect-error "lang" is not an argument
        complete: { lang: ["go"] },
        get: () => "",
      }),
    ).toThrow("complete.lang does not match any argument (language)");
  });
});
