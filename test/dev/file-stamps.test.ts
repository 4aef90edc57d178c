/**
 * dev's stamps of a file: its times, and its content too while it changed
 * in the last 2 s (a second save within the clock's tick keeps the times);
 * a settled file is not read.
 */
import { createHash } from "node:crypto";
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stamp } from "../../src/loader/dev/file-fingerprint.js";
import { createEmptyDir, removeServerDirs } from "../loader/helpers/server-dir.js";

afterAll(removeServerDirs);

async function file(content: string) {
  const path = join(await createEmptyDir(), "tool.ts");
  await writeFile(path, content);
  const stats = await stat(path);
  const times = `${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}:`;
  return { path, times, settledAt: Math.max(stats.mtimeMs, stats.ctimeMs) + 2_000 };
}

describe("a dev stamp", () => {
  it("of a file changed in the last 2 s names its times and its content", async () => {
    const { path, times, settledAt } = await file("export default 1;\n");
    const hash = createHash("sha1").update("export default 1;\n").digest("base64");
    expect(await stamp(path, settledAt - 1)).toBe(`${times}${hash}`);
  });

  it("of a settled file names its times and size alone, and changes with any save", async () => {
    const { path, times, settledAt } = await file("export default 1;\n");
    expect(await stamp(path, settledAt)).toBe(`${times}18`);
    expect(await stamp(path, settledAt + 60_000)).toBe(`${times}18`);
    await writeFile(path, "export default 2;\n");
    const after = await stat(path);
    expect(await stamp(path, Math.max(after.mtimeMs, after.ctimeMs) + 2_000)).not.toBe(
      `${times}18`,
    );
  });
});
