/**
 * SIGTERM and SIGINT end `mcp-dir serve|dev --http` cleanly: open streams end,
 * a request in flight gets an error response, the listener closes, and the
 * process then dies of the signal itself (Node's default: no exit code, the
 * signal reported), as a supervisor expects.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  openGetStream,
  openSession,
  post,
  postHeaders,
  SseReader,
  startCli,
  stopAll,
} from "./helpers.js";

afterEach(stopAll);

const cases = [
  ["serve", "SIGTERM"],
  ["serve", "SIGINT"],
  ["dev", "SIGTERM"],
] as const;

describe("graceful shutdown of the CLI", () => {
  for (const [command, signal] of cases) {
    it(`mcp-dir ${command} --http on ${signal}: streams end, a pending call is answered, the signal ends the process`, async () => {
      const server = await startCli([command, "example-server", "--http", "--port", "0"]);
      const sessionId = await openSession(server.url, { capabilities: { elicitation: {} } });
      const standalone = new SseReader(await openGetStream(server.url, sessionId));
      expect(await standalone.next()).toMatchObject({ data: "", retry: 1000 });

      // team_invite without a team asks the client, which never answers: the call stays open.
      const call = await post(
        server.url,
        {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "team_invite", arguments: { email: "kay@example.com" } },
        },
        postHeaders(sessionId),
      );
      expect(call.headers.get("content-type")).toBe("text/event-stream");
      const callStream = new SseReader(call);
      expect((await callStream.nextMessage())?.message).toMatchObject({
        method: "elicitation/create",
        params: { message: "Which team should kay@example.com join, and with which role?" },
      });

      server.child.kill(signal);

      expect((await callStream.nextMessage())?.message).toEqual({
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32000,
          message: "The session ended before this request completed; initialize a new session",
        },
      });
      expect(await callStream.next()).toBeUndefined();
      expect(await standalone.next()).toBeUndefined();
      expect(await server.exited).toEqual({ code: null, signal });
      expect(server.stderr().trimEnd().split("\n")).toEqual([
        ...(command === "dev" ? [expect.stringMatching(/^mcp-dir dev: watching /)] : []),
        expect.stringMatching(new RegExp(`^mcp-dir${command === "dev" ? " dev" : ""}: serving `)),
      ]);
      await expect(fetch(`${server.origin}/health`)).rejects.toThrow();
    });
  }
});
