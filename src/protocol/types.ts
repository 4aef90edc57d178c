/** MCP wire types shared by every revision we speak. Fields newer than 2024-11-05 are optional. */

export type JsonObject = Record<string, unknown>;
export type Meta = Record<string, unknown>;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export type Role = "user" | "assistant";

export interface ContentAnnotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: "text";
  text: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface AudioContent {
  type: "audio";
  data: string;
  mimeType: string;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: "resource";
  resource: ResourceContents;
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export interface ResourceLink {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: ContentAnnotations;
  _meta?: Meta;
}

export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | EmbeddedResource
  | ResourceLink;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Whether a tool may run as a task: "forbidden" (the default), "optional" or "required". */
export type TaskSupport = "forbidden" | "optional" | "required";

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** 2025-11-25 only: how the tool may be called (as a task). */
  execution?: { taskSupport?: TaskSupport };
  _meta?: Meta;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: Meta;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: ContentAnnotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: ContentAnnotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
}

export const LOGGING_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: JsonObject;
  elicitation?: JsonObject;
  experimental?: JsonObject;
  /** Extension identifiers (`com.example/name`) and their settings. */
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  completions?: JsonObject;
  logging?: JsonObject;
  experimental?: JsonObject;
  /** 2025-11-25 only: the experimental tasks (`list`, `cancel`, `requests.tools.call`). */
  tasks?: JsonObject;
  /** 2026-07-28: extension identifiers (`com.example/name`) and their settings. */
  extensions?: Record<string, JsonObject>;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

export interface SamplingMessage {
  role: Role;
  content: TextContent | ImageContent | AudioContent;
}

export interface CreateMessageParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: "none" | "thisServer" | "allServers";
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  metadata?: JsonObject;
}

export interface CreateMessageResult {
  role: Role;
  content: TextContent | ImageContent | AudioContent;
  model: string;
  stopReason?: string;
  _meta?: Meta;
}

export type ElicitAction = "accept" | "decline" | "cancel";

export interface ElicitResult<T = Record<string, string | number | boolean | string[]>> {
  action: ElicitAction;
  content?: T;
}
