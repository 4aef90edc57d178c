/**
 * The time limits of a built bundle on each runtime that listens itself
 * (Node, Bun, Deno, and `deno serve`): a body that never ends is answered
 * 408 at requestTimeoutMs everywhere.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSocket, type RawSocket, requestHead } from "../http/raw-socket.js";
import { stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { build, startDoor, targetOf } from "./helpers/runtimes.js";

const ECHO_TOOL = `import { defineTool } from "mcp-dir";
import { z } from "zod";

export default defineTool({
  description: "Echoes",
  input: { message: z.string() },
  handler: ({ message }) => message,
});
`;

const CONFIG = { http: { requestTimeoutMs: 1000, headersTimeoutMs: 500 } };

let dir: string;
let outRoot: string;

beforeAll(async () => {
  dir = await createServerDir({
    "tools/echo.ts": ECHO_TOOL,
    "mcp-dir.config.json": JSON.stringify(CONFIG),
  });
  outRoot = await createServerDir({});
  await Promise.all(
    (["node", "bun", "deno"] as const).map((target) => build(dir, join(outRoot, target), target)),
  );
});

const sockets: RawSocket[] = [];

async function connect(url: string): Promise<RawSocket> {
  const raw = await openSocket(url);
  sockets.push(raw);
  return raw;
}

afterEach(() => {
  for (const raw of sockets.splice(0)) raw.socket.destroy();
});

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

describe.each(["node", "bun", "deno", "deno serve"] as const)("a bundle run by %s", (door) => {
  it("answers 408 to a body that has not ended within requestTimeoutMs", async () => {
    const url = await startDoor(door, { dir, out: join(outRoot, targetOf(door) ?? "") }, {});
    const raw = await connect(url);
    raw.socket.write(
      `${requestHead("POST", "/mcp", [
        ["host", new URL(url).host],
        ["content-type", "application/json"],
        ["accept", "application/json, text/event-stream"],
        ["transfer-encoding", "chunked"],
      ])}5\r\n{"jso\r\n`,
    );
    expect(await raw.receive("\r\n\r\n")).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    // node:http answers 408 itself, before the door; Bun and Deno leave it to the door.
    if (door !== "node") {
      expect(await raw.receive("}}")).toBe(
        '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Request Timeout: the body did not arrive whole within 1000 ms; send it at once, or raise requestTimeoutMs"}}',
      );
    }
  });
});
