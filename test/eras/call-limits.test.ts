/**
 * The limits of a call, through the official clients of both eras over stdio
 * and Streamable HTTP. A handler run past its time limit is stopped (its
 * `ctx.signal` aborted with a TimeoutError) and answered with an error that
 * names the limit; a definition's own limit wins over the server's. A result
 * past the size limit is not sent; its caller is told its size and the limit.
 */
import { Buffer } from "node:buffer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deferred, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  type ClientKind,
  closeClients,
  connectClient,
  type EraClient,
  refusal,
  serveDir,
  shared,
  type TransportKind,
} from "./helpers/clients.js";
import { LIMITED_SERVER } from "./helpers/limited-server.js";

const KINDS: ClientKind[] = ["v1 at 2025-11-25", "v2 pinned to 2026-07-28"];
const ROWS: [TransportKind, ClientKind][] = (["stdio", "http"] as const).flatMap((transport) =>
  KINDS.map((kind): [TransportKind, ClientKind] => [transport, kind]),
);

const serverLimit = (label: string, definer: string) =>
  `${label} did not finish within the server's time limit of 50 ms and was stopped; to allow longer, set timeoutMs in its ${definer}, or callTimeoutMs in mcp-dir.config.ts or createServer (0: no limit)`;
const ownLimit = (label: string, ms: number, definer: string) =>
  `${label} did not finish within its time limit of ${ms} ms and was stopped; to allow longer, raise timeoutMs in its ${definer} (0: no limit)`;
const tooLarge = (subject: string, bytes: number) =>
  `${subject} returned a result of ${bytes} bytes, more than the server's limit of 4096 bytes, so it was not sent; return less (a page, a summary, a resource link), or raise maxResultBytes in mcp-dir.config.ts or createServer (0: no limit)`;
const toolError = (text: string) => ({ content: [{ type: "text", text }], isError: true });

/** The bytes a result is sent as: 2026-07-28 frames it with its type and the server's identity. */
function bytesSent(result: Record<string, unknown>, modern: boolean): number {
  const serverInfo = { name: "limited", version: "1.0.0" };
  const framed = modern
    ? {
        resultType: "complete",
        ...result,
        _meta: { "io.modelcontextprotocol/serverInfo": serverInfo },
      }
    : result;
  return Buffer.byteLength(JSON.stringify(framed));
}

type Content = { type: string; text?: string };
const textOf = (result: Record<string, unknown>) =>
  (result.content as Content[]).map((block) => block.text).join("");

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(LIMITED_SERVER);
});
afterAll(async () => {
  await closeClients();
  await stopAll();
  await removeServerDirs();
});

describe.each(ROWS)("over %s, the %s client", (transport, kind) => {
  const modern = kind !== "v1 at 2025-11-25";
  let client: EraClient;

  beforeAll(async () => {
    const target = await serveDir(transport, dir);
    client = await connectClient(kind, target, {
      // Both SDKs register a handler for every input method: each needs its capability.
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      // The answer comes only once a hang has passed the server's limit: later than
      // that limit after the asking tool started.
      answer: async () => {
        await client.callTool({ name: "hang", arguments: { key: "while-asked" } });
        return { action: "accept", content: { name: "Ada" } };
      },
    });
  });

  it("stops a tool that never finishes: isError naming the limit, ctx.signal aborted with it", async () => {
    const result = await client.callTool({ name: "hang", arguments: { key: "plain" } });
    const message = serverLimit('Tool "hang"', "defineTool");
    expect(shared(result)).toEqual(toolError(message));
    const reason = await client.callTool({ name: "abort-reason", arguments: { key: "plain" } });
    expect(textOf(reason)).toBe(`TimeoutError: ${message}`);
  });

  it("keeps a tool's own limit over the server's: a longer one, and 0 for none", async () => {
    const slow = await client.callTool({ name: "slow", arguments: {} });
    expect(shared(slow)).toEqual(toolError(ownLimit('Tool "slow"', 80, "defineTool")));

    // outlast starts first and ends only once a hang started after it passed the server's limit.
    const started = deferred();
    const outlasting = client.callTool(
      { name: "outlast", arguments: { key: "outlasted" } },
      { onprogress: () => started.resolve() },
    );
    await started.promise;
    const hang = await client.callTool({ name: "hang", arguments: { key: "outlasted" } });
    expect(shared(hang)).toEqual(toolError(serverLimit('Tool "hang"', "defineTool")));
    expect(shared(await outlasting)).toEqual({
      content: [{ type: "text", text: "outlasted hang outlasted" }],
    });
  });

  it("answers a prompt or a resource past its limit with -32603 naming it", async () => {
    expect(await refusal(client.getPrompt({ name: "stuck" }))).toEqual({
      code: -32603,
      message: serverLimit('Prompt "stuck"', "definePrompt"),
    });
    expect(await refusal(client.readResource({ uri: "memo://stuck" }))).toEqual({
      code: -32603,
      message: ownLimit('Resource "memo://stuck"', 60, "defineResource"),
    });
  });

  it(
    modern
      ? "times each run of a 2026 request that asks: waiting for the answer does not count"
      : "times a 2025 call whole: waiting for the client's answer counts",
    async () => {
      const result = await client.callTool({ name: "ask-then-finish", arguments: {} });
      expect(shared(result)).toEqual(
        modern
          ? { content: [{ type: "text", text: "Hello, Ada" }] }
          : toolError(serverLimit('Tool "ask-then-finish"', "defineTool")),
      );
    },
  );

  it("sends a result within the size limit, counted in bytes, not characters", async () => {
    // 1900 two-byte characters: more than 4096 bytes at three per character, fewer in fact.
    const result = await client.callTool({ name: "big", arguments: { count: 1900 } });
    expect(shared(result)).toEqual({ content: [{ type: "text", text: "é".repeat(1900) }] });
  });

  it("does not send a tool's result past the size limit: isError naming the tool, its size and the limit", async () => {
    const result = await client.callTool({ name: "big", arguments: { count: 3000 } });
    const sent = bytesSent({ content: [{ type: "text", text: "é".repeat(3000) }] }, modern);
    expect(shared(result)).toEqual(toolError(tooLarge('Tool "big"', sent)));
  });

  it("answers a resource read past the size limit with -32603 naming it, its size and the limit", async () => {
    const contents = [{ uri: "memo://big", mimeType: "text/plain", text: "é".repeat(3000) }];
    const result = modern ? { contents, ttlMs: 0, cacheScope: "private" } : { contents };
    expect(await refusal(client.readResource({ uri: "memo://big" }))).toEqual({
      code: -32603,
      message: tooLarge('Resource "memo://big"', bytesSent(result, modern)),
    });
  });
});
