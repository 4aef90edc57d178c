export {
  type ChangeBus,
  type ChangeListener,
  InProcessChangeBus,
  type ServerChange,
} from "./change-bus.js";
export { Closing } from "./closing.js";
export type { Connection } from "./connection.js";
export type { Engine } from "./engine.js";
export type { Era } from "./env.js";
export { eraOf } from "./era.js";
export { InFlight } from "./in-flight.js";
export { callerKey, nameByToken, STATE_KEY_ENV } from "./input-rounds/request-state.js";
export { heapQuarter } from "./memory-budget.js";
export { type MethodDescriptor, methodsFor } from "./methods/index.js";
export { RESOURCE_NOT_FOUND } from "./methods/resources.js";
export type { LogMessage } from "./notices.js";
export type { RedisOptions } from "./replicas/redis-options.js";
export { RequestContext } from "./request-context.js";
export { requiredScopesOf } from "./scope-check.js";
export {
  type AnnouncedKind,
  createServer,
  type InputRoundOptions,
  type ListedKind,
  McpServer,
  type ServerOptions,
} from "./server.js";
export { Session } from "./session.js";
export { InProcessTaskStore } from "./tasks/in-process-task-store.js";
export type {
  StoredTask,
  TaskChange,
  TaskInputRequest,
  TaskListener,
  TaskStore,
} from "./tasks/task-store.js";
export type { TaskOptions } from "./tasks/tasks.js";
export type { MessageReceiver, SendOptions, Transport } from "./transport.js";
