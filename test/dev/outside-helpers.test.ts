/**
 * Hot reload of helpers outside the server directory (a monorepo's shared
 * code, imported by a relative path that climbs out of it): a save of one
 * reloads the files that import it, directly or through other such helpers.
 * Packages are never reloaded, even one whose real path is outside every
 * node_modules (mcp-dir here is a link to this repository).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadServer, type ReloadOutcome, watchServer } from "../../src/index.js";
import { UI_EXTENSION, VIEW_MIME_TYPE } from "../../src/protocol/ui.js";
import { createTestClient, type TestClient } from "../../src/testing/index.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(removeServerDirs);

const tool = (helper: string) => `import { defineTool } from "mcp-dir";
import { word } from "${helper}";

export default defineTool({
  description: "Says the shared word",
  handler: () => word,
});
`;

const textOf = (result: { content: unknown }) =>
  (result.content as { type: string; text: string }[]).map(({ text }) => text).join("");

const exportsWord = (word: string) => `export const word = "${word}";\n`;

const say = async (client: TestClient) => textOf(await client.callTool({ name: "say" }));

/**
 * Saves `content` at `path`, and waits for the reloads until "say" answers
 * `word` (a reload of an earlier save may come first: an editor's second
 * write, a look again); each applies tools/say.ts. A save no reload applies
 * fails by the test's timeout.
 */
async function saveThenHear(client: TestClient, path: string, content: string, word: string) {
  let reloaded = client.nextReload();
  await writeFile(path, content);
  for (;;) {
    expect((await reloaded).applied).toEqual(["tools/say.ts"]);
    reloaded = client.nextReload();
    if ((await say(client)) === word) {
      // The client's close rejects the reload no save will make.
      reloaded.catch(() => {});
      return;
    }
  }
}

describe("a helper outside the server directory", () => {
  it("reloads the files that import it when it is saved, directly or through another", async () => {
    const root = await createServerDir({
      "server/tools/say.ts": tool("../../shared/words.ts"),
      "shared/words.ts": 'export { word } from "./word.ts";\n',
      "shared/word.ts": exportsWord("one"),
    });
    const client = await createTestClient(join(root, "server"), { watch: true });
    clients.push(client);
    expect(await say(client)).toBe("one");

    await saveThenHear(client, join(root, "shared/word.ts"), exportsWord("two"), "two");

    await saveThenHear(client, join(root, "shared/words.ts"), exportsWord("three"), "three");
  });

  it("is watched from the reload that first imports it", async () => {
    const root = await createServerDir({
      "server/tools/say.ts": tool("./_word.ts"),
      "server/tools/_word.ts": exportsWord("inside"),
      "shared/word.ts": exportsWord("one"),
    });
    const client = await createTestClient(join(root, "server"), { watch: true });
    clients.push(client);
    expect(await say(client)).toBe("inside");

    await saveThenHear(
      client,
      join(root, "server/tools/say.ts"),
      tool("../../shared/word.ts"),
      "one",
    );

    await saveThenHear(client, join(root, "shared/word.ts"), exportsWord("two"), "two");
  });

  it("is applied when saved after the load read it and before the watcher watched", async () => {
    // As a save made while `mcp-dir dev` starts.
    const root = await createServerDir({
      "server/tools/say.ts": tool("../../shared/word.ts"),
      "shared/word.ts": exportsWord("one"),
    });
    const { server } = await loadServer(join(root, "server"));
    await writeFile(join(root, "shared/word.ts"), exportsWord("two"));
    const outcomes: ReloadOutcome[] = [];
    const watcher = await watchServer(server, join(root, "server"), {
      onReload: (outcome) => void outcomes.push(outcome),
    });
    const client: TestClient = await createTestClient(server);
    clients.push(client, watcher, server);
    expect(outcomes.map((outcome) => outcome.applied)).toEqual([["tools/say.ts"]]);
    expect(await say(client)).toBe("two");
  });

  it("reloads a file with top-level await that imports it, in a folder of either module type", async () => {
    for (const packageJson of [{ type: "module" }, {}]) {
      const root = await createServerDir(
        {
          "server/tools/say.ts": `${tool("../../shared/word.ts")}await Promise.resolve();\n`,
          "server/package.json": JSON.stringify(packageJson),
          "shared/word.ts": exportsWord("one"),
        },
        { packageJson: false },
      );
      const client = await createTestClient(join(root, "server"), { watch: true });
      clients.push(client);
      expect(await say(client)).toBe("one");

      await saveThenHear(client, join(root, "shared/word.ts"), exportsWord("two"), "two");
    }
  });

  it("builds a view again when a file outside the directory that it imports is saved", async () => {
    const root = await createServerDir({
      "server/views/weather.ts": `import { headline } from "../../shared/headline.ts";
document.getElementById("root")!.textContent = headline();
`,
      "shared/headline.ts": 'export const headline = () => "Forecast, first draft";\n',
    });
    const client = await createTestClient(join(root, "server"), {
      capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } },
      watch: true,
    });
    clients.push(client);
    const page = async () => {
      const { contents } = await client.readResource({ uri: "ui://weather" });
      return (contents[0] as { text: string }).text;
    };
    expect(await page()).toContain("Forecast, first draft");

    const rebuilt = client.nextReload();
    await writeFile(
      join(root, "shared/headline.ts"),
      'export const headline = () => "Forecast, second draft";\n',
    );
    expect((await rebuilt).applied).toEqual(["views/weather.ts"]);
    expect(await page()).toContain("Forecast, second draft");
  });
});
