import { describe, expect, it } from "vitest";
import { createServer } from "../../src/index.js";

describe("extensions a server supports", () => {
  const server = createServer({
    name: "ext",
    version: "1.0.0",
    extensions: { "com.example/audit": { level: "full" } },
  });

  it("are advertised in every revision's capabilities, as SEP-2133 has them", () => {
    for (const version of ["2026-07-28", "2025-11-25", "2024-11-05"]) {
      expect(server.capabilities(version)).toEqual({
        logging: {},
        extensions: { "com.example/audit": { level: "full" } },
      });
    }
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
