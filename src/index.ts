export * from "./authoring.js";
export type {
  AskOptions,
  AuthInfo,
  BinaryResult,
  ClientInfo,
  Completer,
  CompletionRequest,
  DefinitionInfo,
  ElicitOutcome,
  ElicitRequest,
  HandlerContext,
  HandlerLogger,
  InferShape,
  Middleware,
  MiddlewareConfig,
  MiddlewareContext,
  MiddlewareDefinition,
  Next,
  PromptArgumentSpec,
  PromptArguments,
  PromptConfig,
  PromptDefinition,
  PromptReturn,
  ReadRequest,
  ResourceDefinition,
  ResourceReturn,
  ResourceWatch,
  RoundState,
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
  encodeMessage,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Parsed,
  parseMessage,
} from "./jsonrpc/index.js";
export type { ConfigCheck } from "./loader/dev/config-check.js";
export type { ReloadOutcome } from "./loader/dev/hot-reload.js";
export {
  type ServerWatcher,
  type WatchServerOptions,
  watchServer,
} from "./loader/dev/watch-server.js";
export {
  type ConfigLoad,
  defineConfig,
  formatProblem,
  formatWarning,
  type HttpConfig,
  type LoadDirectoryOptions,
  type LoadedServer,
  type LoadProblem,
  type LoadWarning,
  loadServer,
  type ResolvedConfig,
  type ServerConfig,
} from "./loader/index.js";
export type { TaskError, TaskStatus } from "./protocol/tasks.js";
export type * from "./protocol/types.js";
export type {
  ToolUiMeta,
  ToolVisibility,
  ViewCsp,
  ViewPermissions,
  ViewUiMeta,
} from "./protocol/ui.js";
export type { ProtocolVersion, StatefulVersion } from "./protocol/versions.js";
export type { Definition, Registry, RegistryChange, SourceEntry } from "./registry/index.js";
export { RegistryError } from "./registry/index.js";
export {
  type AnnouncedKind,
  type ChangeBus,
  type ChangeListener,
  type Connection,
  createServer,
  InProcessChangeBus,
  InProcessTaskStore,
  type InputRoundOptions,
  type ListedKind,
  type LogMessage,
  McpServer,
  type MessageReceiver,
  type RedisOptions,
  type SendOptions,
  type ServerChange,
  type ServerOptions,
  type StoredTask,
  type TaskChange,
  type TaskInputRequest,
  type TaskListener,
  type TaskOptions,
  type TaskStore,
  type Transport,
} from "./server/index.js";
export type { Network } from "./tracing/channels.js";
export {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from "./transports/fetch/handler.js";
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
