import { describe, expect, it } from "vitest";
import { sniffMimeType } from "../../src/define/bytes.js";
import { errorResult, isCallToolResult, normalizeToolResult } from "../../src/define/index.js";
import type { CallToolResult, ContentBlock } from "../../src/protocol/index.js";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
const WAV = new Uint8Array([
  ...Buffer.from("RIFF"),
  0x24,
  0x00,
  0x00,
  0x00,
  ...Buffer.from("WAVE"),
  ...Buffer.from("fmt "),
]);
const UNKNOWN = new Uint8Array([1, 2, 3, 4]);

const normalize = (value: unknown) => normalizeToolResult(value, undefined, "t");
const INSTEAD = "return a string, an object, content blocks or a CallToolResult";

function jsonError(value: unknown): string {
  try {
    JSON.stringify(value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected JSON.stringify to fail");
}

describe("normalizeToolResult", () => {
  it("turns a string into one text block", async () => {
    expect(await normalize("hello")).toEqual({ content: [{ type: "text", text: "hello" }] });
    expect(await normalize("")).toEqual({ content: [{ type: "text", text: "" }] });
  });

  it("turns an object into JSON text, without structuredContent", async () => {
    expect(await normalize({ a: 1, b: ["x"] })).toEqual({
      content: [{ type: "text", text: '{"a":1,"b":["x"]}' }],
    });
  });

  it("turns other JSON values into JSON text", async () => {
    expect(await normalize(42)).toEqual({ content: [{ type: "text", text: "42" }] });
    expect(await normalize(false)).toEqual({ content: [{ type: "text", text: "false" }] });
    expect(await normalize(null)).toEqual({ content: [{ type: "text", text: "null" }] });
    expect(await normalize([1, "two"])).toEqual({ content: [{ type: "text", text: '[1,"two"]' }] });
    expect(await normalize([])).toEqual({ content: [{ type: "text", text: "[]" }] });
  });

  it("refuses, as the tool's error, a value JSON cannot hold", async () => {
    const refused = (what: string) => errorResult(`Tool "t" returned ${what}; ${INSTEAD}`);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(await normalize(Symbol("s"))).toEqual(refused("a symbol"));
    expect(await normalize(10n)).toEqual(
      refused("a bigint that cannot be sent as JSON (Do not know how to serialize a BigInt)"),
    );
    expect(await normalize(cycle)).toEqual(
      refused(`an object that cannot be sent as JSON (${jsonError(cycle)})`),
    );
  });

  it("refuses a Map or a Set, which JSON would send as {}, saying where and what to return", async () => {
    const map = "which JSON would send as {} and lose its entries";
    const set = "which JSON would send as {} and lose its values";
    const fromMap =
      "Object.fromEntries(map) (an object) or [...map] (a list of [key, value] pairs)";
    for (const [value, words] of [
      [new Map([["a", 1]]), `a Map, ${map}; return ${fromMap} instead`],
      [new Map(), `a Map, ${map}; return ${fromMap} instead`],
      [new Set(["a"]), `a Set, ${set}; return [...set] (an array) instead`],
      [
        { user: { name: "a", roles: new Set(["admin"]) } },
        `an object holding a Set at user.roles, ${set}; put [...set] (an array) there instead`,
      ],
      [
        [{ id: 1 }, { id: 2, index: new Map([[1, "x"]]) }],
        `an array holding a Map at 1.index, ${map}; put ${fromMap} there instead`,
      ],
      [
        { toJSON: () => ({ seen: new Set() }) },
        `an object holding a Set at seen, ${set}; put [...set] (an array) there instead`,
      ],
    ] as const) {
      expect(await normalize(value)).toEqual(errorResult(`Tool "t" returned ${words}`));
    }
  });

  it("refuses what else JSON would send as {}: a Promise, an Error, a RegExp, a WeakMap, a WeakSet", async () => {
    const fetchThing = async () => ({ id: 1 });
    const promise = "which JSON would send as {} and lose what it resolves to";
    const error = "which JSON would send as {} and lose its message";
    const regexp = "which JSON would send as {} and lose its pattern";
    const fromRegExp = "regexp.source (its pattern) or regexp.toString() (/pattern/flags)";
    for (const [value, words] of [
      // The await forgotten: `return { data: fetchThing() }`.
      [
        { data: fetchThing() },
        `an object holding a Promise at data, ${promise}; await it and put what it resolves to there`,
      ],
      [fetchThing(), `a Promise, ${promise}; await it and return what it resolves to`],
      [
        [{ ok: true }, { ok: false, error: new TypeError("quota exceeded") }],
        `an array holding an Error at 1.error, ${error}; put error.message there instead, or throw the error`,
      ],
      [new Error("gone"), `an Error, ${error}; return error.message instead, or throw the error`],
      // An abort's reason, a DOMException: an Error by instanceof, not by its tag.
      [
        { reason: AbortSignal.abort().reason },
        `an object holding an Error at reason, ${error}; put error.message there instead, or throw the error`,
      ],
      [
        { filter: { pattern: /a+b/gi } },
        `an object holding a RegExp at filter.pattern, ${regexp}; put ${fromRegExp} there instead`,
      ],
      [/a+b/, `a RegExp, ${regexp}; return ${fromRegExp} instead`],
      [
        { cache: new WeakMap() },
        "an object holding a WeakMap at cache, which JSON would send as {} and lose its entries; put an object of what you mean to send there instead (a WeakMap cannot list its entries)",
      ],
      [
        { seen: new WeakSet() },
        "an object holding a WeakSet at seen, which JSON would send as {} and lose its values; put an array of what you mean to send there instead (a WeakSet cannot list its values)",
      ],
    ] as const) {
      expect(await normalize(value)).toEqual(errorResult(`Tool "t" returned ${words}`));
    }
  });

  it("keeps an Error or a RegExp whose toJSON says what it means, and an Error with fields of its own", async () => {
    class Reported extends Error {
      toJSON() {
        return { message: this.message };
      }
    }
    class HttpError extends Error {
      constructor(
        message: string,
        readonly status: number,
      ) {
        super(message);
      }
    }
    const pattern = Object.assign(/a+/, { toJSON: () => "a+" });
    expect(
      await normalize({
        failed: new Reported("quota exceeded"),
        when: { toJSON: () => "today" },
        pattern,
        // Written with its fields, not as {}: JSON.stringify's own choice, kept.
        http: new HttpError("gone", 404),
        none: {},
      }),
    ).toEqual({
      content: [
        {
          type: "text",
          text: '{"failed":{"message":"quota exceeded"},"when":"today","pattern":"a+","http":{"status":404},"none":{}}',
        },
      ],
    });
  });

  it("refuses a CallToolResult whose structuredContent or _meta holds what JSON would send as {}", async () => {
    const set = "which JSON would send as {} and lose its values";
    const content = [{ type: "text" as const, text: "tally" }];
    expect(
      await normalize({ content, structuredContent: { votes: { pizza: new Set(["ann"]) } } }),
    ).toEqual(
      errorResult(
        `Tool "t" returned an object holding a Set at structuredContent.votes.pizza, ${set}; put [...set] (an array) there instead`,
      ),
    );
    expect(await normalize({ content, structuredContent: { user: Promise.resolve({}) } })).toEqual(
      errorResult(
        'Tool "t" returned an object holding a Promise at structuredContent.user, which JSON would send as {} and lose what it resolves to; await it and put what it resolves to there',
      ),
    );
    expect(await normalize({ content, _meta: { seen: new Set() } })).toEqual(
      errorResult(
        `Tool "t" returned an object holding a Set at _meta.seen, ${set}; put [...set] (an array) there instead`,
      ),
    );
    // What JSON carries whole goes through as it was returned.
    const plain = { content, structuredContent: { votes: { pizza: ["ann"] } }, _meta: {} };
    expect(await normalize(plain)).toBe(plain);
  });

  it("keeps what JSON says of other objects: toJSON, a Date, a class's fields, an empty object", async () => {
    class Point {
      constructor(
        readonly x = 1,
        readonly y = 2,
      ) {}
    }
    class Tags extends Set<string> {
      toJSON() {
        return [...this];
      }
    }
    expect(
      await normalize({
        when: new Date(0),
        at: new Point(),
        tags: new Tags(["a"]),
        none: {},
        text: "{}",
        gone: undefined,
      }),
    ).toEqual({
      content: [
        {
          type: "text",
          text: '{"when":"1970-01-01T00:00:00.000Z","at":{"x":1,"y":2},"tags":["a"],"none":{},"text":"{}"}',
        },
      ],
    });
  });

  it("turns undefined into empty content", async () => {
    expect(await normalize(undefined)).toEqual({ content: [] });
  });

  it("sniffs PNG and JPEG bytes into image content", async () => {
    expect(await normalize(PNG)).toEqual({
      content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
    });
    expect(await normalize(JPEG)).toEqual({
      content: [{ type: "image", data: "/9j/4A==", mimeType: "image/jpeg" }],
    });
  });

  it("sniffs WAV bytes into audio content", async () => {
    expect(await normalize(WAV)).toEqual({
      content: [
        {
          type: "audio",
          data: Buffer.from(WAV).toString("base64"),
          mimeType: "audio/wav",
        },
      ],
    });
  });

  it("encodes only the bytes of a view, not its whole buffer", async () => {
    const backing = new Uint8Array([0, 0, ...PNG, 0xaa]);
    const view = backing.subarray(2, 2 + PNG.length);
    expect(await normalize(view)).toEqual({
      content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
    });
    expect(await normalize(Buffer.from(PNG))).toEqual({
      content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
    });
  });

  it("uses the mime type given with { data, mimeType }", async () => {
    expect(await normalize({ data: UNKNOWN, mimeType: "image/svg+xml" })).toEqual({
      content: [{ type: "image", data: "AQIDBA==", mimeType: "image/svg+xml" }],
    });
    expect(await normalize({ data: UNKNOWN, mimeType: "audio/mpeg" })).toEqual({
      content: [{ type: "audio", data: "AQIDBA==", mimeType: "audio/mpeg" }],
    });
    // The stated type wins over what the bytes look like.
    expect(await normalize({ data: PNG, mimeType: "image/x-custom" })).toEqual({
      content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/x-custom" }],
    });
  });

  it("turns bytes of an unknown format into isError with a hint", async () => {
    expect(await normalize(UNKNOWN)).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "t" returned bytes of an unknown format; return { data, mimeType } to say what they are',
        },
      ],
      isError: true,
    });
  });

  it("turns bytes of a non-media type into isError", async () => {
    expect(await normalize({ data: UNKNOWN, mimeType: "application/pdf" })).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "t" returned bytes of type "application/pdf"; only image/* and audio/* bytes become content, return an embedded resource for other types',
        },
      ],
      isError: true,
    });
  });

  it("wraps one content block", async () => {
    const block: ContentBlock = { type: "resource_link", uri: "file:///a.txt", name: "a.txt" };
    const result = await normalize(block);
    expect(result).toEqual({ content: [block] });
    expect(result.content[0]).toBe(block);
  });

  it("passes an array of content blocks through", async () => {
    const blocks: ContentBlock[] = [
      { type: "text", text: "see" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "resource", resource: { uri: "config://app", text: "{}" } },
    ];
    const result = await normalize(blocks);
    expect(result).toEqual({ content: blocks });
    expect(result.content).toBe(blocks);
  });

  it("serialises an array that is not all content blocks", async () => {
    expect(await normalize([{ type: "text", text: "a" }, 1])).toEqual({
      content: [{ type: "text", text: '[{"type":"text","text":"a"},1]' }],
    });
  });

  it("passes a full CallToolResult through unchanged", async () => {
    const result: CallToolResult = {
      content: [{ type: "text", text: "done" }],
      isError: false,
      _meta: { took: 3 },
    };
    expect(await normalize(result)).toBe(result);
    const empty = { content: [] };
    expect(await normalize(empty)).toBe(empty);
  });

  it("serialises an object whose content is not content blocks", async () => {
    expect(await normalize({ content: ["not a block"] })).toEqual({
      content: [{ type: "text", text: '{"content":["not a block"]}' }],
    });
  });
});

describe("helpers", () => {
  it("errorResult builds an isError text result", () => {
    expect(errorResult("nope")).toEqual({
      content: [{ type: "text", text: "nope" }],
      isError: true,
    });
  });

  it("isCallToolResult needs a content array of content blocks", () => {
    expect(isCallToolResult({ content: [] })).toBe(true);
    expect(isCallToolResult({ content: [{ type: "text", text: "a" }], isError: true })).toBe(true);
    expect(isCallToolResult({ content: [{ type: "video" }] })).toBe(false);
    expect(isCallToolResult({ content: "a" })).toBe(false);
    expect(isCallToolResult(null)).toBe(false);
    expect(isCallToolResult("a")).toBe(false);
  });

  it("sniffMimeType knows the common image and audio signatures", () => {
    const riff = (form: string) =>
      new Uint8Array([...Buffer.from("RIFF"), 0, 0, 0, 0, ...Buffer.from(form)]);
    expect(sniffMimeType(PNG)).toBe("image/png");
    expect(sniffMimeType(JPEG)).toBe("image/jpeg");
    expect(sniffMimeType(new Uint8Array(Buffer.from("GIF89a")))).toBe("image/gif");
    expect(sniffMimeType(riff("WEBP"))).toBe("image/webp");
    expect(sniffMimeType(riff("WAVE"))).toBe("audio/wav");
    expect(sniffMimeType(riff("AVI "))).toBeUndefined();
    expect(sniffMimeType(new Uint8Array(Buffer.from("ID3\x04")))).toBe("audio/mpeg");
    expect(sniffMimeType(new Uint8Array(Buffer.from("OggS")))).toBe("audio/ogg");
    expect(sniffMimeType(new Uint8Array(Buffer.from("fLaC")))).toBe("audio/flac");
    expect(sniffMimeType(UNKNOWN)).toBeUndefined();
    expect(sniffMimeType(new Uint8Array([0x89, 0x50]))).toBeUndefined();
    expect(sniffMimeType(new Uint8Array())).toBeUndefined();
  });
});
