import * as cfWorker from "@cfworker/json-schema";
import * as zod4Package from "zod";
import * as zod3Package from "zod/v3";
import * as zodToJsonSchema from "zod-to-json-schema";
import { jsonSchemaLibrary } from "../define/json-schema.js";
import { zod3 } from "../define/schema.js";
import { zod4 } from "../define/zod-json-schema.js";
import { zod3Converter } from "../define/zod3-json-schema.js";
import { collectDefinitions, validateDefinition } from "../loader/collect-definitions.js";
import { collectMiddleware } from "../loader/collect-middleware.js";
import type { ResolvedConfig } from "../loader/config.js";
import { deriveName } from "../loader/derive-name.js";
import { type DefinitionFolder, folderOf, isMiddlewareFile } from "../loader/folders.js";
import { markdownPrompt } from "../loader/markdown-prompt.js";
import { formatProblem, type LoadProblem } from "../loader/problems.js";
import { serverOptionsFrom } from "../loader/server-options.js";
import { type CompiledView, viewDefinition } from "../loader/views/view-definition.js";
import type { SourceEntry } from "../registry/definition.js";
import { createServer, type McpServer } from "../server/server.js";
import { embeddedResource } from "./embedded-resource.js";

// A bundle requires nothing at run time: the packages loaded lazily elsewhere are in it
// (yaml only with Markdown prompts: bundle/yaml-provider.ts).
zod4.provide(zod4Package);
zod3.provide(zod3Package);
zod3Converter.provide(zodToJsonSchema);
jsonSchemaLibrary.provide(cfWorker);

/** The runtimes `mcp-dir build` writes a bundle for. */
export type BuildTarget = "node" | "bun" | "deno" | "cloudflare";

/** One file of the server directory, as `mcp-dir build` wrote it into the bundle. */
export type BundledFile =
  | { file: string; module: Record<string, unknown> }
  | { file: string; text: string }
  | { file: string; base64: string }
  | { file: string; view: CompiledView };

export interface Bundle {
  config: ResolvedConfig;
  folders: DefinitionFolder[];
  files: BundledFile[];
}

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function entriesOf(bundled: BundledFile, problems: LoadProblem[]): SourceEntry[] {
  const { file } = bundled;
  if ("module" in bundled && isMiddlewareFile(file)) {
    const found = collectMiddleware(bundled.module, file);
    if ("problem" in found) problems.push(found.problem);
    return "problem" in found ? [] : [{ definition: found.middleware }];
  }
  const folder = folderOf(file);
  if (folder === undefined) return [];
  if ("module" in bundled) {
    const found = collectDefinitions(bundled.module, file, folder);
    problems.push(...found.problems);
    return found.entries;
  }
  const fallbackName = deriveName(file);
  let definition: SourceEntry["definition"];
  if ("view" in bundled) {
    definition = viewDefinition(file, bundled.view);
  } else if ("text" in bundled) {
    const prompt = markdownPrompt(bundled.text);
    if (!prompt.ok) {
      problems.push(...prompt.problems.map((message) => ({ file, message })));
      return [];
    }
    definition = prompt.definition;
  } else {
    definition = embeddedResource(file, bytesOf(bundled.base64));
  }
  const problem = validateDefinition(definition, fallbackName);
  if (problem !== undefined) problems.push({ file, message: problem });
  return problem === undefined ? [{ definition, fallbackName }] : [];
}

/**
 * The server a built bundle serves: the same definitions, names and
 * configuration `serve` would load from the directory, made from what the
 * build embedded, with no file system. The build checked every file, so a
 * problem here means the bundle was changed: it throws naming each.
 */
export function createBundledServer(bundle: Bundle, stateKey?: string): McpServer {
  // No Redis: the build refuses a config that names one, readSettings the variable.
  const options = serverOptionsFrom(bundle.config, bundle.folders, undefined);
  const server = createServer(
    stateKey === undefined
      ? options
      : { ...options, inputRounds: { ...options.inputRounds, key: stateKey } },
  );
  const problems: LoadProblem[] = [];
  const sources = new Map(bundle.files.map((file) => [file.file, entriesOf(file, problems)]));
  if (problems.length > 0) {
    throw new Error(`The bundle has problems:\n${problems.map(formatProblem).join("\n")}`);
  }
  server.registry.update(sources);
  return server;
}
