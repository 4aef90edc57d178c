/**
 * `mcp-dir serve` traces its requests of its own accord when the process has
 * OpenTelemetry set up (here by a file given to `node --import` that exports
 * every span to a file), with nothing in the server directory about it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { connectToServe, EXAMPLE_SERVER, stopAll } from "../cli/helpers/cli.js";
import { CALLER } from "./helpers/sdk.js";

const scratch = mkdtempSync(join(tmpdir(), "mcp-dir-spans-"));
afterAll(async () => {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

const SETUP = pathToFileURL(join(import.meta.dirname, "helpers", "export-spans-to-file.mjs")).href;
const EXAMPLE_SETUP = pathToFileURL(join(EXAMPLE_SERVER, "otel.mjs")).href;

interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
}

describe("mcp-dir serve with OpenTelemetry set up by --import", () => {
  it("makes a span of each request, a child of the caller's traceparent", async () => {
    const file = join(scratch, "spans.jsonl");
    const { client } = await connectToServe(EXAMPLE_SERVER, {
      env: { NODE_OPTIONS: `--import=${SETUP}`, MCP_DIR_SPANS_FILE: file },
    });
    const result = await client.callTool({
      name: "calculator",
      arguments: { operation: "add", a: 2, b: 3 },
      _meta: { traceparent: CALLER.traceparent },
    });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);
    await client.close();
    const spans = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as ExportedSpan)
      .filter((span) => span.traceId === CALLER.traceId);
    const request = spans.find((span) => span.name === "tools/call calculator");
    expect(request).toMatchObject({
      parentSpanId: CALLER.spanId,
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "calculator",
        "mcp.protocol.version": "2025-11-25",
        "network.transport": "pipe",
      },
    });
    expect(spans.find((span) => span.name === "tool calculator")).toMatchObject({
      parentSpanId: request?.spanId,
      attributes: { "code.file.path": "tools/calculator.ts" },
    });
  });

  it("example-server/otel.mjs prints each span on stderr", async () => {
    const connection = await connectToServe(EXAMPLE_SERVER, {
      env: { NODE_OPTIONS: `--import=${EXAMPLE_SETUP}` },
    });
    const result = await connection.client.callTool({
      name: "calculator",
      arguments: { operation: "multiply", a: 6, b: 7 },
    });
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
    await connection.waitForStderr("name: 'tools/call calculator'");
  });
});
