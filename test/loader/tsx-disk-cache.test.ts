import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { LISTING_PAYS_PER_FILE } from "../../src/loader/tsx-disk-cache.js";
import { createServerDir, REPO_ROOT, removeServerDirs } from "./helpers/server-dir.js";

const scratch = mkdtempSync(join(tmpdir(), "mcp-dir-tsx-cache-"));
afterAll(async () => {
  await removeServerDirs();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Imports a tool that tsx has never transformed, in a process whose temporary
 * folder (and so tsx's disk cache) is the test's, then lets the immediate in
 * which tsx schedules the expiry of that cache run: the process ends once
 * what it started is done.
 */
const SCRIPT = `
import { join } from "node:path";
import { createImporter } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, "dist/loader/index.js")).href)};

const modules = createImporter(process.argv[1]);
const { default: tool } = await modules.import(join(process.argv[1], "tools/a.ts"));
await new Promise((resolve) => setImmediate(resolve));
console.log(tool.description);
`;

const PERIOD_MS = 1e8;
const period = () => Math.floor(Date.now() / PERIOD_MS);
const uid = process.geteuid?.() ?? 0;
let runs = 0;

/** A temporary folder whose tsx cache holds one file ten periods old (tsx deletes those seven old). */
function temporaryFolder(): { tmp: string; cache: string; expired: string; stamp: string } {
  const tmp = join(scratch, `tmp-${runs++}`);
  const cache = join(tmp, `tsx-${uid}`);
  mkdirSync(cache, { recursive: true });
  const expired = join(cache, `${period() - 10}-${"0".repeat(40)}`);
  writeFileSync(expired, "{}");
  return { tmp, cache, expired, stamp: join(cache, ".mcp-dir-expired") };
}

async function importNewTool(tmp: string): Promise<string> {
  const dir = await createServerDir({
    "tools/a.ts": `export default { description: "New tool ${tmp}", handler: (): string => "hi" };\n`,
  });
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", SCRIPT, dir],
    { cwd: REPO_ROOT, env: { ...process.env, TMPDIR: tmp } },
  );
  return stdout.trim();
}

describe("tsx's disk cache", () => {
  it("is expired by the first process that writes to it, which stamps the folder", async () => {
    const { tmp, expired, stamp } = temporaryFolder();
    expect(await importNewTool(tmp)).toBe(`New tool ${tmp}`);
    expect(existsSync(expired)).toBe(false);
    expect(existsSync(stamp)).toBe(true);
  });

  it("is not read through again for the rest of the period", async () => {
    const { tmp, expired, stamp } = temporaryFolder();
    writeFileSync(stamp, "");
    expect(await importNewTool(tmp)).toBe(`New tool ${tmp}`);
    expect(existsSync(expired)).toBe(true);
  });

  it("is expired again once the stamp is a period old", async () => {
    const { tmp, expired, stamp } = temporaryFolder();
    writeFileSync(stamp, "");
    const periodAgo = (Date.now() - PERIOD_MS - 60_000) / 1000;
    utimesSync(stamp, periodAgo, periodAgo);
    expect(await importNewTool(tmp)).toBe(`New tool ${tmp}`);
    expect(existsSync(expired)).toBe(false);
    expect(statSync(stamp).mtimeMs).toBeGreaterThan(Date.now() - PERIOD_MS);
  });
});

/**
 * Loads each directory given in turn (a new importer each), in a process whose
 * temporary folder is the test's, and counts the reads of tsx's disk cache
 * that found a file and those that found none, and the listings of its folder.
 */
const COUNTING_SCRIPT = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDirectory } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, "dist/loader/index.js")).href)};

const cacheFolder = join(tmpdir(), "tsx-");
const read = fs.readFileSync;
let found = 0;
let absent = 0;
let listed = 0;
const list = fs.readdirSync;
fs.readdirSync = function (path, ...rest) {
  if (typeof path === "string" && path.startsWith(cacheFolder)) listed++;
  return list.call(this, path, ...rest);
};
syncBuiltinESMExports();
fs.readFileSync = function (path, ...rest) {
  const inCache = typeof path === "string" && path.startsWith(cacheFolder);
  try {
    const content = read.call(this, path, ...rest);
    if (inCache) found++;
    return content;
  } catch (error) {
    if (inCache) absent++;
    throw error;
  }
};
const loads = [];
for (const dir of process.argv.slice(1)) {
  found = 0;
  absent = 0;
  listed = 0;
  const load = await loadDirectory(dir);
  loads.push({ tools: load.sources.size, found, absent, listed });
}
console.log(JSON.stringify(loads));
// As the CLI's list, check and call do once they have answered.
if (process.env.EXIT_AT_ONCE) process.exit(0);
`;

/** A directory of `count` tools (eight unless told) that no process has loaded yet. */
async function newTools(count = 8): Promise<string> {
  const files: Record<string, string> = {};
  const id = runs++;
  for (let i = 0; i < count; i++) {
    files[`tools/t${i}.ts`] =
      `export default { description: "Tool ${i} of load ${id}", handler: (): string => "hi" };\n`;
  }
  return createServerDir(files);
}

async function loadInTurn(tmp: string, dirs: string[], exitAtOnce = false): Promise<unknown> {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", COUNTING_SCRIPT, ...dirs],
    { cwd: REPO_ROOT, env: { ...process.env, TMPDIR: tmp, EXIT_AT_ONCE: exitAtOnce ? "1" : "" } },
  );
  expect(stderr).toBe("");
  return JSON.parse(stdout);
}

describe("tsx's disk cache, on a load of files tsx has not transformed", () => {
  it("is looked through only for what it holds, once a load is mostly new files", async () => {
    const { tmp } = temporaryFolder();
    const [first, second, third] = [await newTools(), await newTools(), await newTools()];
    const loads = (await loadInTurn(tmp, [first, second])) as unknown[];
    // The first load's first files are looked for as tsx looks (their misses say the load is new).
    expect(loads[1]).toEqual({ tools: 8, found: 0, absent: 0, listed: 0 });
    // What a process wrote is read by the next, as before.
    expect(await loadInTurn(tmp, [third, first])).toEqual([
      expect.objectContaining({ tools: 8 }),
      { tools: 8, found: 8, absent: 0, listed: 0 },
    ]);
  });

  it("is read as tsx reads it when it holds too many files for a listing to pay", async () => {
    // tsx's folder is every project's on the machine: a test suite's runs leave tens of
    // thousands of files there, and a listing of 90,000 took some 120 ms of a start here.
    const { tmp, cache, stamp } = temporaryFolder();
    writeFileSync(stamp, "");
    // Long names: a folder's size grows with its entries' names (on ext4; not on tmpfs).
    for (let i = 0; statSync(cache).size <= 8 * LISTING_PAYS_PER_FILE; i++) {
      writeFileSync(join(cache, `${period()}-${String(i).padStart(240, "0")}`), "");
    }
    const [first, second] = [await newTools(), await newTools()];
    const loads = (await loadInTurn(tmp, [first, second])) as { listed: number; absent: number }[];
    expect(loads.map(({ listed }) => listed)).toEqual([0, 0]);
    expect(loads[1]).toEqual({ tools: 8, found: 0, absent: expect.any(Number), listed: 0 });
  });

  it("holds every transform of a load that a process made before it exited at once", async () => {
    const { tmp } = temporaryFolder();
    const [first, second] = [await newTools(), await newTools()];
    await loadInTurn(tmp, [first, second], true);
    expect(await loadInTurn(tmp, [second, first])).toEqual([
      { tools: 8, found: 8, absent: 0, listed: 0 },
      { tools: 8, found: 8, absent: 0, listed: 0 },
    ]);
  });

  it("holds the transform of a single new file that a process made before it exited at once", async () => {
    // As `mcp-dir call` or `list` on a server with one file edited since the last run.
    const { tmp } = temporaryFolder();
    const [one, other] = [await newTools(1), await newTools(1)];
    await loadInTurn(tmp, [one], true);
    expect(await loadInTurn(tmp, [one, other])).toEqual([
      { tools: 1, found: 1, absent: 0, listed: 0 },
      expect.objectContaining({ tools: 1 }),
    ]);
  });

  it("waits at exit with one listener, however many loads a process makes", async () => {
    // As `dev` does, a load on each save: Node warns past ten listeners of one event.
    const { tmp } = temporaryFolder();
    const dirs = await Promise.all(Array.from({ length: 12 }, () => newTools(1)));
    expect(await loadInTurn(tmp, dirs, true)).toHaveLength(12);
  });
});
