import { ErrorCode, JsonRpcError } from "../jsonrpc/index.js";

export type Params = Record<string, unknown>;

export function invalidParams(message: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, message);
}

export function requireString(params: Params, key: string, method: string): string {
  const value = params[key];
  if (typeof value !== "string") {
    throw invalidParams(
      `${method}: "${key}" must be a string${value === undefined ? " and is missing" : ""}`,
    );
  }
  return value;
}

export function optionalObject(params: Params, key: string, method: string): Params | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidParams(`${method}: "${key}" must be an object`);
  }
  return value as Params;
}

export function requireObject(params: Params, key: string, method: string): Params {
  const value = optionalObject(params, key, method);
  if (value === undefined)
    throw invalidParams(`${method}: "${key}" must be an object and is missing`);
  return value;
}

export function optionalString(params: Params, key: string, method: string): string | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalidParams(`${method}: "${key}" must be a string`);
  return value;
}
