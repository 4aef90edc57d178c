import type { Era } from "../env.js";
import { completionMethods } from "./completion.js";
import { discoverMethods } from "./discover.js";
import { lifecycleMethods } from "./lifecycle.js";
import { listenMethods } from "./listen.js";
import { loggingMethods } from "./logging.js";
import type { MethodHandler, MethodTable } from "./method.js";
import { promptMethods } from "./prompts.js";
import { resourceMethods, subscriptionMethods } from "./resources.js";
import { toolMethods } from "./tools.js";

export type { MethodHandler } from "./method.js";

/** What both eras answer alike. */
const COMMON: MethodTable = {
  ...toolMethods,
  ...promptMethods,
  ...resourceMethods,
  ...completionMethods,
};

function table(...parts: MethodTable[]): ReadonlyMap<string, MethodHandler> {
  return new Map(parts.flatMap((part) => Object.entries(part)));
}

/** Every request method each era answers, looked up once per request. */
const METHODS: Readonly<Record<Era, ReadonlyMap<string, MethodHandler>>> = {
  stateful: table(lifecycleMethods, COMMON, subscriptionMethods, loggingMethods),
  stateless: table(discoverMethods, COMMON, listenMethods),
};

export function methodsFor(era: Era): ReadonlyMap<string, MethodHandler> {
  return METHODS[era];
}
