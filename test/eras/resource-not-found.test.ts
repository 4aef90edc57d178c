/**
 * A read of a URI nothing serves, in both eras over both transports (the real
 * CLI, the official clients): the error keeps its code (-32002 on
 * 2025-11-25, -32602 on 2026-07-28) and, when a listed resource's URI differs
 * from it only in percent-encoding, names that URI in its message and data.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  connectClient,
  ERA_ROWS,
  type EraClient,
  servedFiles,
  VERSION_OF,
} from "./helpers/clients.js";

const FILES = {
  "resources/docs/my file.md": "# Mine\n",
  "resources/notes.ts": `import { defineResource } from "mcp-dir";
export default defineResource({ uri: "notes://a%2Fb", read: () => "a/b" });
`,
};

const serve = servedFiles(FILES);

describe.each(ERA_ROWS)("over %s, the %s client", (transport, kind) => {
  let client: EraClient;
  beforeAll(async () => {
    client = await connectClient(kind, await serve(transport));
  });
  const code = VERSION_OF[kind] === "2026-07-28" ? -32602 : -32002;

  /** The error a read of `uri` is answered with: its code, message (without the v1 prefix) and data. */
  async function notFound(uri: string): Promise<unknown> {
    const error = await client.readResource({ uri }).then(
      () => undefined,
      (thrown: { code: number; message: string; data?: unknown }) => thrown,
    );
    if (error === undefined) throw new Error(`${uri} was served`);
    return {
      code: error.code,
      message: error.message.replace(/^MCP error -?\d+: /, ""),
      data: error.data,
    };
  }

  it("names the listed URI a URI differing only in percent-encoding meant", async () => {
    expect(await notFound("file:///docs/my file.md")).toEqual({
      code,
      message:
        "Resource not found: file:///docs/my file.md; did you mean file:///docs/my%20file.md? A URI is read as it is listed, its percent-encoding included",
      data: { uri: "file:///docs/my file.md", listedUri: "file:///docs/my%20file.md" },
    });
    expect(await notFound("notes://a%2fb")).toEqual({
      code,
      message:
        "Resource not found: notes://a%2fb; did you mean notes://a%2Fb? A URI is read as it is listed, its percent-encoding included",
      data: { uri: "notes://a%2fb", listedUri: "notes://a%2Fb" },
    });
  });

  it("says only that it is not found when no listed URI is that near", async () => {
    expect(await notFound("file:///docs/their file.md")).toEqual({
      code,
      message: "Resource not found: file:///docs/their file.md",
      data: { uri: "file:///docs/their file.md" },
    });
  });
});
