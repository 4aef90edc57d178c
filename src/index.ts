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
export {
  applyToRegistry,
  type ConfigLoad,
  createImporter,
  type DefinitionFolder,
  type DirectoryLoad,
  type DirectoryWatcher,
  defineConfig,
  type FileLoad,
  formatProblem,
  formatWarning,
  HotReloader,
  type HttpConfig,
  isSkipped,
  type LoadDirectoryOptions,
  type LoadedServer,
  type LoadFileOptions,
  type LoadProblem,
  type LoadWarning,
  loadConfig,
  loadDirectory,
  loadFile,
  loadServer,
  type ModuleImporter,
  type ModuleNamespace,
  ReloadableModules,
  type ReloadOutcome,
  type ResolvedConfig,
  type ServerConfig,
  type WatchOptions,
  watchDirectory,
} from "./loader/index.js";
export * from "./protocol/content.js";
export * from "./protocol/downgrade.js";
export { McpErrorCode } from "./protocol/errors.js";
export type * from "./protocol/types.js";
export { LOGGING_LEVELS } from "./protocol/types.js";
export {
  atLeast,
  DEFAULT_HTTP_VERSION,
  FEATURE_SINCE,
  type Feature,
  isStatefulVersion,
  LATEST_STATEFUL_VERSION,
  negotiateVersion,
  type ProtocolVersion,
  STATEFUL_VERSIONS,
  STATELESS_VERSION,
  type StatefulVersion,
  supports,
} from "./protocol/versions.js";
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
