/**
 * For esbuild bundling mcp-dir's src/: a file of src/vendor/ is required at
 * run time from a vendor/ folder beside the output's own folder (as
 * dist/vendor/ is beside dist/chunks/), by the path the source gives
 * ("../vendor/<name>.cjs"), not bundled: esbuild would turn its require() of
 * the package into a call that fails in an ES module. See src/vendor/.
 */
export const vendoredFiles = {
  name: "vendored-files",
  setup(esbuild) {
    esbuild.onResolve({ filter: /\/vendor\/[^/]+\.cjs$/ }, ({ path }) => ({
      path,
      external: true,
    }));
  },
};
