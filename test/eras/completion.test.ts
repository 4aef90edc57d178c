/**
 * completion/complete in both eras (the v1 client in a 2025-11-25 session, the
 * v2 client pinned to 2026-07-28), over stdio and HTTP to the real CLI: a
 * completer sees the arguments already chosen, one that returns anything
 * but an array of strings is a -32603 naming it, never a result the client
 * cannot read, and a fixed resource's URI (no variables) completes to nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  connectClient,
  ERA_ROWS,
  type EraClient,
  refusal,
  servedFiles,
  shared,
} from "./helpers/clients.js";

const FILES = {
  "prompts/greet.ts": `import { definePrompt } from "mcp-dir";
export default definePrompt({
  arguments: [{ name: "lang" }, { name: "who" }, { name: "forgot" }, { name: "numbers" }],
  complete: {
    lang: ["en", "fr"],
    who: ({ value, arguments: chosen }) =>
      (chosen.lang === "fr" ? ["Jean", "Jacques"] : ["John"]).filter((n) => n.startsWith(value)),
    // A block body that forgot its return.
    forgot: ({ value }) => { ["a", "b"].filter((n) => n.startsWith(value)); },
    numbers: () => [1, 2],
  },
  get: () => "hello",
});`,
  "resources/items.ts": `import { defineResource } from "mcp-dir";
export const item = defineResource({
  name: "item",
  uriTemplate: "items://{kind}/{id}",
  complete: { kind: ["book", "film"] },
  read: ({ params }) => JSON.stringify(params),
});
export const special = defineResource({
  name: "special",
  uri: "items://book/special",
  read: () => "special",
});`,
};

const serve = servedFiles(FILES);

const ref = { type: "ref/prompt", name: "greet" };

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  let client: EraClient;
  beforeAll(async () => {
    client = await connectClient(kind, await serve(transport));
  });

  it("gives a completer the arguments already chosen", async () => {
    const result = await client.complete({
      ref,
      argument: { name: "who", value: "J" },
      context: { arguments: { lang: "fr" } },
    });
    expect(shared(result)).toEqual({
      completion: { values: ["Jean", "Jacques"], total: 2, hasMore: false },
    });
  });

  it("refuses chosen arguments that are not strings, naming the argument", async () => {
    const chosen = { lang: 5 };
    expect(
      await refusal(
        client.complete({
          ref,
          argument: { name: "who", value: "" },
          context: { arguments: chosen },
        }),
      ),
    ).toEqual({
      code: -32602,
      message:
        "completion/complete: context.arguments.lang must be a string (the value chosen for that argument), got a number",
    });
  });

  it("names a completer that returned nothing, and says what to return", async () => {
    expect(
      await refusal(client.complete({ ref, argument: { name: "forgot", value: "" } })),
    ).toEqual({
      code: -32603,
      message:
        'Internal error in completion/complete: complete.forgot of prompt "greet" returned nothing; return an array of strings, the values that complete what was typed',
    });
  });

  it("names a completer whose values are not strings", async () => {
    expect(
      await refusal(client.complete({ ref, argument: { name: "numbers", value: "" } })),
    ).toEqual({
      code: -32603,
      message:
        'Internal error in completion/complete: complete.numbers of prompt "greet" returned a number at [0]; return an array of strings, the values that complete what was typed',
    });
  });

  const resourceRef = (uri: string) => ({ type: "ref/resource", uri });

  it("completes a template's variable from its ref", async () => {
    const result = await client.complete({
      ref: resourceRef("items://{kind}/{id}"),
      argument: { name: "kind", value: "b" },
    });
    expect(shared(result)).toEqual({ completion: { values: ["book"], total: 1, hasMore: false } });
  });

  it("answers a fixed resource's URI with no values: it has no variables to complete", async () => {
    const result = await client.complete({
      ref: resourceRef("items://book/special"),
      argument: { name: "id", value: "" },
    });
    expect(shared(result)).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it("refuses a URI that names no resource and no template, even one a template matches", async () => {
    for (const uri of ["items://nothing", "items://book/42"]) {
      expect(
        await refusal(
          client.complete({ ref: resourceRef(uri), argument: { name: "id", value: "" } }),
        ),
      ).toEqual({
        code: -32602,
        message: `Unknown resource or resource template: "${uri}"`,
      });
    }
  });
});
