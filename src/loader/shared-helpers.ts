/**
 * esbuild starts each file it compiles to CommonJS with the helpers the file
 * uses (`var __defProp=Object.defineProperty;var __export=(target,all)=>...`),
 * the same text in every file of a directory. Each file's copy is a few
 * functions V8 compiles and runs cold once, for every file: measured on a
 * thousand tools, a tenth of a warm start. A file whose helpers are text
 * seen before takes the functions made from that text once instead, by the
 * same names, and the space the text held is kept as spaces (the source map
 * still fits, column for column).
 */

/** Where a module being compiled finds its helpers, for the length of its compile. */
export const HELPERS = Symbol.for("mcp-dir.esbuild-helpers");
const HELPERS_IN_CODE = `Symbol.for(${JSON.stringify(HELPERS.description)})`;

/** What the helpers of a prelude text are made into: undefined where they cannot be shared. */
const made = new Map<string, Record<string, unknown> | undefined>();

/**
 * esbuild's helpers, by name (an author's variable of the same name is
 * renamed by esbuild): the run of them ends at the first other statement.
 */
const HELPER_NAMES = new Set(
  (
    "__create __defProp __defProps __getOwnPropDesc __getOwnPropDescs __getOwnPropNames " +
    "__getOwnPropSymbols __getProtoOf __hasOwnProp __propIsEnum __knownSymbol __typeError " +
    "__defNormalProp __spreadValues __spreadProps __objRest __name __esm __commonJS __export " +
    "__copyProps __reExport __toESM __toCommonJS __publicField __decorateClass __decorateParam " +
    "__accessCheck __privateIn __privateGet __privateAdd __privateSet __privateMethod " +
    "__async __await __asyncGenerator __yieldStar __forAwait __superGet __superSet"
  ).split(" "),
);

/** Names a helper of esbuild's must not use to be shared: each module has its own. */
const MODULE_BOUND =
  /\b(?:require|module|exports|__filename|__dirname|import|this|arguments|eval)\b/;

/**
 * `code` (what tsx compiled a file to) with its helpers taken from `module`'s
 * HELPERS property, which `withHelpers` sets; undefined where the file
 * starts otherwise, or its helpers are not plain functions of their arguments.
 */
export function shareHelpers(
  code: string,
): { code: string; helpers: Record<string, unknown> } | undefined {
  const start = code.indexOf("var __");
  if (start < 0 || (start > 0 && code[start - 1] !== "\n")) return undefined;
  const end = knownPreludeEnd(code, start) ?? preludeEnd(code, start);
  if (end === undefined) return undefined;
  const prelude = code.slice(start, end);
  let helpers = made.get(prelude);
  if (!made.has(prelude)) {
    helpers = make(prelude);
    made.set(prelude, helpers);
  }
  if (helpers === undefined) return undefined;
  const take = `var{${Object.keys(helpers).join(",")}}=module[${HELPERS_IN_CODE}];`;
  if (take.length > prelude.length) return undefined;
  return {
    code: `${code.slice(0, start)}${take.padEnd(prelude.length)}${code.slice(end)}`,
    helpers,
  };
}

/** The functions `prelude` declares, made once; undefined if it is not only helpers. */
function make(prelude: string): Record<string, unknown> | undefined {
  if (MODULE_BOUND.test(prelude)) return undefined;
  const names = [...prelude.matchAll(/(?:^|;)var (__\w+)=/g)].map((match) => match[1] as string);
  try {
    const helpers = new Function(`"use strict";${prelude}return{${names.join(",")}};`)() as Record<
      string,
      unknown
    >;
    return Object.values(helpers).every(
      (value) => typeof value === "function" || typeof value === "object",
    )
      ? helpers
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the run of helpers from `start` ends, when it is a prelude seen
 * before, whole (the next statement declares no helper): what preludeEnd
 * finds, without reading it character by character again.
 */
function knownPreludeEnd(code: string, start: number): number | undefined {
  for (const prelude of made.keys()) {
    const end = start + prelude.length;
    if (code.startsWith(prelude, start) && !declaresHelper(code, end)) return end;
  }
  return undefined;
}

/** Whether the statement at `at` is `var __name=` for one of esbuild's helpers. */
function declaresHelper(code: string, at: number): boolean {
  return HELPER_NAMES.has(/^var (__\w+)=/.exec(code.slice(at, at + 40))?.[1] ?? "");
}

/**
 * Where the run of `var __name=...;` statements from `start` ends: the first
 * statement, at the top level, that does not declare a helper. Strings are
 * skipped; esbuild's helpers hold no regular expressions or templates.
 */
function preludeEnd(code: string, start: number): number | undefined {
  if (!declaresHelper(code, start)) return undefined;
  let depth = 0;
  for (let at = start; at < code.length; at++) {
    const char = code[at];
    if (char === '"' || char === "'") {
      at = closingQuote(code, at);
      if (at < 0) return undefined;
    } else if (char === "`" || char === "/" || char === "\n") {
      return undefined;
    } else if (char === "{" || char === "(" || char === "[") {
      depth++;
    } else if (char === "}" || char === ")" || char === "]") {
      depth--;
    } else if (char === ";" && depth === 0 && !declaresHelper(code, at + 1)) {
      return at + 1;
    }
  }
  return undefined;
}

function closingQuote(code: string, open: number): number {
  const quote = code[open];
  for (let at = open + 1; at < code.length; at++) {
    if (code[at] === "\\") at++;
    else if (code[at] === quote) return at;
    else if (code[at] === "\n") return -1;
  }
  return -1;
}
