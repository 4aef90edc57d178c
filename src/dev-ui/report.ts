import type { McpServer } from "../index.js";
import type { ReloadOutcome } from "../loader/dev/index.js";
import type { LoadProblem } from "../loader/index.js";

/**
 * What the page needs that no MCP method says: where each definition came
 * from (file, export, the middleware around it) and the files that failed
 * to load, with their problems. The page lists definitions from MCP, as
 * any client sees them, and places them by this report.
 */
export interface DevReport {
  readonly server: { readonly name: string; readonly version: string; readonly dir: string };
  /** Keyed as the page keys what MCP lists: "tool:<name>", "prompt:<name>", "resource:<uri>", "template:<uriTemplate>". */
  readonly definitions: readonly ReportedDefinition[];
  /** The problems of every file whose last load failed (a served file keeps its last good version). */
  readonly problems: readonly LoadProblem[];
  /** The reload this report follows; absent for the report at start. */
  readonly reload?: {
    readonly applied: readonly string[];
    readonly removed: readonly string[];
    readonly problems: number;
    readonly ms: number;
  };
}

export interface ReportedDefinition {
  readonly key: string;
  readonly file: string;
  readonly export?: string;
  readonly middleware: readonly string[];
}

/** The problems each failing file has now, kept across reloads (a reload says only what changed). */
export class FailingFiles {
  private readonly byFile = new Map<string, LoadProblem[]>();

  constructor(problems: readonly LoadProblem[]) {
    this.add(problems);
  }

  /** After a reload: what it found, and which files still fail (`failing`, from the reloader). */
  reloaded(outcome: ReloadOutcome, failing: readonly string[]): void {
    for (const file of [...outcome.applied, ...outcome.removed]) this.byFile.delete(file);
    for (const file of new Set(outcome.problems.map((problem) => problem.file))) {
      this.byFile.delete(file);
    }
    this.add(outcome.problems);
    const still = new Set(failing);
    for (const file of [...this.byFile.keys()]) if (!still.has(file)) this.byFile.delete(file);
  }

  get problems(): LoadProblem[] {
    return [...this.byFile.values()].flat();
  }

  private add(problems: readonly LoadProblem[]): void {
    for (const problem of problems) {
      this.byFile.set(problem.file, [...(this.byFile.get(problem.file) ?? []), problem]);
    }
  }
}

function keyOf(compiled: ReturnType<McpServer["registry"]["entries"]>[number]["compiled"]): string {
  if (compiled.kind !== "resource") return `${compiled.kind}:${compiled.name}`;
  return compiled.uri !== undefined
    ? `resource:${compiled.uri}`
    : `template:${compiled.template?.template ?? ""}`;
}

/** Every definition the registry serves, with its file, export and middleware. */
export function reportedDefinitions(server: McpServer): ReportedDefinition[] {
  const { registry } = server;
  return registry.entries().map(({ source, compiled }) => {
    const exportName = registry.exportOf(compiled);
    return {
      key: keyOf(compiled),
      file: source,
      ...(exportName !== undefined && { export: exportName }),
      middleware: server.registry.served(compiled).middleware,
    };
  });
}
