import { readFile } from "node:fs/promises";
import { SourceMap } from "node:module";
import { extname, relative, sep } from "node:path";
import { type Loader, type Plugin, transform } from "esbuild";
import { isInsideDir } from "../loader/inside-dir.js";
import type { BuildTarget } from "./entry-source.js";

/**
 * What `serve` gives a file (tsx runs it as CommonJS) and a bundle, one ES
 * module, lacks, or gives otherwise. `require` is missing on Workers only:
 * the other targets' bundles define it (write-bundle.ts's banner). A file's
 * own place (`import.meta.url`, `.dirname`, `.filename`) is server.mjs's in
 * a bundle, none on Workers: a file read from beside it is not found.
 */
const GLOBALS = [
  "__dirname",
  "__filename",
  "require",
  "import.meta.url",
  "import.meta.dirname",
  "import.meta.filename",
] as const;
type Global = (typeof GLOBALS)[number];

/**
 * How to read a file beside this one that works under serve and in every
 * bundle: esbuild inlines a JSON import, and tsx requires it (a .txt import,
 * which esbuild would inline too, fails under serve: tsx runs it as code).
 */
const IMPORT_IT =
  'import the file instead (import data from "./data.json": a .json file imports as its data, under serve and in the bundle alike; text can be a JSON string), or put a file meant for clients in resources/, which the bundle embeds';

/** A file's place as import.meta gives it: this file's under serve, server.mjs's in a bundle. */
const BUNDLE_PLACE = `is this file's under serve but server.mjs's in the bundle, so a path from it to a file beside this one leads elsewhere where the bundle runs: ${IMPORT_IT}`;

/** What to do instead of each global a bundle for Node, Bun or Deno lacks, or gives otherwise. */
const ADVICE: Readonly<Partial<Record<Global, string>>> = {
  __dirname: `does not exist in the bundle, an ES module (using it throws a ReferenceError; Bun gives the out folder), and import.meta.dirname is the out folder there, not this file's: to read a file beside this one, ${IMPORT_IT}`,
  __filename: `does not exist in the bundle, an ES module (using it throws a ReferenceError; Bun gives server.mjs), and import.meta.filename is server.mjs there, not this file: to read a file beside this one, ${IMPORT_IT}`,
  "import.meta.url": BUNDLE_PLACE,
  "import.meta.dirname": BUNDLE_PLACE,
  "import.meta.filename": BUNDLE_PLACE,
};

/** A file's place on Workers, which have no files. */
const NO_FILES_ON_WORKERS = `does not exist on Workers (using it throws a ReferenceError), nor do files to read: ${IMPORT_IT}`;
const NO_PLACE_ON_WORKERS = `is undefined on Workers, which have no files to read: ${IMPORT_IT}`;

/** On Workers: no files, no place of a file, and no require. */
const WORKER_ADVICE: Readonly<Record<Global, string>> = {
  __dirname: NO_FILES_ON_WORKERS,
  __filename: NO_FILES_ON_WORKERS,
  // A static import is all workerd takes: import(name) is not bundled either (COMPUTED_IMPORT).
  require:
    'does not exist on Workers, and esbuild bundles only a require("./file") or require("package") it can resolve: import what it loads with a static import at the top of the file instead (import { sep } from "node:path"), which esbuild bundles (a node: module is the Worker\'s own, with nodejs_compat); not with import(name), whose computed path is not bundled either',
  "import.meta.url": NO_PLACE_ON_WORKERS,
  "import.meta.dirname": NO_PLACE_ON_WORKERS,
  "import.meta.filename": NO_PLACE_ON_WORKERS,
};

/**
 * An `import()` whose path is computed at run time (`import(name)`): esbuild
 * leaves it as written, so the bundle resolves it from its own folder, where
 * neither the server's files nor its packages are. One literal path, or a
 * pattern from a relative folder (import(`./data/${name}.js`)), it bundles.
 */
const COMPUTED_IMPORT = `of a path computed at run time is not bundled: the bundle resolves it from the out folder, which holds none of the server's files or packages (it fails there unless it names one of the runtime's own modules, node:...). Import what it may load statically, or give import() one path, or a pattern from a relative folder such as import(\`./data/\${name}.js\`), whose matching files esbuild bundles`;

/** Each `import()` of the transform, compiled to a require() (dynamic-import unsupported) to be told apart. */
const DYNAMIC_IMPORT = /__toESM\(require\(/g;
/** An import() argument esbuild bundles: one literal name, or a pattern from a relative folder. */
const BUNDLED_IMPORT = /^(?:"[^"\\]*"\)|["'`]\.\.?\/)/;
const MAY_IMPORT = /\bimport\s*\(/;

/** The identifier each global becomes in a file's transform (its index in GLOBALS), so that only free uses are found. */
const MARK = "__mcp_dir_global_";
/** A test for one (`typeof require`; `typeof (0, ...)` for a property of import.meta) is not a use. */
const MARKED = new RegExp(`(typeof (?:\\(0, )?)?\\b${MARK}(\\d+)\\b`, "g");
/** A call esbuild bundles (or refuses to build): require of one literal name, not node:'s. */
const BUNDLED_CALL = /^\("(?!node:)[^"\\]*"\)/;

const LOADERS: Readonly<Record<string, Loader>> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".jsx": "jsx",
};

/** A use of a CommonJS global: where (1-based), which, and what to do. */
interface Use {
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

/**
 * Where `source` (a file of `loader`) uses a CommonJS global the bundle for
 * `target` lacks or its own place, which the bundle gives otherwise, or
 * imports a path computed at run time. esbuild's own
 * scoping tells a free use from a local, a property or a string: each global
 * is defined as a marker, each import() compiled to a require() the source
 * has not, and what is left in the transform is mapped back through its
 * source map. A test for one (`typeof require`) is not a use.
 */
async function usesIn(source: string, loader: Loader, target: BuildTarget): Promise<Use[]> {
  const advice = target === "cloudflare" ? WORKER_ADVICE : ADVICE;
  const names = GLOBALS.filter((name) => advice[name] !== undefined);
  if (!names.some((name) => source.includes(name)) && !MAY_IMPORT.test(source)) return [];
  const { code, map } = await transform(source, {
    loader,
    sourcemap: "external",
    define: Object.fromEntries(names.map((name) => [name, `${MARK}${GLOBALS.indexOf(name)}`])),
    supported: { "dynamic-import": false },
    logLevel: "silent",
  });
  const sourceMap = new SourceMap(JSON.parse(map));
  const uses: Use[] = [];
  const use = (line: number, index: number, text: string) => {
    const at = sourceMap.findEntry(line, index) as {
      originalLine?: number;
      originalColumn?: number;
    };
    if (at.originalLine === undefined || at.originalColumn === undefined) return;
    const [row, column] = [at.originalLine + 1, at.originalColumn + 1];
    uses.push({ line: row, column, text: `${row}:${column}: ${text}` });
  };
  code.split("\n").forEach((text, line) => {
    for (const match of text.matchAll(MARKED)) {
      const name = GLOBALS[Number(match[2])] as Global;
      const after = text.slice(match.index + match[0].length);
      if (match[1] !== undefined || (name === "require" && BUNDLED_CALL.test(after))) continue;
      use(line, match.index, `${name} ${advice[name]}`);
    }
    for (const match of text.matchAll(DYNAMIC_IMPORT)) {
      const argument = text.slice(match.index + match[0].length);
      // The generated require() maps back to the import() it was.
      if (!BUNDLED_IMPORT.test(argument)) use(line, match.index + 8, `import() ${COMPUTED_IMPORT}`);
    }
  });
  return uses;
}

/**
 * An esbuild plugin that fills `warnings`, once the build ends, with each use
 * of what the bundle lacks or gives otherwise (GLOBALS), and each import() of
 * a computed path, in a file of the server directory
 * `dir` (its real path, as the loader has it; not its packages'):
 * "file:line:column: name advice", the file
 * relative to `dir`, in the order of files and places. It only reads:
 * esbuild loads every file as before.
 */
export function commonJsGlobalsPlugin(
  dir: string,
  target: BuildTarget,
  warnings: string[],
): Plugin {
  return {
    name: "mcp-dir-commonjs-globals",
    setup(build) {
      const found = new Map<string, Use[]>();
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async ({ path, namespace }) => {
        if (namespace !== "file" || !isInsideDir(dir, path)) return undefined;
        const file = relative(dir, path).split(sep);
        if (file.includes("node_modules")) return undefined;
        const source = await readFile(path, "utf8");
        // A file esbuild cannot parse is its to report.
        const uses = await usesIn(source, LOADERS[extname(path)] ?? "js", target).catch(() => []);
        if (uses.length > 0) found.set(file.join("/"), uses);
        return undefined;
      });
      build.onEnd(() => {
        for (const file of [...found.keys()].sort()) {
          const uses = found.get(file) ?? [];
          uses.sort((a, b) => a.line - b.line || a.column - b.column);
          warnings.push(...uses.map((use) => `${file}:${use.text}`));
        }
      });
    },
  };
}
