/**
 * Code announces resource changes: a tool through ctx.resourceUpdated, a
 * resource's own watch through updated(). The official v1 client subscribes
 * over the real CLI and receives notifications/resources/updated; a dev reload
 * stops the old watch.
 */

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli, stopAll as stopServers } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";
import { type CliConnection, connectToServe, stopAll } from "./helpers/cli.js";

const FILES = {
  // A helper both definitions share, as an app's event bus would be.
  "tools/_feed.ts": `import { EventEmitter } from "node:events";
export const feed = new EventEmitter();`,
  "resources/notes.ts": `import { defineResource } from "mcp-dir";
import { feed } from "../tools/_feed.js";
export default defineResource({
  uri: "memo://notes",
  read: () => "the notes",
  watch: (updated) => {
    const onNote = () => updated();
    feed.on("note", onNote);
    return () => {
      feed.off("note", onNote);
      process.stderr.write("notes watch stopped\\n");
    };
  },
});`,
  "resources/users.ts": `import { defineResource } from "mcp-dir";
import { feed } from "../tools/_feed.js";
export default defineResource({
  uriTemplate: "users://{id}",
  read: ({ params }) => "user " + params.id,
  watch: (updated) => {
    const onUser = (id) => {
      try {
        updated(id === "bad" ? "other://x" : "users://" + id);
      } catch (error) {
        process.stderr.write(error.message + "\\n");
      }
    };
    feed.on("user", onUser);
    return () => feed.off("user", onUser);
  },
});`,
  "tools/emit.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
import { feed } from "./_feed.js";
export default defineTool({
  description: "Fires an event the resources watch",
  input: { event: z.string(), id: z.string().optional() },
  handler: ({ event, id }) => {
    feed.emit(event, id);
    return "emitted";
  },
});`,
  "tools/touch.ts": `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Says a resource changed",
  input: { uri: z.string() },
  handler: ({ uri }, ctx) => {
    ctx.resourceUpdated(uri);
    return "touched";
  },
});`,
};

describe("resources that announce their changes", () => {
  let connection: CliConnection;
  const updates = new Inbox<string>();
  beforeAll(async () => {
    connection = await connectToServe(await createServerDir(FILES), {
      setup: (client) =>
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
          updates.push(n.params.uri);
        }),
    });
    await connection.client.subscribeResource({ uri: "memo://notes" });
    await connection.client.subscribeResource({ uri: "users://ada" });
  });
  afterAll(async () => {
    await stopAll();
    await stopServers();
    await removeServerDirs();
  });

  const call = (name: string, args: Record<string, string>) =>
    connection.client.callTool({ name, arguments: args });

  it("reach subscribers from a tool, through ctx.resourceUpdated", async () => {
    const since = updates.items.length;
    await call("touch", { uri: "users://ada" });
    expect(await updates.waitFor((uri) => uri === "users://ada", "users://ada", since)).toBe(
      "users://ada",
    );
  });

  it("reach subscribers from a resource's watch, static or templated", async () => {
    const since = updates.items.length;
    await call("emit", { event: "note" });
    await call("emit", { event: "user", id: "ada" });
    await updates.waitFor((uri) => uri === "memo://notes", "memo://notes", since);
    await updates.waitFor((uri) => uri === "users://ada", "users://ada", since);
  });

  it("refuse a URI that is not the template's, naming the resource", async () => {
    await call("emit", { event: "user", id: "bad" });
    await connection.waitForStderr(
      'resource "users": updated("other://x") needs a URI that matches its template users://{id}',
    );
  });

  it("stop watching when dev replaces the definition", async () => {
    const dir = await createServerDir(FILES);
    const dev = await startCli(["dev", dir, "--http", "--port", "0"]);
    await dev.waitForStderr(/^mcp-dir dev: watching .+ for changes$/m);
    const source = FILES["resources/notes.ts"].replace("the notes", "the new notes");
    await writeFile(join(dir, "resources/notes.ts"), source);
    await dev.waitForStderr(/^notes watch stopped$/m);
  });
});
