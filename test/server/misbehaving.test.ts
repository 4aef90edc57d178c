/**
 * Author code that misbehaves: the server answers with the right kind of error,
 * keeps serving, and keeps to the protocol.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killRawClients, RawClient } from "./helpers/raw-client.js";

describe("misbehaving definitions", () => {
  let client: RawClient;

  beforeAll(async () => {
    // stdio's transport in this process: what the server says (warn) and the handlers report is in `stderr`.
    ({ client } = await RawClient.initializedInProcess("2025-11-25", {}, { extras: true }));
  });
  afterAll(killRawClients);

  it("a result that does not match the output schema is the tool's error", async () => {
    expect(await client.request("tools/call", { name: "bad_output" }, "bo")).toEqual({
      jsonrpc: "2.0",
      id: "bo",
      result: {
        content: [
          {
            type: "text",
            text: 'Tool "bad_output" returned a result that does not match its output schema: sum: Invalid input: expected number, received string',
          },
        ],
        isError: true,
      },
    });
  });

  it("a prompt that throws is -32603 naming the method, with the stack on stderr", async () => {
    expect(await client.request("prompts/get", { name: "broken" }, "bp")).toEqual({
      jsonrpc: "2.0",
      id: "bp",
      error: {
        code: -32603,
        message: "Internal error in prompts/get: the prompt failed on purpose",
      },
    });
    await client.waitForStderr(
      "mcp-dir: prompts/get failed: Error: the prompt failed on purpose\n    at ",
    );
  });

  it("a resource whose read throws is -32603 naming the method, with the stack on stderr", async () => {
    expect(await client.request("resources/read", { uri: "memo://broken" }, "br")).toEqual({
      jsonrpc: "2.0",
      id: "br",
      error: {
        code: -32603,
        message: "Internal error in resources/read: the resource failed on purpose",
      },
    });
    await client.waitForStderr(
      "mcp-dir: resources/read failed: Error: the resource failed on purpose\n    at ",
    );
  });

  it("sends no progress or log for a request that has already been answered", async () => {
    expect(
      await client.result("tools/call", { name: "leak_context", _meta: { progressToken: "gone" } }),
    ).toEqual({ content: [{ type: "text", text: "leaked" }] });
    expect(await client.result("tools/call", { name: "use_leaked_context" })).toEqual({
      content: [{ type: "text", text: "used" }],
    });
    // Nor its log: a request's context ends with it, at 2025 as at 2026-07-28 (late-log.test.ts).
    expect(client.withMethod("notifications/message")).toEqual([]);
    expect(client.withMethod("notifications/progress")).toEqual([]);
  });

  it("a handler that first reads ctx.signal after its request was cancelled sees the client's reason", async () => {
    client.send({
      jsonrpc: "2.0",
      id: "late",
      method: "tools/call",
      params: { name: "late_signal", arguments: { key: "k" } },
    });
    expect(await client.result("ping")).toEqual({});
    client.notify("notifications/cancelled", { requestId: "late", reason: "stop now" });
    expect(await client.result("tools/call", { name: "release", arguments: { key: "k" } })).toEqual(
      {
        content: [{ type: "text", text: "released k" }],
      },
    );
    const line = /late_signal k: [^\n]*/;
    const stderr = await client.stderr.waitFor((all) => line.test(all), "the late_signal report");
    expect(line.exec(stderr)?.[0]).toBe("late_signal k: aborted=true reason=stop now");
    expect(await client.result("ping")).toEqual({});
    expect(client.messages.items.filter((m) => m.id === "late")).toEqual([]);
  });

  it("does not start a handler whose call was cancelled while its arguments were checked", async () => {
    // One write: the cancel is read while the call's arguments are validated (an await).
    const call = { jsonrpc: "2.0", id: "early", method: "tools/call" };
    const params = { name: "late_signal", arguments: { key: "early" } };
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled" };
    client.write(
      `${JSON.stringify({ ...call, params })}\n${JSON.stringify({ ...cancel, params: { requestId: "early" } })}\n`,
    );
    expect(
      await client.result("tools/call", { name: "release", arguments: { key: "early" } }),
    ).toEqual({ content: [{ type: "text", text: "released early" }] });
    expect(await client.result("ping")).toEqual({});
    expect(client.stderr.items.at(-1) ?? "").not.toContain("late_signal early");
    expect(client.messages.items.filter((m) => m.id === "early")).toEqual([]);
  });

  it("keeps serving afterwards, with nothing but JSON on stdout", async () => {
    expect(await client.result("ping")).toEqual({});
    expect(client.garbage).toEqual([]);
  });
});

describe("a 2026-07-28 handler's context kept after its response", () => {
  afterAll(killRawClients);

  const meta = (extra: Record<string, unknown> = {}) => ({
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/logLevel": "info",
    ...extra,
  });

  it("sends neither log messages nor progress: they belong before the request's response", async () => {
    const client = await RawClient.inProcess({ extras: true });
    const leaked = await client.request(
      "tools/call",
      { name: "leak_context", _meta: meta({ progressToken: "gone" }) },
      "leak",
    );
    expect(leaked.result.content).toEqual([{ type: "text", text: "leaked" }]);
    // Sent, a late log would reach the client before this response, as if it were this request's.
    const used = await client.request(
      "tools/call",
      { name: "use_leaked_context", _meta: meta() },
      "use",
    );
    expect(used.result.content).toEqual([{ type: "text", text: "used" }]);
    expect(client.messages.items).toEqual([leaked, used]);
  });
});
