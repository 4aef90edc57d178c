import { describe, expect, it } from "vitest";
import {
  type CallToolResult,
  type ContentBlock,
  callToolResultForVersion,
  contentForVersion,
  type GetPromptResult,
  type Implementation,
  implementationForVersion,
  type Prompt,
  promptForVersion,
  promptResultForVersion,
  type Resource,
  type ResourceTemplate,
  resourceForVersion,
  type Tool,
  toolForVersion,
} from "../../src/protocol/index.js";

const ICONS = [{ src: "https://example.com/i.png", mimeType: "image/png" }];
const NEWEST = ["2025-11-25", "2026-07-28"];

describe("toolForVersion", () => {
  const tool: Tool = {
    name: "add",
    title: "Add",
    description: "Adds",
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { sum: { type: "number" } } },
    annotations: { readOnlyHint: true },
    icons: ICONS,
    _meta: { k: 1 },
  };

  it("2024-11-05: leaves out title, icons, outputSchema and annotations", () => {
    expect(toolForVersion(tool, "2024-11-05")).toEqual({
      name: "add",
      description: "Adds",
      inputSchema: { type: "object" },
      _meta: { k: 1 },
    });
  });

  it("2025-03-26: adds annotations", () => {
    expect(toolForVersion(tool, "2025-03-26")).toEqual({
      name: "add",
      description: "Adds",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
      _meta: { k: 1 },
    });
  });

  it("2025-06-18: adds title and outputSchema, still no icons", () => {
    expect(toolForVersion(tool, "2025-06-18")).toEqual({
      name: "add",
      title: "Add",
      description: "Adds",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { sum: { type: "number" } } },
      annotations: { readOnlyHint: true },
      _meta: { k: 1 },
    });
  });

  it.each(NEWEST)("%s: returns the same object", (version) => {
    expect(toolForVersion(tool, version)).toBe(tool);
  });

  it("returns the same object when nothing needs removing, and never mutates", () => {
    const plain: Tool = { name: "x", inputSchema: { type: "object" } };
    expect(toolForVersion(plain, "2024-11-05")).toBe(plain);
    toolForVersion(tool, "2024-11-05");
    expect(Object.keys(tool)).toHaveLength(8);
  });
});

describe("promptForVersion", () => {
  const prompt: Prompt = {
    name: "review",
    title: "Review",
    description: "Reviews",
    arguments: [
      { name: "code", title: "Code", required: true },
      { name: "lang", description: "Language" },
    ],
    icons: ICONS,
  };

  it.each(["2024-11-05", "2025-03-26"])(
    "%s: leaves out titles (argument titles too) and icons",
    (v) => {
      expect(promptForVersion(prompt, v)).toEqual({
        name: "review",
        description: "Reviews",
        arguments: [
          { name: "code", required: true },
          { name: "lang", description: "Language" },
        ],
      });
    },
  );

  it("2025-06-18: keeps titles, leaves out icons", () => {
    const shaped = promptForVersion(prompt, "2025-06-18");
    expect(shaped).toEqual({
      name: "review",
      title: "Review",
      description: "Reviews",
      arguments: prompt.arguments,
    });
    expect(shaped.arguments).toBe(prompt.arguments);
  });

  it.each(NEWEST)("%s: returns the same object", (version) => {
    expect(promptForVersion(prompt, version)).toBe(prompt);
  });

  it("returns the same object for an old client when nothing needs removing", () => {
    const plain: Prompt = { name: "p", arguments: [{ name: "a" }] };
    expect(promptForVersion(plain, "2024-11-05")).toBe(plain);
  });
});

describe("resourceForVersion", () => {
  const resource: Resource = {
    uri: "config://app",
    name: "config",
    title: "Config",
    mimeType: "application/json",
    annotations: { priority: 1 },
    icons: ICONS,
  };
  const template: ResourceTemplate = { uriTemplate: "users://{id}", name: "user", title: "User" };

  it("leaves out title and icons for the revisions before them", () => {
    const base = { uri: "config://app", name: "config", mimeType: "application/json" };
    expect(resourceForVersion(resource, "2024-11-05")).toEqual({
      ...base,
      annotations: { priority: 1 },
    });
    expect(resourceForVersion(resource, "2025-03-26")).toEqual({
      ...base,
      annotations: { priority: 1 },
    });
    expect(resourceForVersion(resource, "2025-06-18")).toEqual({
      ...base,
      title: "Config",
      annotations: { priority: 1 },
    });
    expect(resourceForVersion(resource, "2025-11-25")).toBe(resource);
  });

  it("shapes templates the same way", () => {
    expect(resourceForVersion(template, "2025-03-26")).toEqual({
      uriTemplate: "users://{id}",
      name: "user",
    });
    expect(resourceForVersion(template, "2025-06-18")).toBe(template);
  });
});

describe("implementationForVersion", () => {
  const info: Implementation = {
    name: "mcp-dir",
    version: "1.0.0",
    title: "mcp-dir",
    description: "A server",
    websiteUrl: "https://example.com",
    icons: ICONS,
  };

  it("leaves out what each revision does not know", () => {
    expect(implementationForVersion(info, "2024-11-05")).toEqual({
      name: "mcp-dir",
      version: "1.0.0",
    });
    expect(implementationForVersion(info, "2025-03-26")).toEqual({
      name: "mcp-dir",
      version: "1.0.0",
    });
    expect(implementationForVersion(info, "2025-06-18")).toEqual({
      name: "mcp-dir",
      version: "1.0.0",
      title: "mcp-dir",
    });
  });

  it.each(NEWEST)("%s: returns the same object", (version) => {
    expect(implementationForVersion(info, version)).toBe(info);
  });

  it("returns the same object when there is nothing to remove", () => {
    const plain = { name: "x", version: "1" };
    expect(implementationForVersion(plain, "2024-11-05")).toBe(plain);
  });
});

const textBlock: ContentBlock = { type: "text", text: "hi" };
const imageBlock: ContentBlock = { type: "image", data: "AAAA", mimeType: "image/png" };
const audioBlock: ContentBlock = { type: "audio", data: "AAAA", mimeType: "audio/wav" };
const embedded: ContentBlock = { type: "resource", resource: { uri: "a://b", text: "x" } };
const link: ContentBlock = {
  type: "resource_link",
  uri: "file:///a.txt",
  name: "a.txt",
  title: "A",
  icons: ICONS,
};

describe("contentForVersion", () => {
  const blocks = [textBlock, imageBlock, audioBlock, embedded, link];

  it("2024-11-05: leaves out audio and resource links", () => {
    expect(contentForVersion(blocks, "2024-11-05")).toEqual([textBlock, imageBlock, embedded]);
  });

  it("2025-03-26: keeps audio, leaves out resource links", () => {
    expect(contentForVersion(blocks, "2025-03-26")).toEqual([
      textBlock,
      imageBlock,
      audioBlock,
      embedded,
    ]);
  });

  it("2025-06-18: keeps resource links, without their icons", () => {
    const shaped = contentForVersion(blocks, "2025-06-18");
    expect(shaped).toEqual([
      textBlock,
      imageBlock,
      audioBlock,
      embedded,
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", title: "A" },
    ]);
    expect(shaped[0]).toBe(textBlock);
  });

  it.each(NEWEST)("%s: returns the same array", (version) => {
    expect(contentForVersion(blocks, version)).toBe(blocks);
  });

  it("returns the same array for an old client when every block is known", () => {
    const old = [textBlock, imageBlock, embedded];
    expect(contentForVersion(old, "2024-11-05")).toBe(old);
  });
});

describe("callToolResultForVersion", () => {
  const result: CallToolResult = {
    content: [textBlock, audioBlock],
    structuredContent: { sum: 3 },
    isError: false,
  };

  it("2024-11-05: leaves out audio and structuredContent", () => {
    expect(callToolResultForVersion(result, "2024-11-05")).toEqual({
      content: [textBlock],
      isError: false,
    });
  });

  it("2025-03-26: keeps audio, leaves out structuredContent", () => {
    const shaped = callToolResultForVersion(result, "2025-03-26");
    expect(shaped).toEqual({ content: [textBlock, audioBlock], isError: false });
    expect(shaped.content).toBe(result.content);
    expect(result.structuredContent).toEqual({ sum: 3 });
  });

  it.each(["2025-06-18", ...NEWEST])("%s: returns the same object", (version) => {
    expect(callToolResultForVersion(result, version)).toBe(result);
  });

  it("returns the same object for an old client when nothing needs removing", () => {
    const plain: CallToolResult = { content: [textBlock] };
    expect(callToolResultForVersion(plain, "2024-11-05")).toBe(plain);
  });
});

describe("promptResultForVersion", () => {
  const result: GetPromptResult = {
    description: "d",
    messages: [
      { role: "user", content: textBlock },
      { role: "assistant", content: audioBlock },
      { role: "user", content: link },
    ],
  };

  it("2024-11-05: leaves out messages with audio or resource links", () => {
    expect(promptResultForVersion(result, "2024-11-05")).toEqual({
      description: "d",
      messages: [{ role: "user", content: textBlock }],
    });
  });

  it("2025-03-26: keeps audio, leaves out resource links", () => {
    expect(promptResultForVersion(result, "2025-03-26")).toEqual({
      description: "d",
      messages: [
        { role: "user", content: textBlock },
        { role: "assistant", content: audioBlock },
      ],
    });
  });

  it("2025-06-18: keeps resource links, without their icons", () => {
    const shaped = promptResultForVersion(result, "2025-06-18");
    expect(shaped).toEqual({
      description: "d",
      messages: [
        { role: "user", content: textBlock },
        { role: "assistant", content: audioBlock },
        {
          role: "user",
          content: { type: "resource_link", uri: "file:///a.txt", name: "a.txt", title: "A" },
        },
      ],
    });
    expect(shaped.messages[0]).toBe(result.messages[0]);
    expect(result.messages[2]?.content).toBe(link);
  });

  it.each(NEWEST)("%s: returns the same object", (version) => {
    expect(promptResultForVersion(result, version)).toBe(result);
  });

  it("returns the same object for an old client when every message is known", () => {
    const plain: GetPromptResult = { messages: [{ role: "user", content: textBlock }] };
    expect(promptResultForVersion(plain, "2024-11-05")).toBe(plain);
  });
});
