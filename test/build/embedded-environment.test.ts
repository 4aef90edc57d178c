/**
 * A bundle embeds the config as it was when it was built: a config that reads
 * the environment carries the building machine's values into server.mjs, and
 * never reads them where it runs. The build says so, naming the option and
 * the variable, so a secret is not shipped unseen.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedVariables } from "../../src/build/embedded-environment.js";
import { runCli } from "../cli/helpers/cli.js";
import { createEmptyDir, createServerDir, removeServerDirs } from "../loader/helpers/server-dir.js";

afterAll(removeServerDirs);

const SECRET = "kc-secret-of-the-build-machine-0123";

describe("a config that reads the environment, built into a bundle", () => {
  it("is warned of, naming the option and the variable, and the value is in server.mjs", async () => {
    const dir = await createServerDir({
      "tools/echo.ts": 'export default { description: "Echoes", handler: () => "hi" };\n',
      "mcp-dir.config.ts": `export default {
  http: {
    auth: {
      issuer: "https://id.example.com",
      introspection: { clientId: "mcp-server", clientSecret: process.env.KC_SECRET },
    },
  },
};
`,
    });
    const out = join(await createEmptyDir(), "out");
    const built = await runCli(["build", dir, "--out", out], { env: { KC_SECRET: SECRET } });
    expect(built.code).toBe(0);
    expect(built.stderr).toBe(
      "warning: mcp-dir.config.ts: http.auth.introspection.clientSecret holds the value KC_SECRET has on this machine: a bundle embeds the config as it was built, so server.mjs carries that value as text and does not read KC_SECRET where it runs; keep secrets out of a bundle's config (it reads MCP_DIR_AUTH_TOKEN, MCP_DIR_AUTH_ISSUER, MCP_DIR_AUTH_AUDIENCE and MCP_DIR_STATE_KEY where it runs)\n",
    );
    expect(await readFile(join(out, "server.mjs"), "utf8")).toContain(SECRET);
  });

  it("finds each value in objects and lists, and no value shorter than 8 characters", () => {
    const environment = { TOKEN: "a-long-token-value", PORT: "3000", FLAG: "true" };
    const config = {
      name: "true",
      http: {
        port: 3000,
        authToken: "a-long-token-value",
        allowedHosts: ["x", "a-long-token-value"],
      },
    };
    expect(embeddedVariables(config, environment)).toEqual([
      { option: "http.authToken", variable: "TOKEN" },
      { option: "http.allowedHosts[1]", variable: "TOKEN" },
    ]);
  });
});
