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
