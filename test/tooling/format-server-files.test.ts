/**
 * The repository's formatter (Biome, `npm run format`) formats Markdown too, and
 * would rewrite what a server directory serves: front matter read as a heading,
 * `*emphasis*` turned into `_emphasis_`. Markdown in prompts/ and resources/ is
 * data, so the formatter leaves it exactly as written.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../loader/helpers/server-dir.js";

const BIOME = join(REPO_ROOT, "node_modules", "@biomejs", "biome", "bin", "biome");

/**
 * What `biome format` makes of `text` as the file at `path` (relative to the
 * repository): its output, whatever its exit code (for a file it does not
 * format it echoes the text and exits 1).
 */
function formatted(path: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIOME, "format", `--stdin-file-path=${path}`], {
      cwd: REPO_ROOT,
      stdio: ["pipe", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.once("error", reject);
    child.once("close", () => resolve(stdout));
    child.stdin.end(text);
  });
}

const PROMPT = `---
title: Review *this* code
description: Uses __dunder__ names
arguments:
  - name: code
---

Review this, *carefully*:

{{code}}
`;

describe("npm run format and server directories", () => {
  it.each([
    "example-server/prompts/review.md",
    "example-server/resources/notes.md",
    "test/conformance-server/prompts/review.md",
  ])("leaves %s as written", async (path) => {
    expect(await formatted(path, PROMPT)).toBe(PROMPT);
  });

  it("still formats the project's own documentation", async () => {
    expect(await formatted("README.md", "Some *emphasis*\n")).toBe("Some _emphasis_\n");
  });
});
