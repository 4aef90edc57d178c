/**
 * The transform store: a start whose author files are as they were compiles
 * each from one file of what tsx compiled them to, without tsx's path per
 * file; a file changed since, a tsconfig.json changed since, a store that
 * cannot be read, or caching turned off, and the file goes through tsx.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { TransformStore } from "../../src/loader/transform-store.js";
import { CLI, runCli, stopAll } from "../cli/helpers/cli.js";
import {
  createEmptyDir,
  createServerDir,
  REPO_ROOT,
  removeServerDirs,
} from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const EXAMPLE = join(REPO_ROOT, "example-server");
const DESCRIPTION = "Counts the prime numbers below a limit";
/** As long as DESCRIPTION: swapped into the store's code, it shows the code came from there. */
const FROM_STORE = "Read from the transform store, not tsx";

/** The store files under a TMPDIR (one per server directory), each as its header and code. */
function storesIn(tmp: string) {
  const [user] = readdirSync(tmp).filter((name) => name.startsWith("mcp-dir-"));
  const folder = join(tmp, user as string, "transforms");
  return readdirSync(folder).map((name) => {
    const path = join(folder, name);
    const bytes = readFileSync(path);
    const end = bytes.indexOf(10);
    const header = JSON.parse(bytes.toString("utf8", 0, end)) as {
      files: [string, number, number, number, number][];
    };
    return { path, bytes, end, header };
  });
}

describe("the transform store, in mcp-dir's processes", () => {
  it("keeps what tsx compiled each settled file to, and a later start compiles from it", async () => {
    const tmp = await createEmptyDir();
    const list = (env: Record<string, string> = {}) =>
      runCli(["list", EXAMPLE], { env: { TMPDIR: tmp, ...env } });
    const began = Date.now();
    const first = await list();
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(DESCRIPTION);

    const [store] = storesIn(tmp);
    expect(store).toBeDefined();
    const { path, bytes, end, header } = store as NonNullable<typeof store>;
    // Every code file of the folder is kept, but one changed within 2 s of its read.
    const kept = header.files.map(([file]) => file).sort();
    const settled = kept.filter((file) => {
      const stats = statSync(join(EXAMPLE, file));
      return Math.max(stats.mtimeMs, stats.ctimeMs) <= began - 2_000;
    });
    expect(kept).toEqual(settled);
    expect(kept).toEqual(
      expect.arrayContaining(["tools/primes.ts", "lib/team.ts", "mcp-dir.config.ts"]),
    );

    // The start after compiles primes.ts from the store.
    const code = bytes.subarray(end + 1).toString("utf8");
    expect(code).toContain(DESCRIPTION);
    expect(FROM_STORE.length).toBe(DESCRIPTION.length);
    writeFileSync(path, Buffer.from(bytes.toString("utf8").replace(DESCRIPTION, FROM_STORE)));
    const second = await list();
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(FROM_STORE);
    expect(second.stdout).not.toContain(DESCRIPTION);

    // Neither does with caching off, mcp-dir's or tsx's.
    for (const off of ["MCP_DIR_DISABLE_CACHE", "TSX_DISABLE_CACHE"]) {
      const uncached = await list({ [off]: "1" });
      expect(uncached.stdout).toContain(DESCRIPTION);
    }

    // A file whose size or times are not as stamped goes through tsx again.
    const tampered = readFileSync(path, "utf8");
    const [, size] = header.files.find(([file]) => file === "tools/primes.ts") ?? [];
    writeFileSync(
      path,
      tampered.replace(`["tools/primes.ts",${size},`, `["tools/primes.ts",${Number(size) + 1},`),
    );
    const changed = await list();
    expect(changed.stdout).toContain(DESCRIPTION);
    expect(changed.stdout).not.toContain(FROM_STORE);
  });

  it("is written by a server that a signal ends, as by one that exits", async () => {
    const tmp = await createEmptyDir();
    const child = spawn(process.execPath, [CLI, "serve", EXAMPLE], {
      cwd: REPO_ROOT,
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    await new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("waiting for a client on stdin")) resolve();
      });
    });
    const ended = new Promise((resolve) => child.once("close", (_code, signal) => resolve(signal)));
    child.kill("SIGTERM");
    expect(await ended).toBe("SIGTERM");
    const [store] = storesIn(tmp);
    expect(store?.header.files.map(([file]) => file)).toContain("tools/primes.ts");
  });

  it("a store that cannot be read is none: the files load through tsx", async () => {
    const tmp = await createEmptyDir();
    const list = () => runCli(["list", EXAMPLE], { env: { TMPDIR: tmp } });
    await list();
    const [store] = storesIn(tmp);
    writeFileSync((store as NonNullable<typeof store>).path, "not a store\n{");
    const after = await list();
    expect(after.code).toBe(0);
    expect(after.stdout).toContain(DESCRIPTION);
    expect(after.stderr).toBe("");
  });
});

describe("the transform store", () => {
  const CODE = 'module.exports = "compiled";\n';
  // A store that changed owes a write (a second later, or at exit): each is paid before
  // the case ends, so none recreates its folder after the folders are removed.
  const made: TransformStore[] = [];
  afterEach(() => {
    for (const store of made.splice(0)) store.write();
  });

  async function setUp() {
    const dir = await createServerDir({ "tools/echo.ts": "export default 1;\n" });
    const started = await createEmptyDir();
    const folder = join(await createEmptyDir(), "transforms");
    const file = join(dir, "tools/echo.ts");
    const stamp = () => {
      const stats = statSync(file);
      return [file, stats.size, stats.mtimeMs, stats.ctimeMs] as const;
    };
    const store = (cwd = started) => {
      const opened = new TransformStore(dir, folder, { cwd });
      made.push(opened);
      return opened;
    };
    return { dir, started, folder, file, stamp, store };
  }

  it("gives a kept file's code to a later process while the file is as stamped", async () => {
    const { file, stamp, store, folder } = await setUp();
    const first = store();
    expect(first.take(file)).toBeUndefined();
    first.keep(file, stamp(), CODE, Date.now() + 5_000);
    first.write();
    expect(await readdir(folder)).toHaveLength(1);
    expect(store().take(file)).toBe(CODE);

    await writeFile(file, "export default 22;\n");
    expect(store().take(file)).toBeUndefined();
  });

  it("does not keep a file changed within 2 s of its read: it could change again under its stamp", async () => {
    const { file, stamp, store, folder } = await setUp();
    const first = store();
    first.keep(file, stamp(), CODE, Date.now());
    first.write();
    expect(store().take(file)).toBeUndefined();
    expect(await readdir(folder)).toHaveLength(1);
  });

  it("is not used once the tsconfig.json tsx takes, or one it extends, changed", async () => {
    const { file, stamp, store, started } = await setUp();
    await mkdir(join(started, "base"));
    await writeFile(join(started, "base", "tsconfig.json"), '{ "compilerOptions": {} }');
    await writeFile(join(started, "tsconfig.json"), '{ "extends": "./base/tsconfig.json" }');
    const keep = () => {
      const first = store();
      first.keep(file, stamp(), CODE, Date.now() + 5_000);
      first.write();
      expect(store().take(file)).toBe(CODE);
    };
    keep();
    await writeFile(
      join(started, "base", "tsconfig.json"),
      '{ "compilerOptions": { "jsx": "react" } }',
    );
    expect(store().take(file)).toBeUndefined();
    keep();
    await writeFile(join(started, "tsconfig.json"), '{ "extends": "./base/tsconfig.json" } ');
    expect(store().take(file)).toBeUndefined();
    keep();
    // Another folder to start in is another tsx setting: another store, this one kept.
    const elsewhere = store(await createEmptyDir());
    expect(elsewhere.take(file)).toBeUndefined();
    elsewhere.keep(file, stamp(), "module.exports = 2;\n", Date.now() + 5_000);
    elsewhere.write();
    expect(store().take(file)).toBe(CODE);
  });
});
