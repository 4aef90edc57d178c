import { afterAll, describe, expect, it } from "vitest";
import { connectToServe, runCli, stopAll } from "../cli/helpers/cli.js";
import { textOf } from "../dev/helpers/dev-server.js";
import { createServerDir, ESM_ONLY_PACKAGES, removeServerDirs } from "./helpers/server-dir.js";

afterAll(async () => {
  await stopAll();
  await removeServerDirs();
});

/** A tool that uses both packages: a default and a named import, and a top-level-await module. */
const TOOL = `import shout, { walk } from "esm-only";
import { ready } from "tla-package";
import { defineTool } from "mcp-dir";

export default defineTool({
  description: "Uses ES module packages",
  handler: () => \`\${shout(walk("tree"))} \${ready}\`,
});
`;

describe("packages load as Node's ES module loader loads them", () => {
  it("serves a tool that imports an import-only package and one with top-level await", async () => {
    const dir = await createServerDir({ ...ESM_ONLY_PACKAGES, "tools/walk.ts": TOOL });
    const { client, stderr } = await connectToServe(dir);
    const result = await client.callTool({ name: "walk", arguments: {} });
    expect(textOf(result)).toBe("WALKED TREE ready");
    expect(stderr()).not.toMatch(/error/);
  });

  it("leaves a tsconfig paths alias to the directory's files, and imports CommonJS packages", async () => {
    const dir = await createServerDir({
      "tsconfig.json": JSON.stringify({ compilerOptions: { paths: { "@lib/*": ["./lib/*"] } } }),
      "lib/word.ts": 'export const word = "aliased";\n',
      "tools/alias.ts": `import { word } from "@lib/word";
export default { description: "Uses an alias", handler: () => word };
`,
      "node_modules/cjs-package/package.json": JSON.stringify({
        name: "cjs-package",
        main: "index.js",
      }),
      "node_modules/cjs-package/index.js":
        'exports.name = "cjs"; exports.twice = (text) => text + text;\n',
      "tools/cjs.ts": `import cjs, { twice } from "cjs-package";
export default { description: "Uses a CommonJS package", handler: () => twice(cjs.name) };
`,
    });
    // tsx reads tsconfig.json from the working directory.
    const call = (tool: string) => runCli(["call", tool, "--dir", dir], { cwd: dir });
    expect(await call("alias")).toEqual({ code: 0, stdout: "aliased\n", stderr: "" });
    expect(await call("cjs")).toEqual({ code: 0, stdout: "cjscjs\n", stderr: "" });
  });
});
