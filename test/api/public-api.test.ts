import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import * as otel from "../../src/otel/index.js";

describe("the public API", () => {
  it("exports exactly these runtime names (an export never disappears by accident)", () => {
    expect(Object.keys(api).sort()).toEqual([
      "DefinitionError",
      "ErrorCode",
      "InProcessChangeBus",
      "InProcessTaskStore",
      "JsonRpcError",
      "LOGGING_LEVELS",
      "McpErrorCode",
      "McpServer",
      "RESOURCE_NOT_FOUND",
      "RegistryError",
      "STATEFUL_VERSIONS",
      "STATELESS_VERSION",
      "StdioTransport",
      "audio",
      "createFetchHandler",
      "createHttpHandler",
      "createServer",
      "defineConfig",
      "defineMiddleware",
      "definePrompt",
      "defineResource",
      "defineTool",
      "embeddedResource",
      "encodeMessage",
      "formatProblem",
      "formatWarning",
      "image",
      "isContentBlock",
      "isDefinitionError",
      "loadServer",
      "parseMessage",
      "resourceLink",
      "serveHttp",
      "serveStdio",
      "text",
      "toBase64",
      "watchServer",
    ]);
  });

  it("mcp-dir/otel exports exactly instrument", () => {
    expect(Object.keys(otel)).toEqual(["instrument"]);
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
