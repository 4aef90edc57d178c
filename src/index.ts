export type {
  BinaryResult,
  Completer,
  CompletionRequest,
  ElicitOutcome,
  ElicitRequest,
  HandlerContext,
  HandlerLogger,
  InferShape,
  PromptArgumentSpec,
  PromptArguments,
  PromptConfig,
  PromptDefinition,
  PromptReturn,
  ReadRequest,
  ResourceDefinition,
  ResourceReturn,
  SchemaInput,
  SessionInfo,
  StaticMessage,
  StaticResourceConfig,
  TemplateResourceConfig,
  TemplateVariables,
  ToolConfig,
  ToolDefinition,
} from "./define/index.js";
export {
  DefinitionError,
  definePrompt,
  defineResource,
  defineTool,
  definitionKind,
  isDefinitionError,
} from "./define/index.js";
export { ErrorCode, JsonRpcError } from "./jsonrpc/index.js";
export * from "./protocol/index.js";
export type { Definition, RegistryChange, SourceEntry } from "./registry/index.js";
export { Registry, RegistryError } from "./registry/index.js";
export {
  createServer,
  type ListedKind,
  McpServer,
  RESOURCE_NOT_FOUND,
  type ServerOptions,
  type Transport,
} from "./server/index.js";
export {
  createHttpHandler,
  type HttpHandler,
  type HttpHandlerOptions,
  type HttpServeOptions,
  type HttpServing,
  type HttpStats,
  serveHttp,
} from "./transports/http/index.js";
export { type StdioOptions, StdioTransport, serveStdio } from "./transports/stdio.js";
