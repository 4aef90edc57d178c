/** One problem a validator found: where (keys from the top) and what. */
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** Issues as one line, each "path: message" (the message alone at the top): what `isError` results say. */
export function formatIssues(issues: readonly Issue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}
