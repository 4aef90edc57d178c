/**
 * The cache of built views: a load of a script view whose files are as they
 * were takes its build from the cache, not from esbuild; any change to a file
 * it was built from, or an entry that cannot be read, builds it again.
 */
import { chmod, mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sweepCacheFolder } from "../../src/loader/cache-folder.js";
import { loadView } from "../../src/loader/views/load-view.js";
import { defaultViewCache } from "../../src/loader/views/view-cache.js";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { createEmptyDir, createServerDir, removeServerDirs } from "./helpers/server-dir.js";
import { TestViewCache, viewCacheIn } from "./helpers/view-cache.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const VIEW = "views/chart.ts";
const FILES = {
  [VIEW]: `import "./chart.css";
import { label } from "./_label.ts";
import { shout } from "tiny-lib";
document.body.dataset.version = "one";
document.getElementById("root")!.textContent = shout(label());
`,
  "views/_label.ts": 'export const label = () => "first draft";\n',
  "views/chart.css": "body { color: navy; }\n",
  "node_modules/tiny-lib/package.json": JSON.stringify({ name: "tiny-lib", main: "index.js" }),
  "node_modules/tiny-lib/index.js": "exports.shout = (text) => text.toUpperCase() + '!';\n",
};

/** A server directory with FILES, and a cache in a folder of its own. */
async function setUp(marker?: string) {
  const dir = await createServerDir(FILES);
  const folder = join(await createEmptyDir(), "views");
  const cache = new TestViewCache(folder, marker);
  const page = async (using: TestViewCache = cache) => {
    const { view, problems } = await loadView(dir, VIEW, using);
    expect(problems).toEqual([]);
    return view?.html ?? "";
  };
  return { dir, folder, cache, page };
}

/** Saves `file` with `from` replaced by `to` (as long), and sets its mtime, as a save would. */
async function change(dir: string, file: string, from: string, to: string): Promise<void> {
  const path = join(dir, file);
  await writeFile(path, (await readFile(path, "utf8")).replace(from, to));
  const saved = new Date(Date.UTC(2020, 0, 1));
  await utimes(path, saved, saved);
}

describe("the view cache", () => {
  it("serves a second load of an unchanged view from the cache, without esbuild", async () => {
    const { dir, folder, cache, page } = await setUp();
    const built = await loadView(dir, VIEW, cache);
    expect(cache.builds).toBe(1);
    expect(await readdir(folder)).toHaveLength(1);
    const kept = await loadView(dir, VIEW, cache);
    expect(cache.builds).toBe(1);
    expect(kept).toEqual(built);
    // What dev watches stays the directory's own files, not the packages'.
    expect(kept.inputs.map((input) => input.slice(dir.length + 1)).sort()).toEqual([
      "views/_label.ts",
      "views/chart.css",
      VIEW,
    ]);
    // Another process (a cache of its own over the same folder) reads it too.
    const other = new TestViewCache(folder);
    expect(await page(other)).toBe(built.view?.html);
    expect(other.builds).toBe(0);
  });

  it.each([
    ["the view", VIEW, '"one"', '"two"'],
    ["a file it imports", "views/_label.ts", "first draft", "final draft"],
    ["a package file it imports", "node_modules/tiny-lib/index.js", "toUpperCase", "toLowerCase"],
  ])(
    "builds the view again when %s changes, and keeps the new build",
    async (_, file, from, to) => {
      const { dir, cache, page } = await setUp();
      expect(await page()).toContain(from);
      await page();
      expect(cache.builds).toBe(1);
      await change(dir, file, from, to);
      const changed = await page();
      expect(changed).toContain(to);
      expect(changed).not.toContain(from);
      expect(cache.builds).toBe(2);
      expect(await page()).toBe(changed);
      expect(cache.builds).toBe(2);
    },
  );

  it("builds the view again when a tsconfig.json appears above it", async () => {
    const { dir, cache, page } = await setUp();
    await page();
    await writeFile(join(dir, "tsconfig.json"), "{}\n");
    await page();
    expect(cache.builds).toBe(2);
  });

  it.each([
    ["./tsconfig.base.json", "tsconfig.base.json"],
    ["@acme/tsconfig", "node_modules/@acme/tsconfig/tsconfig.json"],
  ])(
    "builds the view again when what its tsconfig.json extends (%s) changes",
    async (spec, base) => {
      const { dir, cache, page } = await setUp();
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: spec }));
      await mkdir(dirname(join(dir, base)), { recursive: true });
      await writeFile(join(dir, base), '{ "compilerOptions": {} }\n');
      await page();
      await page();
      expect(cache.builds).toBe(1);
      await change(dir, base, "{}", '{ "jsx": "react-jsx" }');
      await page();
      expect(cache.builds).toBe(2);
    },
  );

  it("keeps no build when its tsconfig.json extends a config it cannot find", async () => {
    const { dir, folder, cache, page } = await setUp();
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: "@acme/missing" }));
    await page();
    await page();
    expect(cache.builds).toBe(2);
    await expect(readdir(folder)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it.each([
    ["cut short", (entry: Buffer) => entry.subarray(0, entry.length - 100)],
    ["longer", (entry: Buffer) => Buffer.concat([entry, Buffer.from("// more")])],
    ["not an entry", () => Buffer.from("{ not json\nalert(1)")],
    ["empty", () => Buffer.alloc(0)],
  ])("builds and serves the view when its entry is %s, then keeps a good one", async (_, spoil) => {
    const { folder, cache, page } = await setUp();
    const good = await page();
    const [name] = await readdir(folder);
    const entry = join(folder, name as string);
    await writeFile(entry, spoil(await readFile(entry)));
    expect(await page()).toBe(good);
    expect(cache.builds).toBe(2);
    expect(await page()).toBe(good);
    expect(cache.builds).toBe(2);
  });

  it("never keeps a failed build", async () => {
    const dir = await createServerDir({ "views/broken.ts": "const = 1;\n" });
    const folder = join(await createEmptyDir(), "views");
    const cache = new TestViewCache(folder);
    for (const _ of [1, 2]) {
      const { view, problems } = await loadView(dir, "views/broken.ts", cache);
      expect(view).toBeUndefined();
      expect(problems).toEqual(['cannot be built: Expected identifier but found "=" (1:7)']);
    }
    expect(cache.builds).toBe(2);
    await expect(readdir(folder)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("keeps no build of files changed less than two seconds before it began", async () => {
    const dir = await createServerDir(FILES);
    const folder = join(await createEmptyDir(), "views");
    // The build begins a second after the view was saved: a file system that
    // stamps whole seconds could save it again unseen.
    const saved = (await stat(join(dir, VIEW))).ctimeMs;
    const cache = new TestViewCache(folder, undefined, () => saved + 1_000);
    await loadView(dir, VIEW, cache);
    await loadView(dir, VIEW, cache);
    expect(cache.builds).toBe(2);
    await expect(readdir(folder)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("uses no entry in a folder another user could write", async () => {
    const { folder, page } = await setUp();
    await page();
    await chmod(join(folder, ".."), 0o777);
    const other = new TestViewCache(folder);
    await page(other);
    expect(other.builds).toBe(1);
    await chmod(join(folder, ".."), 0o700);
  });

  it("is mcp-dir-<uid>/views in the temporary folder, and none with MCP_DIR_DISABLE_CACHE", async () => {
    const tmp = await createEmptyDir();
    const cacheWith = (disable: string | undefined) => {
      vi.stubEnv("TMPDIR", tmp);
      vi.stubEnv("MCP_DIR_DISABLE_CACHE", disable);
      try {
        return defaultViewCache();
      } finally {
        vi.unstubAllEnvs();
      }
    };
    expect(cacheWith(undefined)?.folder).toBe(viewCacheIn(tmp));
    expect(cacheWith("0")?.folder).toBe(viewCacheIn(tmp));
    expect(cacheWith("1")).toBeUndefined();
  });

  it("removes entries written over a week ago, then the oldest beyond its size", async () => {
    const folder = await createEmptyDir();
    const now = Date.UTC(2030, 0, 10);
    const days = (n: number) => new Date(now - n * 24 * 60 * 60 * 1000);
    for (const [name, written] of [
      ["expired", days(8)],
      ["old", days(3)],
      ["recent", days(1)],
      ["new", days(0)],
    ] as const) {
      await writeFile(join(folder, name), "x".repeat(400));
      await utimes(join(folder, name), written, written);
    }
    await sweepCacheFolder(folder, now, { expireMs: 7 * 24 * 60 * 60 * 1000, maxBytes: 1000 });
    expect((await readdir(folder)).sort()).toEqual(["new", "recent"]);
  });
});

describe("the view cache, in mcp-dir's processes", () => {
  it("read serves a view from the cache; MCP_DIR_DISABLE_CACHE=1 or a corrupt entry builds it", async () => {
    const marker = "/* kept by the view cache */";
    const { dir } = await setUp();
    const tmp = await createEmptyDir();
    await loadView(dir, VIEW, new TestViewCache(viewCacheIn(tmp), marker));
    const read = (env: Record<string, string> = {}) =>
      runCli(["read", "ui://chart", "--dir", dir], { env: { TMPDIR: tmp, ...env } });

    const cached = await read();
    expect(cached.code).toBe(0);
    expect(cached.stdout).toContain(marker);

    const built = await read({ MCP_DIR_DISABLE_CACHE: "1" });
    expect(built.stdout).toContain("first draft");
    expect(built.stdout).not.toContain(marker);

    const [name] = await readdir(viewCacheIn(tmp));
    await writeFile(join(viewCacheIn(tmp), name as string), "corrupt");
    const rebuilt = await read();
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toBe(built.stdout);
  });
});
