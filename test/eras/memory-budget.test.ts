/**
 * What a client may make the server keep, through the official clients of
 * both eras over stdio and Streamable HTTP (the real CLI): resource URIs are
 * bounded in length for reads as for subscriptions, and what sessions and
 * listen streams keep is bounded all together by `memoryBudgetBytes`. Past it
 * a request is refused with an error naming the budget, and what a client
 * gives back (an unsubscribe, a closed stream) makes room again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  closeClients,
  connectClient,
  ERA_ROWS,
  type EraClient,
  refusal,
  serveDir,
} from "./helpers/clients.js";

/** Room for four subscriptions of the longest URI, with what a session or stream keeps besides. */
const BUDGET = 40_000;
const LONGEST = 8192;

const SERVER = {
  "mcp-dir.config.json": JSON.stringify({
    name: "budget",
    version: "1.0.0",
    memoryBudgetBytes: BUDGET,
  }),
  "resources/memo.ts": `import { defineResource } from "mcp-dir";
export default defineResource({
  uriTemplate: "memo://{id}",
  read: ({ params }) => "memo " + params.id.length,
});`,
};

/** A memo URI of `length` characters, told apart by `n`. */
function memoUri(n: number, length = LONGEST): string {
  const start = `memo://${n}`;
  return start + "x".repeat(length - start.length);
}

const budgetSpent = (method: string) =>
  `${method}: the server's memory budget has no room for this: what all its clients keep between requests (subscriptions, listen streams, sessions) may take ${BUDGET} bytes (memoryBudgetBytes); unsubscribe from a resource, close a listen stream or end a session no longer needed and try again, or raise memoryBudgetBytes in mcp-dir.config.ts or createServer`;

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(SERVER);
});
afterAll(async () => {
  await closeClients();
  await stopAll();
  await removeServerDirs();
});

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  const modern = kind !== "v1 at 2025-11-25";
  let client: EraClient;

  beforeAll(async () => {
    // A server of its own, so each client starts with the whole budget.
    const target = await serveDir(transport, dir);
    client = await connectClient(kind, target);
  });

  it(`reads a URI of ${LONGEST} characters and refuses a longer one with -32602`, async () => {
    const read = await client.readResource({ uri: memoUri(1) });
    expect(read.contents).toEqual([
      { uri: memoUri(1), mimeType: "text/plain", text: `memo ${LONGEST - 7}` },
    ]);
    expect(await refusal(client.readResource({ uri: memoUri(1, LONGEST + 1) }))).toEqual({
      code: -32602,
      message: `resources/read: the uri is ${LONGEST + 1} characters long; at most ${LONGEST} are accepted`,
    });
  });

  it(
    modern
      ? "keeps listen streams within memoryBudgetBytes, refuses one past it, and takes it once one closes"
      : "keeps subscriptions within memoryBudgetBytes, refuses one past it, and takes it after an unsubscribe",
    async () => {
      const four = [0, 1, 2, 3].map((n) => memoUri(n));
      if (!modern) {
        for (const uri of four) expect(await client.subscribeResource({ uri })).toEqual({});
        expect(await refusal(client.subscribeResource({ uri: memoUri(4) }))).toEqual({
          code: -32000,
          message: budgetSpent("resources/subscribe"),
        });
        await client.unsubscribeResource({ uri: memoUri(0) });
        expect(await client.subscribeResource({ uri: memoUri(4) })).toEqual({});
        return;
      }
      const v2 = client.v2;
      if (!v2) throw new Error("a 2026 client without its v2 client");
      const first = await v2.listen({ resourceSubscriptions: four });
      expect(first.honoredFilter).toEqual({ resourceSubscriptions: four });
      expect(await refusal(v2.listen({ resourceSubscriptions: [memoUri(4)] }))).toEqual({
        code: -32000,
        message: budgetSpent("subscriptions/listen"),
      });
      // Over HTTP the server learns a stream closed when its connection does, which no
      // later request waits for: test/http/memory-budget.test.ts watches for it there.
      if (transport === "http") return;
      await first.close();
      const second = await v2.listen({ resourceSubscriptions: [memoUri(4)] });
      expect(second.honoredFilter).toEqual({ resourceSubscriptions: [memoUri(4)] });
      await second.close();
    },
  );
});
