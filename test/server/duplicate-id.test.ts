import { afterEach, describe, expect, it } from "vitest";
import { killRawClients, RawClient } from "./helpers/raw-client.js";

afterEach(killRawClients);

describe("a 2025 stdio session", () => {
  it("refuses a request whose id is still in flight, as HTTP does, and keeps the first", async () => {
    const { client } = await RawClient.initializedInProcess("2025-11-25");
    client.send({
      jsonrpc: "2.0",
      id: "same",
      method: "tools/call",
      params: { name: "hang", arguments: { key: "dup" } },
    });
    // A round trip: the first "same" is in flight by its answer.
    await client.result("tools/list");
    const second = await client.request("tools/list", {}, "same");
    expect(second).toEqual({
      jsonrpc: "2.0",
      id: "same",
      error: {
        code: -32600,
        message:
          'Invalid Request: id "same" is already in use by a request in flight; give each request its own id',
      },
    });
    // The first is still the one a cancellation reaches.
    client.notify("notifications/cancelled", { requestId: "same", reason: "done waiting" });
    const reason = await client.result("tools/call", {
      name: "abort_reason",
      arguments: { key: "dup" },
    });
    expect(reason.content).toEqual([{ type: "text", text: "done waiting" }]);
  });
});
