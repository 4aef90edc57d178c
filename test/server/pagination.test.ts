import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineResource } from "../../src/index.js";
import { TOOL_NAMES } from "./helpers/fixture.js";
import { closeSdkClients, connectSdkInMemory, type SdkConnection } from "./helpers/sdk-client.js";

const PAGE_SIZE = 2;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

interface Page {
  nextCursor?: string;
}

/** Follows nextCursor from the first page to the last, returning each page's names. */
async function walk<P extends Page>(
  list: (cursor: string | undefined) => Promise<P>,
  names: (page: P) => string[],
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    pages.push(names(page));
    if (page.nextCursor !== undefined) expect(typeof page.nextCursor).toBe("string");
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

function base64url(text: string): string {
  return Buffer.from(text).toString("base64url");
}

/** The -32602 error a cursor this server never issued for `method` gets. */
function refusal(cursor: string, method: string) {
  return {
    code: -32602,
    message: `MCP error -32602: Invalid cursor: ${JSON.stringify(cursor)} is not a cursor this server issued for ${method}; pass the nextCursor of a ${method} result as it came, or no cursor for the first page`,
  };
}

/** An issued cursor with its offset (the first number it holds) changed: well-formed, never issued. */
function withOffset(issued: string, offset: number): string {
  const decoded = Buffer.from(issued, "base64url").toString();
  return Buffer.from(decoded.replace(/\d+/, String(offset))).toString("base64url");
}

describe(`pagination with pageSize ${PAGE_SIZE}`, () => {
  let sdk: SdkConnection;

  beforeAll(async () => {
    sdk = await connectSdkInMemory({ fixture: { pageSize: PAGE_SIZE } });
  });
  afterAll(closeSdkClients);

  it("walks every page of tools/list", async () => {
    const pages = await walk(
      (cursor) => sdk.client.listTools(cursor === undefined ? {} : { cursor }),
      (page) => page.tools.map((t) => t.name),
    );
    expect(pages).toEqual(chunks(TOOL_NAMES, PAGE_SIZE));
    expect(pages).toHaveLength(Math.ceil(TOOL_NAMES.length / PAGE_SIZE));
    expect(pages.at(-1)).toEqual(TOOL_NAMES.slice(-(TOOL_NAMES.length % PAGE_SIZE || PAGE_SIZE)));
  });

  it("walks every page of prompts/list", async () => {
    const pages = await walk(
      (cursor) => sdk.client.listPrompts(cursor === undefined ? {} : { cursor }),
      (page) => page.prompts.map((p) => p.name),
    );
    expect(pages).toEqual([["code_review", "greet"], ["linked"]]);
  });

  it("walks every page of resources/list", async () => {
    const pages = await walk(
      (cursor) => sdk.client.listResources(cursor === undefined ? {} : { cursor }),
      (page) => page.resources.map((r) => r.uri),
    );
    expect(pages).toEqual([["memo://dynamic-a", "memo://dynamic-b"], ["memo://static"]]);
  });

  it("returns a list that fits in one page without nextCursor", async () => {
    expect(await sdk.client.listResourceTemplates()).toEqual({
      resourceTemplates: [
        { uriTemplate: "repos://{owner}/{repo}", name: "repo" },
        {
          uriTemplate: "users://{id}/profile",
          name: "user-profile",
          title: "User profile",
          mimeType: "application/json",
        },
      ],
    });
  });

  it("gives the same page for the same cursor", async () => {
    const first = await sdk.client.listTools();
    const cursor = first.nextCursor as string;
    expect(await sdk.client.listTools({ cursor })).toEqual(await sdk.client.listTools({ cursor }));
  });

  const LISTS = [
    ["tools/list", (cursor: string) => sdk.client.listTools({ cursor })],
    ["prompts/list", (cursor: string) => sdk.client.listPrompts({ cursor })],
    ["resources/list", (cursor: string) => sdk.client.listResources({ cursor })],
    ["resources/templates/list", (cursor: string) => sdk.client.listResourceTemplates({ cursor })],
  ] as const;

  it.each([
    ["garbage", () => "garbage"],
    ["a cursor of another form", () => base64url("o:2")],
    [
      "the first page's offset, which has no cursor",
      (method: string) => base64url(`${method}:0:3`),
    ],
    ["an offset at the end of its list", (method: string) => base64url(`${method}:3:3`)],
    ["an offset past the end of its list", (method: string) => base64url(`${method}:999:3`)],
    ["a negative offset", (method: string) => base64url(`${method}:-2:3`)],
    // Lenient base64url decoding reads these as a real page's offset: one cursor, one string.
    ["a padded form of a cursor", (method: string) => `${base64url(`${method}:2:3`)}=`],
    [
      "a cursor with a character decoding skips",
      (method: string) => `${base64url(`${method}:2:3`)}.`,
    ],
    ["a cursor with leading zeros", (method: string) => base64url(`${method}:02:3`)],
  ])("refuses %s with -32602", async (_what, cursorFor) => {
    for (const [method, list] of LISTS) {
      const cursor = cursorFor(method);
      expect(await rejection(list(cursor))).toMatchObject(refusal(cursor, method));
    }
  });

  it("refuses an empty cursor, whether or not the first page was served before", async () => {
    // Never issued by the server, so refused like any other unknown cursor. A fresh
    // server is needed: the first page must not have been listed yet.
    const fresh = await connectSdkInMemory({ fixture: { pageSize: PAGE_SIZE } });
    const refused = refusal("", "prompts/list");
    expect(await rejection(fresh.client.listPrompts({ cursor: "" }))).toMatchObject(refused);
    await fresh.client.listPrompts();
    expect(await rejection(fresh.client.listPrompts({ cursor: "" }))).toMatchObject(refused);
  });

  it("refuses a cursor edited to start at or past the end of its list", async () => {
    const { nextCursor } = await sdk.client.listTools();
    for (const offset of [TOOL_NAMES.length, TOOL_NAMES.length + 1]) {
      const cursor = withOffset(nextCursor as string, offset);
      expect(await rejection(sdk.client.listTools({ cursor }))).toMatchObject(
        refusal(cursor, "tools/list"),
      );
    }
  });

  it("refuses one list's cursor on another, even where that list has the page", async () => {
    // Both lists have 3 items: the prompts cursor (offset 2) names a page resources/list has.
    const prompts = (await sdk.client.listPrompts()).nextCursor as string;
    expect(await rejection(sdk.client.listResources({ cursor: prompts }))).toMatchObject(
      refusal(prompts, "resources/list"),
    );
    // A tools cursor (offset 4) past the end of the 3 prompts.
    const first = await sdk.client.listTools();
    const tools = (await sdk.client.listTools({ cursor: first.nextCursor as string }))
      .nextCursor as string;
    expect(await rejection(sdk.client.listPrompts({ cursor: tools }))).toMatchObject(
      refusal(tools, "prompts/list"),
    );
  });

  it("serves a cursor it issued after the list shrank past it (files removed in dev): an empty last page", async () => {
    const fresh = await connectSdkInMemory({ fixture: { pageSize: PAGE_SIZE } });
    const first = await fresh.client.listResources();
    expect(first.resources.map((r) => r.uri)).toEqual(["memo://dynamic-a", "memo://dynamic-b"]);
    // What the loader does when a file is deleted: its source leaves the registry.
    fresh.server?.registry.removeSource("dynamic-a");
    fresh.server?.registry.removeSource("dynamic-b");
    const cursor = first.nextCursor as string;
    expect(await fresh.client.listResources({ cursor })).toEqual({ resources: [] });
    // The list as it is now, from the start.
    expect((await fresh.client.listResources()).resources.map((r) => r.uri)).toEqual([
      "memo://static",
    ]);
  });

  it("serves a cursor it issued after the list grew: the page at its offset, as the list is now", async () => {
    const fresh = await connectSdkInMemory({ fixture: { pageSize: PAGE_SIZE } });
    const first = await fresh.client.listResources();
    fresh.server?.add(defineResource({ name: "extra", uri: "memo://extra", read: () => "" }));
    const cursor = first.nextCursor as string;
    const page = await fresh.client.listResources({ cursor });
    expect(page.resources.map((r) => r.uri)).toEqual(["memo://extra", "memo://static"]);
    expect(page.nextCursor).toBeUndefined();
  });
});
