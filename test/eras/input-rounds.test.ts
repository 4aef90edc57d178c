/**
 * The same handlers ask for input in both eras: the v1 client answers the
 * requests of a 2025-11-25 session, the v2 client pinned to 2026-07-28 answers
 * the input_required results through the same kind of registered handlers and
 * retries. Over stdio (spawning the real CLI) and Streamable HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_SERVER, stopAll } from "../http-cli/helpers.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";
import { ASKING_SERVER } from "./helpers/asking-server.js";
import {
  closeClients,
  connectClient,
  ERA_ROWS,
  type EraClient,
  type InputMethod,
  serveDir,
  serveOnce,
} from "./helpers/clients.js";

const EVERY_INPUT = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

type Content = { type: string; text?: string };
const textOf = (result: Record<string, unknown>) =>
  (result.content as Content[]).map((block) => block.text).join("");

/**
 * The asking server keeps its own store (charges, a sign-in), so each row has
 * a server of it; example-server's team_invite keeps nothing, so one HTTP
 * server of it serves both HTTP rows.
 */
const serveExample = serveOnce();

let dir: string;
beforeAll(async () => {
  dir = await createServerDir(ASKING_SERVER);
});
afterAll(async () => {
  await closeClients();
  await stopAll();
  await removeServerDirs();
});

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  const modern = kind !== "v1 at 2025-11-25";
  /** Runs of a handler that asked once: a 2026 request runs again with the answer. */
  const runsAfter = (rounds: number) => (modern ? rounds + 1 : 1);
  let client: EraClient;
  let bare: EraClient;
  let example: EraClient;
  let elicitAction: "accept" | "decline" | "cancel" = "accept";
  const completed = new Inbox<string>();
  const asked: { method: InputMethod; params: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    const target = await serveDir(transport, dir);
    const answer = async (method: InputMethod, params: Record<string, unknown>) => {
      asked.push({ method, params });
      if (params.mode === "url") {
        // The user opens the page; on 2026 the page's callback runs before the client retries.
        if (modern && params.message === "Connect your Example account") {
          await client.callTool({ name: "sign-in-callback", arguments: { id: "sign-in-s2" } });
        }
        return { action: elicitAction };
      }
      if (method === "roots/list") return { roots: [{ uri: "file:///work", name: "work" }] };
      if (method === "sampling/createMessage") {
        return { role: "assistant", content: { type: "text", text: "Paris" }, model: "test" };
      }
      const message = String(params.message);
      if (elicitAction !== "accept") return { action: elicitAction };
      if (message.startsWith("Which colour"))
        return { action: "accept", content: { color: "teal" } };
      if (message === "Which topic?") return { action: "accept", content: { topic: "tides" } };
      if (message === "Password?") return { action: "accept", content: { password: "open" } };
      if (message === "Buy it?") return { action: "accept", content: { ok: true } };
      if (message === "Gift wrap?") return { action: "accept", content: { wrap: true } };
      if (message.startsWith("Question")) return { action: "accept", content: { answer: "more" } };
      if (message.startsWith("Which team")) {
        return { action: "accept", content: { team: "research", role: "admin" } };
      }
      return { action: "accept", content: { name: "Ada" } };
    };
    client = await connectClient(kind, target, {
      capabilities: EVERY_INPUT,
      answer,
      onElicitationComplete: (id) => completed.push(id),
    });
    bare = await connectClient(kind, target);
    example = await connectClient(kind, await serveExample(transport, EXAMPLE_SERVER), {
      capabilities: EVERY_INPUT,
      answer,
    });
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    asked.length = 0;
    return textOf(await client.callTool({ name, arguments: args }));
  };

  it("elicits: accept, decline and cancel reach the handler as they were answered", async () => {
    expect(await call("ask-name")).toBe(`Hello, Ada (runs: ${runsAfter(1)})`);
    expect(asked).toEqual([
      {
        method: "elicitation/create",
        params: expect.objectContaining({
          message: "What is your name?",
          requestedSchema: {
            type: "object",
            properties: { name: { type: "string" } },
            required: ["name"],
          },
        }),
      },
    ]);
    for (const action of ["decline", "cancel"] as const) {
      elicitAction = action;
      try {
        expect(await call("ask-name")).toBe(`No name: ${action} (runs: ${runsAfter(1)})`);
      } finally {
        elicitAction = "accept";
      }
    }
  });

  it("samples the client's model and lists its roots", async () => {
    expect(await call("capital")).toBe("Paris");
    expect(asked.map((a) => a.method)).toEqual(["sampling/createMessage"]);
    expect(await call("where")).toBe("file:///work");
    expect(asked.map((a) => a.method)).toEqual(["roots/list"]);
  });

  it("asks for several inputs awaited together in one round", async () => {
    expect(await call("all-at-once")).toBe(`Ada / Paris / 1 root(s) (runs: ${runsAfter(1)})`);
    expect(asked.map((a) => a.method).sort()).toEqual([
      "elicitation/create",
      "roots/list",
      "sampling/createMessage",
    ]);
  });

  it("asks in several rounds when a question depends on an answer", async () => {
    expect(await call("two-steps", { greeting: "Hi" })).toBe(
      `Hi Ada, who likes teal (runs: ${runsAfter(2)})`,
    );
    expect(asked.map((a) => a.params.message)).toEqual([
      "What is your name?",
      "Which colour do you like, Ada?",
    ]);
  });

  it("charges once with the README's guard, whichever era runs the handler how often", async () => {
    expect(await call("buy")).toBe("bought, wrapped; charges so far: 1");
    expect(asked.map((a) => a.params.message)).toEqual(["Buy it?", "Gift wrap?"]);
  });

  it("asks from a prompt and from a resource read too", async () => {
    const prompt = await client.getPrompt({ name: "topic", arguments: {} });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "Write about tides" } },
    ]);
    const read = await client.readResource({ uri: "memo://secret" });
    expect(read.contents).toEqual([
      { uri: "memo://secret", mimeType: "text/plain", text: "the secret" },
    ]);
  });

  it("tells a handler that asks what the client did not declare, in words it can catch", async () => {
    expect(textOf(await bare.callTool({ name: "careful", arguments: {} }))).toBe(
      'caught: The client did not declare the "sampling" capability, so the server cannot ask the client\'s model for a completion. Check ctx.client.capabilities.sampling before calling.',
    );
  });

  it("sends the user to a page: accept, decline and cancel, the id only on 2025", async () => {
    for (const action of ["accept", "decline", "cancel"] as const) {
      elicitAction = action;
      try {
        expect(await call("sign-in")).toBe(`${action} sign-in-s1`);
      } finally {
        elicitAction = "accept";
      }
      expect(asked).toEqual([
        {
          method: "elicitation/create",
          params: {
            mode: "url",
            message: "Sign in to Example",
            url: "https://example.com/connect?session=s1",
            ...(!modern && { elicitationId: "sign-in-s1" }),
          },
        },
      ]);
    }
  });

  it.runIf(!modern)("tells a 2025 client when the page's work is done", async () => {
    await call("sign-in");
    await call("sign-in-callback", { id: "sign-in-s1" });
    expect(await completed.waitFor((id) => id === "sign-in-s1", "the completion")).toBe(
      "sign-in-s1",
    );
  });

  it("says a request needs a visit first: -32042 on 2025, a round on 2026", async () => {
    await call("sign-out");
    if (modern) {
      expect(await call("needs-sign-in")).toBe("signed in: working");
      expect(asked.map((a) => a.params.message)).toEqual(["Connect your Example account"]);
      return;
    }
    const refused = await client.callTool({ name: "needs-sign-in", arguments: {} }).then(
      () => undefined,
      (error: { code: number; data: unknown }) => error,
    );
    expect(refused?.code).toBe(-32042);
    expect(refused?.data).toEqual({
      elicitations: [
        {
          mode: "url",
          message: "Connect your Example account",
          url: "https://example.com/connect?session=s2",
          elicitationId: "sign-in-s2",
        },
      ],
    });
    await call("sign-in-callback", { id: "sign-in-s2" });
    expect(await call("needs-sign-in")).toBe("signed in: working");
  });

  it("refuses a page that is not https, in words the handler can catch", async () => {
    expect(await call("plain-http")).toBe(
      'caught: ctx.elicit: the url must use https: (http: only for localhost), got "http://example.com/look"',
    );
  });

  it("tells a handler when the client cannot open pages", async () => {
    const message =
      'The client did not declare the "elicitation.url" capability, so the server cannot send the user to a URL. Check ctx.client.capabilities.elicitation.url before calling.';
    const outcome = await bare.callTool({ name: "sign-in", arguments: {} }).then(
      (result) => ({ text: textOf(result), isError: result.isError }),
      (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
    );
    expect(outcome).toEqual(
      modern
        ? { code: -32021, message: expect.stringContaining(message) }
        : { text: message, isError: true },
    );
  });

  it("runs the example server's elicitation tool unchanged", async () => {
    const result = await example.callTool({
      name: "team_invite",
      arguments: { email: "kay@example.com" },
    });
    expect(textOf(result)).toBe("Invited kay@example.com to research as an admin.");
  });

  it.runIf(modern)("ends a handler that keeps asking after maxRounds rounds", async () => {
    const result = await client.callTool({ name: "keeps-asking", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "This request has already asked the client for input 3 times, the most it may (maxRounds = 3); ask for everything you need in fewer rounds (several asks awaited together make one round), or raise inputRounds.maxRounds",
    );
  });
});
