import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, killRawClients, RawClient } from "./helpers/raw-client.js";

/**
 * Author data kept in plain objects (completers by argument name, prompt
 * arguments) is looked up by own keys only: a client naming an argument
 * "toString", "__proto__" or "constructor" finds nothing, not Object's methods.
 */
describe("names that objects inherit", () => {
  let client: RawClient;
  beforeAll(async () => {
    ({ client } = await RawClient.initializedInProcess("2025-11-25"));
  });
  afterAll(killRawClients);

  it.each(["toString", "__proto__", "constructor", "hasOwnProperty"])(
    "completion/complete for a prompt argument named %s completes nothing",
    async (name) => {
      const response: Json = await client.request("completion/complete", {
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name, value: "" },
      });
      expect(response).toEqual({
        jsonrpc: "2.0",
        id: response.id,
        result: { completion: { values: [], total: 0, hasMore: false } },
      });
    },
  );

  it.each(["toString", "__proto__", "constructor"])(
    "completion/complete for a template variable named %s completes nothing",
    async (name) => {
      const response: Json = await client.request("completion/complete", {
        ref: { type: "ref/resource", uri: "repos://{owner}/{repo}" },
        argument: { name, value: "" },
      });
      expect(response.result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    },
  );
});
