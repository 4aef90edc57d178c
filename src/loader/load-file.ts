import { readFile, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import type { Definition, SourceEntry } from "../registry/definition.js";
import { collectDefinitions, validateDefinition } from "./collect-definitions.js";
import { collectMiddleware } from "./collect-middleware.js";
import { deriveName } from "./derive-name.js";
import {
  CODE_EXTENSIONS,
  folderOf,
  isCodeFile,
  isMarkdownFile,
  isMiddlewareFile,
} from "./folders.js";
import { describeImportError, describeThrown } from "./import-error.js";
import { createImporter, type ModuleImporter, type ModuleNamespace } from "./importer.js";
import { LoadTimeoutError } from "./load-timeout.js";
import { markdownPrompt } from "./markdown-prompt.js";
import type { LoadProblem, LoadWarning } from "./problems.js";
import { staticResource } from "./static-resource.js";
import { loadView } from "./views/load-view.js";
import { viewDefinition } from "./views/view-definition.js";
import { viewName } from "./views/view-naming.js";

/** What one file provides: its definitions when it loaded cleanly, else its problems. */
export interface FileLoad {
  /** Relative to the server directory, "/" separators: the file's source key in the registry. */
  readonly file: string;
  /** Empty when there is any problem: a file registers all of its definitions or none. */
  readonly entries: SourceEntry[];
  readonly problems: LoadProblem[];
  readonly warnings: LoadWarning[];
  /** It was stopped for taking longer than the load timeout. */
  timedOut?: boolean;
}

export interface LoadFileOptions {
  /** Share one importer between the files of one load, so dependencies load once. */
  importer?: ModuleImporter;
}

const resolvedDirs = new Map<string, string>();

/** The absolute, symlink-free path of a server directory, as stack traces show it. */
export async function resolveServerDir(dir: string): Promise<string> {
  // Asked once per file of a load: a thousand files, one directory.
  const known = resolvedDirs.get(dir);
  if (known !== undefined) return known;
  const root = await realpath(resolve(dir));
  resolvedDirs.set(dir, root);
  return root;
}

/**
 * Loads one file of a server directory: imports code (tsx), reads a Markdown
 * prompt or a static resource, builds a view, and validates every definition
 * it yields.
 * `file` is relative to `dir` with "/" separators, e.g. "tools/math/add.ts".
 */
export async function loadFile(
  dir: string,
  file: string,
  options: LoadFileOptions = {},
): Promise<FileLoad> {
  const root = await resolveServerDir(dir);
  const folder = folderOf(file);
  const load: FileLoad = { file, entries: [], problems: [], warnings: [] };
  if (isMiddlewareFile(file)) {
    const namespace = await importModule(root, file, load, options);
    if (namespace === undefined) return load;
    const found = collectMiddleware(namespace, file, (thrown) =>
      describeThrown(thrown, root, file),
    );
    if ("problem" in found) load.problems.push(found.problem);
    else load.entries.push({ definition: found.middleware });
    return load;
  }
  if (folder === undefined) {
    load.problems.push({ file, message: "is not inside tools/, prompts/, resources/ or views/" });
    return load;
  }
  if (folder === "views") {
    const built = await loadView(root, file);
    options.importer?.recordInputs?.(resolve(root, file), built.inputs);
    load.warnings.push(...built.warnings.map((message) => ({ file, message })));
    if (built.view === undefined) {
      load.problems.push(...built.problems.map((message) => ({ file, message })));
      return load;
    }
    return withDefinition(load, viewDefinition(file, built.view), viewName(file));
  }
  if (isCodeFile(file)) {
    const namespace = await importModule(root, file, load, options);
    if (namespace === undefined) return load;
    const found = collectDefinitions(namespace, file, folder, (thrown) =>
      describeThrown(thrown, root, file),
    );
    load.problems.push(...found.problems);
    load.warnings.push(...found.warnings);
    if (found.problems.length === 0) load.entries.push(...found.entries);
    return load;
  }
  if (folder === "prompts" && isMarkdownFile(file)) {
    const source = await readText(root, file, load);
    if (source === undefined) return load;
    const prompt = markdownPrompt(source);
    if (!prompt.ok) {
      load.problems.push(...prompt.problems.map((message) => ({ file, message })));
      return load;
    }
    load.warnings.push(...prompt.warnings.map((message) => ({ file, message })));
    return withDefinition(load, prompt.definition, deriveName(file));
  }
  if (folder === "resources") {
    try {
      return withDefinition(load, await staticResource(root, file), deriveName(file));
    } catch (error) {
      load.problems.push({ file, message: `cannot be read: ${(error as Error).message}` });
      return load;
    }
  }
  const accepted = `${CODE_EXTENSIONS.join(", ")}${folder === "prompts" ? " or .md" : ""}`;
  load.warnings.push({
    file,
    message: `is ignored: ${folder}/ holds ${accepted} files; start its name with "_" to keep it there quietly`,
  });
  return load;
}

/** Imports a code file; undefined (with its problem recorded) when that fails. */
async function importModule(
  root: string,
  file: string,
  load: FileLoad,
  options: LoadFileOptions,
): Promise<ModuleNamespace | undefined> {
  const importer = options.importer ?? createImporter(root);
  try {
    return await importer.import(resolve(root, file));
  } catch (error) {
    load.problems.push({ file, message: await describeImportError(error, root, file) });
    if (error instanceof LoadTimeoutError) load.timedOut = true;
    return undefined;
  }
}

async function readText(root: string, file: string, load: FileLoad): Promise<string | undefined> {
  try {
    return await readFile(resolve(root, file), "utf8");
  } catch (error) {
    load.problems.push({ file, message: `cannot be read: ${(error as Error).message}` });
    return undefined;
  }
}

function withDefinition(load: FileLoad, definition: Definition, fallbackName: string): FileLoad {
  const problem = validateDefinition(definition, fallbackName);
  if (problem === undefined) load.entries.push({ definition, fallbackName });
  else load.problems.push({ file: load.file, message: problem });
  return load;
}
