import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";
import { type CliConnection, connectToServe, stopAll } from "./helpers/cli.js";

const FILES = {
  "tools/stray-rejection.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Rejects a promise nobody awaits",
  handler: () => { Promise.reject(new Error("nobody awaited me")); return "returned"; },
});`,
  "tools/stray-throw.ts": `import { defineTool } from "mcp-dir";
export default defineTool({
  description: "Throws from a timer",
  handler: () => { setTimeout(() => { throw new Error("thrown in a timer"); }, 0); return "returned"; },
});`,
  "tools/ok.ts": `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Answers", handler: () => "ok" });`,
};

describe("author code's stray errors in serve", () => {
  let connection: CliConnection;
  const logs = new Inbox<{ level: string; data: unknown }>();
  beforeAll(async () => {
    connection = await connectToServe(await createServerDir(FILES), {
      setup: (client) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          logs.push({ level: n.params.level, data: n.params.data });
        }),
    });
  });
  afterAll(async () => {
    await stopAll();
    await removeServerDirs();
  });

  it.each([
    ["stray-rejection", "an unhandled rejection: Error: nobody awaited me"],
    ["stray-throw", "an uncaught exception: Error: thrown in a timer"],
  ])(
    "%s: is logged on stderr and to the client, and the server keeps serving",
    async (name, what) => {
      expect(await connection.client.callTool({ name, arguments: {} })).toEqual({
        content: [{ type: "text", text: "returned" }],
      });
      const log = await logs.waitFor(
        (entry) => String(entry.data).includes(what),
        `a log message about ${name}`,
      );
      expect(log.level).toBe("error");
      expect(String(log.data)).toMatch(new RegExp(`^Author code raised ${what}`));
      await connection.waitForStderr(`mcp-dir: author code raised ${what}`);
      expect(await connection.client.callTool({ name: "ok", arguments: {} })).toEqual({
        content: [{ type: "text", text: "ok" }],
      });
    },
  );
});
