// yaml as mcp-dir loads it: in dist/, the package bundled into this one file
// (scripts/build-code.mjs), which Node reads once instead of resolving some 70.
module.exports = require("yaml");
