/**
 * `mcp-dir dev` and helpers outside the server directory (a monorepo's
 * shared code, imported by a relative path that climbs out of it): a save of
 * one reloads the files that import it, directly or through other such
 * helpers. Packages are never reloaded, even one whose real path is outside
 * every node_modules (mcp-dir here is a link to this repository).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { UI_EXTENSION, VIEW_MIME_TYPE } from "../../src/protocol/ui.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import {
  connectDev,
  type DevServer,
  reloaded,
  stopDevServers,
  textOf,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

const tool = (helper: string) => `import { defineTool } from "mcp-dir";
import { word } from "${helper}";

export default defineTool({
  description: "Says the shared word",
  handler: () => word,
});
`;

const exportsWord = (word: string) => `export const word = "${word}";\n`;

const say = async (dev: DevServer) =>
  textOf(await dev.client.callTool({ name: "say", arguments: {} }));

/**
 * Saves `content` at `path`, and waits for the reloads of `file` until "say"
 * answers `word` (a reload of an earlier save may come first: an editor's
 * second write, a look again). A save no reload applies fails by the test's
 * timeout.
 */
async function saveThenHear(
  dev: DevServer,
  path: string,
  content: string,
  word: string,
  file = "tools/say.ts",
) {
  let seen = dev.lines().filter((line) => reloaded(file).test(line)).length;
  writeFileSync(path, content);
  do await dev.waitForLine(reloaded(file), ++seen);
  while ((await say(dev)) !== word);
}

describe("mcp-dir dev: a helper outside the server directory", () => {
  it("reloads the files that import it when it is saved, directly or through another", async () => {
    const root = await createServerDir({
      "server/tools/say.ts": tool("../../shared/words.ts"),
      "shared/words.ts": 'export { word } from "./word.ts";\n',
      "shared/word.ts": exportsWord("one"),
    });
    const dev = await connectDev(join(root, "server"));
    expect(await say(dev)).toBe("one");
    await saveThenHear(dev, join(root, "shared/word.ts"), exportsWord("two"), "two");
    await saveThenHear(dev, join(root, "shared/words.ts"), exportsWord("three"), "three");
  });

  it("is watched from the reload that first imports it", async () => {
    const root = await createServerDir({
      "server/tools/say.ts": tool("./_word.ts"),
      "server/tools/_word.ts": exportsWord("inside"),
      "shared/word.ts": exportsWord("one"),
    });
    const dev = await connectDev(join(root, "server"));
    expect(await say(dev)).toBe("inside");
    await saveThenHear(dev, join(root, "server/tools/say.ts"), tool("../../shared/word.ts"), "one");
    await saveThenHear(dev, join(root, "shared/word.ts"), exportsWord("two"), "two");
  });

  it("is applied when saved after the load read it and before the watcher watched", async () => {
    // The tool saves the helper itself once it has imported it: a save made while dev starts.
    const root = await createServerDir({
      "server/tools/say.ts": `import { readFileSync, writeFileSync } from "node:fs";
${tool("../../shared/word.ts")}
const helper = new URL("../../shared/word.ts", import.meta.url);
if (readFileSync(helper, "utf8").includes('"one"')) writeFileSync(helper, ${JSON.stringify(exportsWord("two"))});
`,
      "shared/word.ts": exportsWord("one"),
    });
    const dev = await connectDev(join(root, "server"));
    await dev.waitForLine(reloaded("tools/say.ts"));
    expect(await say(dev)).toBe("two");
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
      const dev = await connectDev(join(root, "server"));
      expect(await say(dev)).toBe("one");
      await saveThenHear(dev, join(root, "shared/word.ts"), exportsWord("two"), "two");
    }
  });

  it("builds a view again when a file outside the directory that it imports is saved", async () => {
    const root = await createServerDir({
      "server/views/weather.ts": `import { headline } from "../../shared/headline.ts";
document.getElementById("root")!.textContent = headline();
`,
      "shared/headline.ts": 'export const headline = () => "Forecast, first draft";\n',
    });
    const dev = await connectDev(join(root, "server"), [], {
      extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } },
    });
    const page = async () => {
      const { contents } = await dev.client.readResource({ uri: "ui://weather" });
      return (contents[0] as { text: string }).text;
    };
    expect(await page()).toContain("Forecast, first draft");
    writeFileSync(
      join(root, "shared/headline.ts"),
      'export const headline = () => "Forecast, second draft";\n',
    );
    await dev.waitForLine(reloaded("views/weather.ts"));
    expect(await page()).toContain("Forecast, second draft");
  });
});
