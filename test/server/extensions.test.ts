import { describe, expect, it } from "vitest";
import { createServer } from "../../src/index.js";

describe("extensions a server supports", () => {
  const server = createServer({
    name: "ext",
    version: "1.0.0",
    extensions: { "com.example/audit": { level: "full" } },
  });

  it("are advertised to 2026-07-28 clients, and not to clients of earlier revisions", () => {
    expect(server.capabilities("2026-07-28")).toEqual({
      logging: {},
      extensions: { "com.example/audit": { level: "full" } },
    });
    expect(server.capabilities("2025-11-25")).toEqual({ logging: {} });
  });

  it("need a prefixed identifier and an object of settings", () => {
    expect(() => createServer({ name: "x", version: "1", extensions: { audit: {} } })).toThrow(
      'extensions: "audit" is not an extension identifier; use a prefixed name such as "com.example/my-extension"',
    );
    expect(() =>
      createServer({
        name: "x",
        version: "1",
        extensions: { "com.example/a": [] as unknown as Record<string, never> },
      }),
    ).toThrow('extensions: the settings of "com.example/a" must be an object ({} for none)');
  });
});
