import {
  closeSync,
  promises as fsPromises,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type DirectoryWatcher, watchDirectory } from "../../src/loader/dev/index.js";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { Inbox } from "../server/helpers/inbox.js";

interface Batch {
  /** Relative to the watched directory. */
  paths: string[];
  /** What each path held when the batch was handed over ("" when gone). */
  contents: string[];
}

const watchers = new Set<DirectoryWatcher>();

afterEach(async () => {
  await Promise.all([...watchers].map((watcher) => watcher.close()));
  watchers.clear();
});
afterAll(removeServerDirs);

/** Watches a new server directory with `files`; every batch lands in the inbox. */
async function watched(files: Record<string, string>) {
  const dir = await createServerDir(files);
  const batches = new Inbox<Batch>();
  const read = (path: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      return "";
    }
  };
  const watcher = watchDirectory(dir, async (paths) => {
    batches.push({
      paths: paths.map((path) => path.slice(dir.length + 1)),
      contents: paths.map(read),
    });
  });
  watchers.add(watcher);
  await watcher.ready;
  return { dir, batches };
}

describe("watchDirectory", () => {
  it("hands over a rename as one batch: the old path and the new", async () => {
    const { dir, batches } = await watched({ "tools/a.ts": "a" });
    renameSync(join(dir, "tools/a.ts"), join(dir, "tools/b.ts"));
    const batch = await batches.waitFor((b) => b.paths.includes("tools/b.ts"), "tools/b.ts");
    expect(batch).toEqual({ paths: ["tools/a.ts", "tools/b.ts"], contents: ["", "a"] });
    expect(batches.items).toHaveLength(1);
  });

  it("hands over a burst of writes as one batch, once it is over", async () => {
    const { dir, batches } = await watched({ "tools/a.ts": "v0" });
    for (let version = 1; version <= 10; version++) {
      writeFileSync(join(dir, "tools/a.ts"), `v${version}`);
    }
    writeFileSync(join(dir, "tools/b.ts"), "b");
    const batch = await batches.waitFor(() => true, "a batch");
    expect(batch).toEqual({ paths: ["tools/a.ts", "tools/b.ts"], contents: ["v10", "b"] });
  });

  it("sees a write that chokidar folds into the change before it", async () => {
    const { dir, batches } = await watched({ "tools/a.ts": "v0" });
    writeFileSync(join(dir, "tools/a.ts"), "v1");
    await batches.waitFor((b) => b.contents.includes("v1"), "v1");
    // At once: chokidar reports a path's changes at most once per 50 ms.
    writeFileSync(join(dir, "tools/a.ts"), "v2");
    const batch = await batches.waitFor((b) => b.contents.includes("v2"), "v2");
    expect(batch).toEqual({ paths: ["tools/a.ts"], contents: ["v2"] });
  });

  it("waits for a file that is empty while it is written", async () => {
    const { dir, batches } = await watched({ "tools/a.ts": "a" });
    // A slow writer: the file exists, empty, before its content arrives.
    const fd = openSync(join(dir, "tools/slow.ts"), "w");
    await new Promise((resolve) => setTimeout(resolve, 40));
    writeSync(fd, "export default 1;\n");
    closeSync(fd);
    const batch = await batches.waitFor(() => true, "a batch");
    expect(batch).toEqual({ paths: ["tools/slow.ts"], contents: ["export default 1;\n"] });
  });

  it("ignores editors' temporary files, hidden files and node_modules", async () => {
    const { dir, batches } = await watched({ "tools/a.ts": "a" });
    for (const name of [
      "tools/a.ts~",
      "tools/.a.ts.swp",
      "tools/#a.ts#",
      "tools/a.ts___jb_tmp___",
    ]) {
      writeFileSync(join(dir, name), "temp");
    }
    writeFileSync(join(dir, "node_modules/zod-extra.js"), "temp");
    writeFileSync(join(dir, "tools/a.ts"), "a2");
    const batch = await batches.waitFor(() => true, "a batch");
    expect(batch.paths).toEqual(["tools/a.ts"]);
  });

  it("hands over a file written into a new folder after chokidar read the folder, before it watched it", async () => {
    const { dir, batches } = await watched({ "tools/a.ts": "a" });
    const folder = join(dir, "prompts");
    // chokidar reads a new folder, then watches it: a file written in between makes no event.
    // The write is made to land there, right after the folder's first read.
    const readdir = fsPromises.readdir;
    let written = false;
    const readThenWrite = async function (this: unknown, ...args: Parameters<typeof readdir>) {
      const entries = await readdir.apply(this, args);
      if (!written && String(args[0]) === folder) {
        written = true;
        writeFileSync(join(folder, "later.md"), "Hello\n");
      }
      return entries;
    };
    fsPromises.readdir = readThenWrite as typeof readdir;
    syncBuiltinESMExports();
    try {
      mkdirSync(folder);
      const batch = await batches.waitFor(
        (b) => b.paths.includes("prompts/later.md"),
        "prompts/later.md",
      );
      expect(written).toBe(true);
      expect(batch).toEqual({ paths: ["prompts/later.md"], contents: ["Hello\n"] });
    } finally {
      fsPromises.readdir = readdir;
      syncBuiltinESMExports();
    }
  });

  it("hands over a file moved into a new folder and deleted before chokidar looked at it", async () => {
    const { dir, batches } = await watched({ "tools/a.ts": "a" });
    const folder = join(dir, "tools/people");
    const file = join(folder, "salute.ts");
    // A reload's scan may load a file of a new folder that chokidar has yet to report. Deleted
    // before chokidar looks at it (here: as chokidar asks what it is), it makes no event.
    const lstat = fsPromises.lstat;
    let deleted = false;
    const deleteFirst = async function (this: unknown, ...args: Parameters<typeof lstat>) {
      if (!deleted && String(args[0]) === file) {
        deleted = true;
        unlinkSync(file);
      }
      return lstat.apply(this, args);
    };
    fsPromises.lstat = deleteFirst as typeof lstat;
    syncBuiltinESMExports();
    try {
      mkdirSync(folder);
      renameSync(join(dir, "tools/a.ts"), file);
      const batch = await batches.waitFor(
        (b) => b.paths.includes("tools/people/salute.ts"),
        "tools/people/salute.ts",
      );
      expect(deleted).toBe(true);
      expect(batch.contents[batch.paths.indexOf("tools/people/salute.ts")]).toBe("");
    } finally {
      fsPromises.lstat = lstat;
      syncBuiltinESMExports();
    }
  });
});
