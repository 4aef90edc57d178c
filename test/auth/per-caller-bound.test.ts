/**
 * maxSessionsPerCaller over real HTTP, with real access tokens for two
 * callers from the authorization server in the test: one caller that fills
 * its own bound of 2025 sessions, or of 2026-07-28 listen streams, is refused
 * with 429 while the other is still served, and keeps what it holds.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineTool, type HttpServing, serveHttp } from "../../src/index.js";
import { SseReader } from "../helpers/sse-reader.js";
import { postStateless } from "../helpers/stateless-post.js";
import { INITIALIZE, postHeaders } from "../http/helpers.js";
import { APP, OTHER_APP, startIssuer, type TestIssuer } from "./helpers/issuer.js";
import { scopedServer } from "./helpers/scoped-server.js";

let issuer: TestIssuer;
let serving: HttpServing;
let server: ReturnType<typeof scopedServer>;
let ann: string;
let bob: string;

beforeAll(async () => {
  issuer = await startIssuer();
  server = scopedServer();
  serving = await serveHttp(server, {
    port: 0,
    auth: { issuer: issuer.url },
    maxSessions: 10,
    maxSessionsPerCaller: 2,
  });
  const resource = `http://127.0.0.1:${serving.port}/mcp`;
  ann = await issuer.token(resource, ["mcp"], APP);
  bob = await issuer.token(resource, ["mcp"], OTHER_APP);
});
afterAll(async () => {
  await serving?.close();
  await issuer?.close();
});

/** A 2025-11-25 session opened by the official client with this token. */
async function connect(token: string) {
  const client = new Client({ name: "bound-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(serving.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}

async function echo(client: Client, text: string) {
  const result = await client.callTool({ name: "echo", arguments: { text } });
  return result.content;
}

/** A 2026-07-28 subscriptions/listen with this token. */
function listen(token: string, id: string): Promise<Response> {
  return postStateless(serving.url, {
    id,
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true } },
    headers: { authorization: `Bearer ${token}` },
  });
}

/** A listen stream read up to its acknowledgement; it stays open. */
async function opened(response: Response): Promise<SseReader> {
  expect(response.status).toBe(200);
  const reader = new SseReader(response);
  expect((await reader.nextMessage())?.message).toMatchObject({
    method: "notifications/subscriptions/acknowledged",
  });
  return reader;
}

describe("maxSessionsPerCaller", () => {
  it("refuses a caller's session past its bound with 429, serves another caller, and takes one after a DELETE", async () => {
    const first = await connect(ann);
    const second = await connect(ann);
    const refused = await fetch(serving.url, {
      method: "POST",
      headers: { ...postHeaders(), authorization: `Bearer ${ann}` },
      body: JSON.stringify(INITIALIZE),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32000,
        message:
          "Too Many Requests: this caller (the one the access token names) already holds its limit of 2 sessions; end one (DELETE), or raise maxSessionsPerCaller (--max-sessions-per-caller)",
      },
    });
    const other = await connect(bob);
    expect(await echo(other.client, "bob's")).toEqual([{ type: "text", text: "bob's" }]);
    // What the refused caller holds is untouched.
    expect(await echo(first.client, "one")).toEqual([{ type: "text", text: "one" }]);
    expect(await echo(second.client, "two")).toEqual([{ type: "text", text: "two" }]);
    expect(serving.stats().sessions).toBe(3);

    await first.transport.terminateSession();
    await first.client.close();
    expect(serving.stats().sessions).toBe(2);
    const third = await connect(ann);
    expect(await echo(third.client, "three")).toEqual([{ type: "text", text: "three" }]);
    for (const { transport, client } of [second, third, other]) {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("refuses a caller's listen stream past its bound with 429, serves another caller, and takes one after a close", async () => {
    const open = [await opened(await listen(ann, "a1")), await opened(await listen(ann, "a2"))];
    const refused = await listen(ann, "a3");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: "a3",
      error: {
        code: -32000,
        message:
          "Too Many Requests: this caller (the one the access token names) already holds its limit of 2 listen streams; close one, or raise maxSessionsPerCaller (--max-sessions-per-caller)",
      },
    });
    const other = await opened(await listen(bob, "b1"));
    expect(serving.stats().listenStreams).toBe(3);

    // The streams the refused caller holds still carry its notifications.
    server.add(defineTool({ name: "late", description: "Added late", handler: () => "late" }));
    for (const stream of [...open, other]) {
      expect((await stream.nextMessage())?.message).toMatchObject({
        method: "notifications/tools/list_changed",
      });
    }

    await open[0]?.cancel();
    await vi.waitFor(() => expect(serving.stats().listenStreams).toBe(2));
    const again = await opened(await listen(ann, "a4"));
    await Promise.all([again.cancel(), open[1]?.cancel(), other.cancel()]);
  });
});
