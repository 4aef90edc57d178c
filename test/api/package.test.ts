import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

describe("the published package", () => {
  it("packs dist, README, LICENSE and package.json, and nothing else", async () => {
    const { stdout } = await promisify(execFile)(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts"],
      { cwd: ROOT },
    );
    const [pack] = JSON.parse(stdout) as [{ name: string; files: { path: string }[] }];
    expect(pack.name).toBe("mcp-dir");
    const tops = new Set(pack.files.map((file) => file.path.split("/")[0]));
    expect([...tops].sort()).toEqual(["LICENSE", "README.md", "dist", "package.json"]);
    const paths = pack.files.map((file) => file.path);
    expect(paths).toContain("dist/index.js");
    expect(paths).toContain("dist/index.d.ts");
    expect(paths).toContain("dist/cli/main.js");
    expect(paths.filter((path) => /test|fixture/.test(path))).toEqual([]);
    // Maps would point at src/, which the package does not contain.
    expect(paths.filter((path) => path.endsWith(".map"))).toEqual([]);
  });
});
