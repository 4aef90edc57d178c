import type { Era } from "../env.js";
import { completionMethods } from "./completion.js";
import { discoverMethods } from "./discover.js";
import { lifecycleMethods } from "./lifecycle.js";
import { listenMethods } from "./listen.js";
import { loggingMethods } from "./logging.js";
import type { MethodDescriptor, MethodTable } from "./method.js";
import { promptMethods } from "./prompts.js";
import { resourceMethods, subscriptionMethods } from "./resources.js";
import { taskMethods } from "./tasks.js";
import { toolMethods } from "./tools.js";

export type { MethodDescriptor, MethodHandler } from "./method.js";

/** Every request method the server answers, in either era. */
const METHODS: MethodTable = {
  ...lifecycleMethods,
  ...discoverMethods,
  ...toolMethods,
  ...promptMethods,
  ...resourceMethods,
  ...subscriptionMethods,
  ...completionMethods,
  ...loggingMethods,
  ...listenMethods,
  ...taskMethods,
};

/** Maps, not the object: a method named "constructor" or "__proto__" finds nothing. */
function tableOf(era: Era): ReadonlyMap<string, MethodDescriptor> {
  return new Map(Object.entries(METHODS).filter(([, method]) => method.eras.includes(era)));
}

const BY_ERA: Readonly<Record<Era, ReadonlyMap<string, MethodDescriptor>>> = {
  stateful: tableOf("stateful"),
  stateless: tableOf("stateless"),
};

/** The methods one era answers, looked up once per request. */
export function methodsFor(era: Era): ReadonlyMap<string, MethodDescriptor> {
  return BY_ERA[era];
}
