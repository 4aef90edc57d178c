export type JsonRpcId = string | number;

export type JsonRpcParams = Record<string, unknown> | unknown[];

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: JsonRpcParams;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JsonRpcParams;
}

export interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result: unknown;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

// An `id` key holding `undefined` counts as absent, matching what JSON.stringify would send.
function hasId(m: JsonRpcMessage): boolean {
  return (m as { id?: unknown }).id !== undefined;
}

export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return "method" in m && hasId(m);
}

export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return "method" in m && !hasId(m);
}

export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
  return !("method" in m);
}
