import type { DefinitionKind } from "../define/brand.js";

/**
 * The folders of a server directory, each holding one kind of definition;
 * views (MCP Apps) are resources at `ui://` URIs.
 */
export const DEFINITION_FOLDERS = ["tools", "prompts", "resources", "views"] as const;
export type DefinitionFolder = (typeof DEFINITION_FOLDERS)[number];

export const FOLDER_KIND: Readonly<Record<DefinitionFolder, DefinitionKind>> = {
  tools: "tool",
  prompts: "prompt",
  resources: "resource",
  views: "resource",
};

/** Extensions tsx imports without a build step. */
export const CODE_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"] as const;

/** A file tsx imports into the server: code, but a view's (under views/), which runs in the browser. */
export function isCodeFile(path: string): boolean {
  return (
    CODE_EXTENSIONS.some((extension) => path.endsWith(extension)) &&
    (folderOf(path) !== "views" || isMiddlewareFile(path))
  );
}

/**
 * A view's file under views/: an HTML page, or a script entry esbuild makes
 * into one. Any other file there (CSS, images, JSON) is something a view imports.
 */
export const VIEW_EXTENSIONS = [".html", ".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs"] as const;

export function isViewFile(relativePath: string): boolean {
  return (
    folderOf(relativePath) === "views" &&
    VIEW_EXTENSIONS.some((extension) => relativePath.endsWith(extension))
  );
}

export function isMarkdownFile(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

/** A folder's middleware: `_middleware.ts` (or .mts, .js, .mjs), at the root or in a definition folder. */
export const MIDDLEWARE_FILE = /(^|\/)_middleware\.(ts|mts|js|mjs)$/;

export function isMiddlewareFile(relativePath: string): boolean {
  return MIDDLEWARE_FILE.test(relativePath);
}

/** Editors' swap, backup and temporary files (the names chokidar's `atomic` option skips). */
const EDITOR_TEMP = /~$|\.sw[a-p]$|\.subl.*\.tmp$|___jb_(?:tmp|old)___$|^#.*#$/;

/**
 * A file an editor leaves beside the one it saves (Emacs's `name~` and
 * `#name#`, vim's `.name.swp`, JetBrains' `name___jb_tmp___`): never the
 * user's, so never watched, loaded or served.
 */
export function isEditorTempFile(name: string): boolean {
  return EDITOR_TEMP.test(name);
}

/**
 * A folder the scan never walks into, wherever it lies: private (`_x`, a
 * helper's), hidden (`.x`), or node_modules (scan.ts's ALWAYS_SKIPPED).
 */
export function isSkippedFolder(name: string): boolean {
  return name.startsWith("_") || name.startsWith(".") || name === "node_modules";
}

export function folderOf(relativePath: string): DefinitionFolder | undefined {
  const first = relativePath.split("/")[0];
  return DEFINITION_FOLDERS.find((folder) => folder === first);
}
