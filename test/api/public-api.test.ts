import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
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

  it("gives an author's type checker nothing of Redis: what `mcp-dir` declares imports no @redis/client", () => {
    // Its declarations alone are some 140 files, 1.3 MB (and they bring @types/node along).
    expect(packagesDeclaredFrom(["index.d.ts", "testing/index.d.ts"])).not.toContain(
      "@redis/client",
    );
  });
});

/** The packages the declarations at `entries` (in dist/) import, through every dist file they import. */
function packagesDeclaredFrom(entries: string[]): string[] {
  const dist = join(import.meta.dirname, "../../dist");
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = entries.map((entry) => join(dist, entry));
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith("."))
        queue.push(join(dirname(file), fileName.replace(/\.js$/, ".d.ts")));
      else
        packages.add(
          fileName
            .split("/")
            .slice(0, fileName.startsWith("@") ? 2 : 1)
            .join("/"),
        );
    }
  }
  return [...packages].sort();
}
