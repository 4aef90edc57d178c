/**
 * An answer counts only for the ask it answers: a tool file saved in
 * `mcp-dir dev` between its ask and the client's answer runs its new version,
 * which asks its own question rather than taking the old one's answer. The
 * official v2 client, pinned to 2026-07-28, over stdio and HTTP.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliHere, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";
import { closeClients, connectClient, type EraClient } from "./helpers/clients.js";

/** A tool that asks `question` and says which version took which answer. */
const confirmTool = (version: string, question: string) => `import { defineTool } from "mcp-dir";
import { z } from "zod";
export default defineTool({
  description: "Confirms, ${version}",
  handler: async (_args, ctx) => {
    const answer = await ctx.elicit({ message: ${JSON.stringify(question)}, schema: { ok: z.boolean() } });
    return "${version}: " + (answer.action === "accept" ? String(answer.content.ok) : answer.action);
  },
});
`;

afterAll(async () => {
  await closeClients();
  await stopAll();
  await removeServerDirs();
});

describe.each(["stdio", "http"] as const)("mcp-dir dev over %s, a save between rounds", (over) => {
  let dir: string;
  let client: EraClient;
  const asked: string[] = [];
  const changed = new Inbox<string>();

  beforeAll(async () => {
    dir = await createServerDir({ "tools/confirm.ts": confirmTool("v1", "Sure?") });
    const target =
      over === "stdio"
        ? { stdio: ["dev", dir] }
        : { url: (await startCliHere(["dev", dir, "--http", "--port", "0"])).url };
    client = await connectClient("v2 pinned to 2026-07-28", target, {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      answer: async (_method, params) => {
        const message = String(params.message);
        asked.push(message);
        if (message === "Sure?") {
          // The author saves the file while the user is still answering v1's question.
          const told = changed.items.length + 1;
          await writeFile(join(dir, "tools/confirm.ts"), confirmTool("v2", "Really sure?"));
          await changed.waitForCount(() => true, told, "tools/list_changed");
          return { action: "accept", content: { ok: true } };
        }
        return { action: "accept", content: { ok: false } };
      },
    });
    client.v2?.setNotificationHandler("notifications/tools/list_changed", () => {
      changed.push("tools/list_changed");
    });
    await client.v2?.listen({ toolsListChanged: true });
  });

  it("asks the new version's question instead of giving it the old one's answer", async () => {
    const result = await client.callTool({ name: "confirm", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "v2: false" }]);
    expect(asked).toEqual(["Sure?", "Really sure?"]);
  });
});
