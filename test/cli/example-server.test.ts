import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliConnection, connectToServe, EXAMPLE_SERVER, stopAll } from "./helpers/cli.js";

afterAll(stopAll);

/** What the elicitation handler answers next, and what it was asked. */
let nextAnswer: { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };
const asked: unknown[] = [];

let connection: CliConnection;

beforeAll(async () => {
  connection = await connectToServe(EXAMPLE_SERVER, {
    capabilities: { elicitation: {} },
    setup: (client) =>
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return nextAnswer;
      }),
  });
});

const resourceFile = (name: string) => join(EXAMPLE_SERVER, "resources", name);

describe("example-server served by `mcp-dir serve`, used by the official SDK client", () => {
  it("introduces itself from mcp-dir.config.ts and says what it serves on stderr", async () => {
    const { client } = connection;
    expect(client.getServerVersion()).toEqual({
      name: "example-server",
      version: "1.0.0",
      title: "mcp-dir example",
      description:
        "A small team workspace: arithmetic, text statistics, charts and a team directory",
    });
    expect(client.getInstructions()).toBe(
      "Tools: calculator, text_stats, temperature, chart, primes, report, team_lookup, team_invite, poll. " +
        "Team members are resources at users://{id}; read file:///guide.md for an overview.",
    );
    expect(connection.stderr()).toBe(
      `mcp-dir: serving example-server 1.0.0 from ${EXAMPLE_SERVER} (10 tools, 2 prompts, 3 resources, 1 resource template, 1 view) over stdio; waiting for a client on stdin\n`,
    );
  });

  it("lists every tool, named from its path or export", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "calculator",
      "chart",
      "poll",
      "primes",
      "report",
      "team_invite",
      "team_lookup",
      "temperature",
      "text_stats",
    ]);
    expect(tools.find((tool) => tool.name === "calculator")?.inputSchema).toMatchObject({
      properties: {
        operation: {
          type: "string",
          enum: ["add", "subtract", "multiply", "divide"],
          description: "The arithmetic operation to perform",
        },
      },
      required: ["operation", "a", "b"],
    });
  });

  it("calculator: computes, and turns a thrown error into isError", async () => {
    const call = (args: Record<string, unknown>) =>
      connection.client.callTool({ name: "calculator", arguments: args });
    expect(await call({ operation: "multiply", a: 6, b: 7 })).toEqual({
      content: [{ type: "text", text: "42" }],
    });
    expect(await call({ operation: "divide", a: 1, b: 0 })).toEqual({
      content: [{ type: "text", text: "Cannot divide by zero" }],
      isError: true,
    });
    const invalid = await call({ operation: "modulo", a: 1, b: 2 });
    expect(invalid.isError).toBe(true);
  });

  it("text_stats: returns structured content matching its output schema", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.find((tool) => tool.name === "text_stats")?.outputSchema).toMatchObject({
      type: "object",
      required: ["words", "sentences", "characters", "readingMinutes"],
    });
    const result = await connection.client.callTool({
      name: "text_stats",
      arguments: { text: "One two three. Four five!" },
    });
    const stats = { words: 5, sentences: 2, characters: 25, readingMinutes: 0 };
    expect(result).toEqual({
      content: [{ type: "text", text: JSON.stringify(stats) }],
      structuredContent: stats,
    });
  });

  it("temperature: written with valibot, listed and validated by valibot", async () => {
    const { tools } = await connection.client.listTools();
    const units = { type: "string", enum: ["celsius", "fahrenheit", "kelvin"] };
    expect(tools.find((tool) => tool.name === "temperature")?.outputSchema).toEqual({
      type: "object",
      properties: { value: { type: "number" }, unit: units },
      required: ["value", "unit"],
    });
    const call = (args: Record<string, unknown>) =>
      connection.client.callTool({ name: "temperature", arguments: args });
    expect(await call({ value: 100, from: "celsius", to: "fahrenheit" })).toEqual({
      content: [{ type: "text", text: '{"value":212,"unit":"fahrenheit"}' }],
      structuredContent: { value: 212, unit: "fahrenheit" },
    });
    expect(await call({ value: -300, from: "celsius", to: "kelvin" })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "temperature": That is below absolute zero',
        },
      ],
      isError: true,
    });
  });

  it("chart: returns a text block and a PNG image", async () => {
    const result = await connection.client.callTool({
      name: "chart",
      arguments: { values: [1, 4, 2], color: "green" },
    });
    const [caption, picture] = result.content as [
      { type: string; text: string },
      { type: string; mimeType: string; data: string },
    ];
    expect(caption).toEqual({
      type: "text",
      text: "A bar chart of 3 values (max 4), 72×112 pixels",
    });
    expect(picture.type).toBe("image");
    expect(picture.mimeType).toBe("image/png");
    const png = Buffer.from(picture.data, "base64");
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([72, 112]);
  });

  it("primes: reports progress to a client that asks for it", async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await connection.client.callTool(
      { name: "primes", arguments: { below: 1000 } },
      undefined,
      { onprogress: (update) => seen.push(update) },
    );
    expect(result).toEqual({
      content: [{ type: "text", text: "There are 168 primes below 1000." }],
    });
    expect(seen.map((update) => update.progress)).toEqual([
      100, 200, 300, 400, 500, 600, 700, 800, 900, 1000,
    ]);
    expect(seen[0]).toEqual({ progress: 100, total: 1000, message: "25 primes below 100" });
    expect(seen[9]).toEqual({ progress: 1000, total: 1000, message: "168 primes below 1000" });
  });

  it("team_lookup: links to the users://{id} resources of the members found", async () => {
    const result = await connection.client.callTool({
      name: "team_lookup",
      arguments: { query: "platform" },
    });
    expect(result.content).toEqual([
      {
        type: "resource_link",
        uri: "users://grace",
        name: "grace",
        title: "Grace Hopper",
        description: "platform: compilers, cobol",
        mimeType: "application/json",
      },
      {
        type: "resource_link",
        uri: "users://margaret",
        name: "margaret",
        title: "Margaret Hamilton",
        description: "platform: flight software, reliability",
        mimeType: "application/json",
      },
    ]);
  });

  it("team_invite: asks the user through elicitation when the team is not given", async () => {
    const invite = (args: Record<string, unknown>) =>
      connection.client.callTool({ name: "team_invite", arguments: args });
    expect(await invite({ email: "kay@example.com", team: "design" })).toEqual({
      content: [{ type: "text", text: "Invited kay@example.com to design as a member." }],
    });
    expect(asked).toEqual([]);

    nextAnswer = { action: "accept", content: { team: "research", role: "admin" } };
    expect(await invite({ email: "kay@example.com" })).toEqual({
      content: [{ type: "text", text: "Invited kay@example.com to research as an admin." }],
    });
    expect(asked).toEqual([
      {
        message: "Which team should kay@example.com join, and with which role?",
        requestedSchema: {
          type: "object",
          properties: {
            team: {
              type: "string",
              enum: ["platform", "design", "research"],
              description: "The team",
            },
            role: {
              type: "string",
              enum: ["member", "admin"],
              description: "Their role in the team",
            },
          },
          required: ["team", "role"],
        },
      },
    ]);

    nextAnswer = { action: "decline" };
    expect(await invite({ email: "kay@example.com" })).toEqual({
      content: [{ type: "text", text: "No invitation sent: the user chose to decline." }],
    });
  });

  it("poll: opens a poll as text and structured content; a client that shows no views gets neither the view nor poll_vote", async () => {
    const { client } = connection;
    const opened = await client.callTool({
      name: "poll",
      arguments: { question: "Lunch?", options: ["pizza", "sushi"] },
    });
    expect(opened.content).toEqual([{ type: "text", text: "Lunch? pizza 0, sushi 0" }]);
    expect(opened.structuredContent).toMatchObject({
      question: "Lunch?",
      options: [
        { label: "pizza", votes: 0 },
        { label: "sushi", votes: 0 },
      ],
    });
    const poll = (await client.listTools()).tools.find((tool) => tool.name === "poll");
    expect(poll).not.toHaveProperty("_meta");
    await expect(client.callTool({ name: "poll_vote", arguments: {} })).rejects.toThrow(
      'Unknown tool: "poll_vote"',
    );
  });

  it("code_review: fills its messages from the arguments and completes language and focus", async () => {
    const { client } = connection;
    const result = await client.getPrompt({
      name: "code_review",
      arguments: { code: "let x = 1", language: "typescript", focus: "readability" },
    });
    expect(result.messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: [
            "Please review this typescript code, focusing on readability.",
            "Point out bugs first, then risky patterns, then style; suggest concrete changes.",
            "",
            "```typescript",
            "let x = 1",
            "```",
          ].join("\n"),
        },
      },
    ]);
    const complete = (argument: string, value: string) =>
      client.complete({
        ref: { type: "ref/prompt", name: "code_review" },
        argument: { name: argument, value },
      });
    expect((await complete("language", "j")).completion.values).toEqual([
      "javascript",
      "java",
      "julia",
    ]);
    expect((await complete("focus", "p")).completion.values).toEqual(["performance"]);
  });

  it("standup (Markdown): fills the placeholders and names missing required arguments", async () => {
    const { client } = connection;
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["code_review", "standup"]);
    const result = await client.getPrompt({
      name: "standup",
      arguments: { yesterday: "fixed the build", today: "release", blockers: "none" },
    });
    expect(result.messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: [
            "Write my stand-up update for the team chat: three short bullet points",
            "(yesterday, today, blockers), plain and specific, no more than 60 words.",
            "",
            "Yesterday: fixed the build",
            "Today: release",
            "Blockers: none",
          ].join("\n"),
        },
      },
    ]);
    await expect(client.getPrompt({ name: "standup", arguments: { today: "x" } })).rejects.toThrow(
      'MCP error -32602: Missing required argument for prompt "standup": yesterday',
    );
  });

  it("serves the static files of resources/ with their mime type, size and contents", async () => {
    const { client } = connection;
    const size = async (name: string) => (await stat(resourceFile(name))).size;
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: "file:///config.json",
        name: "config.json",
        title: "Config",
        mimeType: "application/json",
        size: await size("config.json"),
      },
      {
        uri: "file:///guide.md",
        name: "guide.md",
        title: "Guide",
        mimeType: "text/markdown",
        size: await size("guide.md"),
      },
      {
        uri: "file:///logo.png",
        name: "logo.png",
        title: "Logo",
        mimeType: "image/png",
        size: await size("logo.png"),
      },
    ]);
    const config = await client.readResource({ uri: "file:///config.json" });
    expect(config.contents).toEqual([
      {
        uri: "file:///config.json",
        mimeType: "application/json",
        text: await readFile(resourceFile("config.json"), "utf8"),
      },
    ]);
    const guide = await client.readResource({ uri: "file:///guide.md" });
    expect(guide.contents).toEqual([
      {
        uri: "file:///guide.md",
        mimeType: "text/markdown",
        text: await readFile(resourceFile("guide.md"), "utf8"),
      },
    ]);
    const logo = await client.readResource({ uri: "file:///logo.png" });
    expect(logo.contents).toEqual([
      {
        uri: "file:///logo.png",
        mimeType: "image/png",
        blob: (await readFile(resourceFile("logo.png"))).toString("base64"),
      },
    ]);
  });

  it("serves users://{id}, completes the id, and answers -32002 for an unknown one", async () => {
    const { client } = connection;
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: "users://{id}",
        name: "users",
        title: "Team member",
        description: "A team member's profile: name, email, team and skills",
        mimeType: "application/json",
      },
    ]);
    const ada = await client.readResource({ uri: "users://ada" });
    expect(ada.contents).toEqual([
      {
        uri: "users://ada",
        mimeType: "application/json",
        text: JSON.stringify({
          id: "ada",
          name: "Ada Lovelace",
          email: "ada@example.com",
          team: "research",
          skills: ["mathematics", "algorithms"],
        }),
      },
    ]);
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "users://{id}" },
      argument: { name: "id", value: "a" },
    });
    expect(completion.completion.values).toEqual(["ada", "alan"]);
    await expect(client.readResource({ uri: "users://nobody" })).rejects.toMatchObject({
      code: -32002,
      message: 'MCP error -32002: No team member with id "nobody"',
    });
  });
});

describe("team_invite with a client that cannot answer elicitation", () => {
  it("says what to pass instead", async () => {
    const { client } = await connectToServe(EXAMPLE_SERVER);
    expect(
      await client.callTool({ name: "team_invite", arguments: { email: "kay@example.com" } }),
    ).toEqual({
      content: [
        {
          type: "text",
          text: "Say which team to invite kay@example.com to (platform, design, research)",
        },
      ],
      isError: true,
    });
  });
});
