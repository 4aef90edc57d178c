import { LOGGING_LEVELS, type LoggingLevel } from "../../protocol/types.js";
import { invalidParams, requireString } from "../params.js";
import { type MethodTable, STATEFUL_ONLY, sessionOf } from "./method.js";

export const loggingMethods: MethodTable = {
  "logging/setLevel": {
    eras: STATEFUL_ONLY,
    handler(params, rc) {
      const level = requireString(params, "level", "logging/setLevel");
      if (!(LOGGING_LEVELS as readonly string[]).includes(level)) {
        throw invalidParams(
          `logging/setLevel: "level" must be one of ${LOGGING_LEVELS.join(", ")}`,
        );
      }
      sessionOf(rc).logLevel = level as LoggingLevel;
      return {};
    },
  },
};
