/** Module records in require.cache, by key: one object for the whole process. */
type ModuleCache = Record<string, unknown>;

/** The claim on each directory's entries of require.cache that holds them now. */
const holders = new Map<string, ModuleCacheClaim>();

/**
 * require.cache is one per process and keyed by path, so two loaders of one
 * directory (two test clients, two `watchServer` calls) would share its
 * files' modules: one would run the other's helpers, with their state, and a
 * reload by one would leave the other's importers out of the graph it walks.
 * Each loader holds a claim; the one about to use the cache takes the
 * directory's entries in it for its own, and parks those of the loader that
 * held them, which gets them back when it next uses the cache. With one
 * loader per directory (`serve`, `dev`) nothing is ever parked.
 */
export class ModuleCacheClaim {
  private readonly parked = new Map<string, unknown>();

  constructor(
    private readonly dir: string,
    private readonly cache: ModuleCache,
    private readonly inDir: (id: string) => boolean,
  ) {}

  /** The cache, holding this loader's modules of the directory and no other loader's. */
  take(): ModuleCache {
    const holder = holders.get(this.dir);
    if (holder === this) return this.cache;
    holder?.park();
    holders.set(this.dir, this);
    for (const [id, mod] of this.parked) this.cache[id] = mod;
    this.parked.clear();
    return this.cache;
  }

  private park(): void {
    for (const id of Object.keys(this.cache)) {
      if (!this.inDir(id)) continue;
      this.parked.set(id, this.cache[id]);
      delete this.cache[id];
    }
  }
}
