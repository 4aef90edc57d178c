/**
 * A message nested deeper than the server accepts is refused where it enters,
 * with a JSON-RPC error for its id that names the limit: never a stack
 * overflow blamed on the author's handler, never a request left unanswered.
 * Both eras, over stdio and HTTP, to the real CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openSession,
  postHeaders,
  type ServerHere,
  startCliHere,
  stopAll,
} from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { type Json, killRawClients, RawClient } from "../server/helpers/raw-client.js";
import { ASKING_SERVER } from "./helpers/asking-server.js";

const CAPABILITIES = { elicitation: {} };
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
};

/** `depth` arrays within each other, as JSON text (JSON.stringify itself would overflow). */
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/**
 * A tools/call whose arguments hold `depth` nested arrays: the message,
 * params, arguments and the arrays make depth + 3 levels. `extra` is JSON text
 * added to params (a requestState, the 2026 `_meta`).
 */
function deepCall(id: number, name: string, depth: number, extra = ""): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":{"deep":${nested(depth)}}${extra}}}`;
}

const META = `,"_meta":${JSON.stringify(ENVELOPE)}`;

const TOO_DEEP = {
  code: -32600,
  message:
    "Invalid Request: the message nests arrays and objects more than 100 levels deep, the most this server accepts; send flatter data",
};

type Era = "2025-11-25" | "2026-07-28";
/** Sends one tools/call of `name` as text, in an era; resolves with the response to `id`. */
type Send = (text: string, id: number, name: string) => Promise<Json>;

let served: Promise<ServerHere> | undefined;
/** `serve --http` of the directory, started once: both eras' HTTP rows reach it, as clients of one server. */
function httpServer(dir: string): Promise<ServerHere> {
  served ??= startCliHere(["serve", dir, "--http", "--port", "0"]);
  return served;
}

async function over(transport: "stdio" | "http", era: Era, dir: string): Promise<Send> {
  if (transport === "stdio") {
    const client = RawClient.cli(["serve", dir]);
    if (era === "2025-11-25") await client.initialize(era, CAPABILITIES);
    return (text, id) => {
      const since = client.messages.items.length;
      client.write(`${text}\n`);
      return client.response(id, since);
    };
  }
  const { url } = await httpServer(dir);
  const session =
    era === "2025-11-25" ? await openSession(url, { capabilities: CAPABILITIES }) : "";
  return async (text, _id, name) => {
    const headers =
      era === "2025-11-25"
        ? postHeaders(session)
        : postHeaders(undefined, {
            "mcp-protocol-version": era,
            "mcp-method": "tools/call",
            "mcp-name": name,
          });
    const response = await fetch(url, { method: "POST", headers, body: text });
    return response.json();
  };
}

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(ASKING_SERVER);
});
afterAll(async () => {
  await killRawClients();
  await stopAll();
  await removeServerDirs();
});

const ROWS = (["stdio", "http"] as const).flatMap((transport) =>
  (["2025-11-25", "2026-07-28"] as const).map((era): ["stdio" | "http", Era] => [transport, era]),
);

describe.each(ROWS)("over %s, at %s", (transport, era) => {
  let send: Send;
  const meta = era === "2026-07-28" ? META : "";
  beforeAll(async () => {
    send = await over(transport, era, dir);
  });

  it("refuses 8,000 nested arrays in the arguments of a tool that asks, naming the limit", async () => {
    expect(await send(deepCall(7, "ask-name", 8000, meta), 7, "ask-name")).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: TOO_DEEP,
    });
  });

  it("answers 20,000 nested arrays with a requestState to check, rather than never", async () => {
    const call = deepCall(8, "ask-name", 20_000, `,"requestState":"x.y"${meta}`);
    expect(await send(call, 8, "ask-name")).toEqual({
      jsonrpc: "2.0",
      id: 8,
      error: TOO_DEEP,
    });
  });

  it.runIf(era === "2025-11-25")("serves arguments exactly at the limit", async () => {
    const response = await send(deepCall(9, "sign-out", 97), 9, "sign-out");
    expect(response.result.content).toEqual([{ type: "text", text: "signed out" }]);
  });

  it.runIf(era === "2026-07-28")(
    "serves arguments exactly at the limit through every round",
    async () => {
      const first = await send(deepCall(9, "ask-name", 97, meta), 9, "ask-name");
      expect(first.result.resultType).toBe("input_required");
      const answer = { "elicitation-1": { action: "accept", content: { name: "Ada" } } };
      const state = `,"requestState":${JSON.stringify(first.result.requestState)},"inputResponses":${JSON.stringify(answer)}`;
      const second = await send(deepCall(10, "ask-name", 97, state + meta), 10, "ask-name");
      expect(second.result.content).toEqual([{ type: "text", text: "Hello, Ada (runs: 2)" }]);
    },
  );
});
