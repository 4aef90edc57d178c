/** serveHttp in a child process: SIGTERM and SIGINT close streams and sessions, then exit. */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { openSession, PROTOCOL_VERSION, SseReader } from "./helpers.js";

const CHILD = fileURLToPath(new URL("./fixtures/serve-child.ts", import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

async function startChild(): Promise<{
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
}> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", () => reject(new Error("the server exited before printing its URL")));
  });
  return { child, url, exited };
}

describe("graceful shutdown", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`ends open streams and exits on ${signal}`, async () => {
      const { child, url, exited } = await startChild();
      const sessionId = await openSession(url);
      const response = await fetch(url, {
        headers: {
          accept: "text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": PROTOCOL_VERSION,
        },
      });
      const reader = new SseReader(response);
      await reader.next();
      child.kill(signal);
      expect(await reader.next()).toBeUndefined();
      expect(await exited).toEqual({ code: null, signal });
    });
  }
});
