import { serveStdio } from "../index.js";
import { countSummary, loadQuietly, reportLoad } from "./load-report.js";
import { printError } from "./stdout.js";

/**
 * How `serve` runs a directory. Transport choices (HTTP: port, host, path)
 * belong here; with none, the server speaks stdio.
 */
export type StartOptions = Record<string, never>;

/**
 * Loads `dir` and serves it until the client closes stdin. Returns the exit
 * code: 1 when the directory has problems (each printed on stderr), else 0.
 */
export async function startServer(dir: string, _options: StartOptions = {}): Promise<number> {
  const loaded = await loadQuietly(dir);
  if (!(await reportLoad(loaded, dir, printError))) return 1;
  const { server, load } = loaded;
  await printError(
    `mcp-dir: serving ${load.config.name} ${load.config.version} from ${dir} (${countSummary(server)}) over stdio; waiting for a client on stdin`,
  );
  await serveStdio(server);
  await server.close();
  return 0;
}
