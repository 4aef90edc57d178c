import { completionMethods } from "./completion.js";
import { lifecycleMethods } from "./lifecycle.js";
import { loggingMethods } from "./logging.js";
import type { MethodHandler } from "./method.js";
import { promptMethods } from "./prompts.js";
import { resourceMethods } from "./resources.js";
import { toolMethods } from "./tools.js";

export type { MethodHandler } from "./method.js";

/** Every request method the engine answers, looked up once per request. */
export const METHODS: ReadonlyMap<string, MethodHandler> = new Map(
  Object.entries({
    ...lifecycleMethods,
    ...toolMethods,
    ...promptMethods,
    ...resourceMethods,
    ...completionMethods,
    ...loggingMethods,
  }),
);
