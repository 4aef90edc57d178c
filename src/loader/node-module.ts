import Module from "node:module";

/**
 * Node's own module system, which the loader hooks and requires author code
 * through. A test runner that evaluates modules in a context of its own (jest)
 * answers `import "node:module"` with a stand-in whose require is the
 * runner's; `process.getBuiltinModule` gives Node's.
 */
export const NodeModule: typeof Module =
  (process.getBuiltinModule?.("node:module") as typeof Module | undefined) ?? Module;
