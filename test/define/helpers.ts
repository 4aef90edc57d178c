import { expect } from "vitest";
import {
  type DefinitionError,
  type HandlerContext,
  isDefinitionError,
} from "../../src/define/index.js";
import { isJsonRpcError, type JsonRpcError } from "../../src/jsonrpc/index.js";

/** A context whose methods say so if a definition under test uses them. */
export function fakeContext(overrides: Partial<HandlerContext> = {}): HandlerContext {
  const unused = (what: string) => () => {
    throw new Error(`fake context: ${what} was not expected`);
  };
  const log = () => {};
  return {
    signal: new AbortController().signal,
    requestId: 1,
    protocolVersion: "2025-11-25",
    client: { info: undefined, capabilities: {} },
    auth: undefined,
    session: { id: "s1", clientInfo: undefined, clientCapabilities: {}, state: new Map() },
    log: {
      debug: log,
      info: log,
      notice: log,
      warning: log,
      error: log,
      critical: log,
      alert: log,
      emergency: log,
    },
    progress: async () => {},
    elicit: unused("elicit"),
    sample: unused("sample"),
    roots: unused("roots"),
    urlElicitationRequired: unused("urlElicitationRequired"),
    roundState: {},
    locals: {},
    resourceUpdated: unused("resourceUpdated"),
    ...overrides,
  };
}

/** Runs `fn`, expects it to throw a DefinitionError, and returns it. */
export function definitionError(fn: () => unknown): DefinitionError {
  try {
    fn();
  } catch (error) {
    expect(isDefinitionError(error)).toBe(true);
    return error as DefinitionError;
  }
  throw new Error("expected a DefinitionError, nothing was thrown");
}

/** Awaits `promise`, expects a JsonRpcError, and returns it. */
export async function jsonRpcError(promise: Promise<unknown>): Promise<JsonRpcError> {
  try {
    await promise;
  } catch (error) {
    expect(isJsonRpcError(error)).toBe(true);
    return error as JsonRpcError;
  }
  throw new Error("expected a JsonRpcError, the promise resolved");
}
