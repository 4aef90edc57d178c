/**
 * The whole config file is validated where it is read, so `check` refuses what
 * `serve --http` would refuse, and both name the file and the key.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";
import { runCli, stopAll } from "./helpers/cli.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

const ECHO = 'export default { description: "Echo", handler: () => "echo" };\n';

async function withConfig(config: string): Promise<string> {
  return createServerDir({ "mcp-dir.config.ts": config, "tools/echo.ts": ECHO });
}

describe("invalid http settings in mcp-dir.config.ts", () => {
  it("mcp-dir check names the file and the key, and exits 1", async () => {
    const dir = await withConfig("export default { http: { maxBodyBytes: -1 } };\n");
    expect(await runCli(["check", dir])).toEqual({
      code: 1,
      stdout: `error: mcp-dir.config.ts: http.maxBodyBytes must be greater than 0, got -1
mcp-dir check: 1 problem in ${dir}; fix it and run again
`,
      stderr: "",
    });
  });

  it("mcp-dir serve --http says the same before it listens, and exits 1", async () => {
    const dir = await withConfig("export default { http: { maxBodyBytes: -1 } };\n");
    expect(await runCli(["serve", dir, "--http", "--port", "0"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `error: mcp-dir.config.ts: http.maxBodyBytes must be greater than 0, got -1
mcp-dir: 1 problem in ${dir}; fix it and run again
`,
    });
  });

  it("every bad key is named, each with the HTTP transport's own rule", async () => {
    const dir = await withConfig(`export default {
  http: {
    host: "",
    path: "mcp",
    maxSessions: 0,
    maxSessionsPerCaller: 1.5,
    authToken: 7,
    sessionIdleTimeoutMs: -5,
    replay: { maxEvents: 0 },
    allowUnauthenticatedRemote: "yes",
    maxBodyByte: 10,
  },
};
`);
    const { code, stdout } = await runCli(["check", dir]);
    expect(code).toBe(1);
    expect(
      stdout,
    ).toBe(`warning: mcp-dir.config.ts: "http.maxBodyByte" is not an option and is ignored; the http options are host, port, path, allowedHosts, allowedOrigins, maxBodyBytes, authToken, authorizationServers, auth, publicUrl, maxSessions, maxSessionsPerCaller, sessionIdleTimeoutMs, retryMs, keepAliveMs, headersTimeoutMs, requestTimeoutMs, maxConnections, replay, allowUnauthenticatedRemote
error: mcp-dir.config.ts: http.host must be non-empty text; leave it unset to bind 127.0.0.1 (this machine only)
error: mcp-dir.config.ts: http.path must start with "/" and hold no query or fragment, got "mcp"
error: mcp-dir.config.ts: http.maxSessions must be a whole number of 1 or more, got 0
error: mcp-dir.config.ts: http.maxSessionsPerCaller must be a whole number of 1 or more, got 1.5
error: mcp-dir.config.ts: http.authToken must be text
error: mcp-dir.config.ts: http.sessionIdleTimeoutMs must be a number of 0 or more, got -5
error: mcp-dir.config.ts: http.replay.maxEvents must be greater than 0, got 0
error: mcp-dir.config.ts: http.allowUnauthenticatedRemote must be true or false
mcp-dir check: 8 problems in ${dir}; fix them and run again
`);
  });

  it("a key named like an Object method is an unknown option, not a check", async () => {
    const dir = await createServerDir({
      "mcp-dir.config.json": JSON.stringify({ constructor: 1, http: { toString: 1 } }),
      "tools/echo.ts": ECHO,
    });
    const { code, stdout } = await runCli(["check", dir]);
    expect(code).toBe(0);
    expect(stdout.split("\n")).toEqual([
      expect.stringMatching(
        /^warning: mcp-dir\.config\.json: "constructor" is not an option and is ignored; the options are /,
      ),
      expect.stringMatching(
        /^warning: mcp-dir\.config\.json: "http\.toString" is not an option and is ignored; the http options are /,
      ),
      `mcp-dir check: ${dir} is fine: 1 tool, 0 prompts, 0 resources`,
      "",
    ]);
  });
});

describe("inputRounds.maxRounds in mcp-dir.config.ts", () => {
  // 0 would let no request ask at all, unlike callTimeoutMs's and maxResultBytes's 0 (no limit).
  it("0 is refused, naming the key, the accepted range and the value", async () => {
    const dir = await withConfig("export default { inputRounds: { maxRounds: 0 } };\n");
    expect(await runCli(["check", dir])).toEqual({
      code: 1,
      stdout: `error: mcp-dir.config.ts: inputRounds.maxRounds must be a whole number of 1 or more, got 0
mcp-dir check: 1 problem in ${dir}; fix it and run again
`,
      stderr: "",
    });
  });
});
