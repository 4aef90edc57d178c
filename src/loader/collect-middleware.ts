import {
  defineMiddleware,
  isMiddlewareDefinition,
  type MiddlewareDefinition,
  middlewareProblem,
} from "../define/middleware.js";
import type { ModuleNamespace } from "./importer.js";
import type { LoadProblem } from "./problems.js";
import { showThrown } from "./show-thrown.js";

const WRITE_IT =
  "export default defineMiddleware(async (ctx, next) => next()) (or a function (ctx, next) => ...)";

/**
 * The middleware a `_middleware.ts` gives its folder: its default export,
 * made with defineMiddleware or a plain function (ctx, next) => ...
 */
export function collectMiddleware(
  namespace: ModuleNamespace,
  file: string,
  describeThrown: (thrown: unknown) => string = showThrown,
): { middleware: MiddlewareDefinition } | { problem: LoadProblem } {
  let value: unknown;
  try {
    value = namespace.default;
  } catch (error) {
    return {
      problem: {
        file,
        export: "default",
        message: `threw when read: ${describeThrown(error)}; export a plain value`,
      },
    };
  }
  if (typeof value === "function") {
    return { middleware: defineMiddleware(value as Parameters<typeof defineMiddleware>[0]) };
  }
  if (isMiddlewareDefinition(value)) {
    const problem = middlewareProblem(value);
    return problem === undefined
      ? { middleware: value }
      : { problem: { file, export: "default", message: `is not a usable middleware: ${problem}` } };
  }
  const what = value === undefined ? "has no default export" : "does not export a middleware";
  return { problem: { file, message: `${what}: write ${WRITE_IT}` } };
}
