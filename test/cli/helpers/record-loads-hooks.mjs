import { appendFileSync } from "node:fs";

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.MCP_DIR_RECORD_LOADS, `${url}\n`);
  return nextLoad(url, context);
}
