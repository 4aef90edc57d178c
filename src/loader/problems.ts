/**
 * What went wrong while loading a server directory, said for its author: the
 * file (relative to the server directory, "/" separators), the export when
 * there is one, and a message that says what to do.
 */
export interface LoadProblem {
  readonly file: string;
  readonly export?: string;
  readonly message: string;
}

/** Something the author probably did not mean, which does not stop the server. */
export interface LoadWarning {
  readonly file: string;
  readonly export?: string;
  readonly message: string;
}

/** `tools/bad.ts (export "default"): Tool "bad" is invalid: ...` */
export function formatProblem(problem: LoadProblem | LoadWarning): string {
  const where = problem.export === undefined ? "" : ` (export "${problem.export}")`;
  return `${problem.file}${where}: ${problem.message}`;
}

export const formatWarning: (warning: LoadWarning) => string = formatProblem;

/** `problems` by the file each is about, in the order given. */
export function problemsByFile(problems: readonly LoadProblem[]): Map<string, LoadProblem[]> {
  const byFile = new Map<string, LoadProblem[]>();
  for (const problem of problems) {
    const list = byFile.get(problem.file);
    if (list) list.push(problem);
    else byFile.set(problem.file, [problem]);
  }
  return byFile;
}
