import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most files wait on child processes and sockets more than they compute:
    // more files at once than cores (vitest's default is one fewer than the cores).
    maxWorkers: 3,
    // The files of one worker share the modules they import (src/ is imported once per
    // worker, not once per file: two thirds of the suite's import time). Each test makes
    // its own servers, clients and directories, and leaves no state behind.
    isolate: false,
    // A folder for what the files of one worker share, removed after the run.
    globalSetup: ["test/helpers/shared-folder.ts"],
  },
});
