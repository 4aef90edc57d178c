// The identity the conformance suite's reference server uses.
export default {
  name: "mcp-conformance-test-server",
  version: "1.0.0",
};
