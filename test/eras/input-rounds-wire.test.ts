/**
 * Multi-round-trip requests on the wire (2026-07-28), over stdio and HTTP to
 * the real CLI: what a well-behaved client never sends (an altered, foreign
 * or expired requestState, malformed inputResponses) and what the rules say
 * of partial answers, asserted byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postStateless } from "../helpers/stateless-post.js";
import { startCliHere, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { type Json, killRawClients, RawClient } from "../server/helpers/raw-client.js";
import { ASKING_SERVER } from "./helpers/asking-server.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {}, roots: {} },
};

/** Sends one 2026 request (the envelope added) and resolves with the response message. */
type Send = (method: string, params: Json) => Promise<Json>;

async function over(transport: "stdio" | "http", dir: string): Promise<Send> {
  if (transport === "stdio") {
    const client = RawClient.cli(["serve", dir]);
    return (method, params) => client.request(method, { ...params, _meta: ENVELOPE });
  }
  const { url } = await startCliHere(["serve", dir, "--http", "--port", "0"]);
  let id = 0;
  return async (method, params) => {
    const response = await postStateless(url, {
      id: ++id,
      method,
      params,
      name: String(params.name ?? params.uri),
      meta: ENVELOPE,
    });
    return response.json();
  };
}

const ASK_NAME = {
  method: "elicitation/create",
  params: {
    message: "What is your name?",
    requestedSchema: {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    },
  },
};

const refused = (why: string) => ({ code: -32602, message: `Invalid params: requestState ${why}` });
const AGAIN = "send the request again without requestState and inputResponses";

let dir: string;
let expiringDir: string;
beforeAll(async () => {
  dir = await createServerDir(ASKING_SERVER);
  expiringDir = await createServerDir({
    ...ASKING_SERVER,
    "mcp-dir.config.json": JSON.stringify({ inputRounds: { ttlMs: 0 } }),
  });
});
afterAll(async () => {
  await killRawClients();
  await stopAll();
  await removeServerDirs();
});

describe.each(["stdio", "http"] as const)("input_required over %s", (transport) => {
  let send: Send;
  let sendToExpiring: Send;
  beforeAll(async () => {
    [send, sendToExpiring] = await Promise.all([
      over(transport, dir),
      over(transport, expiringDir),
    ]);
  });

  const firstRound = async (name = "ask-name", args: Json = {}) => {
    const { result } = await send("tools/call", { name, arguments: args });
    return result as { requestState: string; inputRequests: Json };
  };

  it("answers a first call with every pending ask, keyed, and a signed state", async () => {
    const response = await send("tools/call", { name: "ask-name", arguments: {} });
    expect(response.result).toEqual({
      resultType: "input_required",
      inputRequests: { "elicitation-1": ASK_NAME },
      requestState: expect.stringMatching(/^[\w-]+\.[\w-]{43}$/),
      _meta: { "io.modelcontextprotocol/serverInfo": expect.any(Object) },
    });
  });

  it("completes when the answer comes back, ignoring keys it never asked for", async () => {
    const { requestState } = await firstRound();
    const { result } = await send("tools/call", {
      name: "ask-name",
      arguments: {},
      requestState,
      inputResponses: {
        "elicitation-1": { action: "accept", content: { name: "Ada" } },
        "not-asked": { action: "accept", content: { name: "Eve" } },
      },
    });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada (runs: 2)" }]);
  });

  it("asks again, rather than failing, for an answer that is missing", async () => {
    const { requestState } = await firstRound();
    const { result } = await send("tools/call", {
      name: "ask-name",
      arguments: {},
      requestState,
      inputResponses: { "wrong-key": { action: "accept", content: { name: "Ada" } } },
    });
    expect(result).toMatchObject({
      resultType: "input_required",
      inputRequests: { "elicitation-1": ASK_NAME },
    });
  });

  it("ignores answers sent without a requestState: nothing was asked yet", async () => {
    const { result } = await send("tools/call", {
      name: "ask-name",
      arguments: {},
      inputResponses: { "elicitation-1": { action: "accept", content: { name: "Mallory" } } },
    });
    expect(result).toMatchObject({
      resultType: "input_required",
      inputRequests: { "elicitation-1": ASK_NAME },
    });
  });

  it("takes answers only to the asks the presented state was issued with", async () => {
    const { requestState } = await firstRound("two-steps", { greeting: "Hi" });
    const { result } = await send("tools/call", {
      name: "two-steps",
      arguments: { greeting: "Hi" },
      requestState,
      inputResponses: {
        "elicitation-1": { action: "accept", content: { name: "Ada" } },
        colour: { action: "accept", content: { color: "teal" } },
      },
    });
    expect(result).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        colour: {
          method: "elicitation/create",
          params: { message: "Which colour do you like, Ada?" },
        },
      },
    });
  });

  /** Sends `pay` the state and answers of the round before, after setting the price. */
  const payRound = async (price: number, requestState: string, inputResponses: Json) => {
    await send("tools/call", { name: "set-price", arguments: { price } });
    const { result } = await send("tools/call", {
      name: "pay",
      arguments: {},
      requestState,
      inputResponses,
    });
    return result;
  };
  const PAY = { "elicitation-1": { action: "accept", content: { ok: true } } };
  const WRAP = { wrap: { action: "accept", content: { wrap: true } } };
  const asking = (key: string, message: string) => ({
    resultType: "input_required",
    inputRequests: { [key]: { params: { message } } },
  });

  it("asks again under a key whose question changed since the round the client answered", async () => {
    await send("tools/call", { name: "set-price", arguments: { price: 5 } });
    const first = await firstRound("pay");
    expect(first.inputRequests).toMatchObject(asking("elicitation-1", "Pay 5 EUR?").inputRequests);
    const second = await payRound(7, first.requestState, PAY);
    expect(second).toMatchObject(asking("elicitation-1", "Pay 7 EUR?"));
    const third = await payRound(7, second.requestState, PAY);
    expect(third).toMatchObject(asking("wrap", "Gift wrap?"));
    const done = await payRound(7, third.requestState, WRAP);
    expect(done.content).toEqual([{ type: "text", text: "paid 7 EUR, wrapped" }]);
  });

  it("asks again for an answer of an earlier round whose question changed, keeping the others", async () => {
    await send("tools/call", { name: "set-price", arguments: { price: 5 } });
    const first = await firstRound("pay");
    const second = await payRound(5, first.requestState, PAY);
    expect(second).toMatchObject(asking("wrap", "Gift wrap?"));
    const third = await payRound(8, second.requestState, WRAP);
    expect(third).toMatchObject(asking("elicitation-1", "Pay 8 EUR?"));
    expect(Object.keys(third.inputRequests)).toEqual(["elicitation-1"]);
    const done = await payRound(8, third.requestState, PAY);
    expect(done.content).toEqual([{ type: "text", text: "paid 8 EUR, wrapped" }]);
  });

  /**
   * Buys with `name`: answers "yes" twice to the state from before the charge
   * (the second a replay), then finishes from the last state with "wrap it".
   */
  const buyReplayingOnce = async (name: string) => {
    const { requestState: beforeCharge } = await firstRound(name);
    const yes = () =>
      send("tools/call", {
        name,
        arguments: {},
        requestState: beforeCharge,
        inputResponses: { "elicitation-1": { action: "accept", content: { ok: true } } },
      });
    await yes();
    const { result } = await yes();
    expect(Object.keys(result.inputRequests)).toEqual(["wrap"]);
    const { result: done } = await send("tools/call", {
      name,
      arguments: {},
      requestState: result.requestState,
      inputResponses: { wrap: { action: "accept", content: { wrap: true } } },
    });
    return done.content;
  };

  it("runs a replayed state again from that state: a guard kept in roundState alone does not hold", async () => {
    expect(await buyReplayingOnce("buy-naively")).toEqual([
      { type: "text", text: "bought; charges so far: 2" },
    ]);
  });

  it("holds the README's guard, an id made before the first ask, however often a state is replayed", async () => {
    expect(await buyReplayingOnce("buy")).toEqual([
      { type: "text", text: "bought, wrapped; charges so far: 1" },
    ]);
  });

  it("refuses an altered state before the handler runs", async () => {
    const { requestState } = await firstRound();
    const altered = `${requestState.slice(0, 10)}${requestState[10] === "A" ? "B" : "A"}${requestState.slice(11)}`;
    const response = await send("tools/call", {
      name: "ask-name",
      arguments: {},
      requestState: altered,
      inputResponses: { "elicitation-1": { action: "accept", content: { name: "Ada" } } },
    });
    expect(response.error).toEqual(
      refused(
        `failed its integrity check: it was altered, or signed by a server with another key (replicas must share MCP_DIR_STATE_KEY); ${AGAIN}`,
      ),
    );
  });

  it("refuses a state issued for another call: other arguments, or another tool", async () => {
    const { requestState } = await firstRound("two-steps", { greeting: "Hi" });
    const foreign = refused(
      `was issued for another request (a different method, target or arguments); send this request without requestState and inputResponses`,
    );
    for (const [name, args] of [
      ["two-steps", { greeting: "Bye" }],
      ["ask-name", {}],
    ] as const) {
      const response = await send("tools/call", { name, arguments: args, requestState });
      expect(response.error).toEqual(foreign);
    }
  });

  it("refuses a state that has expired", async () => {
    const { result } = await sendToExpiring("tools/call", { name: "ask-name", arguments: {} });
    const response = await sendToExpiring("tools/call", {
      name: "ask-name",
      arguments: {},
      requestState: result.requestState,
    });
    expect(response.error).toEqual(refused(`has expired (it is valid for 0 ms); ${AGAIN}`));
  });

  it("refuses inputResponses that are not a map of results", async () => {
    const response = await send("tools/call", {
      name: "ask-name",
      arguments: {},
      inputResponses: { "elicitation-1": "Ada" },
    });
    expect(response.error).toEqual({
      code: -32602,
      message:
        "Invalid params: inputResponses has a \"elicitation-1\" that is not an object; send an object mapping each key of the server's inputRequests to the client's result",
    });
  });

  it("gives the handler a clear error for an answer that fails the elicitation schema", async () => {
    const { requestState } = await firstRound();
    const { result } = await send("tools/call", {
      name: "ask-name",
      arguments: {},
      requestState,
      inputResponses: { "elicitation-1": { action: "accept", content: { name: 42 } } },
    });
    expect(result).toMatchObject({
      resultType: "complete",
      isError: true,
      content: [
        {
          type: "text",
          text: "The client's answer does not match the elicitation schema: name: Invalid input: expected string, received number",
        },
      ],
    });
  });
});
