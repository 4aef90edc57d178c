import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it.each([
    ["garbage", "garbage"],
    ["an offset past the end", Buffer.from("o:999").toString("base64url")],
    ["a negative offset", Buffer.from("o:-2").toString("base64url")],
    // Lenient base64url decoding reads these as a real page's offset: one cursor, one string.
    ["a padded form of an issued cursor", `${Buffer.from("o:2").toString("base64url")}=`],
    [
      "an issued cursor with a character decoding skips",
      `${Buffer.from("o:2").toString("base64url")}.`,
    ],
    ["a cursor with leading zeros", Buffer.from("o:02").toString("base64url")],
  ])("refuses %s as a cursor with -32602", async (_what, cursor) => {
    for (const list of [
      () => sdk.client.listTools({ cursor }),
      () => sdk.client.listPrompts({ cursor }),
      () => sdk.client.listResources({ cursor }),
      () => sdk.client.listResourceTemplates({ cursor }),
    ]) {
      expect(await rejection(list())).toMatchObject({
        code: -32602,
        message: `MCP error -32602: Invalid cursor: ${JSON.stringify(cursor)} is not a cursor this server issued`,
      });
    }
  });

  it("refuses an empty cursor, whether or not the first page was served before", async () => {
    // Never issued by the server, so refused like any other unknown cursor. A fresh
    // server is needed: the first page must not have been listed yet.
    const fresh = await connectSdkInMemory({ fixture: { pageSize: PAGE_SIZE } });
    const refused = {
      code: -32602,
      message: 'MCP error -32602: Invalid cursor: "" is not a cursor this server issued',
    };
    expect(await rejection(fresh.client.listPrompts({ cursor: "" }))).toMatchObject(refused);
    await fresh.client.listPrompts();
    expect(await rejection(fresh.client.listPrompts({ cursor: "" }))).toMatchObject(refused);
  });

  it("refuses a cursor past the end of a shorter list", async () => {
    // A tools cursor (offset 4) means nothing to the list of 3 prompts.
    const first = await sdk.client.listTools();
    const second = await sdk.client.listTools({ cursor: first.nextCursor as string });
    const cursor = second.nextCursor as string;
    expect(await rejection(sdk.client.listPrompts({ cursor }))).toMatchObject({
      code: -32602,
      message: `MCP error -32602: Invalid cursor: ${JSON.stringify(cursor)} is not a cursor this server issued`,
    });
  });
});
