/**
 * Which resource serves a URI, and the variables it gets, in both eras (the
 * v1 client in a 2025-11-25 session, the v2 client pinned to 2026-07-28),
 * over stdio and HTTP to the real CLI: a fixed URI before any template, the
 * template with the most literal text before a broader one whatever their
 * names, and RFC 6570's forms matched as they expand (a {var:n} prefix
 * holding at most n characters, an exploded {list*} every item, joined with
 * commas).
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  connectClient,
  ERA_ROWS,
  type EraClient,
  refusal,
  servedFiles,
  VERSION_OF,
} from "./helpers/clients.js";

/** Each template answers with its own name and the variables it was given. */
const template = (name: string, uriTemplate: string) => `export const ${name} = defineResource({
  name: "${name}",
  uriTemplate: "${uriTemplate}",
  read: ({ params }) => JSON.stringify({ served: "${name}", params }),
});`;

const FILES = {
  "resources/docs.ts": `import { defineResource } from "mcp-dir";
${template("all", "docs://{+path}")}
${template("readme", "docs://readme/{section}")}
${template("note", "notes://{name}{.ext}")}
${template("page", "pages://site{/page}{.format}")}
${template("code", "codes://{code:3}")}
${template("list", "list://{ids*}")}
${template("tree", "tree://root{/path*}")}
${template("tagged", "q://x{?tags*}")}
export const intro = defineResource({
  name: "intro",
  uri: "docs://readme/intro",
  read: () => JSON.stringify({ served: "intro" }),
});`,
};

const serve = servedFiles(FILES);

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  let client: EraClient;
  beforeAll(async () => {
    client = await connectClient(kind, await serve(transport));
  });

  /** Which resource served `uri`, and with what. */
  async function served(uri: string): Promise<unknown> {
    const { contents } = (await client.readResource({ uri })) as { contents: { text: string }[] };
    return JSON.parse(contents[0]?.text ?? "null");
  }

  it("serves a fixed URI from its resource, before any template that matches it", async () => {
    expect(await served("docs://readme/intro")).toEqual({ served: "intro" });
  });

  it("serves a URI from the template with the most literal text, not the first by name", async () => {
    expect(await served("docs://readme/setup")).toEqual({
      served: "readme",
      params: { section: "setup" },
    });
    expect(await served("docs://guide/setup")).toEqual({
      served: "all",
      params: { path: "guide/setup" },
    });
  });

  it("gives a {.label} after a variable the last dot-part, as it expands", async () => {
    expect(await served("notes://report.tar.gz")).toEqual({
      served: "note",
      params: { name: "report.tar", ext: "gz" },
    });
    expect(await served("notes://README")).toEqual({ served: "note", params: { name: "README" } });
    expect(await served("pages://site/about.html")).toEqual({
      served: "page",
      params: { page: "about", format: "html" },
    });
  });

  it("serves a {var:n} prefix only a value of at most n characters", async () => {
    expect(await served("codes://abc")).toEqual({ served: "code", params: { code: "abc" } });
    expect(await served("codes://%C3%A9t%C3%A9")).toEqual({
      served: "code",
      params: { code: "été" },
    });
    // Not found: -32002 on 2025-11-25, invalid params on 2026-07-28.
    expect(await refusal(client.readResource({ uri: "codes://abcdef" }))).toEqual({
      code: VERSION_OF[kind] === "2026-07-28" ? -32602 : -32002,
      message: "Resource not found: codes://abcdef",
    });
  });

  it("gives an exploded {list*} every item, joined with commas, in each form", async () => {
    expect(await served("list://a,b,c")).toEqual({ served: "list", params: { ids: "a,b,c" } });
    expect(await served("tree://root/a/b%2Cc")).toEqual({
      served: "tree",
      params: { path: "a,b%2Cc" },
    });
    expect(await served("q://x?tags=a&tags=b")).toEqual({
      served: "tagged",
      params: { tags: "a,b" },
    });
  });
});
