/** A module record of require.cache, as far as the loader reads it. */
export interface CachedModule {
  id: string;
  exports: unknown;
  loaded: boolean;
  children: CachedModule[];
  parent?: CachedModule | null;
}

export type ModuleCache = Record<string, CachedModule | undefined>;

/**
 * The modules of `cache` that import any of `files`, directly or through
 * others, among those `walked` says are author code (a directory's files,
 * the helpers outside it): packages are never their importers.
 */
export function importersIn(
  cache: ModuleCache,
  files: Iterable<string>,
  walked: (id: string) => boolean,
): Set<string> {
  const importers = new Map<string, Set<string>>();
  for (const [id, mod] of Object.entries(cache)) {
    if (!mod || !walked(id)) continue;
    for (const child of mod.children) {
      if (!importers.has(child.id)) importers.set(child.id, new Set());
      importers.get(child.id)?.add(id);
    }
  }
  const found = new Set<string>();
  const queue = [...files];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const importer of importers.get(file) ?? []) {
      if (!found.has(importer)) {
        found.add(importer);
        queue.push(importer);
      }
    }
  }
  return found;
}

/**
 * The modules `isHelper` accepts that the modules `from` accepts import,
 * directly or through other such helpers.
 */
export function helpersImported(
  cache: ModuleCache,
  from: (id: string) => boolean,
  isHelper: (id: string) => boolean,
): string[] {
  const found = new Set<string>();
  const queue = Object.entries(cache).flatMap(([id, mod]) => (mod && from(id) ? [mod] : []));
  for (let mod = queue.pop(); mod !== undefined; mod = queue.pop()) {
    for (const child of mod.children) {
      if (!isHelper(child.id) || found.has(child.id)) continue;
      found.add(child.id);
      queue.push(child);
    }
  }
  return [...found];
}
