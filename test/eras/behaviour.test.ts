/**
 * One behaviour suite, run over stdio and Streamable HTTP with the official
 * clients of both protocol eras: the v1 SDK client in a 2025-11-25 session,
 * and the v2 client pinned to 2026-07-28 and in auto mode (which probes with
 * server/discover and stays modern). Each spawns or reaches the real CLI
 * serving example-server; the cases only read, so one client serves a row,
 * and one HTTP server every HTTP row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_SERVER, stopAll } from "../http-cli/helpers.js";
import {
  CLIENT_KINDS,
  type ClientKind,
  closeClients,
  connectClient,
  type EraClient,
  serveOnce,
  shared,
  type TransportKind,
  VERSION_OF,
} from "./helpers/clients.js";

const INSTRUCTIONS =
  "Tools: calculator, text_stats, temperature, chart, primes, report, team_lookup, team_invite, poll. Team members are resources at users://{id}; read file:///guide.md for an overview.";

const SERVER_INFO = {
  name: "example-server",
  version: "1.0.0",
  title: "mcp-dir example",
  description: "A small team workspace: arithmetic, text statistics, charts and a team directory",
};

const ROWS: [TransportKind, ClientKind][] = (["stdio", "http"] as const).flatMap((transport) =>
  CLIENT_KINDS.map((kind): [TransportKind, ClientKind] => [transport, kind]),
);

type Content = { type: string; text?: string; mimeType?: string; data?: string };

const serve = serveOnce();

afterAll(stopAll);

describe.each(ROWS)("over %s, the %s client", (transport, kind) => {
  let client: EraClient;

  beforeAll(async () => {
    const target = await serve(transport, EXAMPLE_SERVER);
    client = await connectClient(kind, target);
  });

  afterAll(closeClients);

  it("speaks the revision of its era, and learns who the server is and what it offers", () => {
    expect(client.protocolVersion()).toBe(VERSION_OF[kind]);
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    expect(client.getInstructions()).toBe(INSTRUCTIONS);
    // report runs as a task: each era says so in its own way.
    // The poll view makes the UI extension part of every revision's capabilities.
    const ui = { "io.modelcontextprotocol/ui": {} };
    const tasks =
      VERSION_OF[kind] === "2025-11-25"
        ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } }, extensions: ui }
        : { extensions: { "io.modelcontextprotocol/tasks": {}, ...ui } };
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      ...tasks,
    });
  });

  it("is told the versions the server speaks statelessly when it discovered them", () => {
    const discovered = client.v2?.getDiscoverResult();
    if (VERSION_OF[kind] === "2025-11-25") {
      expect(discovered).toBeUndefined();
    } else {
      expect(discovered?.supportedVersions).toEqual(["2026-07-28"]);
      expect(discovered?._meta?.["io.modelcontextprotocol/serverInfo"]).toEqual(SERVER_INFO);
    }
  });

  it("lists every tool, prompt, resource and template, the same in both eras", async () => {
    const names = (result: Record<string, unknown>, key: string, field = "name") =>
      (result[key] as Record<string, unknown>[]).map((item) => item[field]);
    expect(names(await client.listTools(), "tools")).toEqual([
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
    expect(names(await client.listPrompts(), "prompts")).toEqual(["code_review", "standup"]);
    expect(names(await client.listResources(), "resources", "uri")).toEqual([
      "file:///config.json",
      "file:///guide.md",
      "file:///logo.png",
    ]);
    expect(names(await client.listResourceTemplates(), "resourceTemplates", "uriTemplate")).toEqual(
      ["users://{id}"],
    );
  });

  it("calls a tool: its text, a thrown error as isError, and invalid arguments", async () => {
    const call = async (args: Record<string, unknown>) =>
      shared(await client.callTool({ name: "calculator", arguments: args }));
    expect(await call({ operation: "multiply", a: 6, b: 7 })).toEqual({
      content: [{ type: "text", text: "42" }],
    });
    expect(await call({ operation: "divide", a: 1, b: 0 })).toEqual({
      content: [{ type: "text", text: "Cannot divide by zero" }],
      isError: true,
    });
    const invalid = await call({ operation: "modulo", a: 1, b: 2 });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as Content[])[0]?.text).toMatch(
      /^Invalid arguments for tool "calculator": operation: /,
    );
  });

  it("returns an image a tool drew", async () => {
    const result = await client.callTool({ name: "chart", arguments: { values: [1, 2, 3] } });
    const [caption, block] = result.content as Content[];
    expect(caption).toEqual({
      type: "text",
      text: "A bar chart of 3 values (max 3), 72×112 pixels",
    });
    expect(block?.type).toBe("image");
    expect(block?.mimeType).toBe("image/png");
    expect(
      Buffer.from(block?.data ?? "", "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("gets a prompt with its arguments filled in", async () => {
    const result = shared(
      await client.getPrompt({
        name: "standup",
        arguments: { yesterday: "fixed the build", today: "ship it" },
      }),
    );
    const messages = result.messages as { role: string; content: Content }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe("user");
    expect(messages[0]?.content.text).toContain("Yesterday: fixed the build\nToday: ship it");
  });

  it("reads a static resource and a templated one", async () => {
    const config = shared(await client.readResource({ uri: "file:///config.json" }));
    const [contents] = config.contents as { uri: string; mimeType: string; text: string }[];
    expect(contents?.uri).toBe("file:///config.json");
    expect(contents?.mimeType).toBe("application/json");
    expect(JSON.parse(contents?.text ?? "null")).toBeTypeOf("object");
    const ada = shared(await client.readResource({ uri: "users://ada" }));
    expect((ada.contents as { uri: string }[])[0]?.uri).toBe("users://ada");
  });

  it("completes a template variable", async () => {
    const result = shared(
      await client.complete({
        ref: { type: "ref/resource", uri: "users://{id}" },
        argument: { name: "id", value: "a" },
      }),
    );
    const values = (result.completion as { values: string[] }).values;
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((value) => value.startsWith("a"))).toBe(true);
  });
});
