import { sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDefinitionError } from "../define/definition-error.js";
import { LoadTimeoutError } from "./load-timeout.js";
import { nodeStack } from "./node-stack.js";
import { showThrown } from "./show-thrown.js";
import { ExitWhileLoading, RejectedWhileLoading } from "./top-level-guard.js";

/** The limit's two knobs: the commands' option, and what loadServer and createTestClient take. */
const RAISE_THE_LIMIT = "raise the limit with --load-timeout <ms> (loadTimeoutMs in code)";

/**
 * Says why importing `file` failed, for its author: what the error was and
 * where (line:col, and the file when it is not `file` itself), with paths
 * relative to the server directory.
 */
export async function describeImportError(
  error: unknown,
  dir: string,
  file: string,
): Promise<string> {
  if (!(error instanceof Error)) return `threw while loading: ${showThrown(error)}`;
  if (error instanceof LoadTimeoutError) {
    return error.whileCompiling
      ? `${error.message} and was stopped while tsx compiled it, before any of its code ran: the machine may be busy, or the file very large; ${RAISE_THE_LIMIT}`
      : `${error.message} and was stopped: look for a loop or a wait at its top level that does not end, or ${RAISE_THE_LIMIT}`;
  }
  if (error instanceof RejectedWhileLoading) {
    return `${error.message}: ${describeThrown(error.reason, dir, file)}; await the promise, or handle its rejection with .catch()`;
  }
  const where = new Locator(dir, file);
  if (error instanceof ExitWhileLoading) {
    return `${withLocation(error.message, where.fromStackFrames(error))}, which would end the server; throw an Error instead to report a problem`;
  }
  const transform = describeTransformError(error, where);
  if (transform !== undefined) return transform;
  if (error.name === "SyntaxError") {
    // esbuild reports syntax errors in the source (above); what V8 still finds
    // when compiling the transformed code has its position in the stack's header.
    const location = where.fromStackHeader(error);
    return withLocation(`SyntaxError: ${where.relativize(error.message)}`, location);
  }
  const message = where.relativize(error.message);
  const code = (error as { code?: unknown }).code;
  if (code === "ERR_MODULE_NOT_FOUND") {
    const said = message.startsWith("Cannot find package")
      ? `${message}; install it in the server directory (npm install)`
      : message;
    return withLocation(said, where.fromStackFrames(error));
  }
  if (code === "MODULE_NOT_FOUND") {
    // The module that asked for it comes first in Node's require stack: a helper's import names the helper.
    const stack = (error as { requireStack?: unknown }).requireStack;
    const requiredBy: unknown = Array.isArray(stack) ? stack[0] : undefined;
    const importer = typeof requiredBy === "string" ? where.relativeFile(requiredBy) : undefined;
    return withLocation(
      describeMissingModule(error.message, importer ?? file),
      where.fromStackFrames(error),
    );
  }
  if (isDefinitionError(error)) {
    // "Tool "x" is invalid:\n  - ...": the position goes with what is invalid.
    const location = where.fromStackFrames(error);
    const [first = "", ...problems] = message.split("\n");
    const head =
      location === undefined ? first : `${first.replace(/:$/, "")} (defined at ${location}):`;
    return [head, ...problems].join("\n");
  }
  return `threw while loading: ${describeThrown(error, dir, file)}`;
}

/**
 * What author code threw (or rejected with), for its author: "Error: message
 * (line:col)" at the first place of the stack inside the server directory,
 * else as showThrown says it.
 */
export function describeThrown(thrown: unknown, dir: string, file: string): string {
  if (!(thrown instanceof Error)) return showThrown(thrown);
  const where = new Locator(dir, file);
  return withLocation(
    `${thrown.name}: ${where.relativize(thrown.message)}`,
    where.fromStackFrames(thrown),
  );
}

/**
 * Node's CommonJS "Cannot find module 'x'\nRequire stack: ...", said as what
 * to do; `importer` is the file whose import failed.
 */
function describeMissingModule(message: string, importer: string): string {
  const specifier = /Cannot find module '([^']+)'/.exec(message)?.[1] ?? "?";
  if (specifier.startsWith(".") || specifier.startsWith("/")) {
    return `Cannot find module '${specifier}' imported from ${importer}`;
  }
  return `Cannot find package '${specifier}' imported from ${importer}; install it in the server directory (npm install)`;
}

/** esbuild's "Transform failed with 1 error:\n/abs/file.ts:4:1: ERROR: message" (0-based column). */
function describeTransformError(error: Error, where: Locator): string | undefined {
  if (!error.message.startsWith("Transform failed")) return undefined;
  const found = [...error.message.matchAll(/^(.+?):(\d+):(\d+): ERROR: (.+)$/gm)].map(
    ([, path = "", line, column, text]) =>
      withLocation(`SyntaxError: ${text}`, where.label(path, `${line}:${Number(column) + 1}`)),
  );
  return found.length > 0 ? found.join("; ") : where.relativize(error.message);
}

function withLocation(message: string, location: string | undefined): string {
  if (location === undefined) return message;
  const [first, ...rest] = message.split("\n");
  return [`${first} (${location})`, ...rest].join("\n");
}

class Locator {
  private readonly prefixes: string[];

  constructor(
    dir: string,
    private readonly file: string,
  ) {
    this.prefixes = [`${pathToFileURL(dir).href}/`, `${dir}${sep}`, `${dir}/`];
  }

  relativize(text: string): string {
    return this.prefixes.reduce((result, prefix) => result.split(prefix).join(""), text);
  }

  /** "4:1" for the file itself, "tools/_helper.ts:4:1" for another file of the directory. */
  label(path: string, position: string): string | undefined {
    const relative = this.relativeFile(path);
    if (relative === undefined) return undefined;
    return sameModule(relative, this.file) ? position : `${relative}:${position}`;
  }

  /** A file of the directory by its absolute path or URL, relative ("tools/_helper.ts"); undefined outside it. */
  relativeFile(path: string): string | undefined {
    let absolute = path.replace(/[?#].*$/, "");
    if (absolute.startsWith("file://")) absolute = fileURLToPath(absolute);
    const relative = this.relativize(absolute);
    if (relative === absolute || relative.split(/[/\\]/).includes("node_modules")) return undefined;
    return relative.split(sep).join("/");
  }

  /** V8 starts the stack of a module linking error with "path:line", the line, and a caret. */
  fromStackHeader(error: Error): string | undefined {
    const header = /^(.+?):(\d+)\n.*\n( *)\^/.exec(nodeStack(error) ?? "");
    if (!header) return undefined;
    return this.label(header[1] ?? "", `${header[2]}:${(header[3] ?? "").length + 1}`);
  }

  /** The first stack frame inside the server directory. */
  fromStackFrames(error: Error): string | undefined {
    for (const line of (nodeStack(error) ?? "").split("\n")) {
      const frame = /^\s+at (?:.*\()?(.+?):(\d+):(\d+)\)?$/.exec(line);
      if (!frame || frame[1]?.startsWith("data:")) continue;
      const label = this.label(frame[1] ?? "", `${frame[2]}:${frame[3]}`);
      if (label !== undefined) return label;
    }
    return undefined;
  }
}

/** tsx names an .mjs or .mts file after its .js or .ts twin in transform errors. */
function sameModule(a: string, b: string): boolean {
  const stem = (path: string) => path.replace(/\.m?([jt]s)$/, ".$1");
  return stem(a) === stem(b);
}
