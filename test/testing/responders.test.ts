/**
 * mcp-dir/testing answers what handlers ask (elicitation, sampling, roots,
 * URL mode), in both eras: a 2025 session answers the server's requests, a
 * 2026-07-28 request follows its input_required rounds to the end.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestClient, InputRequiredError, type TestClient } from "../../src/testing/index.js";
import { ASKING_SERVER } from "../eras/helpers/asking-server.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

let dir: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  dir = await createServerDir(ASKING_SERVER);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(removeServerDirs);

const text = (result: { content: { type: string; text?: string }[] }) => result.content[0]?.text;

describe.each(["2026-07-28", "2025-11-25"] as const)("answers at %s", (protocolVersion) => {
  const connect = async (options: Parameters<typeof createTestClient>[1] = {}) => {
    const client = await createTestClient(dir, { protocolVersion, ...options });
    clients.push(client);
    return client;
  };
  const runs = protocolVersion === "2026-07-28" ? 2 : 1;

  it("an elicitation with a function, a sampling and roots with canned answers", async () => {
    const asked: unknown[] = [];
    const client = await connect({
      elicitation: (request) => {
        asked.push(request.message);
        return { action: "accept", content: { name: "Ada" } };
      },
      sampling: {
        role: "assistant",
        content: { type: "text", text: "Paris" },
        model: "test-model",
      },
      roots: { roots: [{ uri: "file:///work", name: "work" }] },
    });
    expect(text(await client.callTool({ name: "ask-name" }))).toBe(`Hello, Ada (runs: ${runs})`);
    expect(asked).toEqual(["What is your name?"]);
    expect(text(await client.callTool({ name: "capital" }))).toBe("Paris");
    expect(text(await client.callTool({ name: "where" }))).toBe("file:///work");
    expect(text(await client.callTool({ name: "all-at-once" }))).toBe(
      `Ada / Paris / 1 root(s) (runs: ${runs})`,
    );
  });

  it("a list of answers, in order, round after round, and says when it runs out", async () => {
    const client = await connect({
      elicitation: [
        { action: "accept", content: { name: "Grace" } },
        { action: "accept", content: { color: "green" } },
      ],
    });
    expect(text(await client.callTool({ name: "two-steps", arguments: { greeting: "Hi" } }))).toBe(
      `Hi Grace, who likes green (runs: ${protocolVersion === "2026-07-28" ? 3 : 1})`,
    );
    const ranOut =
      "The client's elicitation answers ran out: 2 were given, and a handler asked for another; give one more, or a function";
    if (protocolVersion === "2026-07-28") {
      await expect(client.callTool({ name: "ask-name" })).rejects.toThrow(ranOut);
    } else {
      // A 2025 handler gets the client's error as ctx.elicit's rejection, made isError.
      expect(await client.callTool({ name: "ask-name" })).toEqual({
        content: [
          {
            type: "text",
            text: `the client answered elicitation/create with error -32603: ${ranOut}`,
          },
        ],
        isError: true,
      });
    }
  });

  it("a responder that gives no answer (a function without return) is an error saying what to give", async () => {
    const client = await connect({
      // As a test in JavaScript may write it: the answer computed, never returned.
      sampling: (() => {}) as unknown as () => never,
    });
    const noAnswer =
      'The client\'s sampling responder gave undefined, not an answer; return one, such as { role: "assistant", content: { type: "text", text: "..." }, model: "test-model" }';
    if (protocolVersion === "2026-07-28") {
      await expect(client.callTool({ name: "capital" })).rejects.toThrow(noAnswer);
    } else {
      expect(await client.callTool({ name: "capital" })).toEqual({
        content: [
          {
            type: "text",
            text: `the client answered sampling/createMessage with error -32603: ${noAnswer}`,
          },
        ],
        isError: true,
      });
    }
  });

  it("a call stopped while a responder still answers rejects: aborted, or the client closed", async () => {
    const stop = new AbortController();
    const aborting = await connect({
      elicitation: () => {
        stop.abort(new Error("the user gave up"));
        return new Promise<never>(() => {});
      },
    });
    await expect(aborting.callTool({ name: "ask-name" }, { signal: stop.signal })).rejects.toThrow(
      "the user gave up",
    );
    let answering = () => {};
    const asked = new Promise<void>((resolve) => {
      answering = resolve;
    });
    const closing = await connect({
      elicitation: () => {
        answering();
        return new Promise<never>(() => {});
      },
    });
    const call = closing.callTool({ name: "ask-name" });
    await asked;
    await closing.close();
    await expect(call).rejects.toThrow("The client closed before the server answered");
  });

  it("a page to open (URL mode)", async () => {
    const client = await connect({ elicitation: { action: "accept" } });
    expect(text(await client.callTool({ name: "sign-in" }))).toBe("accept sign-in-s1");
  });

  it.each([
    ["ask-name", "elicitation", "elicitation/create", '{ action: "accept", content: { ... } }'],
    [
      "capital",
      "sampling",
      "sampling/createMessage",
      '{ role: "assistant", content: { type: "text", text: "..." }, model: "test-model" }',
    ],
    ["where", "roots", "roots/list", '{ roots: [{ uri: "file:///..." }] }'],
  ] as const)(
    "%s with the %s capability declared and no responder: the call rejects, naming the option",
    async (tool, kind, method, example) => {
      const client = await connect({ capabilities: { [kind]: {} } });
      const refused = await client.callTool({ name: tool }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InputRequiredError);
      expect((refused as InputRequiredError).message).toBe(
        `The handler asked for ${method}, and this client has no ${kind} responder; give the client one (the ${kind} option of createTestClient), such as ${kind}: ${example}, or a function of what is asked`,
      );
      expect(Object.values((refused as InputRequiredError).requests)).toEqual([
        { method, params: expect.any(Object) },
      ]);
    },
  );
});
