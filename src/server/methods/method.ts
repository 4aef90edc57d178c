import type { Params } from "../params.js";
import type { RequestContext } from "../request-context.js";

export type MethodHandler = (params: Params, rc: RequestContext) => unknown;
export type MethodTable = Readonly<Record<string, MethodHandler>>;
