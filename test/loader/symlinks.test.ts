/**
 * Symbolic links in the definition folders, with real links in a temp dir:
 * followed only while their target stays inside the server directory and
 * forms no cycle, checked again at each read; and read errors that name
 * paths relative to the server directory.
 */
import { mkdir, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanDirectory } from "../../src/loader/index.js";
import { runCli, stopAll } from "../cli/helpers/cli.js";
import { connectToDirectory } from "../helpers/directory-client.js";
import { closeSdkClients, type SdkConnection } from "../server/helpers/sdk-client.js";
import { createEmptyDir, createServerDir, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await closeSdkClients();
  await removeServerDirs();
});

async function serverWithLinks(): Promise<string> {
  const dir = await createServerDir({
    "resources/notes.txt": "notes\n",
    "resources/gone.txt": "soon gone\n",
    "shared/a.txt": "A\n",
    "prompts/hello.md": "Hello\n",
  });
  await symlink("/etc/passwd", join(dir, "resources/passwd"));
  await symlink("..", join(dir, "resources/up"));
  await symlink("../shared", join(dir, "resources/shared"));
  await symlink("notes.txt", join(dir, "resources/alias.txt"));
  await symlink("../shared/a.txt", join(dir, "resources/swap.txt"));
  await symlink("missing.txt", join(dir, "resources/broken.txt"));
  await mkdir(join(dir, "tools"));
  await symlink(".", join(dir, "tools/loop"));
  return dir;
}

describe("symbolic links under the definition folders", () => {
  let dir: string;
  let connection: SdkConnection;

  beforeAll(async () => {
    dir = await serverWithLinks();
    connection = await connectToDirectory(dir);
  });

  it("mcp-dir check warns about each link it skips, naming it and why, and does not fail", async () => {
    const result = await runCli(["check", dir]);
    const warnings = result.stdout.split("\n").filter((line) => line.startsWith("warning: "));
    expect(warnings).toEqual([
      "warning: tools/loop: is a symbolic link to a folder that contains it (a cycle); skipped",
      "warning: resources/broken.txt: is a symbolic link to nothing (its target does not exist); skipped",
      "warning: resources/passwd: is a symbolic link that leads outside the server directory; skipped (only links whose target stays inside the server directory are followed)",
      "warning: resources/up: is a symbolic link to a folder that contains it (a cycle); skipped",
    ]);
    expect(result.stdout).toContain("is fine: 0 tools, 1 prompt, 5 resources");
    expect(result.code).toBe(0);
  });

  it("serves the links that stay inside, and only those", async () => {
    const { resources } = await connection.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      "file:///alias.txt",
      "file:///gone.txt",
      "file:///notes.txt",
      "file:///shared/a.txt",
      "file:///swap.txt",
    ]);
    const alias = await connection.client.readResource({ uri: "file:///alias.txt" });
    expect(alias.contents).toEqual([
      { uri: "file:///alias.txt", mimeType: "text/plain", text: "notes\n" },
    ]);
  });

  it("checks a link again at each read: one swapped to lead outside is refused", async () => {
    const before = await connection.client.readResource({ uri: "file:///swap.txt" });
    expect(before.contents[0]).toMatchObject({ text: "A\n" });
    await unlink(join(dir, "resources/swap.txt"));
    await symlink("/etc/passwd", join(dir, "resources/swap.txt"));
    await expect(connection.client.readResource({ uri: "file:///swap.txt" })).rejects.toThrow(
      /resources\/swap\.txt is a symbolic link that leads outside the server directory; it is not served$/,
    );
  });

  it("a file deleted after start: the error names its path inside the server directory only", async () => {
    await rm(join(dir, "resources/gone.txt"));
    const failure = await connection.client.readResource({ uri: "file:///gone.txt" }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/resources\/gone\.txt no longer exists$/);
    expect(failure).not.toContain(dir);
  });
});

describe("include patterns that go through a link", () => {
  it("are walked only when the link stays inside, and the link is warned about otherwise", async () => {
    const outside = await createEmptyDir();
    await writeFile(join(outside, "secret.txt"), "not for clients\n");
    const dir = await createServerDir({ "shared/a.txt": "A\n", "resources/b.txt": "B\n" });
    await symlink(outside, join(dir, "resources/ext"));
    await symlink("../shared", join(dir, "resources/shared"));
    const include = ["resources/ext/**", "resources/shared/*.txt", "resources/b.txt"];
    const scan = await scanDirectory(dir, { include });
    expect(scan.files).toEqual(["resources/b.txt", "resources/shared/a.txt"]);
    expect(scan.warnings).toEqual([
      {
        file: "resources/ext",
        message:
          "is a symbolic link that leads outside the server directory; skipped (only links whose target stays inside the server directory are followed)",
      },
    ]);
    expect([...scan.realPaths]).toEqual([["resources/shared/a.txt", "shared/a.txt"]]);
  });
});
