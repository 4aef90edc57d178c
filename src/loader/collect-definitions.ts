import { brand, definitionKind } from "../define/brand.js";
import { nameProblem, nameWarning } from "../define/names.js";
import { isPlainObject } from "../define/plain-object.js";
import { compile, type Definition, type SourceEntry } from "../registry/definition.js";
import { deriveName } from "./derive-name.js";
import { type DefinitionFolder, FOLDER_KIND } from "./folders.js";
import type { ModuleNamespace } from "./importer.js";
import type { LoadProblem, LoadWarning } from "./problems.js";
import { showThrown } from "./show-thrown.js";

export interface FileDefinitions {
  entries: SourceEntry[];
  problems: LoadProblem[];
  warnings: LoadWarning[];
}

/** The function a plain object must have to count as a definition when it is not the default export. */
const MARKERS: Record<DefinitionFolder, (value: Record<string, unknown>) => boolean> = {
  tools: (value) => typeof value.handler === "function",
  prompts: (value) => typeof value.get === "function" || Array.isArray(value.messages),
  resources: (value) => typeof value.read === "function",
  // A view's code runs in the browser; the loader never imports it.
  views: () => false,
};

/**
 * A branded definition (defineTool, ...) whatever the folder; or a plain
 * object, read as the folder's kind, when it is the default export or has the
 * kind's function (handler, get/messages, read). Anything else is not one.
 */
function asDefinition(
  value: unknown,
  folder: DefinitionFolder,
  isDefault: boolean,
): Definition | undefined {
  if (definitionKind(value) !== undefined) return value as Definition;
  if (!isPlainObject(value) || !(isDefault || MARKERS[folder](value))) return undefined;
  return brand(FOLDER_KIND[folder], { ...value }) as unknown as Definition;
}

/**
 * What a default export holding nothing but a `default` object most likely
 * is: CommonJS's `exports.default = {...}`, whose default (as Node imports
 * it) is module.exports, `{ default: {...} }`. Still refused, as Node would
 * read it; only the problem says why.
 */
function wrappedDefaultProblem(value: unknown, folder: DefinitionFolder): string | undefined {
  if (!isPlainObject(value) || definitionKind(value) !== undefined) return undefined;
  const inner = value.default;
  if (typeof inner !== "object" || inner === null) return undefined;
  if (Object.keys(value).length !== 1) return undefined;
  return `holds no ${FOLDER_KIND[folder]}, only a "default" object: exports.default = … in CommonJS is not a default export, as the file's default is module.exports, { default: … }; write module.exports = … or export default …`;
}

/** Default first, then named exports in code-unit order (a module namespace's own order). */
function exportNames(namespace: ModuleNamespace): string[] {
  const names = Object.keys(namespace).filter((name) => name !== "default");
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return "default" in namespace ? ["default", ...names] : names;
}

function helperName(file: string): string {
  const segments = file.split("/");
  return `_${segments[segments.length - 1]}`;
}

const UNREADABLE =
  "export a plain value: a getter or a Proxy that throws cannot be read as a definition";

/**
 * Every definition a module exports, each validated, with the name it falls
 * back to. An export that throws when it is read (a getter, a Proxy) is a
 * problem of that export; `describeThrown` says what it threw.
 */
export function collectDefinitions(
  namespace: ModuleNamespace,
  file: string,
  folder: DefinitionFolder,
  describeThrown: (thrown: unknown) => string = showThrown,
): FileDefinitions {
  const result: FileDefinitions = { entries: [], problems: [], warnings: [] };
  const unreadable = (thrown: unknown, exportName?: string) => {
    const message = `threw when read: ${describeThrown(thrown)}; ${UNREADABLE}`;
    result.problems.push({
      file,
      ...(exportName !== undefined && { export: exportName }),
      message,
    });
    return result;
  };
  let names: string[];
  try {
    names = exportNames(namespace);
  } catch (error) {
    return unreadable(error);
  }
  const seen = new Set<unknown>();
  for (const exportName of names) {
    const fallbackName = deriveName(file, exportName);
    let definition: Definition | undefined;
    let problem: string | undefined;
    try {
      const value = namespace[exportName];
      definition = asDefinition(value, folder, exportName === "default");
      // The same object exported twice (`export default add; export { add }`) registers once.
      if (definition === undefined || seen.has(value)) continue;
      seen.add(value);
      problem =
        (exportName === "default" ? wrappedDefaultProblem(value, folder) : undefined) ??
        validateDefinition(definition, fallbackName);
    } catch (error) {
      unreadable(error, exportName);
      continue;
    }
    if (problem !== undefined) {
      result.problems.push({ file, export: exportName, message: problem });
      continue;
    }
    result.entries.push({ definition, fallbackName, exportName });
    const kind = definitionKind(definition);
    const warning =
      kind === "resource"
        ? undefined
        : nameWarning(definition.name ?? fallbackName, kind === "tool" ? "Tool" : "Prompt");
    if (warning !== undefined) result.warnings.push({ file, export: exportName, message: warning });
  }
  if (result.entries.length === 0 && result.problems.length === 0) {
    const kind = FOLDER_KIND[folder];
    result.warnings.push({
      file,
      message: `exports no definition, so it serves nothing; export a ${kind} (as default or named), or rename the file to "${helperName(file)}" if it is a helper`,
    });
  }
  return result;
}

/** Why a definition cannot be served, for its author; undefined when it is fine. */
export function validateDefinition(
  definition: Definition,
  fallbackName: string,
): string | undefined {
  const kind = definitionKind(definition);
  if (
    definition.name === undefined &&
    kind !== "resource" &&
    nameProblem(fallbackName, "") !== undefined
  ) {
    return `the ${kind} name ${JSON.stringify(fallbackName)} derived from the file path is invalid: names use 1 to 128 letters, digits, "_", "-" or "."; rename the file or give the ${kind} a name`;
  }
  try {
    compile({ definition, fallbackName });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
