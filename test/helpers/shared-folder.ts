/**
 * Vitest's global setup: one temporary folder for the run, in which each
 * worker keeps what the test files it runs share (builds made once per
 * worker: see test/build/helpers/runtimes.ts). It is removed once every file
 * has run, by this process: a worker is ended by a signal, so it cannot
 * remove what it made itself.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's folder for what the files of one worker share (`inject("sharedFolder")`). */
    sharedFolder: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), "mcp-dir-shared-"));
  project.provide("sharedFolder", folder);
  return () => rm(folder, { recursive: true, force: true });
}
