import { stat } from "node:fs/promises";

/** Whether `path` is a directory (following links); false when it is anything else or nothing. */
export async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}
