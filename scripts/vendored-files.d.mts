import type { Plugin } from "esbuild";

/** See vendored-files.mjs. */
export declare const vendoredFiles: Plugin;
