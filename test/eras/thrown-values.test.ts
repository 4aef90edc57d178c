/**
 * Whatever a handler throws or returns, the client gets words it can read: a
 * tool's `isError` result, a prompt's or a resource's -32603 naming what went
 * wrong, in both eras (the v1 client in a 2025-11-25 session, the v2 client
 * pinned to 2026-07-28), over stdio and HTTP to the real CLI; and a tool's
 * return JSON cannot send whole (a function, a Map, a Set, a Promise not
 * awaited) is refused alike.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { connectClient, ERA_ROWS, type EraClient, servedFiles, shared } from "./helpers/clients.js";

/** What each handler throws, as the author wrote it. */
const THROWN = {
  "null-prototype": "Object.create(null)",
  "throwing-to-string": '{ toString() { throw new Error("toString is broken too"); } }',
  code: "{ code: 7 }",
  "error-like": '{ message: "quota exceeded", code: 429 }',
  proxy:
    'new Proxy({}, { getPrototypeOf() { throw new Error("trap"); }, get() { throw new Error("trap"); } })',
};

/** What the client reads for each: never "[object Object]", never a protocol error of ours. */
const SHOWN: Record<keyof typeof THROWN, string> = {
  "null-prototype": "a thrown object with no message",
  "throwing-to-string": "a thrown object with no message",
  code: '{"code":7}',
  "error-like": "quota exceeded",
  proxy: "a thrown value that cannot be read",
};

const NAMES = Object.keys(THROWN) as (keyof typeof THROWN)[];

/**
 * One file of definitions made with `define`: one per thrown value, and one
 * that returns a function instead of calling it. `named` gives a definition
 * its name or URI, `run` is its handler's field.
 */
function definitionsFile(define: string, named: (name: string) => string, run: string): string {
  const throwing = NAMES.map(
    (name) => `export const ${camel(name)} = ${define}({
  ${named(`throws-${name}`)},
  ${run}: () => {
    throw ${THROWN[name]};
  },
});`,
  );
  return `import { ${define} } from "mcp-dir";
${throwing.join("\n")}
export const returnsFunction = ${define}({
  ${named("returns-function")},
  ${run}: () => () => "the source text must not be served",
});`;
}

function camel(name: string): string {
  return name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
}

const FILES = {
  "tools/collections.ts": `import { defineTool } from "mcp-dir";
export const returnsMap = defineTool({
  name: "returns-map",
  description: "Returns a Map instead of an object",
  handler: () => new Map([["a", 1]]),
});
export const holdsSet = defineTool({
  name: "holds-set",
  description: "Returns an object with a Set in it",
  handler: () => ({ user: { roles: new Set(["admin"]) } }),
});
const fetchThing = async () => ({ id: 1 });
export const holdsPromise = defineTool({
  name: "holds-promise",
  description: "Returns an object with a Promise it forgot to await",
  handler: () => ({ data: fetchThing() }),
});`,
  "tools/throws.ts": definitionsFile(
    "defineTool",
    (name) => `name: "${name}", description: "${name}"`,
    "handler",
  ),
  "prompts/throws.ts": definitionsFile("definePrompt", (name) => `name: "${name}"`, "get"),
  "resources/throws.ts": definitionsFile(
    "defineResource",
    (name) => `uri: "memo://${name}"`,
    "read",
  ),
};

/** The server keeps nothing between calls: one HTTP server of the directory serves both HTTP rows. */
const serve = servedFiles(FILES);

/** The code and message of a request that failed, with the v1 client's "MCP error -326xx: " prefix taken off. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await request.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (thrown: { code: number; message: string }) => thrown,
  );
  return { code: error.code, message: error.message.replace(/^MCP error -?\d+: /, "") };
}

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  let client: EraClient;
  beforeAll(async () => {
    client = await connectClient(kind, await serve(transport));
  });

  it.each(NAMES)("turns a tool's thrown %s into isError with readable words", async (name) => {
    const result = shared(await client.callTool({ name: `throws-${name}`, arguments: {} }));
    expect(result).toEqual({ content: [{ type: "text", text: SHOWN[name] }], isError: true });
  });

  it("refuses a tool's returned function, naming the tool and what to return", async () => {
    const result = shared(await client.callTool({ name: "returns-function", arguments: {} }));
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "returns-function" returned a function; return a string, an object, content blocks or a CallToolResult (call the function if its result is what you meant)',
        },
      ],
      isError: true,
    });
  });

  it("refuses a tool's returned Map or Set, saying where and what to return instead", async () => {
    expect(shared(await client.callTool({ name: "returns-map", arguments: {} }))).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "returns-map" returned a Map, which JSON would send as {} and lose its entries; return Object.fromEntries(map) (an object) or [...map] (a list of [key, value] pairs) instead',
        },
      ],
      isError: true,
    });
    expect(shared(await client.callTool({ name: "holds-set", arguments: {} }))).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "holds-set" returned an object holding a Set at user.roles, which JSON would send as {} and lose its values; put [...set] (an array) there instead',
        },
      ],
      isError: true,
    });
  });

  it("refuses a tool's returned Promise it forgot to await, saying to await it", async () => {
    expect(shared(await client.callTool({ name: "holds-promise", arguments: {} }))).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "holds-promise" returned an object holding a Promise at data, which JSON would send as {} and lose what it resolves to; await it and put what it resolves to there',
        },
      ],
      isError: true,
    });
  });

  it.each(NAMES)("answers a prompt's thrown %s with -32603 in readable words", async (name) => {
    expect(await failure(client.getPrompt({ name: `throws-${name}` }))).toEqual({
      code: -32603,
      message: `Internal error in prompts/get: ${SHOWN[name]}`,
    });
  });

  it.each(NAMES)("answers a resource's thrown %s with -32603 in readable words", async (name) => {
    expect(await failure(client.readResource({ uri: `memo://throws-${name}` }))).toEqual({
      code: -32603,
      message: `Internal error in resources/read: ${SHOWN[name]}`,
    });
  });

  it("refuses a prompt's and a resource's returned function, naming them", async () => {
    expect(await failure(client.getPrompt({ name: "returns-function" }))).toEqual({
      code: -32603,
      message:
        'Prompt "returns-function" returned a function; return a string, a message, an array of messages, or { messages }',
    });
    expect(await failure(client.readResource({ uri: "memo://returns-function" }))).toEqual({
      code: -32603,
      message:
        'Resource "memo://returns-function" read returned a function; return a string, bytes, { text } or { blob } items, or { contents }',
    });
  });
});
