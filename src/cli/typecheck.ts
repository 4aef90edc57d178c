import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import type * as TS from "typescript";
// The names alone: --help must not load the config checks.
import { CONFIG_FILES } from "../loader/config-files.js";
import { isCodeFile } from "../loader/folders.js";
import type { ScanPatterns } from "../loader/scan.js";
import { TYPESCRIPT_DEFAULTS } from "./typescript-defaults.js";

export interface TypeCheck {
  /** What checked, for the summary: "TypeScript 5.9.3, tsconfig.json". */
  readonly using: string;
  /** "tools/add.ts:3:10: TS2362: The left-hand side of ..." */
  readonly errors: string[];
  readonly warnings: string[];
}

/** The check cannot run (no TypeScript in the project); the message says what to do. */
export class TypeCheckUnavailable extends Error {}

/** Options that only shape emitted files; a check emits nothing, and some would refuse files outside rootDir. */
const EMIT_ONLY = [
  "outDir",
  "outFile",
  "rootDir",
  "declarationDir",
  "composite",
  "incremental",
  "tsBuildInfoFile",
  "declaration",
  "declarationMap",
  "emitDeclarationOnly",
  "sourceMap",
  "inlineSourceMap",
] as const;

/** "No inputs were found in config file": its include does not matter, the files are given. */
const NO_INPUTS = 18003;

/**
 * Type-checks the code of the server directory `root` (absolute) with the
 * project's own TypeScript: every code file the loader would load and the
 * config file, with what they import. Compiler options come from
 * `<root>/tsconfig.json` (its include and files do not narrow what is
 * checked), else from TYPESCRIPT_DEFAULTS. `shownDir` names the directory in
 * messages; `patterns` are the config file's include and exclude.
 */
export async function typecheckDirectory(
  root: string,
  shownDir: string,
  patterns: ScanPatterns = {},
): Promise<TypeCheck> {
  // The scan (fast-glob) loads when a check runs, not for `check --help`.
  const { scanDirectory } = await import("../loader/scan.js");
  const { files } = await scanDirectory(root, patterns);
  // A view's code (views/) runs in the browser, with the DOM's types: it is not checked as the server's.
  const code = [...CONFIG_FILES.filter((file) => existsSync(join(root, file))), ...files].filter(
    isCodeFile,
  );
  if (code.length === 0) return { using: "no code files to check", errors: [], warnings: [] };

  const ts = loadTypeScript(root, shownDir);
  const configPath = join(root, "tsconfig.json");
  const hasConfig = ts.sys.fileExists(configPath);
  const { options, diagnostics } = hasConfig
    ? readConfig(ts, root, configPath)
    : fromJson(ts, root, TYPESCRIPT_DEFAULTS);
  for (const option of EMIT_ONLY) delete options[option];
  options.noEmit = true;

  const rootNames = code
    .filter((file) => options.allowJs === true || !/\.m?js$/.test(file))
    .map((file) => join(root, file));
  const program = ts.createProgram({ rootNames, options });
  const all = ts.sortAndDeduplicateDiagnostics([
    ...diagnostics,
    ...ts.getPreEmitDiagnostics(program),
  ]);
  const format = (diagnostic: TS.Diagnostic) => formatDiagnostic(ts, diagnostic, root);
  return {
    using: `TypeScript ${ts.version}, ${hasConfig ? "tsconfig.json" : "default settings: no tsconfig.json"}`,
    errors: all.filter((d) => d.category === ts.DiagnosticCategory.Error).map(format),
    warnings: all.filter((d) => d.category === ts.DiagnosticCategory.Warning).map(format),
  };
}

function loadTypeScript(root: string, shownDir: string): typeof TS {
  const require = createRequire(join(root, "package.json"));
  let path: string;
  try {
    path = require.resolve("typescript");
  } catch {
    throw new TypeCheckUnavailable(
      `--typecheck uses the project's own TypeScript, and ${shownDir} has none: install it there (npm install --save-dev typescript) and run again`,
    );
  }
  const ts = require(path) as typeof TS;
  if (typeof ts.createProgram !== "function" || typeof ts.getPreEmitDiagnostics !== "function") {
    throw new TypeCheckUnavailable(
      `--typecheck cannot use the TypeScript found for ${shownDir} (${path}, version ${String(ts.version)}): it has no compiler API; run its tsc --noEmit instead`,
    );
  }
  return ts;
}

type Options = { options: TS.CompilerOptions; diagnostics: TS.Diagnostic[] };

function readConfig(ts: typeof TS, root: string, configPath: string): Options {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) return { options: {}, diagnostics: [read.error] };
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath);
  return {
    options: parsed.options,
    diagnostics: parsed.errors.filter((diagnostic) => diagnostic.code !== NO_INPUTS),
  };
}

function fromJson(ts: typeof TS, root: string, json: object): Options {
  const { options, errors } = ts.convertCompilerOptionsFromJson(json, root);
  return { options, diagnostics: errors };
}

/** "tools/add.ts:3:10: TS2362: message": a file inside the server directory relative to it, else absolute. */
function formatDiagnostic(ts: typeof TS, diagnostic: TS.Diagnostic, root: string): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n  ");
  const text = `TS${diagnostic.code}: ${message}`;
  const { file, start } = diagnostic;
  if (file === undefined) return text;
  const inside = relative(root, file.fileName);
  const path = inside.startsWith("..") ? file.fileName : inside.split(sep).join("/");
  if (start === undefined) return `${path}: ${text}`;
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return `${path}:${line + 1}:${character + 1}: ${text}`;
}
