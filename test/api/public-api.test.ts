import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";

describe("the public API", () => {
  it("exports exactly these runtime names (an export never disappears by accident)", () => {
    expect(Object.keys(api).sort()).toEqual([
      "DEFAULT_HTTP_VERSION",
      "DefinitionError",
      "ErrorCode",
      "FEATURE_SINCE",
      "HotReloader",
      "JsonRpcError",
      "LATEST_STATEFUL_VERSION",
      "LOGGING_LEVELS",
      "McpErrorCode",
      "McpServer",
      "RESOURCE_NOT_FOUND",
      "Registry",
      "RegistryError",
      "ReloadableModules",
      "STATEFUL_VERSIONS",
      "STATELESS_VERSION",
      "StdioTransport",
      "applyToRegistry",
      "atLeast",
      "audio",
      "callToolResultForVersion",
      "contentForVersion",
      "createHttpHandler",
      "createImporter",
      "createServer",
      "defineConfig",
      "definePrompt",
      "defineResource",
      "defineTool",
      "definitionKind",
      "embeddedResource",
      "formatProblem",
      "formatWarning",
      "image",
      "implementationForVersion",
      "isContentBlock",
      "isDefinitionError",
      "isSkipped",
      "isStatefulVersion",
      "loadConfig",
      "loadDirectory",
      "loadFile",
      "loadServer",
      "negotiateVersion",
      "promptForVersion",
      "promptResultForVersion",
      "resourceForVersion",
      "resourceLink",
      "serveHttp",
      "serveStdio",
      "supports",
      "text",
      "toBase64",
      "toolForVersion",
      "watchDirectory",
    ]);
  });

  it("leaks no `any` into the published type declarations", () => {
    const dist = join(import.meta.dirname, "../../dist");
    const declarations = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) =>
      file.endsWith(".d.ts"),
    );
    expect(declarations.length).toBeGreaterThan(10);
    const leaks = declarations.flatMap((file) =>
      readFileSync(join(dist, file), "utf8")
        .split("\n")
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line) && /(:|<|,|\|)\s*any\b/.test(line))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(leaks).toEqual([]);
  });
});
