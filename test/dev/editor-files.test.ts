/**
 * Editors leave files beside the one saved: Emacs keeps the last version as
 * `name~`, JetBrains IDEs write `name___jb_tmp___` and `name___jb_old___`, vim
 * `.name.swp`. None of them is the user's: `dev` never watches them, and no
 * command serves them, warns about them or reloads them.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { createServerDir } from "../loader/helpers/server-dir.js";
import {
  RESOURCE_UPDATED,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
  TOOLS_CHANGED,
  toolFile,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const EDITOR_FILES = {
  "tools/greet.ts~": toolFile("Greets, the version before", "hi"),
  "tools/greet.ts___jb_old___": toolFile("Greets, older", "hi"),
  "tools/#greet.ts#": toolFile("Greets, auto-saved", "hi"),
  "prompts/standup.md~": "---\ndescription: The version before\n---\nStand-up.\n",
  "resources/about.md~": "# About, the version before\n",
  "resources/about.md___jb_tmp___": "# About, being written\n",
};

describe("editors' backup and temporary files", () => {
  it("are not served, nor warned about, by list", async () => {
    const dir = await createServerDir({
      "tools/greet.ts": toolFile("Greets", "hi"),
      "prompts/standup.md": "---\ndescription: Stand-up\n---\nStand-up.\n",
      "resources/about.md": "# About\n",
      ...EDITOR_FILES,
    });
    const { code, stdout, stderr } = await runCli(["list", dir, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as Record<string, unknown>;
    const sources = ["tools", "prompts", "resources"].flatMap((kind) =>
      (listed[kind] as { source: string }[]).map((item) => item.source),
    );
    expect(sources.sort()).toEqual(["prompts/standup.md", "resources/about.md", "tools/greet.ts"]);
  });

  it("are not served by dev after an Emacs-style save, which renames the old version to name~", async () => {
    const dev = await startDev({
      "tools/greet.ts": toolFile("Greets, v1", "v1"),
      "resources/about.md": "# About v1\n",
    });
    await dev.client.subscribeResource({ uri: "file:///about.md" });
    dev.rename("resources/about.md", "resources/about.md~");
    dev.write("resources/about.md", "# About v2\n");
    await dev.waitForCount(RESOURCE_UPDATED, 1);
    dev.rename("tools/greet.ts", "tools/greet.ts~");
    dev.write("tools/greet.ts", toolFile("Greets, v2", "v2"));
    await dev.waitForCount(TOOLS_CHANGED, 1);
    await dev.waitForLine(reloaded("tools/greet.ts"));

    const { resources } = await dev.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(["file:///about.md"]);
    const { tools } = await dev.client.listTools();
    expect(tools.map((tool) => tool.description)).toEqual(["Greets, v2"]);
    expect(dev.lines().filter((line) => /~/.test(line))).toEqual([]);
  });
});
