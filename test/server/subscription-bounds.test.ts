import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killRawClients, RawClient } from "./helpers/raw-client.js";

describe("resources/subscribe in a 2025 session is bounded", () => {
  let client: RawClient;
  beforeAll(async () => {
    ({ client } = await RawClient.initializedInProcess("2025-11-25"));
  });
  afterAll(killRawClients);

  it("refuses a URI longer than 8192 characters", async () => {
    const uri = `memo://${"x".repeat(8200)}`;
    expect((await client.request("resources/subscribe", { uri })).error).toEqual({
      code: -32602,
      message: `resources/subscribe: the uri is ${uri.length} characters long; at most 8192 are accepted`,
    });
  });

  it("holds at most 1000 subscriptions (maxSubscriptions), and one more after an unsubscribe", async () => {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        client.request("resources/subscribe", { uri: `memo://${i}` }),
      ),
    );
    expect(answers.every((answer) => "result" in answer)).toBe(true);
    // Subscribing again to one it holds is not one more.
    expect((await client.request("resources/subscribe", { uri: "memo://7" })).result).toEqual({});
    expect((await client.request("resources/subscribe", { uri: "memo://new" })).error).toEqual({
      code: -32602,
      message:
        "resources/subscribe: this session already holds 1000 subscriptions, the most it may; unsubscribe from one, or raise maxSubscriptions",
    });
    await client.result("resources/unsubscribe", { uri: "memo://7" });
    expect((await client.request("resources/subscribe", { uri: "memo://new" })).result).toEqual({});
  });
});
