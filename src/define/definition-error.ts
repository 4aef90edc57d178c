/**
 * An author-facing error: what is wrong with a definition and what to do about it.
 * The loader adds where it came from (file and export).
 */
export class DefinitionError extends Error {
  readonly problems: string[];

  constructor(what: string, problems: string[]) {
    super(`${what}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "DefinitionError";
    this.problems = problems;
  }
}

export function isDefinitionError(value: unknown): value is DefinitionError {
  return value instanceof Error && value.name === "DefinitionError" && "problems" in value;
}
