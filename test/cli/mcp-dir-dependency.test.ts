import { describe, expect, it } from "vitest";
import { mcpDirDependency } from "../../src/cli/mcp-dir-dependency.js";

describe("the mcp-dir dependency init writes", () => {
  it.each([
    ["npm", "/home/ada/app/node_modules/mcp-dir"],
    ["npx", "/home/ada/.npm/_npx/1a2b/node_modules/mcp-dir"],
    ["pnpm", "/home/ada/app/node_modules/.pnpm/mcp-dir@0.1.0/node_modules/mcp-dir"],
    ["a global install", "/usr/lib/node_modules/mcp-dir"],
  ])("is the version's range when %s installed mcp-dir", (_, ownRoot) => {
    expect(mcpDirDependency("/home/ada/server", ownRoot, "0.1.0")).toEqual({
      spec: "^0.1.0",
      linked: false,
    });
  });

  it("is this folder, from the project, when mcp-dir runs from a clone (or npm link's target)", () => {
    expect(mcpDirDependency("/home/ada/server", "/home/ada/mcp-dir", "0.1.0")).toEqual({
      spec: "file:../mcp-dir",
      linked: true,
    });
    expect(mcpDirDependency("/tmp/new/server", "/home/ada/src/mcp-dir", "0.1.0")).toEqual({
      spec: "file:../../../home/ada/src/mcp-dir",
      linked: true,
    });
  });

  it("is a clone even when a folder above it is called node_modules", () => {
    expect(mcpDirDependency("/srv/server", "/srv/node_modules/work/mcp-dir", "0.1.0")).toEqual({
      spec: "file:../node_modules/work/mcp-dir",
      linked: true,
    });
  });
});
