/**
 * Each stateful revision over raw JSON-RPC (the SDK client only asks for the newest):
 * version-aware output leaves out what an older revision does not know.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ICON, INSTRUCTIONS, SERVER_INFO } from "./helpers/fixture.js";
import { type Json, killRawClients, RawClient } from "./helpers/raw-client.js";

const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const;
type Version = (typeof VERSIONS)[number];

/** `value` when `version` is `since` or newer, else nothing (for spreading). */
function from<T extends object>(version: Version, since: Version, value: T): T | object {
  return version >= since ? value : {};
}

const text = (value: string) => ({ type: "text", text: value });

describe.each(VERSIONS)("negotiated revision %s", (version) => {
  let client: RawClient;
  let init: Json;

  beforeAll(async () => {
    ({ client, result: init } = await RawClient.initializedInProcess(version, {
      elicitation: {},
      sampling: {},
      roots: { listChanged: true },
    }));
  });
  afterAll(killRawClients);

  it("initialize echoes the revision; serverInfo holds only the fields it knows", () => {
    expect(init).toEqual({
      protocolVersion: version,
      capabilities: init.capabilities,
      serverInfo: {
        name: SERVER_INFO.name,
        version: SERVER_INFO.version,
        ...from(version, "2025-06-18", { title: SERVER_INFO.title }),
        ...from(version, "2025-11-25", {
          description: SERVER_INFO.description,
          websiteUrl: SERVER_INFO.websiteUrl,
          icons: SERVER_INFO.icons,
        }),
      },
      instructions: INSTRUCTIONS,
    });
  });

  it("announces the completions capability only from 2025-03-26, which introduced it", () => {
    expect(init.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      ...from(version, "2025-03-26", { completions: {} }),
    });
  });

  it("the handler sees the negotiated revision", async () => {
    const result = await client.result("tools/call", { name: "whoami" });
    expect(JSON.parse(result.content[0].text).protocolVersion).toBe(version);
  });

  it("tools/list: annotations from 2025-03-26, title and outputSchema from 2025-06-18, icons from 2025-11-25", async () => {
    const { tools } = await client.result("tools/list");
    const byName = (name: string) => tools.find((t: Json) => t.name === name);
    expect(byName("echo")).toEqual({
      name: "echo",
      ...from(version, "2025-06-18", { title: "Echo" }),
      description: "Echoes back the input",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string", description: "Message to echo" } },
        required: ["message"],
      },
      ...from(version, "2025-03-26", { annotations: { readOnlyHint: true } }),
      ...from(version, "2025-11-25", { icons: [ICON] }),
    });
    expect(byName("add")).toEqual({
      name: "add",
      ...from(version, "2025-06-18", { title: "Add" }),
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      ...from(version, "2025-06-18", {
        outputSchema: {
          type: "object",
          properties: { sum: { type: "number" } },
          required: ["sum"],
          additionalProperties: false,
        },
      }),
    });
  });

  it("tools/call: structuredContent from 2025-06-18", async () => {
    expect(await client.result("tools/call", { name: "add", arguments: { a: 1, b: 2 } })).toEqual({
      content: [text('{"sum":3}')],
      ...from(version, "2025-06-18", { structuredContent: { sum: 3 } }),
    });
  });

  it("tools/call: resource_link content from 2025-06-18, its icons from 2025-11-25", async () => {
    expect(await client.result("tools/call", { name: "link" })).toEqual({
      content: [
        text("see the memo"),
        ...(version >= "2025-06-18"
          ? [
              {
                type: "resource_link",
                uri: "memo://static",
                name: "static",
                title: "Static memo",
                ...from(version, "2025-11-25", { icons: [ICON] }),
              },
            ]
          : []),
      ],
    });
  });

  it("tools/call: audio content from 2025-03-26", async () => {
    expect(await client.result("tools/call", { name: "beep" })).toEqual({
      content:
        version >= "2025-03-26"
          ? [{ type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" }]
          : [],
    });
  });

  it("prompts/list: prompt and argument titles from 2025-06-18, icons from 2025-11-25", async () => {
    const { prompts } = await client.result("prompts/list");
    expect(prompts.find((p: Json) => p.name === "greet")).toEqual({
      name: "greet",
      ...from(version, "2025-06-18", { title: "Greeting" }),
      description: "Greets someone",
      arguments: [
        {
          name: "name",
          ...from(version, "2025-06-18", { title: "Name" }),
          description: "Who to greet",
          required: true,
        },
        { name: "style", description: "How to greet" },
      ],
      ...from(version, "2025-11-25", { icons: [ICON] }),
    });
  });

  it("prompts/get: leaves out messages whose content type the revision does not know", async () => {
    expect(await client.result("prompts/get", { name: "linked" })).toEqual({
      description: "A prompt whose messages hold newer content types",
      messages: [
        { role: "user", content: text("plain text") },
        ...(version >= "2025-06-18"
          ? [
              {
                role: "user",
                content: {
                  type: "resource_link",
                  uri: "memo://static",
                  name: "static",
                  title: "Static memo",
                  ...from(version, "2025-11-25", { icons: [ICON] }),
                },
              },
            ]
          : []),
        ...(version >= "2025-03-26"
          ? [{ role: "user", content: { type: "audio", data: "UklGRg==", mimeType: "audio/wav" } }]
          : []),
      ],
    });
  });

  it("resources/list and resources/templates/list: titles from 2025-06-18, icons from 2025-11-25", async () => {
    expect(await client.result("resources/list")).toEqual({
      resources: [
        { uri: "memo://dynamic-a", name: "dynamic-a", mimeType: "text/plain" },
        { uri: "memo://dynamic-b", name: "dynamic-b", mimeType: "text/plain" },
        {
          uri: "memo://static",
          name: "static",
          ...from(version, "2025-06-18", { title: "Static memo" }),
          description: "A fixed text",
          mimeType: "text/plain",
          ...from(version, "2025-11-25", { icons: [ICON] }),
        },
      ],
    });
    expect(await client.result("resources/templates/list")).toEqual({
      resourceTemplates: [
        { uriTemplate: "repos://{owner}/{repo}", name: "repo" },
        {
          uriTemplate: "users://{id}/profile",
          name: "user-profile",
          ...from(version, "2025-06-18", { title: "User profile" }),
          mimeType: "application/json",
        },
      ],
    });
  });

  it("progress notifications carry a message from 2025-03-26", async () => {
    const token = `progress-${version}`;
    const response = await client.request("tools/call", {
      name: "progress",
      _meta: { progressToken: token },
    });
    expect(response.result).toEqual({ content: [text("done")] });
    expect(
      client.withMethod("notifications/progress").filter((m) => m.params.progressToken === token),
    ).toEqual(
      ["one", "two", "three"].map((message, i) => ({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress: i + 1,
          total: 3,
          ...from(version, "2025-03-26", { message }),
        },
      })),
    );
  });

  it("sampling and roots round trips work in every revision", async () => {
    const sampled = client.request("tools/call", { name: "sample" });
    const sampling = await client.waitForMethod("sampling/createMessage");
    expect(sampling.params).toEqual({
      messages: [{ role: "user", content: text("Say hi") }],
      maxTokens: 1024,
    });
    client.respond(sampling.id, {
      role: "assistant",
      content: text(`hello from ${version}`),
      model: "m",
    });
    expect((await sampled).result).toEqual({ content: [text(`m said: hello from ${version}`)] });

    const rooted = client.request("tools/call", { name: "roots" });
    const roots = await client.waitForMethod("roots/list");
    expect(roots.params).toEqual({});
    client.respond(roots.id, { roots: [{ uri: "file:///v", name: version }] });
    expect((await rooted).result).toEqual({
      content: [text(`{"roots":[{"uri":"file:///v","name":"${version}"}]}`)],
    });
  });

  it("completion/complete answers in every revision", async () => {
    expect(
      await client.result("completion/complete", {
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "style", value: "f" },
      }),
    ).toEqual({ completion: { values: ["formal", "friendly"], total: 2, hasMore: false } });
  });

  it("elicitation from 2025-06-18; before, the tool says why it cannot ask", async () => {
    const call = client.request("tools/call", { name: "ask_name" });
    if (version < "2025-06-18") {
      expect((await call).result).toEqual({
        content: [
          text(`Elicitation needs protocol 2025-06-18 or newer; this client negotiated ${version}`),
        ],
        isError: true,
      });
      expect(client.withMethod("elicitation/create")).toEqual([]);
      return;
    }
    const request = await client.waitForMethod("elicitation/create");
    client.respond(request.id, { action: "accept", content: { name: version } });
    expect((await call).result).toEqual({ content: [text(`Hello, ${version}`)] });
  });
});

describe("version negotiation", () => {
  afterEach(killRawClients);

  it.each(["1999-01-01", "2024-10-07", "2025-99-99", ""])(
    "answers an unsupported requested version (%j) with the newest, 2025-11-25",
    async (requested) => {
      const { client, result } = await RawClient.initializedInProcess(requested);
      expect(result.protocolVersion).toBe("2025-11-25");
      expect(result.serverInfo).toEqual(SERVER_INFO);
      const whoami = await client.result("tools/call", { name: "whoami" });
      expect(JSON.parse(whoami.content[0].text).protocolVersion).toBe("2025-11-25");
    },
  );

  it("refuses an initialize without a string protocolVersion, and stays uninitialized", async () => {
    const client = await RawClient.inProcess();
    expect(await client.request("initialize", { capabilities: {} }, "a")).toEqual({
      jsonrpc: "2.0",
      id: "a",
      error: {
        code: -32602,
        message: 'initialize: "protocolVersion" must be a string and is missing',
      },
    });
    expect(await client.request("initialize", { protocolVersion: 20250618 }, "b")).toEqual({
      jsonrpc: "2.0",
      id: "b",
      error: { code: -32602, message: 'initialize: "protocolVersion" must be a string' },
    });
    expect(
      await client.request(
        "initialize",
        { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "no version" } },
        "c",
      ),
    ).toEqual({
      jsonrpc: "2.0",
      id: "c",
      error: {
        code: -32602,
        message: 'initialize: "clientInfo" needs a string "name" and "version"',
      },
    });
    expect(
      await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: [] }, "e"),
    ).toEqual({
      jsonrpc: "2.0",
      id: "e",
      error: { code: -32602, message: 'initialize: "capabilities" must be an object' },
    });
    expect(await client.request("tools/list", undefined, "d")).toEqual({
      jsonrpc: "2.0",
      id: "d",
      error: {
        code: -32600,
        message: 'Server not initialized: send "initialize" before "tools/list"',
      },
    });
    expect((await client.initialize("2025-06-18")).protocolVersion).toBe("2025-06-18");
  });

  it("refuses an initialize without capabilities or clientInfo, which every revision requires", async () => {
    const client = await RawClient.inProcess();
    const clientInfo = { name: "c", version: "1" };
    expect(
      await client.request("initialize", { protocolVersion: "2025-06-18", clientInfo }, "a"),
    ).toEqual({
      jsonrpc: "2.0",
      id: "a",
      error: {
        code: -32602,
        message: 'initialize: "capabilities" must be an object and is missing',
      },
    });
    expect(
      await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {} }, "b"),
    ).toEqual({
      jsonrpc: "2.0",
      id: "b",
      error: {
        code: -32602,
        message: 'initialize: "clientInfo" must be an object and is missing',
      },
    });
    expect(await client.request("tools/list", undefined, "c")).toEqual({
      jsonrpc: "2.0",
      id: "c",
      error: {
        code: -32600,
        message: 'Server not initialized: send "initialize" before "tools/list"',
      },
    });
  });
});
