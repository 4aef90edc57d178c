import { join } from "node:path";
import { type ViewBuild, ViewCache } from "../../../src/loader/views/view-cache.js";

/** A minute from now: files a test has just written count as settled. */
const aMinuteLater = () => Date.now() + 60_000;

/**
 * A view cache in a folder of a test's own that counts the builds it asks
 * esbuild for, and that may keep `marker` for a view's script, so that a
 * page served from the cache can be told from one built. Its clock runs a
 * minute ahead (unless given another): the cache keeps no build of files
 * changed moments before, and a test's are.
 */
export class TestViewCache extends ViewCache {
  builds = 0;

  constructor(
    folder: string,
    private readonly marker?: string,
    clock: () => number = aMinuteLater,
  ) {
    super(folder, clock);
  }

  override build<Failure extends { ok: false }>(
    options: object,
    run: () => Promise<ViewBuild | Failure>,
  ): Promise<ViewBuild | Failure> {
    return super.build(options, async () => {
      this.builds++;
      const built = await run();
      return built.ok && this.marker !== undefined ? { ...built, script: this.marker } : built;
    });
  }
}

/** The cache folder of a process whose temporary folder (TMPDIR) is `tmp`. */
export function viewCacheIn(tmp: string): string {
  return join(tmp, `mcp-dir-${process.getuid?.()}`, "views");
}
