/**
 * Replicas behind one endpoint: a multi-round request may come back to
 * another process, which must accept the state the first one signed, and
 * only when they share MCP_DIR_STATE_KEY.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASKING_SERVER } from "../eras/helpers/asking-server.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { type CliServer, runCli, startCli, stopAll } from "./helpers.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC responses under test.
async function callAskName(server: CliServer, extra: Record<string, unknown> = {}): Promise<any> {
  const response = await fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "ask-name",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask-name", arguments: {}, ...extra, _meta: ENVELOPE },
    }),
  });
  return response.json();
}

const ANSWER = { "elicitation-1": { action: "accept", content: { name: "Ada" } } };
const serve = (dir: string, env: NodeJS.ProcessEnv = {}) =>
  startCli(["serve", dir, "--http", "--port", "0"], { env });

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(ASKING_SERVER);
});
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe("the requestState key", () => {
  it("lets any replica that shares it finish a request another one started", async () => {
    const [first, second] = await Promise.all([serve(dir), serve(dir)]);
    const { result } = await callAskName(first);
    const finished = await callAskName(second, {
      requestState: result.requestState,
      inputResponses: ANSWER,
    });
    expect(finished.result.content).toEqual([{ type: "text", text: "Hello, Ada (runs: 2)" }]);
  });

  it("is made per process when unset: the banner says so, and other replicas refuse the state", async () => {
    const unset = { MCP_DIR_STATE_KEY: undefined };
    const [first, second] = await Promise.all([serve(dir, unset), serve(dir, unset)]);
    expect(first.stderr()).toContain(
      "mcp-dir: MCP_DIR_STATE_KEY is not set, so requestState (2026-07-28 handlers that ask for input) is signed with a key of this process only; behind a load balancer, set it to one secret of 32+ characters on every replica\n",
    );
    const { result } = await callAskName(first);
    const refused = await callAskName(second, {
      requestState: result.requestState,
      inputResponses: ANSWER,
    });
    expect(refused.error.code).toBe(-32602);
    expect(refused.error.message).toMatch(
      /^Invalid params: requestState failed its integrity check/,
    );
  });

  it("must be long enough to be a secret", async () => {
    const run = await runCli(["serve", dir], { env: { MCP_DIR_STATE_KEY: "short" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "The requestState key must be at least 32 bytes (got 5); set MCP_DIR_STATE_KEY (or inputRounds.key) to a long random secret, e.g. the output of `openssl rand -hex 32`",
    );
  });
});
