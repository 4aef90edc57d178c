import { STATELESS_VERSIONS } from "../../protocol/versions.js";
import { type MethodTable, STATELESS_ONLY } from "./method.js";

export const discoverMethods: MethodTable = {
  "server/discover": {
    eras: STATELESS_ONLY,
    handler(_params, rc) {
      const { engine } = rc;
      const result: Record<string, unknown> = {
        supportedVersions: [...STATELESS_VERSIONS],
        capabilities: engine.capabilities(rc.protocolVersion),
        ...engine.cacheHints("discover"),
      };
      if (engine.instructions !== undefined) result.instructions = engine.instructions;
      return result;
    },
  },
};
