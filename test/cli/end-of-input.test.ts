/**
 * End of input on stdio means "no more requests", not "cancel": `mcp-dir
 * serve` answers every request it fully received before stdin closed (each
 * within its time limit; a listen stream ends with its result), then exits
 * once stdout has taken every answer. Both eras, through the real CLI with its
 * stdin written and closed at once and its stdout a pipe, as
 * `printf … | mcp-dir serve dir | …`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { type CliResult, runCli, stopAll } from "./helpers/cli.js";

// biome-ignore lint/suspicious/noExplicitAny: messages are arbitrary JSON under test.
type Json = any;

const SERVER = {
  "mcp-dir.config.json": JSON.stringify({ name: "ending", version: "1.0.0", callTimeoutMs: 300 }),
  "tools/nap.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Answers after a while",
  input: { ms: z.number() },
  handler: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve("napped " + ms + " ms"), ms)),
});`,
  "tools/echo.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Echoes",
  input: { message: z.string() },
  handler: ({ message }) => message,
});`,
  "tools/hang.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Never finishes",
  handler: () => new Promise(() => {}),
});`,
  "tools/stubborn.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Ignores its signal and never finishes, with no time limit, holding the process open",
  timeoutMs: 0,
  handler: () => new Promise(() => setInterval(() => {}, 60_000)),
});`,
  "tools/ask.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Asks the client for a name",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Your name?", schema: { name: z.string() } });
    return answer.action;
  },
});`,
};

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

const call = (id: number, name: string, args: Record<string, unknown> = {}, modern = false) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: modern ? { name, arguments: args, _meta: META } : { name, arguments: args },
});

const text = (value: string, isError?: true) => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError } : {}),
});

const HANG_STOPPED =
  'Tool "hang" did not finish within the server\'s time limit of 300 ms and was stopped; to allow longer, set timeoutMs in its defineTool, or callTimeoutMs in mcp-dir.config.ts or createServer (0: no limit)';

/** Runs `mcp-dir serve dir` with `messages` as its whole input; returns what it wrote to a pipe, parsed. */
async function serveInput(messages: Json[]): Promise<CliResult & { out: Json[] }> {
  const input = messages.map((message) => `${JSON.stringify(message)}\n`).join("");
  const result = await runCli(["serve", dir], { input, pipe: true });
  const out = result.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map(parseLine);
  return { ...result, out };
}

/** A line's message; a line cut short stays a short description, so a failure names it. */
function parseLine(line: string): Json {
  try {
    return JSON.parse(line);
  } catch {
    return `not JSON: ${line.length} characters from ${line.slice(0, 30)}`;
  }
}

/** Responses by id, whatever order they were written in. */
function byId(messages: Json[]): Map<unknown, Json> {
  return new Map(messages.map((message) => [message.id, message]));
}

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(SERVER);
});
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

/** A 2025 session's opening: initialize (id 1, with these capabilities), then initialized. */
function sessionOpening(capabilities: Record<string, unknown> = {}) {
  return [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities,
        clientInfo: { name: "piped", version: "1.0.0" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ];
}

describe("stdin closing after requests", () => {
  it("answers a 2025 session's requests in flight, then exits 0", async () => {
    const { code, out, stderr } = await serveInput([
      ...sessionOpening({ elicitation: {} }),
      call(2, "nap", { ms: 100 }),
      call(3, "hang"),
      call(4, "ask"),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    // The ask may go out before the input's end is seen, or be refused without going out.
    const requests = out.filter((message) => "id" in message && "method" in message);
    expect(requests.map((request) => request.method)).toEqual(
      requests.length === 0 ? [] : ["elicitation/create"],
    );
    const responses = byId(out.filter((message) => !("method" in message)));
    expect(responses.get(1)).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    expect(responses.get(2)).toEqual({ jsonrpc: "2.0", id: 2, result: text("napped 100 ms") });
    expect(responses.get(3)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: text(HANG_STOPPED, true),
    });
    expect(responses.get(4)).toEqual({
      jsonrpc: "2.0",
      id: 4,
      result: text(
        "The client's input ended before it answered: nothing it sends can arrive any more",
        true,
      ),
    });
    expect(responses.size).toBe(4);
  });

  it("answers 2026-07-28 requests in flight and ends listen streams, then exits 0", async () => {
    const listen = {
      jsonrpc: "2.0",
      id: 3,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: META },
    };
    const { code, out } = await serveInput([
      call(1, "nap", { ms: 100 }, true),
      call(2, "hang", {}, true),
      listen,
    ]);
    expect(code).toBe(0);
    const serverInfo = {
      "io.modelcontextprotocol/serverInfo": { name: "ending", version: "1.0.0" },
    };
    const responses = byId(out);
    expect(responses.get(1)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "complete", ...text("napped 100 ms"), _meta: serverInfo },
    });
    expect(responses.get(2)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { resultType: "complete", ...text(HANG_STOPPED, true), _meta: serverInfo },
    });
    // A listen stream ends as at shutdown: with its result, after its acknowledgement.
    const subscription = { "io.modelcontextprotocol/subscriptionId": 3 };
    expect(out[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: subscription, notifications: { toolsListChanged: true } },
    });
    expect(responses.get(3)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: { resultType: "complete", _meta: { ...subscription, ...serverInfo } },
    });
    expect(out).toHaveLength(4);
  });

  it.each([
    ["a 2025 session", false],
    ["2026-07-28", true],
  ])(
    "does not wait for a request %s cancelled, whose handler ignores its signal",
    async (_era, modern) => {
      const { code, out } = await serveInput([
        ...(modern ? [] : sessionOpening()),
        call(2, "stubborn", {}, modern),
        {
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: 2, reason: "enough" },
        },
        call(3, "echo", { message: "after" }, modern),
      ]);
      // It exits once what is still to be answered is: nothing is sent for the cancelled call.
      expect(code).toBe(0);
      const responses = byId(out);
      expect(responses.get(3)).toMatchObject({ id: 3, result: text("after") });
      expect(responses.has(2)).toBe(false);
    },
  );

  it("writes every answer whole before it exits, however much is still unwritten", async () => {
    // Far more than a pipe holds (64 KiB on Linux) is still unwritten when the last
    // answer is ready: the process must not exit before stdout has taken it all.
    const message = "x".repeat(1_000_000);
    const lists = Array.from({ length: 300 }, (_, at) => ({
      jsonrpc: "2.0",
      id: at + 1,
      method: "tools/list",
      params: { _meta: META },
    }));
    const { code, out } = await serveInput([...lists, call(301, "echo", { message }, true)]);
    expect(code).toBe(0);
    // What arrived, in brief first: a failure shows what is missing or cut short, not a megabyte.
    const ids = out.map((message) => (typeof message === "string" ? message : message.id));
    expect(ids.sort((a, b) => a - b)).toEqual([...lists.map(({ id }) => id), 301]);
    const responses = byId(out);
    const list = responses.get(1).result;
    expect(list.tools.map((tool: Json) => tool.name)).toEqual([
      "ask",
      "echo",
      "hang",
      "nap",
      "stubborn",
    ]);
    for (const { id } of lists) {
      expect(responses.get(id)).toEqual({ jsonrpc: "2.0", id, result: list });
    }
    expect(responses.get(301)).toEqual({
      jsonrpc: "2.0",
      id: 301,
      result: {
        resultType: "complete",
        ...text(message),
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "ending", version: "1.0.0" } },
      },
    });
  });
});
