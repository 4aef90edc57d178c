import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const run = promisify(execFile);
const temporary: string[] = [];

afterAll(async () => {
  await Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Packed {
  /** What `npm pack --json` says of the package: its name and every file it holds. */
  pack: { name: string; filename: string; files: { path: string }[] };
  /** The tarball unpacked, as an install would see it. */
  unpacked: string;
}

let packed: Promise<Packed> | undefined;

/**
 * `npm pack` of this repository's dist (as built by `npm test`), unpacked into a
 * temporary folder: run once for the file, as the cases only read it (npm names
 * the same files in a pack as in a dry run of it).
 */
function packAndUnpack(): Promise<Packed> {
  packed ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-dir-pack-"));
    temporary.push(dir);
    const { stdout } = await run(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", dir],
      { cwd: ROOT },
    );
    const [pack] = JSON.parse(stdout) as [Packed["pack"]];
    await run("tar", ["-xzf", join(dir, pack.filename), "-C", dir]);
    return { pack, unpacked: join(dir, "package") };
  })();
  return packed;
}

describe("the published package", () => {
  it("packs dist, README, LICENSE and package.json, and nothing else", async () => {
    const { pack } = await packAndUnpack();
    expect(pack.name).toBe("mcp-dir");
    const tops = new Set(pack.files.map((file) => file.path.split("/")[0]));
    expect([...tops].sort()).toEqual(["LICENSE", "README.md", "dist", "package.json"]);
    const paths = pack.files.map((file) => file.path);
    expect(paths).toContain("dist/index.js");
    expect(paths).toContain("dist/index.d.ts");
    expect(paths).toContain("dist/cli/main.js");
    expect(paths).toContain("dist/testing/index.js");
    expect(paths).toContain("dist/testing/index.d.ts");
    // No test or fixture: dist/testing is mcp-dir/testing, for users' tests.
    expect(paths.filter((path) => /(^|\/)(tests?|fixtures?)\/|\.test\./.test(path))).toEqual([]);
    // Maps would point at src/, which the package does not contain.
    expect(paths.filter((path) => path.endsWith(".map"))).toEqual([]);
  });

  it("packs every file its exports name, mcp-dir/otel's with its types", async () => {
    const { pack } = await packAndUnpack();
    const paths = new Set(pack.files.map((file) => file.path));
    const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
      exports: Record<string, string | Record<string, string>>;
    };
    const named = Object.values(manifest.exports).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    );
    expect(named.filter((target) => !paths.has(target.replace(/^\.\//, "")))).toEqual([]);
    expect(manifest.exports["./otel"]).toEqual({
      types: "./dist/otel/index.d.ts",
      import: "./dist/otel/index.js",
      default: "./dist/otel/index.js",
    });
  });

  it("runs no script when it is installed", async () => {
    const { unpacked } = await packAndUnpack();
    const manifest = JSON.parse(await readFile(join(unpacked, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    // npm, pnpm and yarn run these three for every package they install (npm
    // also makes `install` "node-gyp rebuild" when a binding.gyp ships).
    expect(
      Object.keys(manifest.scripts).filter((name) => /^(pre|post)?install$/.test(name)),
    ).toEqual([]);
    await expect(stat(join(unpacked, "binding.gyp"))).rejects.toThrow(/ENOENT/);
    // `dist` is built before packing.
    expect(manifest.scripts.prepack).toBe("npm run build");
    // npm runs `prepare` for a clone, a git dependency or a linked folder, never
    // for a registry or tarball install; a client that runs it anyway (Bun for a
    // trusted dependency) finds dist/ in place, and it does nothing.
    const { stdout, stderr } = await run("npm", ["run", "prepare", "--silent"], {
      cwd: unpacked,
    });
    expect({ stdout, stderr }).toEqual({ stdout: "", stderr: "" });
  });
});
