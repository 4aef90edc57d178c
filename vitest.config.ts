import { defineConfig } from "vitest/config";

// An environment may name extra CA certificates for Node (NODE_EXTRA_CA_CERTS: these
// machines do, for their proxy to the npm registry). Node 20 reads and parses them at
// every start, some 40 ms of CPU in each of the suite's many hundred Node processes,
// none of which makes a TLS connection: the workers, and so their children, go without.
delete process.env.NODE_EXTRA_CA_CERTS;

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
