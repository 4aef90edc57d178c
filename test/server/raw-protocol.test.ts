/**
 * The wire, byte by byte: what the server answers to requests out of order,
 * malformed input, wrong params and batches, and that stdout stays protocol-only.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type Json, killRawClients, RawClient } from "./helpers/raw-client.js";

function parseErrorMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return `Parse error: ${(error as Error).message}`;
  }
  throw new Error(`${text} is valid JSON`);
}

const failure = (id: string | number | null, code: number, message: string) => ({
  jsonrpc: "2.0",
  id,
  error: { code, message },
});

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

describe("before initialize", () => {
  // One server for the whole block: nothing here initializes it until the last test.
  let client: RawClient;

  beforeAll(async () => {
    client = await RawClient.inProcess();
  });
  afterAll(killRawClients);

  it.each([
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
  ])("refuses %s with -32600 and the exact message", async (method) => {
    const id = client.id();
    expect(await client.request(method, {}, id)).toEqual(
      failure(id, -32600, `Server not initialized: send "initialize" before "${method}"`),
    );
  });

  it("answers an unknown method with -32601 even before initialize", async () => {
    expect(await client.request("nope/nothing", {}, "unknown")).toEqual(
      failure("unknown", -32601, "Method not found: nope/nothing"),
    );
  });

  it("answers ping, ignores notifications, and still initializes afterwards", async () => {
    const before = client.messages.items.length;
    client.notify("notifications/initialized");
    client.notify("notifications/cancelled", { requestId: 1 });
    expect(await client.request("ping", undefined, "p")).toEqual({
      jsonrpc: "2.0",
      id: "p",
      result: {},
    });
    expect(client.messages.items.slice(before)).toEqual([{ jsonrpc: "2.0", id: "p", result: {} }]);
    expect((await client.initialize("2025-11-25")).protocolVersion).toBe("2025-11-25");
    expect(
      await client.result("tools/call", { name: "echo", arguments: { message: "now" } }),
    ).toEqual(text("now"));
  });
});

describe("malformed input", () => {
  let client: RawClient;

  beforeAll(async () => {
    ({ client } = await RawClient.initializedInProcess("2025-11-25"));
  });
  afterAll(killRawClients);

  /** Writes raw lines, then a ping, and returns what came back before the ping's answer. */
  async function answersTo(...lines: string[]): Promise<Json[]> {
    const before = client.messages.items.length;
    for (const line of lines) client.write(`${line}\n`);
    const ping = client.id();
    await client.request("ping", undefined, ping);
    return client.messages.items.slice(before).filter((m) => m.id !== ping);
  }

  it.each(["not json", '{"jsonrpc":"2.0",', "{'a':1}", '{"jsonrpc":"2.0","id":1,"method":"ping"'])(
    "answers %j with -32700 and id null",
    async (line) => {
      expect(await answersTo(line)).toEqual([failure(null, -32700, parseErrorMessage(line))]);
    },
  );

  it.each([
    ["42", null, "Invalid Request: message must be a JSON object"],
    ['"ping"', null, "Invalid Request: message must be a JSON object"],
    ["null", null, "Invalid Request: message must be a JSON object"],
    ['{"jsonrpc":"1.0","id":1,"method":"ping"}', 1, 'Invalid Request: "jsonrpc" must be "2.0"'],
    ['{"id":"x","method":"ping"}', "x", 'Invalid Request: "jsonrpc" must be "2.0"'],
    [
      '{"jsonrpc":"2.0","id":2}',
      2,
      'Invalid Request: missing "method" (or "result"/"error" for a response)',
    ],
    [
      '{"jsonrpc":"2.0","id":3,"method":""}',
      3,
      'Invalid Request: "method" must be a non-empty string',
    ],
    [
      '{"jsonrpc":"2.0","id":4,"method":7}',
      4,
      'Invalid Request: "method" must be a non-empty string',
    ],
    [
      '{"jsonrpc":"2.0","id":{},"method":"ping"}',
      null,
      'Invalid Request: "id" must be a string or a number',
    ],
    [
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      null,
      'Invalid Request: "id" must be a string or a number',
    ],
    [
      '{"jsonrpc":"2.0","id":5,"method":"ping","params":5}',
      5,
      'Invalid Request: "params" must be an object or an array',
    ],
    [
      '{"jsonrpc":"2.0","id":6,"method":"ping","params":null}',
      6,
      'Invalid Request: "params" must be an object or an array',
    ],
    ["[]", null, "Invalid Request: empty batch"],
  ])("answers %s with -32600", async (line, id, message) => {
    expect(await answersTo(line)).toEqual([failure(id, -32600, message)]);
  });

  it("keeps serving after malformed input", async () => {
    expect(await answersTo("not json", "42")).toHaveLength(2);
    expect(
      await client.result("tools/call", { name: "echo", arguments: { message: "ok" } }),
    ).toEqual(text("ok"));
    expect(client.garbage).toEqual([]);
  });

  it("accepts CRLF line endings, ignores blank lines, and reassembles a message split across writes", async () => {
    client.write('\n\r\n   \n{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n');
    expect(await client.response("crlf")).toEqual({ jsonrpc: "2.0", id: "crlf", result: {} });
    client.write('{"jsonrpc":"2.0","id":"spl');
    client.write(
      'it","method":"tools/call","params":{"name":"echo","arguments":{"message":"é ✓"}}}',
    );
    client.write('\n{"jsonrpc":"2.0","id":"two","method":"ping"}\n');
    expect(await client.response("split")).toEqual({
      jsonrpc: "2.0",
      id: "split",
      result: text("é ✓"),
    });
    expect(await client.response("two")).toEqual({ jsonrpc: "2.0", id: "two", result: {} });
  });

  it("reassembles a UTF-8 character split across writes", async () => {
    const bytes = Buffer.from(
      '{"jsonrpc":"2.0","id":"utf8","method":"tools/call","params":{"name":"echo","arguments":{"message":"✓ 日本"}}}\n',
    );
    const cut = bytes.indexOf(Buffer.from("✓")) + 1;
    client.writeBytes(bytes.subarray(0, cut));
    client.writeBytes(bytes.subarray(cut));
    expect(await client.response("utf8")).toEqual({
      jsonrpc: "2.0",
      id: "utf8",
      result: text("✓ 日本"),
    });
  });

  it("ignores a byte order mark before a message, as Windows tools write one (RFC 8259, 8.1)", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const fresh = await RawClient.inProcess();
    const initialize = {
      jsonrpc: "2.0",
      id: "first",
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "out-file", version: "1" },
      },
    };
    // The first bytes of the stream, split after the mark's first byte.
    fresh.writeBytes(bom.subarray(0, 1));
    fresh.writeBytes(
      Buffer.concat([bom.subarray(1), Buffer.from(`${JSON.stringify(initialize)}\n`)]),
    );
    expect(await fresh.response("first")).toMatchObject({
      id: "first",
      result: { protocolVersion: "2025-11-25" },
    });
    // And a later line that starts with one.
    client.writeBytes(
      Buffer.concat([bom, Buffer.from('{"jsonrpc":"2.0","id":"bom","method":"ping"}\n')]),
    );
    expect(await client.response("bom")).toEqual({ jsonrpc: "2.0", id: "bom", result: {} });
    expect(await answersTo("\uFEFF")).toEqual([]);
    expect(await answersTo(' \uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual([
      failure(null, -32700, parseErrorMessage(' \uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}')),
    ]);
  });

  it("echoes ids exactly: strings, numbers, zero", async () => {
    for (const id of ["abc", 0, -1, 1.5, 9007199254740991, ""]) {
      expect(await client.request("ping", undefined, id)).toEqual({
        jsonrpc: "2.0",
        id,
        result: {},
      });
    }
  });

  it("ignores a response to a request it never sent, with a word on stderr", async () => {
    expect(await answersTo('{"jsonrpc":"2.0","id":"who","result":{}}')).toEqual([]);
    await client.waitForStderr('mcp-dir: ignored a response to an unknown request id "who"\n');
  });

  it("never answers a notification, even an unknown one", async () => {
    expect(
      await answersTo(
        '{"jsonrpc":"2.0","method":"notifications/whatever","params":{"x":1}}',
        '{"jsonrpc":"2.0","method":"tools/list"}',
      ),
    ).toEqual([]);
  });
});

describe("methods and params", () => {
  let client: RawClient;

  beforeAll(async () => {
    ({ client } = await RawClient.initializedInProcess("2025-11-25"));
  });
  afterAll(killRawClients);

  it.each([
    "tools/unknown",
    "resources/write",
    "sampling/createMessage",
    "notifications/initialized",
  ])("answers the unknown method %s with -32601", async (method) => {
    expect(await client.request(method, {}, "m")).toEqual(
      failure("m", -32601, `Method not found: ${method}`),
    );
  });

  it.each([
    ["tools/call", {}, 'tools/call: "name" must be a string and is missing'],
    ["tools/call", { name: 5 }, 'tools/call: "name" must be a string'],
    ["tools/call", { name: "nope" }, 'Unknown tool: "nope"'],
    ["tools/call", { name: "echo", arguments: [1] }, 'tools/call: "arguments" must be an object'],
    ["tools/call", { name: "echo", arguments: "x" }, 'tools/call: "arguments" must be an object'],
    ["tools/list", { cursor: 3 }, 'tools/list: "cursor" must be a string'],
    ["prompts/list", { cursor: null }, 'prompts/list: "cursor" must be a string'],
    ["prompts/get", {}, 'prompts/get: "name" must be a string and is missing'],
    ["prompts/get", { name: "nope" }, 'Unknown prompt: "nope"'],
    [
      "prompts/get",
      { name: "greet", arguments: { name: 5 } },
      'prompts/get: argument "name" must be a string',
    ],
    [
      "prompts/get",
      { name: "greet", arguments: {} },
      'Missing required argument for prompt "greet": name',
    ],
    ["resources/read", {}, 'resources/read: "uri" must be a string and is missing'],
    ["resources/subscribe", { uri: 1 }, 'resources/subscribe: "uri" must be a string'],
    ["resources/unsubscribe", {}, 'resources/unsubscribe: "uri" must be a string and is missing'],
    [
      "resources/templates/list",
      { cursor: {} },
      'resources/templates/list: "cursor" must be a string',
    ],
    ["logging/setLevel", {}, 'logging/setLevel: "level" must be a string and is missing'],
    [
      "logging/setLevel",
      { level: "verbose" },
      'logging/setLevel: "level" must be one of debug, info, notice, warning, error, critical, alert, emergency',
    ],
    ["completion/complete", {}, 'completion/complete: "ref" and "argument" are required'],
    [
      "completion/complete",
      { ref: { type: "ref/tool", name: "echo" }, argument: { name: "a", value: "" } },
      'completion/complete: ref.type must be "ref/prompt" or "ref/resource"',
    ],
    [
      "completion/complete",
      { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "style" } },
      'completion/complete argument: "value" must be a string and is missing',
    ],
    [
      "completion/complete",
      { ref: { type: "ref/prompt" }, argument: { name: "style", value: "" } },
      'completion/complete ref: "name" must be a string and is missing',
    ],
  ])("%s with %j → -32602 %s", async (method, params, message) => {
    expect(await client.request(method, params, "w")).toEqual(failure("w", -32602, message));
  });

  it("refuses params given as an array with -32602", async () => {
    expect(await client.request("tools/list", [], "arr")).toEqual(
      failure("arr", -32602, "tools/list: params must be an object"),
    );
  });

  it("answers an unknown resource with -32002 and the uri in data", async () => {
    expect(await client.request("resources/read", { uri: "memo://nope" }, "nf")).toEqual({
      jsonrpc: "2.0",
      id: "nf",
      error: {
        code: -32002,
        message: "Resource not found: memo://nope",
        data: { uri: "memo://nope" },
      },
    });
  });

  it("a tool that throws answers isError with its message, not a protocol error", async () => {
    expect(await client.request("tools/call", { name: "fail" }, "f")).toEqual({
      jsonrpc: "2.0",
      id: "f",
      result: { content: [{ type: "text", text: "the tool failed on purpose" }], isError: true },
    });
  });

  it("invalid arguments answer isError naming the field", async () => {
    expect(
      await client.request("tools/call", { name: "add", arguments: { a: "1" } }, "ia"),
    ).toEqual({
      jsonrpc: "2.0",
      id: "ia",
      result: {
        content: [
          {
            type: "text",
            text: 'Invalid arguments for tool "add": a: Invalid input: expected number, received string; b: Invalid input: expected number, received undefined',
          },
        ],
        isError: true,
      },
    });
  });

  it("console.log and process.stdout.write in a handler go to stderr, never stdout", async () => {
    // A child process of its own: this is about the process's stdout and stderr.
    const { client } = await RawClient.initialized("2025-11-25");
    onTestFinished(() => client.kill());
    expect(await client.request("tools/call", { name: "noisy" }, "n")).toEqual({
      jsonrpc: "2.0",
      id: "n",
      result: text("quiet on stdout"),
    });
    await client.waitForStderr("console.log from a handler\nprocess.stdout.write from a handler\n");
    expect(await client.result("ping")).toEqual({});
    expect(client.garbage).toEqual([]);
  });
});

describe("batches", () => {
  const BATCH = [
    { jsonrpc: "2.0", id: "b1", method: "ping" },
    {
      jsonrpc: "2.0",
      id: "b2",
      method: "tools/call",
      params: { name: "echo", arguments: { message: "in a batch" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { foo: 1 },
    { jsonrpc: "2.0", id: "b3", method: "nope" },
  ];

  const batchResponse = (client: RawClient) =>
    client.messages.waitFor((m) => Array.isArray(m), "a batch response");

  describe("after negotiating 2025-03-26", () => {
    let client: RawClient;

    beforeAll(async () => {
      ({ client } = await RawClient.initializedInProcess("2025-03-26"));
    });
    afterAll(killRawClients);

    it("are answered item by item, in order, in one array", async () => {
      client.send(BATCH);
      expect(await batchResponse(client)).toEqual([
        { jsonrpc: "2.0", id: "b1", result: {} },
        { jsonrpc: "2.0", id: "b2", result: text("in a batch") },
        failure(null, -32600, 'Invalid Request: "jsonrpc" must be "2.0"'),
        failure("b3", -32601, "Method not found: nope"),
      ]);
    });

    it("of notifications only get no answer", async () => {
      const before = client.messages.items.length;
      client.send([
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
      ]);
      expect(await client.request("ping", undefined, "after")).toEqual({
        jsonrpc: "2.0",
        id: "after",
        result: {},
      });
      expect(client.messages.items.slice(before)).toEqual([
        { jsonrpc: "2.0", id: "after", result: {} },
      ]);
    });
  });

  it("are refused before initialize, even one holding initialize", async () => {
    const client = await RawClient.inProcess();
    onTestFinished(() => client.kill());
    client.send([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {} },
      },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    expect(await client.response(null)).toEqual(
      failure(
        null,
        -32600,
        "Invalid Request: batches are refused: initialize must come first, on its own, and negotiate 2025-03-26",
      ),
    );
    // Nothing in the batch ran: the session is still uninitialized.
    expect(await client.request("tools/list", undefined, "t")).toEqual(
      failure("t", -32600, 'Server not initialized: send "initialize" before "tools/list"'),
    );
  });

  it.each(["2024-11-05", "2025-06-18", "2025-11-25"])(
    "are refused after negotiating %s, and nothing in them runs",
    async (version) => {
      const { client } = await RawClient.initializedInProcess(version);
      onTestFinished(() => client.kill());
      client.send([
        { jsonrpc: "2.0", id: "x1", method: "logging/setLevel", params: { level: "emergency" } },
        { jsonrpc: "2.0", id: "x2", method: "ping" },
      ]);
      expect(await client.response(null)).toEqual(
        failure(
          null,
          -32600,
          `Invalid Request: batches are refused: protocol ${version} does not allow them (only 2025-03-26 does)`,
        ),
      );
      // The log level is unchanged: every level still arrives.
      await client.result("tools/call", { name: "log_all" });
      expect(client.withMethod("notifications/message")).toHaveLength(8);
      expect(client.messages.items.filter((m) => m.id === "x1" || m.id === "x2")).toEqual([]);
    },
  );
});
