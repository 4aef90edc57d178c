// Preloaded with `node --import`: registers record-loads-hooks.mjs, which appends the
// URL of every module the process loads to the file named by MCP_DIR_RECORD_LOADS.
import { register } from "node:module";

register(new URL("./record-loads-hooks.mjs", import.meta.url));
