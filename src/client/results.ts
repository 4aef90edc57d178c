import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "../protocol/types.js";

/** Results as the official SDK clients return them. */
export interface ListToolsResult {
  tools: Tool[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

export interface ListPromptsResult {
  prompts: Prompt[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

export interface ListResourcesResult {
  resources: Resource[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

export interface ListResourceTemplatesResult {
  resourceTemplates: ResourceTemplate[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

export type { CallToolResult, CompleteResult, GetPromptResult, ReadResourceResult };

/** What `completion/complete` is asked: a prompt's argument or a template's variable. */
export interface CompleteParams {
  ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
  _meta?: Record<string, unknown>;
}

/** Progress a request's handler reported (`ctx.progress`). */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}
