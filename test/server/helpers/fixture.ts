import { fileURLToPath } from "node:url";
import { inject } from "vitest";

/**
 * The server under test: defined in code with the public API, served over stdio
 * (test/fixtures/programmatic/server.ts, built into one ES module by the global setup).
 */
export const FIXTURE = inject("fixtureServer");

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export const ICON = {
  src: "https://example.com/icon.png",
  mimeType: "image/png",
  sizes: ["48x48"],
};

export const SERVER_INFO = {
  name: "programmatic-fixture",
  version: "1.2.3",
  title: "Programmatic Fixture",
  description: "A server defined in code for the integration tests",
  websiteUrl: "https://example.com/fixture",
  icons: [ICON],
};

export const INSTRUCTIONS = "Call echo to hear yourself.";

/** Tool names of the fixture, in list (name) order. */
export const TOOL_NAMES = [
  "abort_reason",
  "add",
  "add_definition",
  "ask_name",
  "beep",
  "echo",
  "fail",
  "hang",
  "link",
  "log_all",
  "noisy",
  "progress",
  "progress_until_released",
  "release",
  "remove",
  "roots",
  "sample",
  "touch",
  "whoami",
];
