/**
 * A URI template may list its current instances: resources/list shows them
 * after the fixed resources, in both eras, asked for at each list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { killRawClients, RawClient } from "../server/helpers/raw-client.js";
import { type CliConnection, connectToServe, stopAll } from "./helpers/cli.js";

describe("a template that lists its instances", () => {
  let connection: CliConnection;
  let dir: string;
  beforeAll(async () => {
    dir = await createServerDir({
      "resources/readme.ts": `import { defineResource } from "mcp-dir";
export default defineResource({ uri: "docs://readme", read: () => "read me" });`,
      "resources/users.ts": `import { defineResource } from "mcp-dir";
export default defineResource({
  uriTemplate: "users://{id}",
  mimeType: "text/plain",
  read: ({ params }) => "user " + params.id,
  list: () => [{ uri: "users://ada", title: "Ada" }, { uri: "users://alan", name: "alan" }],
});`,
      "resources/broken.ts": `import { defineResource } from "mcp-dir";
export default defineResource({
  uriTemplate: "orders://{id}",
  read: () => "order",
  list: () => (process.env.BREAK_LIST ? [{ uri: "users://ada" }] : []),
});`,
    });
    connection = await connectToServe(dir);
  });
  afterAll(async () => {
    await stopAll();
    await killRawClients();
    await removeServerDirs();
  });

  it("adds them to resources/list after the fixed resources", async () => {
    expect((await connection.client.listResources()).resources).toEqual([
      { uri: "docs://readme", name: "readme" },
      { uri: "users://ada", name: "users://ada", title: "Ada", mimeType: "text/plain" },
      { uri: "users://alan", name: "alan", mimeType: "text/plain" },
    ]);
  });

  it("lists them to a 2026-07-28 client too, with the caching hints", async () => {
    const client = RawClient.cli(["serve", dir]);
    const { result } = await client.request("resources/list", {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    });
    expect(result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "public" });
    expect(result.resources.map((r: { uri: string }) => r.uri)).toEqual([
      "docs://readme",
      "users://ada",
      "users://alan",
    ]);
  });

  it("fails the list, naming the template, when an entry is not one of its URIs", async () => {
    const client = RawClient.cli(["serve", dir], { BREAK_LIST: "1" });
    await client.initialize("2025-11-25");
    expect((await client.request("resources/list", {})).error).toEqual({
      code: -32603,
      message:
        'resources/list failed: the list of resource template "broken" has an entry (0) whose uri "users://ada" does not match orders://{id}',
    });
  });
});
