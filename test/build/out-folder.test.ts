/**
 * Where `mcp-dir build` may write: a new or empty folder, or over an earlier
 * build's output. It refuses, naming the folder and what to do, anything whose
 * files it would destroy: the server directory, a folder holding it, a file,
 * a folder holding files of someone else's.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/cli.js";
import { createEmptyDir, removeServerDirs } from "../loader/helpers/server-dir.js";

const ECHO = 'export default { description: "Echoes", handler: () => "hi" };\n';

afterAll(removeServerDirs);

/**
 * A server directory with one tool, in a temporary folder of its own (the
 * folder that holds it is refused too), and what it holds before any build.
 */
async function serverDir(): Promise<{ dir: string; files: string[] }> {
  const dir = join(await createEmptyDir(), "server");
  await mkdir(join(dir, "tools"), { recursive: true });
  await writeFile(join(dir, "package.json"), '{ "type": "module" }\n');
  await writeFile(join(dir, "tools", "echo.ts"), ECHO);
  return { dir, files: await readdir(dir, { recursive: true }) };
}

/** `mcp-dir build dir --out out`, expected refused with `message` and nothing written. */
async function expectRefused(dir: string, out: string, message: string): Promise<void> {
  const built = await runCli(["build", dir, "--out", out]);
  expect(built).toEqual({ code: 1, stdout: "", stderr: `mcp-dir build: ${message}\n` });
}

describe("mcp-dir build --out", () => {
  it("refuses the server directory itself, and leaves it as it was", async () => {
    const { dir, files } = await serverDir();
    await expectRefused(
      dir,
      dir,
      `the out folder ${dir} is the server directory: building there would replace its files; pass --out a folder of its own, such as ${join(dir, "dist-mcp")}`,
    );
    expect(await readdir(dir, { recursive: true })).toEqual(files);
  });

  it("refuses a folder that holds the server directory", async () => {
    const { dir, files } = await serverDir();
    const parent = dirname(dir);
    await expectRefused(
      dir,
      parent,
      `the out folder ${parent} holds the server directory ${dir}: building there would replace its files; pass --out a folder of its own, such as ${join(dir, "dist-mcp")}`,
    );
    expect(await readdir(dir, { recursive: true })).toEqual(files);
  });

  it("refuses a folder the server loads definitions from, and any folder inside one", async () => {
    const { dir, files } = await serverDir();
    const tools = join(dir, "tools");
    const own = `pass --out a folder outside tools/, prompts/, resources/ and views/, such as ${join(dir, "dist-mcp")}`;
    await expectRefused(
      dir,
      tools,
      `the out folder ${tools} is the server's tools/ folder, which it loads definitions from: serve would load the bundle as one; ${own}`,
    );
    // New folders: serve would load server.mjs (and, under resources/, manifest.json) as definitions.
    for (const folder of ["tools", "prompts", "resources", "views"]) {
      const out = join(dir, folder, "dist", "mcp");
      await expectRefused(
        dir,
        out,
        `the out folder ${out} is inside the server's ${folder}/ folder, which it loads definitions from: serve would load the bundle as one; ${own}`,
      );
    }
    // The same folder reached through a symbolic link.
    const link = join(dirname(dir), "link-to-tools");
    await symlink(tools, link, "dir");
    await expectRefused(
      dir,
      join(link, "dist"),
      `the out folder ${join(link, "dist")} is inside the server's tools/ folder, which it loads definitions from: serve would load the bundle as one; ${own}`,
    );
    expect(await readdir(dir, { recursive: true })).toEqual(files);
  });

  it("writes into a folder the loader never scans, and the server still loads as before", async () => {
    const { dir } = await serverDir();
    // A private folder (`_x`) under tools/, and a folder beside the definition folders.
    for (const out of [join(dir, "tools", "_bundle"), join(dir, "lib", "mcp")]) {
      const built = await runCli(["build", dir, "--out", out]);
      expect(built.stderr).toBe("");
      expect(built.code).toBe(0);
      expect(await readdir(out)).toEqual(["manifest.json", "server.mjs"]);
    }
    const checked = await runCli(["check", dir]);
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });

  it("refuses a symbolic link that leads nowhere, and a folder inside one, naming it", async () => {
    const { dir } = await serverDir();
    const parent = await createEmptyDir();
    const dangling = join(parent, "dangling");
    const missing = join(parent, "missing");
    await symlink(missing, dangling, "dir");
    await expectRefused(
      dir,
      dangling,
      `the out folder ${dangling} is a symbolic link to ${missing}, which does not exist: create ${missing}, remove the link, or pass --out another folder`,
    );
    await expectRefused(
      dir,
      join(dangling, "out"),
      `the out folder ${join(dangling, "out")} is inside ${dangling}, a symbolic link to ${missing}, which does not exist: create ${missing}, remove the link, or pass --out another folder`,
    );
    const loop = join(parent, "loop");
    await symlink(loop, loop);
    await expectRefused(
      dir,
      loop,
      `the out folder ${loop} is a symbolic link that leads back to itself: remove the link, or pass --out another folder`,
    );
    expect((await readdir(parent)).sort()).toEqual(["dangling", "loop"]);
    // Once its target exists, the link is a folder like any other.
    await mkdir(missing);
    const built = await runCli(["build", dir, "--out", dangling]);
    expect(built.stderr).toBe("");
    expect(await readdir(missing)).toEqual(["manifest.json", "server.mjs"]);
  });

  it("refuses a folder holding other files, naming a few", async () => {
    const { dir } = await serverDir();
    const out = await createEmptyDir();
    for (const name of ["a.txt", "b.txt", "server.mjs", "c.txt", "d.txt"]) {
      await writeFile(join(out, name), "mine\n");
    }
    await expectRefused(
      dir,
      out,
      `the out folder ${out} holds files the build did not write (a.txt, b.txt, c.txt and 1 more): the build writes only into a new or empty folder, or over its own output (server.mjs, manifest.json, wrangler.toml); empty it, or pass --out another folder`,
    );
    expect(await readdir(out)).toEqual(["a.txt", "b.txt", "c.txt", "d.txt", "server.mjs"]);
  });

  it("refuses a file, and a path inside one", async () => {
    const { dir } = await serverDir();
    const file = join(await createEmptyDir(), "keepme.txt");
    await writeFile(file, "keep me\n");
    await expectRefused(
      dir,
      file,
      `the out folder ${file} is a file: building there would replace it; remove it, or pass --out a folder`,
    );
    await expectRefused(
      dir,
      join(file, "out"),
      `the out folder ${join(file, "out")} is inside ${file}, a file; pass --out a folder`,
    );
    expect(await readFile(file, "utf8")).toBe("keep me\n");
  });

  it("writes into an empty folder, and a new one inside the server directory", async () => {
    const { dir } = await serverDir();
    const empty = await createEmptyDir();
    const nested = join(dir, "build", "mcp");
    for (const out of [empty, nested]) {
      const built = await runCli(["build", dir, "--out", out]);
      expect(built.stderr).toBe("");
      expect(built.code).toBe(0);
      expect(await readdir(out)).toEqual(["manifest.json", "server.mjs"]);
    }
  });

  it("builds into the default dist-mcp of the server directory again and again, and keeps what it did not write", async () => {
    const { dir } = await serverDir();
    const out = join(dir, "dist-mcp");
    const cloudflare = await runCli(["build", "--target", "cloudflare"], { cwd: dir });
    expect(cloudflare.stderr).toBe("");
    expect(cloudflare.stdout).toBe(
      "mcp-dir build: . (1 tool, 0 prompts, 0 resources) for cloudflare: dist-mcp/server.mjs, dist-mcp/manifest.json, dist-mcp/wrangler.toml\n",
    );
    expect(await readdir(out)).toEqual(["manifest.json", "server.mjs", "wrangler.toml"]);
    // The same folder again, for another target: the earlier build's files are replaced.
    const node = await runCli(["build"], { cwd: dir });
    expect(node).toEqual({
      code: 0,
      stdout:
        "mcp-dir build: . (1 tool, 0 prompts, 0 resources) for node: dist-mcp/server.mjs, dist-mcp/manifest.json\n",
      stderr: "",
    });
    expect(await readdir(out)).toEqual(["manifest.json", "server.mjs"]);
    expect(JSON.parse(await readFile(join(out, "manifest.json"), "utf8")).target).toBe("node");
    // A file of the user's among the build's: refused, and kept.
    await mkdir(join(out, "notes"));
    expect(await runCli(["build"], { cwd: dir })).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "mcp-dir build: the out folder dist-mcp holds files the build did not write (notes): the build writes only into a new or empty folder, or over its own output (server.mjs, manifest.json, wrangler.toml); empty it, or pass --out another folder\n",
    });
    expect(await readdir(out)).toEqual(["manifest.json", "notes", "server.mjs"]);
  });

  it("fails, naming each file and what to do, when a handler imports what is missing, and leaves the last build as it was", async () => {
    const { dir } = await serverDir();
    const out = join(dir, "dist-mcp");
    expect((await runCli(["build"], { cwd: dir })).code).toBe(0);
    const before = await readFile(join(out, "server.mjs"), "utf8");
    // check loads both (the imports run only in a handler); esbuild must resolve them.
    await writeFile(
      join(dir, "tools", "lazy.ts"),
      'export default { description: "Pads", handler: async () => (await import("left-pad-not-installed")).default("a") };\n',
    );
    await writeFile(
      join(dir, "tools", "gone.ts"),
      'export default { description: "Gone", handler: async () => (await import("./_gone.js")).default };\n',
    );
    expect((await runCli(["check"], { cwd: dir })).code).toBe(0);
    expect(await runCli(["build"], { cwd: dir })).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        "error: tools/gone.ts: Cannot find module './_gone.js' imported from tools/gone.ts, which the bundle must hold: create it, or correct the path (1:74)",
        "error: tools/lazy.ts: Cannot find package 'left-pad-not-installed' imported from tools/lazy.ts, which the bundle must hold even if only a handler imports it; install it in the server directory (npm install) (1:74)",
        "mcp-dir build: 2 problems in .; fix them and run again",
        "",
      ].join("\n"),
    });
    expect(await readdir(out)).toEqual(["manifest.json", "server.mjs"]);
    expect(await readFile(join(out, "server.mjs"), "utf8")).toBe(before);
  });
});
