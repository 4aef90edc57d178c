/**
 * A definition is compiled (checked, its descriptor and schemas made) once
 * per name: defineTool checks a named one, the loader validates what a file
 * exports, the registry serves it; each reuses what the first compile made.
 */
import { describe, expect, it } from "vitest";
import { defineResource, defineTool } from "../../src/define/index.js";
import { createServer } from "../../src/index.js";
import { collectDefinitions } from "../../src/loader/collect-definitions.js";
import { compile, Registry } from "../../src/registry/index.js";

const echo = () => defineTool({ description: "Echoes", handler: () => "echo" });

describe("compiling a definition", () => {
  it("gives the same result for the same definition and name, whoever asks", () => {
    const named = defineTool({ name: "named", description: "Named", handler: () => "x" });
    // The definition's own name wins over the fallback, so both ask for "named".
    expect(compile({ definition: named, fallbackName: "tools/named.ts" })).toBe(
      compile({ definition: named }),
    );
    const unnamed = echo();
    const asA = compile({ definition: unnamed, fallbackName: "a" });
    expect(compile({ definition: unnamed, fallbackName: "a" })).toBe(asA);
    const asB = compile({ definition: unnamed, fallbackName: "b" });
    expect([asA.name, asB.name]).toEqual(["a", "b"]);
  });

  it("serves what the loader's validation compiled", () => {
    const template = defineResource({ uriTemplate: "notes://{id}", read: () => "note" });
    const { entries, problems } = collectDefinitions(
      { default: echo(), notes: template },
      "tools/echo.ts",
      "tools",
    );
    expect(problems).toEqual([]);
    const registry = new Registry();
    registry.replaceSource("tools/echo.ts", entries);
    expect(registry.tool("echo")).toBe(compile(entries[0] as (typeof entries)[0]));
    expect(registry.templateByUri("notes://{id}")).toBe(compile(entries[1] as (typeof entries)[0]));
  });

  it("is not done again for the definitions already added when server.add adds more", () => {
    const server = createServer({ name: "compile-once", version: "1.0.0" });
    server.add(defineTool({ name: "first", description: "First", handler: () => "1" }));
    const first = server.registry.tool("first");
    server.add(defineTool({ name: "second", description: "Second", handler: () => "2" }));
    expect(server.registry.tool("first")).toBe(first);
  });
});
