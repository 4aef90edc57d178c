/**
 * `mcp-dir/testing`: a client of your server in the same process, for tests
 * under vitest, node:test or jest.
 */
export * from "../client/index.js";
export type { ReloadOutcome } from "../loader/dev/index.js";
export type { LoadProblem } from "../loader/problems.js";
export { createTestClient, TestClient, type TestClientOptions } from "./test-client.js";
