import { describe, expect, it } from "vitest";
import { definePrompt, defineResource, defineTool } from "../../src/define/index.js";
import {
  compile,
  type Definition,
  identities,
  Registry,
  type RegistryChange,
  RegistryError,
  type SourceEntry,
} from "../../src/registry/index.js";

const tool = (name: string, description = `Tool ${name}`): SourceEntry => ({
  definition: defineTool({ name, description, handler: () => name }),
});
const prompt = (name: string, description = `Prompt ${name}`): SourceEntry => ({
  definition: definePrompt({ name, description, get: () => name }),
});
const resource = (name: string, uri: string, description?: string): SourceEntry => ({
  definition: defineResource({ name, uri, ...(description && { description }), read: () => name }),
});
const template = (name: string, uriTemplate: string): SourceEntry => ({
  definition: defineResource({ name, uriTemplate, read: () => name }),
});

const NO_CHANGE: RegistryChange = {
  tools: false,
  prompts: false,
  resources: false,
  updatedUris: [],
};

/** A registry that records every change event. */
function recording() {
  const registry = new Registry();
  const events: RegistryChange[] = [];
  registry.onChange((change) => events.push(change));
  return { registry, events };
}

function registryError(fn: () => unknown): RegistryError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryError);
    return error as RegistryError;
  }
  throw new Error("expected a RegistryError");
}

const names = (list: readonly { name: string }[]) => list.map((item) => item.name);

describe("Registry: updates and change events", () => {
  it("adds a source and emits one change for the kinds it holds", () => {
    const { registry, events } = recording();
    const change = registry.replaceSource("tools/echo.ts", [tool("echo"), tool("shout")]);
    expect(change).toEqual({ tools: true, prompts: false, resources: false, updatedUris: [] });
    expect(events).toEqual([change]);
    expect(names(registry.tools)).toEqual(["echo", "shout"]);
  });

  it("emits nothing when a source is replaced by the same descriptors", () => {
    const { registry, events } = recording();
    registry.replaceSource("a.ts", [tool("echo"), prompt("greet")]);
    const before = registry.tool("echo");
    const change = registry.replaceSource("a.ts", [tool("echo"), prompt("greet")]);
    expect(change).toEqual(NO_CHANGE);
    expect(events).toHaveLength(1);
    // The new handler is in place all the same.
    expect(registry.tool("echo")).not.toBe(before);
  });

  it("flags only the kinds whose descriptors changed", () => {
    const { registry, events } = recording();
    registry.replaceSource("a.ts", [tool("echo"), prompt("greet")]);
    const change = registry.replaceSource("a.ts", [tool("echo"), prompt("greet", "New words")]);
    expect(change).toEqual({ tools: false, prompts: true, resources: false, updatedUris: [] });
    expect(events).toEqual([
      { tools: true, prompts: true, resources: false, updatedUris: [] },
      change,
    ]);
    expect(registry.prompt("greet")?.descriptor.description).toBe("New words");
  });

  it("lists fixed resources of a replaced source as updated, even when unchanged", () => {
    const { registry, events } = recording();
    registry.replaceSource("res.ts", [
      resource("cfg", "config://app"),
      template("user", "users://{id}"),
    ]);
    const templates = (change: RegistryChange | undefined) =>
      change?.updatedTemplates?.map((t) => t.template);
    expect(events).toMatchObject([
      { tools: false, prompts: false, resources: true, updatedUris: ["config://app"] },
    ]);
    expect(templates(events[0])).toEqual(["users://{id}"]);
    const change = registry.replaceSource("res.ts", [
      resource("cfg", "config://app"),
      template("user", "users://{id}"),
    ]);
    expect(change).toMatchObject({
      tools: false,
      prompts: false,
      resources: false,
      updatedUris: ["config://app"],
    });
    // Each URI the template serves may read differently now.
    expect(templates(change)).toEqual(["users://{id}"]);
    expect(events).toHaveLength(2);
  });

  it("does not list a fixed resource served by the very same definition object again", () => {
    const { registry, events } = recording();
    const config = resource("cfg", "config://app");
    registry.replaceSource("code", [config]);
    // As server.add() does: the same source again, with one definition more.
    const change = registry.replaceSource("code", [config, tool("late")]);
    expect(change).toEqual({ tools: true, prompts: false, resources: false, updatedUris: [] });
    expect(registry.replaceSource("code", [config, tool("late")])).toEqual(NO_CHANGE);
    expect(events).toHaveLength(2);
    // A fresh definition for the same URI may read something else.
    expect(registry.replaceSource("code", [resource("cfg", "config://app")]).updatedUris).toEqual([
      "config://app",
    ]);
  });

  it("lists the URIs from before and after a replacement", () => {
    const { registry } = recording();
    registry.replaceSource("res.ts", [resource("cfg", "config://old")]);
    const change = registry.replaceSource("res.ts", [resource("cfg", "config://new")]);
    expect(change).toEqual({
      tools: false,
      prompts: false,
      resources: true,
      updatedUris: ["config://old", "config://new"],
    });
  });

  it("does not list URIs of sources the update did not touch", () => {
    const { registry } = recording();
    registry.replaceSource("res.ts", [resource("cfg", "config://app")]);
    const change = registry.replaceSource("tools.ts", [tool("echo")]);
    expect(change).toEqual({ tools: true, prompts: false, resources: false, updatedUris: [] });
  });

  it("removes a source with its definitions", () => {
    const { registry, events } = recording();
    registry.replaceSource("a.ts", [tool("echo"), resource("cfg", "config://app")]);
    registry.replaceSource("b.ts", [tool("other")]);
    const change = registry.removeSource("a.ts");
    expect(change).toEqual({
      tools: true,
      prompts: false,
      resources: true,
      updatedUris: ["config://app"],
    });
    expect(events.at(-1)).toBe(change);
    expect(names(registry.tools)).toEqual(["other"]);
    expect(registry.resources).toEqual([]);
    expect(registry.entries().map((e) => e.source)).toEqual(["b.ts"]);
  });

  it("emits nothing when removing a source it does not have", () => {
    const { registry, events } = recording();
    registry.replaceSource("a.ts", [tool("echo")]);
    expect(registry.removeSource("missing.ts")).toEqual(NO_CHANGE);
    expect(events).toHaveLength(1);
  });

  it("treats a source replaced with nothing as removed", () => {
    const { registry } = recording();
    registry.replaceSource("a.ts", [tool("echo")]);
    expect(registry.replaceSource("a.ts", [])).toEqual({
      tools: true,
      prompts: false,
      resources: false,
      updatedUris: [],
    });
    expect(registry.entries()).toEqual([]);
    expect(registry.tool("echo")).toBeUndefined();
  });

  it("applies several sources in one update with one event", () => {
    const { registry, events } = recording();
    registry.replaceSource("old.ts", [prompt("gone")]);
    const change = registry.update(
      new Map<string, SourceEntry[] | null>([
        ["tools.ts", [tool("echo")]],
        ["res.ts", [resource("cfg", "config://app")]],
        ["old.ts", null],
      ]),
    );
    expect(change).toEqual({
      tools: true,
      prompts: true,
      resources: true,
      updatedUris: ["config://app"],
    });
    expect(events).toEqual([
      { tools: false, prompts: true, resources: false, updatedUris: [] },
      change,
    ]);
  });

  it("does not report a definition that moves between sources as a list change", () => {
    const { registry, events } = recording();
    registry.replaceSource("a.ts", [tool("echo")]);
    const change = registry.update(
      new Map<string, SourceEntry[] | null>([
        ["a.ts", null],
        ["b.ts", [tool("echo")]],
      ]),
    );
    expect(change).toEqual(NO_CHANGE);
    expect(events).toHaveLength(1);
    expect(registry.entries().map((e) => [e.source, e.compiled.name])).toEqual([["b.ts", "echo"]]);
  });

  it("stops calling a listener once unsubscribed", () => {
    const registry = new Registry();
    const events: RegistryChange[] = [];
    const off = registry.onChange((change) => events.push(change));
    registry.replaceSource("a.ts", [tool("a")]);
    off();
    registry.replaceSource("b.ts", [tool("b")]);
    expect(events).toHaveLength(1);
  });
});

describe("Registry: atomic updates", () => {
  it("keeps a failing source's last good definitions and lists every problem", () => {
    const { registry, events } = recording();
    registry.replaceSource("tools/a.ts", [tool("echo", "Old")]);
    const error = registryError(() =>
      registry.replaceSource("tools/a.ts", [
        tool("echo", "New"),
        { definition: { name: "bad", description: "" } as unknown as Definition },
        { definition: defineTool({ name: "x", description: "d", handler: () => "" }) },
        { definition: defineTool({ name: "x", description: "d", handler: () => "" }) },
      ]),
    );
    expect(error.name).toBe("RegistryError");
    expect(error.problems).toEqual([
      {
        source: "tools/a.ts",
        message: "not a definition: create it with defineTool, definePrompt or defineResource",
      },
      {
        source: "tools/a.ts",
        message: 'Tool "x" is defined twice in tools/a.ts; rename one of them',
      },
    ]);
    expect(error.message).toBe(
      "tools/a.ts: not a definition: create it with defineTool, definePrompt or defineResource\n" +
        'tools/a.ts: Tool "x" is defined twice in tools/a.ts; rename one of them',
    );
    expect(registry.tool("echo")?.descriptor.description).toBe("Old");
    expect(registry.tool("x")).toBeUndefined();
    expect(events).toHaveLength(1);
  });

  it("reports a definition that fails to compile with its source", () => {
    const { registry } = recording();
    const invalid = defineTool({ description: "d", handler: () => "" });
    const error = registryError(() =>
      registry.replaceSource("tools/a b.ts", [{ definition: invalid, fallbackName: "a b" }]),
    );
    expect(error.message).toBe(
      'tools/a b.ts: Tool "a b" is invalid:\n' +
        '  - Tool name "a b" is invalid: use 1 to 128 letters, digits, "_", "-" or "."',
    );
  });

  it("changes nothing when one source of a multi-source update fails", () => {
    const { registry, events } = recording();
    registry.replaceSource("keep.ts", [tool("keep")]);
    const error = registryError(() =>
      registry.update(
        new Map<string, SourceEntry[] | null>([
          ["good.ts", [tool("good")]],
          ["keep.ts", null],
          // Free, since keep.ts is removed in the same update.
          ["moved.ts", [tool("keep")]],
          ["worse.ts", [tool("good")]],
        ]),
      ),
    );
    expect(error.problems).toEqual([
      {
        source: "worse.ts",
        message: 'Tool "good" is defined in both good.ts and worse.ts; rename one of them',
      },
    ]);
    expect(names(registry.tools)).toEqual(["keep"]);
    expect(registry.entries().map((e) => e.source)).toEqual(["keep.ts"]);
    expect(events).toHaveLength(1);
  });

  it("lists problems from every source of an update", () => {
    const { registry } = recording();
    registry.replaceSource("a.ts", [tool("echo")]);
    const error = registryError(() =>
      registry.update(
        new Map<string, SourceEntry[] | null>([
          ["b.ts", [tool("echo")]],
          ["c.ts", [{ definition: null as unknown as Definition }]],
        ]),
      ),
    );
    expect(error.problems).toEqual([
      {
        source: "c.ts",
        message: "not a definition: create it with defineTool, definePrompt or defineResource",
      },
      {
        source: "b.ts",
        message: 'Tool "echo" is defined in both a.ts and b.ts; rename one of them',
      },
    ]);
  });
});

describe("Registry: collisions", () => {
  it("names both sources when a tool name is taken", () => {
    const { registry } = recording();
    registry.replaceSource("tools/echo.ts", [tool("echo")]);
    const error = registryError(() => registry.replaceSource("tools/other.ts", [tool("echo")]));
    expect(error.message).toBe(
      'tools/other.ts: Tool "echo" is defined in both tools/echo.ts and tools/other.ts; rename one of them',
    );
    expect(registry.entries().map((e) => e.source)).toEqual(["tools/echo.ts"]);
  });

  it("names both sources when they collide within one update", () => {
    const error = registryError(() =>
      new Registry().update(
        new Map([
          ["prompts/a.md", [prompt("greet")]],
          ["prompts/b.ts", [prompt("greet")]],
        ]),
      ),
    );
    expect(error.problems).toEqual([
      {
        source: "prompts/b.ts",
        message:
          'Prompt "greet" is defined in both prompts/a.md and prompts/b.ts; rename one of them',
      },
    ]);
  });

  it("rejects the same name twice in one source", () => {
    const error = registryError(() =>
      new Registry().replaceSource("prompts/p.ts", [prompt("greet"), prompt("greet")]),
    );
    expect(error.message).toBe(
      'prompts/p.ts: Prompt "greet" is defined twice in prompts/p.ts; rename one of them',
    );
  });

  it("allows one name for a tool, a prompt and a resource", () => {
    const registry = new Registry();
    registry.replaceSource("a.ts", [tool("x"), prompt("x"), resource("x", "x://1")]);
    expect(registry.tool("x")?.kind).toBe("tool");
    expect(registry.prompt("x")?.kind).toBe("prompt");
    expect(registry.resource("x://1")?.resource.name).toBe("x");
  });

  it("rejects a resource name or URI that is taken", () => {
    const registry = new Registry();
    registry.replaceSource("a.ts", [
      resource("cfg", "config://app"),
      template("user", "users://{id}"),
    ]);
    const byName = registryError(() =>
      registry.replaceSource("b.ts", [resource("cfg", "config://other")]),
    );
    expect(byName.message).toBe(
      'b.ts: Resource name "cfg" is defined in both a.ts and b.ts; rename one of them',
    );
    const byUri = registryError(() =>
      registry.replaceSource("b.ts", [resource("cfg2", "config://app")]),
    );
    expect(byUri.message).toBe(
      'b.ts: Resource URI "config://app" is defined in both a.ts and b.ts; rename one of them',
    );
    const byTemplate = registryError(() =>
      registry.replaceSource("b.ts", [template("user2", "users://{id}")]),
    );
    expect(byTemplate.message).toBe(
      'b.ts: Resource URI "users://{id}" is defined in both a.ts and b.ts; rename one of them',
    );
    const both = registryError(() =>
      registry.replaceSource("b.ts", [resource("cfg", "config://app")]),
    );
    expect(both.problems.map((p) => p.message)).toEqual([
      'Resource name "cfg" is defined in both a.ts and b.ts; rename one of them',
      'Resource URI "config://app" is defined in both a.ts and b.ts; rename one of them',
    ]);
  });

  it("frees a source's names when it is replaced or removed", () => {
    const registry = new Registry();
    registry.replaceSource("a.ts", [tool("echo")]);
    registry.replaceSource("a.ts", [tool("renamed")]);
    registry.replaceSource("b.ts", [tool("echo")]);
    registry.removeSource("b.ts");
    registry.replaceSource("c.ts", [tool("echo")]);
    expect(registry.entries().map((e) => [e.source, e.compiled.name])).toEqual([
      ["a.ts", "renamed"],
      ["c.ts", "echo"],
    ]);
  });

  it("keeps the old owner after a failed takeover", () => {
    const registry = new Registry();
    registry.replaceSource("a.ts", [tool("echo")]);
    registryError(() => registry.replaceSource("b.ts", [tool("echo")]));
    // b.ts holds nothing, so a.ts still owns the name and can be replaced.
    registry.replaceSource("a.ts", [tool("echo", "v2")]);
    expect(registry.tool("echo")?.descriptor.description).toBe("v2");
    registryError(() => registry.replaceSource("b.ts", [tool("echo")]));
  });
});

describe("Registry: lookups and order", () => {
  function populated(): Registry {
    const registry = new Registry();
    registry.replaceSource("z.ts", [
      tool("zeta"),
      prompt("review"),
      template("user", "users://{id}"),
    ]);
    registry.replaceSource("a.ts", [
      tool("alpha"),
      tool("Mixed"),
      prompt("greet"),
      resource("readme", "docs://readme"),
      resource("config", "config://app"),
      template("file", "files://{+path}"),
    ]);
    registry.replaceSource("m.ts", [resource("special", "users://me")]);
    return registry;
  }

  it("finds tools and prompts by name", () => {
    const registry = populated();
    expect(registry.tool("alpha")?.name).toBe("alpha");
    expect(registry.tool("greet")).toBeUndefined();
    expect(registry.prompt("review")?.descriptor).toEqual({
      name: "review",
      description: "Prompt review",
    });
    expect(registry.prompt("missing")).toBeUndefined();
  });

  it("finds a fixed resource by URI, else the first matching template", () => {
    const registry = populated();
    const fixed = registry.resource("config://app");
    expect(fixed?.resource.name).toBe("config");
    expect(fixed?.params).toEqual({});
    const user = registry.resource("users://42");
    expect(user?.resource.name).toBe("user");
    expect(user?.params).toEqual({ id: "42" });
    const file = registry.resource("files://docs/a%20b.md");
    expect(file?.resource.name).toBe("file");
    expect(file?.params).toEqual({ path: "docs/a b.md" });
    // A fixed URI wins over a template that also matches it.
    expect(registry.resource("users://me")?.resource.name).toBe("special");
    expect(registry.resource("nope://x")).toBeUndefined();
  });

  it("finds a template by its exact template text", () => {
    const registry = populated();
    expect(registry.templateByUri("users://{id}")?.name).toBe("user");
    expect(registry.templateByUri("users://42")).toBeUndefined();
    expect(registry.templateByUri("config://app")).toBeUndefined();
  });

  it("lists every kind sorted by name, whatever the order of sources", () => {
    const registry = populated();
    expect(names(registry.tools)).toEqual(["Mixed", "alpha", "zeta"]);
    expect(names(registry.prompts)).toEqual(["greet", "review"]);
    expect(names(registry.resources)).toEqual(["config", "readme", "special"]);
    expect(names(registry.templates)).toEqual(["file", "user"]);
  });

  it("lists entries by source, each in the order the source gave them", () => {
    const registry = populated();
    expect(
      registry.entries().map((e) => `${e.source}:${e.compiled.kind}:${e.compiled.name}`),
    ).toEqual([
      "a.ts:tool:alpha",
      "a.ts:tool:Mixed",
      "a.ts:prompt:greet",
      "a.ts:resource:readme",
      "a.ts:resource:config",
      "a.ts:resource:file",
      "m.ts:resource:special",
      "z.ts:tool:zeta",
      "z.ts:prompt:review",
      "z.ts:resource:user",
    ]);
  });

  it("gives the same order whatever order sources were loaded in", () => {
    const forwards = new Registry();
    const backwards = new Registry();
    const sources: [string, SourceEntry[]][] = [
      ["a.ts", [tool("b1")]],
      ["b.ts", [tool("a1")]],
      ["c.ts", [tool("c1")]],
    ];
    for (const [source, entries] of sources) forwards.replaceSource(source, entries);
    for (const [source, entries] of [...sources].reverse())
      backwards.replaceSource(source, entries);
    const view = (r: Registry) => ({
      tools: names(r.tools),
      entries: r.entries().map((e) => `${e.source}:${e.compiled.name}`),
    });
    expect(view(forwards)).toEqual({
      tools: ["a1", "b1", "c1"],
      entries: ["a.ts:b1", "b.ts:a1", "c.ts:c1"],
    });
    expect(view(backwards)).toEqual(view(forwards));
  });

  it("starts empty", () => {
    const registry = new Registry();
    expect([registry.tools, registry.prompts, registry.resources, registry.templates]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    expect(registry.entries()).toEqual([]);
    expect(registry.resource("config://app")).toBeUndefined();
  });
});

describe("compile and identities", () => {
  it("uses the fallback name only when the definition has none", () => {
    const unnamed = defineTool({ description: "d", handler: () => "" });
    expect(compile({ definition: unnamed, fallbackName: "math_add" }).name).toBe("math_add");
    const named = defineTool({ name: "add", description: "d", handler: () => "" });
    expect(compile({ definition: named, fallbackName: "math_add" }).name).toBe("add");
    expect(compile({ definition: named }).name).toBe("add");
  });

  it("throws for values that are not definitions", () => {
    for (const value of [null, {}, { name: "x", handler: () => "" }, "tool"]) {
      expect(() => compile({ definition: value as unknown as Definition })).toThrow(
        new TypeError(
          "not a definition: create it with defineTool, definePrompt or defineResource",
        ),
      );
    }
  });

  it("keys tools and prompts by name, resources by name and URI", () => {
    expect(identities(compile(tool("echo")))).toEqual([{ key: "tool:echo", label: 'Tool "echo"' }]);
    expect(identities(compile(prompt("greet")))).toEqual([
      { key: "prompt:greet", label: 'Prompt "greet"' },
    ]);
    expect(identities(compile(resource("cfg", "config://app")))).toEqual([
      { key: "resource:cfg", label: 'Resource name "cfg"' },
      { key: "resource-uri:config://app", label: 'Resource URI "config://app"' },
    ]);
    expect(identities(compile(template("user", "users://{id}")))).toEqual([
      { key: "resource:user", label: 'Resource name "user"' },
      { key: "resource-uri:users://{id}", label: 'Resource URI "users://{id}"' },
    ]);
  });
});
