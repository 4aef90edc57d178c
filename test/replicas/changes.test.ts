/**
 * What replicas of one folder sharing a real redis-server tell each other's
 * clients: a resource update announced by code on one reaches the listen
 * streams and 2025 sessions of the other; a reload of one replica's files
 * reaches its own clients only (each serves its own folder).
 */
import { join } from "node:path";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { type CliServer, connect, saveFile, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";
import { listenTo, REPLICATED_SERVER, startReplica } from "./fixture.js";

let redis: RedisServer;
let dir: string;

beforeAll(async () => {
  [redis, dir] = await Promise.all([startRedis(), createServerDir(REPLICATED_SERVER)]);
});
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

let served: Promise<CliServer> | undefined;
/**
 * A `serve` replica, started once for both cases: the first has it announce an
 * update, the second listens to it on a stream of its own; neither changes it.
 */
const servingReplica = () => {
  served ??= startReplica(dir, redis.url);
  return served;
};

const touch = (replica: CliServer) =>
  httpTaskWire(replica.url).request("tools/call", { name: "touch", arguments: {} });

describe("replicas sharing Redis", () => {
  it("carry a resource update announced on one to the listen streams and 2025 sessions of the other", async () => {
    const [a, b] = await Promise.all([servingReplica(), startReplica(dir, redis.url)]);
    const stream = await listenTo(b.url, { resourceSubscriptions: ["memo://board"] });
    const { client } = await connect(b.url);
    const updates = new Inbox<string>();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async ({ params }) => {
      updates.push(params.uri);
    });
    await client.subscribeResource({ uri: "memo://board" });
    expect((await touch(a)).result.content).toEqual([{ type: "text", text: "touched" }]);
    const told = await stream.notifications.waitFor(
      (message) => message.method === "notifications/resources/updated",
      "the update on B's listen stream",
    );
    expect(told.params.uri).toBe("memo://board");
    expect(
      await updates.waitFor((uri) => uri === "memo://board", "the update in B's session"),
    ).toBe("memo://board");
  });

  it("keep a reload to the replica whose files changed", async () => {
    const [developing, serving] = await Promise.all([
      startReplica(dir, redis.url, "dev"),
      servingReplica(),
    ]);
    const filter = { toolsListChanged: true, resourceSubscriptions: ["memo://board"] };
    const [own, other] = await Promise.all([
      listenTo(developing.url, filter),
      listenTo(serving.url, filter),
    ]);
    await saveFile(
      join(dir, "tools", "plain.ts"),
      `import { defineTool } from "mcp-dir";
export default defineTool({ description: "Never a task, edited", handler: () => "plain" });`,
    );
    await own.notifications.waitFor(
      (message) => message.method === "notifications/tools/list_changed",
      "list_changed on the reloading replica's stream",
    );
    // The update travels after the reload: had the list change crossed, it would have come first.
    await touch(developing);
    const first = await other.notifications.waitFor(() => true, "the other replica's first");
    expect(first.method).toBe("notifications/resources/updated");
    expect(other.notifications.items.map((message) => message.method)).toEqual([
      "notifications/resources/updated",
    ]);
  });
});
