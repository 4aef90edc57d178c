// Preloaded with `node --import`: registers record-loads-hooks.mjs, which appends the
// URL of every ES module the process loads to the file named by MCP_DIR_RECORD_LOADS;
// at exit, the CommonJS modules it required are appended too (Node 20's hooks see no require).
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

register(new URL("./record-loads-hooks.mjs", import.meta.url));

const { cache } = createRequire(import.meta.url);
process.once("exit", () => {
  const required = Object.keys(cache).map((file) => `${pathToFileURL(file).href}\n`);
  appendFileSync(process.env.MCP_DIR_RECORD_LOADS, required.join(""));
});
