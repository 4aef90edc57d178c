/**
 * The URL a handler sends the user to reaches the client as the server
 * checked it: normalised (the parsed URL's href), and refused, in words the
 * handler can catch, when it hides something (control or bidirectional
 * formatting characters) or names no host. Both eras, over stdio and HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { killRawClients, RawClient } from "../server/helpers/raw-client.js";
import {
  closeClients,
  connectClient,
  ERA_ROWS,
  type EraClient,
  serveOnce,
} from "./helpers/clients.js";

const FILES = {
  "tools/open-page.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Sends the user to the page it is given",
  input: { url: z.string() },
  handler: async ({ url }, ctx) => {
    try {
      const outcome = await ctx.elicit({ message: "Open this page", url });
      return outcome.action;
    } catch (error) {
      return "caught: " + error.message;
    }
  },
});`,
  "tools/page-required.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Cannot go on before the user has visited the page it is given",
  input: { url: z.string() },
  handler: ({ url }, ctx) => {
    if (ctx.roundState.visited) return "visited";
    ctx.roundState.visited = true;
    throw ctx.urlElicitationRequired({ message: "Visit this page", url, elicitationId: "p1" });
  },
});`,
};

/** The server keeps nothing between calls: one HTTP server of the directory serves both HTTP rows. */
const serve = serveOnce();

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(FILES);
});
afterAll(async () => {
  await killRawClients();
  await closeClients();
  await stopAll();
  await removeServerDirs();
});

/** What a handler's URL is sent as: normalised, the parsed URL's href. */
const NORMALISED = [
  ["leading and trailing spaces", "  https://ok.example/x  ", "https://ok.example/x"],
  ["a space in the path", "https://ok.example/a b", "https://ok.example/a%20b"],
  ["an upper-case scheme and host", "HTTPS://OK.Example/Path", "https://ok.example/Path"],
  ["backslashes for slashes", "https:\\\\ok.example\\x", "https://ok.example/x"],
] as const;

// On the wire, as sent: the SDK clients would tidy some of it before a test could see it.
// One CLI per era serves the four URLs: each case only calls the tool and reads the answer.
describe("the URL on the wire, over stdio", () => {
  let session: RawClient;
  let sessionless: RawClient;
  beforeAll(async () => {
    session = RawClient.cli(["serve", dir]);
    sessionless = RawClient.cli(["serve", dir]);
    await session.initialize("2025-11-25", { elicitation: { url: {} } });
  });

  it.each(NORMALISED)("a 2025 session is sent it normalised, given %s", async (_, url, sent) => {
    const earlier = session.withMethod("elicitation/create");
    const response = session.request("tools/call", { name: "open-page", arguments: { url } });
    const asked = await session.waitForMethod("elicitation/create", (m) => !earlier.includes(m));
    expect(asked.params.url).toBe(sent);
    session.respond(asked.id, { action: "accept" });
    expect((await response).result.content).toEqual([{ type: "text", text: "accept" }]);
  });

  it.each(NORMALISED)("a 2026 request is asked it normalised, given %s", async (_, url, sent) => {
    const response = await sessionless.request("tools/call", {
      name: "open-page",
      arguments: { url },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } },
      },
    });
    expect(response.result.inputRequests["elicitation-1"].params.url).toBe(sent);
  });
});

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  let client: EraClient;
  const opened: string[] = [];

  beforeAll(async () => {
    client = await connectClient(kind, await serve(transport, dir), {
      // The helper answers every kind of ask, so the client declares them all.
      capabilities: { elicitation: { url: {} }, sampling: {}, roots: {} },
      answer: (_method, params) => {
        opened.push(String(params.url));
        return { action: "accept" };
      },
    });
  });

  const openPage = async (url: string) => {
    opened.length = 0;
    const result = await client.callTool({ name: "open-page", arguments: { url } });
    return (result.content as { text: string }[])[0]?.text;
  };

  it.each([
    [
      "a line break",
      "https://ok.example/x\nInjected: line",
      "the url must not contain control characters (U+000A at index 20): they hide what the user would open",
    ],
    [
      "a NUL",
      "https://ok.example/\u0000x",
      "the url must not contain control characters (U+0000 at index 19): they hide what the user would open",
    ],
    [
      "a right-to-left override",
      "https://ok.example/\u202Egnp.exe",
      "the url must not contain bidirectional formatting characters (U+202E at index 19): they make it read differently from where it leads",
    ],
    [
      "an empty host",
      "https:///nohost",
      'the url must name its host after "https://", got "https:///nohost"',
    ],
    [
      "no slashes",
      "https:nohost",
      'the url must name its host after "https://", got "https:nohost"',
    ],
  ])("refuses %s, in words the handler can catch", async (_, url, problem) => {
    expect(await openPage(url)).toBe(`caught: ctx.elicit: ${problem}`);
    expect(opened).toEqual([]);
  });

  it("checks and normalises the pages of urlElicitationRequired too", async () => {
    const modern = kind !== "v1 at 2025-11-25";
    opened.length = 0;
    const outcome = await client
      .callTool({ name: "page-required", arguments: { url: " https://ok.example/a b" } })
      .then(
        (result) => (result.content as { text: string }[])[0]?.text,
        (error: { code: number; data: { elicitations: { url: string }[] } }) => error,
      );
    if (modern) {
      expect(outcome).toBe("visited");
      expect(opened).toEqual(["https://ok.example/a%20b"]);
    } else {
      expect(outcome).toMatchObject({
        code: -32042,
        data: { elicitations: [{ url: "https://ok.example/a%20b" }] },
      });
    }
    const refused = await client.callTool({
      name: "page-required",
      arguments: { url: "https://ok.example/\u202Ex" },
    });
    expect(refused).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: "ctx.elicit: the url must not contain bidirectional formatting characters (U+202E at index 19): they make it read differently from where it leads",
        },
      ],
    });
  });
});
