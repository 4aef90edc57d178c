/**
 * A URI template may list its current instances: resources/list shows them
 * after the fixed resources, in both eras, asked for at each list. The
 * directory is loaded in this process, as serve loads it: the official v1
 * client over an in-memory pair, raw 2026-07-28 requests over stdio's
 * transport.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServer } from "../../src/loader/index.js";
import { connectToDirectory } from "../helpers/directory-client.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { killRawClients, RawClient } from "../server/helpers/raw-client.js";
import { closeSdkClients, type SdkConnection } from "../server/helpers/sdk-client.js";

/** A raw client of `dir`, loaded in this process, over stdio's transport. */
async function rawClientOf(dir: string): Promise<RawClient> {
  const { server, problems } = await loadServer(dir);
  expect(problems).toEqual([]);
  return RawClient.serving(server);
}

const FILES = {
  "resources/readme.ts": `import { defineResource } from "mcp-dir";
export default defineResource({ uri: "docs://readme", read: () => "read me" });`,
  "resources/users.ts": `import { defineResource } from "mcp-dir";
export default defineResource({
  uriTemplate: "users://{id}",
  mimeType: "text/plain",
  read: ({ params }) => "user " + params.id,
  list: () => [{ uri: "users://ada", title: "Ada" }, { uri: "users://alan", name: "alan" }],
});`,
};

/** A template of orders whose list is `list` (JavaScript). */
const orders = (list: string) => `import { defineResource } from "mcp-dir";
export default defineResource({
  uriTemplate: "orders://{id}",
  read: () => "order",
  list: () => ${list},
});`;

describe("a template that lists its instances", () => {
  let connection: SdkConnection;
  let dir: string;
  beforeAll(async () => {
    dir = await createServerDir({ ...FILES, "resources/broken.ts": orders("[]") });
    connection = await connectToDirectory(dir);
  });
  afterAll(async () => {
    await closeSdkClients();
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
    const client = await rawClientOf(dir);
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
    // The same files, but for the list of orders: an entry that is not one of its URIs.
    const broken = await createServerDir({
      ...FILES,
      "resources/broken.ts": orders('[{ uri: "users://ada" }]'),
    });
    const client = await rawClientOf(broken);
    await client.initialize("2025-11-25");
    expect((await client.request("resources/list", {})).error).toEqual({
      code: -32603,
      message:
        'resources/list failed: the list of resource template "broken" has an entry (0) whose uri "users://ada" does not match orders://{id}',
    });
  });
});
