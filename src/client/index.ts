export { InMemoryClient } from "./client.js";
export type { ClientOptions, RequestOptions } from "./client-options.js";
export { type InputRequest, InputRequiredError, RequestError } from "./errors.js";
export type { ServerIdentity, ServerNotification } from "./link.js";
export type { ElicitationRequest, Responder, Responders } from "./responders.js";
export type * from "./results.js";
export type { Subscription, SubscriptionFilter } from "./stateless-link.js";
export type { TaskState } from "./task-follower.js";
