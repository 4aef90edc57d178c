import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type DevServer,
  PROMPTS_CHANGED,
  RESOURCE_UPDATED,
  RESOURCES_CHANGED,
  reloaded,
  removeServerDirs,
  startDev,
  stopDevServers,
} from "./helpers/dev-server.js";

afterEach(stopDevServers);
afterAll(removeServerDirs);

/** Every notification so far, as method (and uri), once a round trip proves no other is on its way. */
async function told(dev: DevServer): Promise<string[]> {
  await dev.client.ping();
  return dev.notifications.items.map((n) =>
    n.params?.uri === undefined ? n.method : `${n.method} ${n.params.uri}`,
  );
}

const codePrompt = (version: string) => `import { definePrompt } from "mcp-dir";
import { z } from "zod";

export default definePrompt({
  description: "Greets someone (${version})",
  arguments: { name: z.string() },
  get: ({ name }) => \`Greet \${name} warmly (${version})\`,
});
`;

const markdownPrompt = (description: string, body: string) => `---
description: ${description}
arguments:
  - name: who
    required: true
---
${body}
`;

describe("mcp-dir dev: prompts", () => {
  it("applies code and Markdown prompts in place", async () => {
    const dev = await startDev({
      "prompts/greet.ts": codePrompt("v1"),
      "prompts/standup.md": markdownPrompt("Stand-up v1", "Stand-up for {{who}}, v1"),
    });
    const text = async (name: string, args: Record<string, string>) =>
      (await dev.client.getPrompt({ name, arguments: args })).messages[0]?.content;

    dev.write("prompts/greet.ts", codePrompt("v2"));
    await dev.waitForCount(PROMPTS_CHANGED, 1);
    expect(await text("greet", { name: "Ann" })).toEqual({
      type: "text",
      text: "Greet Ann warmly (v2)",
    });
    expect((await dev.client.listPrompts()).prompts[0]?.description).toBe("Greets someone (v2)");

    dev.write("prompts/standup.md", markdownPrompt("Stand-up v2", "Stand-up for {{who}}, v2"));
    await dev.waitForCount(PROMPTS_CHANGED, 2);
    expect(await text("standup", { who: "Bo" })).toEqual({
      type: "text",
      text: "Stand-up for Bo, v2",
    });

    // Only the body changed: the list is the same, so no list_changed, but the new text serves.
    dev.write("prompts/standup.md", markdownPrompt("Stand-up v2", "Stand-up for {{who}}, v3"));
    await dev.waitForLine(reloaded("prompts/standup.md"), 2);
    expect(await text("standup", { who: "Bo" })).toEqual({
      type: "text",
      text: "Stand-up for Bo, v3",
    });
    expect(dev.count(PROMPTS_CHANGED)).toBe(2);

    dev.rename("prompts/standup.md", "prompts/team/daily.md");
    await dev.waitForCount(PROMPTS_CHANGED, 3);
    expect(await text("team_daily", { who: "Cy" })).toEqual({
      type: "text",
      text: "Stand-up for Cy, v3",
    });
    expect((await dev.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      "greet",
      "team_daily",
    ]);

    dev.write("prompts/retro.md", "Run a retro\n");
    await dev.waitForCount(PROMPTS_CHANGED, 4);
    expect((await dev.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      "greet",
      "retro",
      "team_daily",
    ]);
    dev.remove("prompts/retro.md");
    await dev.waitForCount(PROMPTS_CHANGED, 5);
    expect((await dev.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual([
      "greet",
      "team_daily",
    ]);
    expect(await told(dev)).toEqual(Array(5).fill(PROMPTS_CHANGED));
    await dev.waitForLine("mcp-dir dev: removed prompts/retro.md");
    expect(dev.lines().slice(2)).toEqual([
      expect.stringMatching(reloaded("prompts/greet.ts")),
      expect.stringMatching(reloaded("prompts/standup.md")),
      expect.stringMatching(reloaded("prompts/standup.md")),
      expect.stringMatching(reloaded("prompts/team/daily.md")),
      "mcp-dir dev: removed prompts/standup.md",
      expect.stringMatching(reloaded("prompts/retro.md")),
      "mcp-dir dev: removed prompts/retro.md",
    ]);
  });
});

const codeResource = (version: number) => `import { defineResource } from "mcp-dir";

export default defineResource({
  uri: "config://app",
  description: "The app's settings",
  read: () => ({ version: ${version} }),
});
`;

const templateResource = (version: string) => `import { defineResource } from "mcp-dir";

export default defineResource({
  uriTemplate: "users://{id}",
  description: "A user (${version})",
  read: ({ params }) => \`user \${params.id} (${version})\`,
});
`;

describe("mcp-dir dev: resources", () => {
  it("tells subscribers of a changed static file or code resource, and every client of a list change", async () => {
    const dev = await startDev({
      "resources/guide.md": "# Guide v1\n",
      "resources/notes.md": "Notes v1\n",
      "resources/config.ts": codeResource(1),
      "resources/user.ts": templateResource("v1"),
    });
    const { client } = dev;
    const read = async (uri: string) => (await client.readResource({ uri })).contents[0];
    expect(await client.subscribeResource({ uri: "file:///guide.md" })).toEqual({});
    expect(await client.subscribeResource({ uri: "config://app" })).toEqual({});

    // A static file, same size: its content changed, its list entry did not.
    dev.write("resources/guide.md", "# Guide v2\n");
    await dev.waitForCount(RESOURCE_UPDATED, 1);
    expect(await read("file:///guide.md")).toEqual({
      uri: "file:///guide.md",
      mimeType: "text/markdown",
      text: "# Guide v2\n",
    });
    expect(await told(dev)).toEqual([`${RESOURCE_UPDATED} file:///guide.md`]);

    // A code resource whose read() changed.
    dev.write("resources/config.ts", codeResource(2));
    await dev.waitForCount(RESOURCE_UPDATED, 2);
    expect(await read("config://app")).toEqual({
      uri: "config://app",
      mimeType: "application/json",
      text: '{"version":2}',
    });
    expect((await told(dev)).slice(1)).toEqual([`${RESOURCE_UPDATED} config://app`]);

    // A file nobody subscribed to: nothing to tell, but it is served anew.
    dev.write("resources/notes.md", "Notes v2\n");
    await dev.waitForLine(reloaded("resources/notes.md"));
    expect(await read("file:///notes.md")).toMatchObject({ text: "Notes v2\n" });
    expect(await told(dev)).toHaveLength(2);

    // A template: its description is in the list.
    dev.write("resources/user.ts", templateResource("v2"));
    await dev.waitForCount(RESOURCES_CHANGED, 1);
    expect(await read("users://7")).toEqual({
      uri: "users://7",
      mimeType: "text/plain",
      text: "user 7 (v2)",
    });
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "users://{id}", name: "user", description: "A user (v2)" },
    ]);
    expect((await told(dev)).slice(2)).toEqual([RESOURCES_CHANGED]);

    // A static file that grows: its size is in the list, and its subscribers are told.
    dev.write("resources/guide.md", "# Guide v3, longer\n");
    await dev.waitForCount(RESOURCE_UPDATED, 3);
    await dev.waitForCount(RESOURCES_CHANGED, 2);
    expect(await read("file:///guide.md")).toMatchObject({ text: "# Guide v3, longer\n" });
    expect((await told(dev)).slice(3)).toEqual([
      RESOURCES_CHANGED,
      `${RESOURCE_UPDATED} file:///guide.md`,
    ]);

    // Added and deleted files.
    dev.write("resources/data/new.txt", "new\n");
    await dev.waitForCount(RESOURCES_CHANGED, 3);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "config://app",
      "file:///data/new.txt",
      "file:///guide.md",
      "file:///notes.md",
    ]);
    dev.remove("resources/guide.md");
    await dev.waitForCount(RESOURCES_CHANGED, 4);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "config://app",
      "file:///data/new.txt",
      "file:///notes.md",
    ]);
    expect((await told(dev)).slice(5)).toEqual([
      RESOURCES_CHANGED,
      RESOURCES_CHANGED,
      `${RESOURCE_UPDATED} file:///guide.md`,
    ]);

    // A rename: one file out, one in, one list change.
    dev.rename("resources/notes.md", "resources/data/notes.md");
    await dev.waitForCount(RESOURCES_CHANGED, 5);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "config://app",
      "file:///data/new.txt",
      "file:///data/notes.md",
    ]);
    expect(await read("file:///data/notes.md")).toMatchObject({ text: "Notes v2\n" });
    expect((await told(dev)).slice(8)).toEqual([RESOURCES_CHANGED]);
    expect(dev.errors).toEqual([]);
  });
});

describe("a folder created during a dev session", () => {
  it("is announced from the start, so connected clients can use prompts added later", async () => {
    const dev = await startDev({
      "tools/hello.ts": 'export default { description: "Hi", handler: () => "hi" };\n',
    });
    expect(dev.client.getServerCapabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      extensions: { "io.modelcontextprotocol/ui": {} },
    });
    const changed = dev.waitForCount(PROMPTS_CHANGED, 1);
    dev.write("prompts/later.md", markdownPrompt("Added later", "Hello {{who}}"));
    await changed;
    const { prompts } = await dev.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.description])).toEqual([["later", "Added later"]]);
  });
});
