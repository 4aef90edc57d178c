/**
 * Where serve finds its Redis: MCP_DIR_REDIS_URL over the configuration's
 * redis, a wrong URL refused by name, and a Redis out of reach at start
 * served around (what needs none is served; it connects once it can).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpTaskWire } from "../eras/helpers/task-wire.js";
import { type RedisServer, startRedis, stopAllRedis } from "../helpers/redis-server.js";
import { runCli, startCli, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { REPLICATED_SERVER } from "./fixture.js";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await stopAll();
  await stopAllRedis();
  await removeServerDirs();
});

/** The fixture with its own redis setting. */
const withRedis = (redis: unknown) =>
  createServerDir({
    ...REPLICATED_SERVER,
    "mcp-dir.config.json": JSON.stringify({ name: "replicated", version: "1.0.0", redis }),
  });

describe("serve's Redis", () => {
  it("is MCP_DIR_REDIS_URL's over the configuration's, with the configuration's prefix", async () => {
    const dir = await withRedis({ url: "redis://127.0.0.1:1", prefix: "weather:" });
    const serving = await startCli(["serve", dir, "--http", "--port", "0"], {
      env: { MCP_DIR_REDIS_URL: redis.url },
    });
    expect(serving.stderr()).toContain(
      `mcp-dir: replicas share tasks, resource updates and 2025 streams through Redis at ${redis.url} (keys weather:*)\n`,
    );
  });

  it("is refused, naming the variable, when MCP_DIR_REDIS_URL is not a Redis URL", async () => {
    const dir = await withRedis(undefined);
    const run = await runCli(["serve", dir, "--http", "--port", "0"], {
      env: { MCP_DIR_REDIS_URL: "localhost:6379" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'MCP_DIR_REDIS_URL must be a redis:// or rediss:// URL, such as redis://127.0.0.1:6379, got "localhost:6379"',
    );
  });

  it("out of reach at start is said, and what needs none is served meanwhile", async () => {
    const dir = await withRedis("redis://127.0.0.1:1");
    const serving = await startCli(["serve", dir, "--http", "--port", "0"]);
    expect(serving.stderr()).toMatch(
      /Redis at redis:\/\/127\.0\.0\.1:1 cannot be reached \(.+\): tasks, resource updates between replicas and 2025 streams resumed on another replica wait for it; reconnecting\n/,
    );
    const wire = httpTaskWire(serving.url);
    expect(
      (await wire.request("tools/call", { name: "plain", arguments: {} })).result.content,
    ).toEqual([{ type: "text", text: "plain" }]);
  });
});
