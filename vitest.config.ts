import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most files wait on child processes and sockets more than they compute:
    // more files at once than cores (vitest's default is one fewer than the cores).
    maxWorkers: 3,
  },
});
