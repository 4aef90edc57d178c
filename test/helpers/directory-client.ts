/**
 * The official v1 SDK client of a server directory loaded in this process
 * (loadServer, as `mcp-dir serve` loads it), over an SDK in-memory pair: for
 * tests of what a directory serves, not of the CLI, a transport or the
 * process. No child process, no port. closeSdkClients closes it and the server.
 */
import { formatProblem, loadServer } from "../../src/loader/index.js";
import {
  type ConnectOptions,
  connectSdkTo,
  type SdkConnection,
} from "../server/helpers/sdk-client.js";

/** Loads `dir` and connects a client to it; a directory with problems is refused, as serve refuses it. */
export async function connectToDirectory(
  dir: string,
  options: Omit<ConnectOptions, "env"> = {},
): Promise<SdkConnection> {
  const { server, problems } = await loadServer(dir);
  if (problems.length > 0) {
    await server.close();
    throw new Error(`${dir} does not load:\n${problems.map(formatProblem).join("\n")}`);
  }
  return connectSdkTo(server, options);
}
