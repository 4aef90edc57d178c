import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatProblem, formatWarning, loadDirectory, loadFile } from "../../src/loader/index.js";
import { connectToDirectory } from "../helpers/directory-client.js";
import { closeSdkClients, type SdkConnection } from "../server/helpers/sdk-client.js";
import { createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await closeSdkClients();
  await removeServerDirs();
});

const STANDUP = `---
title: Daily stand-up
description: Turns notes into a stand-up update
arguments:
  - name: yesterday
    description: What you did yesterday
    required: true
  - name: today
    required: true
  - blockers
---
Yesterday: {{yesterday}}
Today: {{ today }}
Blockers: {{blockers}}
`;

describe("a Markdown prompt served to a real client", () => {
  let connection: SdkConnection;

  beforeAll(async () => {
    const dir = await createServerDir({
      "prompts/standup.md": STANDUP,
      "prompts/team/plain.md": "Say hello to the team.\n",
    });
    connection = await connectToDirectory(dir);
  });

  it("lists it with the title, description and arguments of its front matter", async () => {
    const { prompts } = await connection.client.listPrompts();
    expect(prompts).toEqual([
      {
        name: "standup",
        title: "Daily stand-up",
        description: "Turns notes into a stand-up update",
        arguments: [
          { name: "yesterday", description: "What you did yesterday", required: true },
          { name: "today", required: true },
          { name: "blockers" },
        ],
      },
      { name: "team_plain" },
    ]);
  });

  it("fills the {{argument}} placeholders of its body, an absent optional one with nothing", async () => {
    const result = await connection.client.getPrompt({
      name: "standup",
      arguments: { yesterday: "shipped the loader", today: "write the README" },
    });
    expect(result).toEqual({
      description: "Turns notes into a stand-up update",
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: "Yesterday: shipped the loader\nToday: write the README\nBlockers: ",
          },
        },
      ],
    });
  });

  it("serves a file without front matter as a prompt without arguments", async () => {
    const result = await connection.client.getPrompt({ name: "team_plain" });
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Say hello to the team." } },
    ]);
  });

  it("answers -32602 naming the missing required arguments", async () => {
    await expect(
      connection.client.getPrompt({ name: "standup", arguments: { today: "tests" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Missing required argument for prompt "standup": yesterday',
    });
    await expect(connection.client.getPrompt({ name: "standup" })).rejects.toMatchObject({
      code: -32602,
      message:
        'MCP error -32602: Missing required arguments for prompt "standup": yesterday, today',
    });
  });
});

describe("a Markdown prompt whose arguments are named with more than letters and digits", () => {
  it("fills {{café}} and {{user.name}}, warns of no argument of theirs, and leaves {{#each}} as written", async () => {
    const dir = await createServerDir({
      "prompts/greet.md":
        "---\narguments:\n  - name: café\n    required: true\n  - user.name\n---\n{{café}} pour {{ user.name }} {{#each items}} {{missing}}\n",
    });
    const load = await loadFile(dir, "prompts/greet.md");
    expect(load.warnings.map(formatWarning)).toEqual([
      'prompts/greet.md: {{missing}} in the body is not an argument, so it is always empty; add it to "arguments" in the front matter',
    ]);
    const connection = await connectToDirectory(dir);
    const result = await connection.client.getPrompt({
      name: "greet",
      arguments: { café: "Un crème", "user.name": "Zoë" },
    });
    expect(result.messages).toEqual([
      {
        role: "user",
        content: { type: "text", text: "Un crème pour Zoë {{#each items}} " },
      },
    ]);
  });
});

describe("a Markdown prompt's body, as written", () => {
  it("keeps its first line's indentation and its blank lines at the end, dropping only the blank lines after the front matter and the file's last line break", async () => {
    const dir = await createServerDir({
      "prompts/code.md":
        "---\ndescription: Code first\n---\n\n    const x = 1;\n\nExplain the code above.  \n\n\n",
      "prompts/bare.md": "\n \n  indented, no front matter\n",
      "prompts/crlf.md": "---\r\ndescription: Windows\r\n---\r\n\r\nLine\r\n\r\n",
      "prompts/unended.md": "---\ndescription: No last line break\n---\nLast line \n ",
    });
    const connection = await connectToDirectory(dir);
    const text = async (name: string) =>
      (await connection.client.getPrompt({ name })).messages.map((m) => m.content);
    expect(await text("code")).toEqual([
      { type: "text", text: "    const x = 1;\n\nExplain the code above.  \n\n" },
    ]);
    expect(await text("bare")).toEqual([{ type: "text", text: "  indented, no front matter" }]);
    expect(await text("crlf")).toEqual([{ type: "text", text: "Line\r\n" }]);
    expect(await text("unended")).toEqual([{ type: "text", text: "Last line \n " }]);
  });
});

describe("a Markdown prompt with icons", () => {
  it("lists the icons of its front matter, as a code prompt's", async () => {
    const dir = await createServerDir({
      "prompts/iconic.md": `---
description: Has icons
icons:
  - src: https://example.com/icon.png
    mimeType: image/png
    sizes: [48x48, 96x96]
  - src: data:image/svg+xml;base64,PHN2Zy8+
    theme: dark
---
Hello
`,
    });
    const load = await loadFile(dir, "prompts/iconic.md");
    expect(load.warnings.map(formatWarning)).toEqual([]);
    const connection = await connectToDirectory(dir);
    expect((await connection.client.listPrompts()).prompts).toEqual([
      {
        name: "iconic",
        description: "Has icons",
        icons: [
          { src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48", "96x96"] },
          { src: "data:image/svg+xml;base64,PHN2Zy8+", theme: "dark" },
        ],
      },
    ]);
  });

  it("refuses the icons a code prompt's are refused for, with the same texts", async () => {
    const icons = `[{ src: "https://example.com/a.png", sizes: "48x48", theme: "dim" }, "b.png", {}]`;
    const dir = await createServerDir({
      "prompts/icons.md": `---\nicons: ${icons}\n---\nHello\n`,
      "prompts/code.js": `export default { icons: ${icons}, get: () => "Hello" };\n`,
    });
    const problems = (await loadDirectory(dir)).problems.map(formatProblem);
    const ICON = '{ src: "https://example.com/icon.png", mimeType: "image/png" }';
    const texts = [
      '  - icons[0].sizes must be an array of strings (["48x48"] or ["any"]), got a string',
      '  - icons[0].theme must be "light" or "dark", got "dim"',
      `  - icons[1] must be an icon (${ICON}), got a string`,
      "  - icons[2].src must be a string (an https: URL or a data: URI), got nothing",
    ];
    expect(problems).toEqual([
      ['prompts/code.js (export "default"): Prompt "code" is invalid:', ...texts].join("\n"),
      ['prompts/icons.md: Prompt "icons" is invalid:', ...texts].join("\n"),
    ]);
  });
});

describe("Markdown prompts with mistakes", () => {
  it("reports bad front matter with its position, and every problem of a file", async () => {
    const dir = await createServerDir({
      "prompts/bad-yaml.md":
        "---\ndescription: ok\narguments:\n  - name: a\n   required: [\n---\nBody\n",
      "prompts/unclosed.md": "---\ndescription: never closed\nBody\n",
      "prompts/not-a-list.md": "---\narguments: topic\n---\nAbout {{topic}}\n",
      "prompts/wrong-types.md":
        "---\ndescription: 42\narguments:\n  - description: no name\n  - name: tone\n    required: yes please\n---\nBody\n",
      "prompts/empty.md": "---\ndescription: Nothing below\n---\n\n",
      "prompts/scalar.md": "---\njust text\n---\nBody\n",
    });
    const load = await loadDirectory(dir);
    expect(load.problems.map(formatProblem)).toEqual([
      "prompts/bad-yaml.md: front matter is not valid YAML: Sequence item without - indicator (5:1)",
      "prompts/empty.md: the body is empty: write the prompt's text below the front matter",
      `prompts/not-a-list.md: front matter "arguments" must be a list, such as:
    arguments:
      - name: topic
        description: What to write about
        required: true`,
      "prompts/scalar.md: front matter must be a mapping of keys, such as description: ...",
      'prompts/unclosed.md: front matter is not closed: end it with a line of "---"',
      'prompts/wrong-types.md: front matter "description" must be text, got 42',
      "prompts/wrong-types.md: front matter arguments[0] needs a name (name: topic)",
      'prompts/wrong-types.md: front matter arguments[1] ("tone"): required must be true or false',
    ]);
  });

  it("points a YAML mistake at the line it is on, where the parser finds it only further on", async () => {
    const dir = await createServerDir({
      "prompts/tab.md":
        "---\ndescription: Tabs\narguments:\n\t- name: topic\n---\nAbout {{topic}}\n",
      "prompts/colon.md":
        "---\ntitle: Colon\ndescription A prompt\narguments: [topic]\n---\n{{topic}}\n",
      // A key without its colon: after a line of its own, in a list item, alone.
      "prompts/colon-after.md": "---\ndescription: A prompt\ntitle Colon\n---\nBody\n",
      "prompts/colon-in-item.md":
        "---\narguments:\n  - name: topic\n    required true\n---\n{{topic}}\n",
      "prompts/colon-alone.md": "---\ndescription: A prompt\ntitle\n---\nBody\n",
      "prompts/quote.md":
        '---\ntitle: "Unclosed\ndescription: A prompt\narguments:\n  - name: topic\n---\n{{topic}}\n',
      "prompts/nested-quote.md":
        "---\narguments:\n  - name: a\n    description: 'unclosed\n  - name: b\n---\n{{a}}\n",
      "prompts/list.md": "---\narguments: [topic, tone\ndescription: x\n---\n{{topic}}\n",
      // The first quote is closed after its escaped backslash; the second is escaped, so never closed.
      "prompts/escaped.md": '---\ntitle: "C:\\\\"\ndescription: "say \\"\n---\nBody\n',
    });
    expect((await loadDirectory(dir)).problems.map(formatProblem)).toEqual([
      'prompts/colon-after.md: front matter is not valid YAML: "title Colon" has no colon after its key: write title: Colon (3:1)',
      'prompts/colon-alone.md: front matter is not valid YAML: "title" has no colon after its key: write title: ... (3:1)',
      'prompts/colon-in-item.md: front matter is not valid YAML: "required true" has no colon after its key: write required: true (4:5)',
      'prompts/colon.md: front matter is not valid YAML: "description A prompt" has no colon after its key: write description: A prompt (3:1)',
      'prompts/escaped.md: front matter is not valid YAML: Missing closing "quote (3:14, where it opens)',
      "prompts/list.md: front matter is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (2:12, where it opens)",
      "prompts/nested-quote.md: front matter is not valid YAML: Missing closing 'quote (4:18, where it opens)",
      'prompts/quote.md: front matter is not valid YAML: Missing closing "quote (2:8, where it opens)',
      "prompts/tab.md: front matter is not valid YAML: Tabs are not allowed as indentation (4:1)",
    ]);
  });

  it("warns about unused front matter keys and placeholders that are not arguments", async () => {
    const dir = await createServerDir({
      "prompts/typo.md":
        "---\ndescripton: misspelt\narguments: [topic]\n---\n{{topic}} for {{audience}}\n",
    });
    const load = await loadFile(dir, "prompts/typo.md");
    expect(load.problems).toEqual([]);
    expect(load.entries).toHaveLength(1);
    expect(load.warnings.map(formatWarning)).toEqual([
      'prompts/typo.md: front matter key "descripton" is not used; the keys are name, title, description, icons, arguments',
      'prompts/typo.md: {{audience}} in the body is not an argument, so it is always empty; add it to "arguments" in the front matter',
    ]);
  });

  it("warns about an argument's unused keys, so a misspelt required is not silently optional", async () => {
    const dir = await createServerDir({
      "prompts/typo.md":
        "---\narguments:\n  - name: topic\n    requried: true\n    completion: [a, b]\n---\nAbout {{topic}}\n",
    });
    const load = await loadFile(dir, "prompts/typo.md");
    expect(load.problems).toEqual([]);
    expect(load.warnings.map(formatWarning)).toEqual([
      'prompts/typo.md: front matter arguments[0] ("topic"): key "requried" is not used; the keys are name, title, description, required',
      'prompts/typo.md: front matter arguments[0] ("topic"): key "completion" is not used; the keys are name, title, description, required',
    ]);
  });
});
