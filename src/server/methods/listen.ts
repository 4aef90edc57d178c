import { onAbort } from "../../define/on-abort.js";
import { isStringArray } from "../../define/string-array.js";
import { META } from "../../protocol/meta.js";
import type { ServerCapabilities } from "../../protocol/types.js";
import { type ServerChange, updates } from "../change-bus.js";
import { heldSize, SLOT_BYTES } from "../memory-budget.js";
import { invalidParams, optionalObject, type Params } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { goneUnfinished, unfinishedSummary } from "../tasks/task-expiry.js";
import type { StoredTask } from "../tasks/task-store.js";
import { detailedTask } from "../tasks/task-wire.js";
import { declaresTasks, tasksExtensionRequired } from "../tasks/tasks.js";
import { type MethodTable, STATELESS_ONLY } from "./method.js";
import { MAX_URI_LENGTH, requireResourceScopes } from "./resources.js";

/** What a listen stream delivers: the 2026-07-28 SubscriptionFilter. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** The tasks extension: `notifications/tasks` for these tasks. */
  taskIds?: string[];
}

const FLAGS = ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const;

function readFilter(params: Record<string, unknown>, maxUris: number): SubscriptionFilter {
  const given = optionalObject(params, "notifications", "subscriptions/listen");
  if (!given) throw invalidParams('subscriptions/listen: "notifications" (the filter) is required');
  const filter: SubscriptionFilter = {};
  for (const flag of FLAGS) {
    const value = given[flag];
    if (value !== undefined && typeof value !== "boolean") {
      throw invalidParams(`subscriptions/listen: notifications.${flag} must be a boolean`);
    }
    if (value) filter[flag] = true;
  }
  const uris = given.resourceSubscriptions;
  if (uris !== undefined) {
    if (!isStringArray(uris)) {
      throw invalidParams(
        "subscriptions/listen: notifications.resourceSubscriptions must be an array of URI strings",
      );
    }
    const tooLong = (uris as string[]).find((uri) => uri.length > MAX_URI_LENGTH);
    if (tooLong !== undefined) {
      throw invalidParams(
        `subscriptions/listen: a resourceSubscriptions URI is ${tooLong.length} characters long; at most ${MAX_URI_LENGTH} are accepted`,
      );
    }
    if (uris.length > maxUris) {
      throw invalidParams(
        `subscriptions/listen: at most ${maxUris} resourceSubscriptions per stream, got ${uris.length}; open several streams or raise maxSubscriptions`,
      );
    }
    filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  const taskIds = given.taskIds;
  if (taskIds !== undefined) {
    if (!isStringArray(taskIds)) {
      throw invalidParams(
        "subscriptions/listen: notifications.taskIds must be an array of task ids",
      );
    }
    if (taskIds.length > maxUris) {
      throw invalidParams(
        `subscriptions/listen: at most ${maxUris} taskIds per stream, got ${taskIds.length}; open several streams or raise maxSubscriptions`,
      );
    }
    filter.taskIds = [...new Set(taskIds as string[])];
  }
  return filter;
}

/**
 * The tasks of `ids` this request may follow (they exist, and are its
 * client's); following any needs the tasks extension declared.
 */
async function followedTasks(
  ids: readonly string[] | undefined,
  rc: RequestContext,
): Promise<StoredTask[]> {
  if (ids === undefined) return [];
  if (!declaresTasks(rc.env.clientCapabilities)) {
    throw tasksExtensionRequired("subscriptions/listen: notifications.taskIds follows tasks");
  }
  const found = await Promise.all(
    ids.map((taskId) =>
      rc.engine.tasks.find({ taskId }, rc.env, "subscriptions/listen").catch(() => undefined),
    ),
  );
  return found.filter((task) => task !== undefined);
}

/** The part of the filter this server can honour: notification types it never sends are left out. */
function honoured(filter: SubscriptionFilter, offered: ServerCapabilities): SubscriptionFilter {
  const result: SubscriptionFilter = {};
  if (filter.toolsListChanged && offered.tools?.listChanged) result.toolsListChanged = true;
  if (filter.promptsListChanged && offered.prompts?.listChanged) result.promptsListChanged = true;
  if (filter.resourcesListChanged && offered.resources?.listChanged) {
    result.resourcesListChanged = true;
  }
  if (filter.resourceSubscriptions && offered.resources?.subscribe) {
    result.resourceSubscriptions = filter.resourceSubscriptions;
  }
  return result;
}

function deliver(change: ServerChange, filter: SubscriptionFilter, uris: ReadonlySet<string>) {
  const sent: [string, Record<string, unknown>][] = [];
  if (change.tools && filter.toolsListChanged) sent.push(["notifications/tools/list_changed", {}]);
  if (change.prompts && filter.promptsListChanged) {
    sent.push(["notifications/prompts/list_changed", {}]);
  }
  if (change.resources && filter.resourcesListChanged) {
    sent.push(["notifications/resources/list_changed", {}]);
  }
  const updated = new Set(change.updatedUris);
  for (const uri of uris) {
    if (updates(change, uri, updated)) sent.push(["notifications/resources/updated", { uri }]);
  }
  return sent;
}

/**
 * Resolves when the client cancels the stream or the server shuts down, once
 * `release` has run: at that moment, not a turn later, so a request that
 * follows the cancellation finds what the stream held already given back.
 */
function ended(rc: RequestContext, release: () => void): Promise<void> {
  const signals = rc.env.closing ? [rc.signal, rc.env.closing] : [rc.signal];
  return new Promise((resolve) => {
    let over = false;
    let stops: (() => void)[] = [];
    const end = () => {
      if (over) return;
      over = true;
      for (const stop of stops) stop();
      release();
      resolve();
    };
    stops = [rc.engine.atClose(end), ...signals.map((signal) => onAbort(signal, end))];
    // Ended while it was being set up: what was set up after that is undone now.
    if (over) for (const stop of stops) stop();
  });
}

export const listenMethods: MethodTable = {
  "subscriptions/listen": { eras: STATELESS_ONLY, handler: listen },
};

async function listen(params: Params, rc: RequestContext): Promise<unknown> {
  const { engine, env } = rc;
  const asked = readFilter(params, engine.maxSubscriptions);
  const filter = honoured(asked, engine.capabilities(env.protocolVersion));
  const { channel } = env;
  const tag = { [META.subscriptionId]: env.requestId };
  /** The tasks followed, each with what is kept to tell its end if it is dropped unfinished. */
  const tasks = new Map<string, StoredTask | undefined>();
  const notifyTask = (task: StoredTask) =>
    channel.notify("notifications/tasks", { _meta: tag, ...detailedTask(task) });
  // Followed before they are looked up (a shared store's read is a round trip, during which
  // a change may be told): what is told until the acknowledgement is sent after it.
  let early: [string, StoredTask | undefined, string | undefined][] | undefined = [];
  const tell = (taskId: string, task: StoredTask | undefined, why?: string) => {
    if (early) early.push([taskId, task, why]);
    else if (!tasks.has(taskId)) return;
    else if (task !== undefined) {
      tasks.set(taskId, unfinishedSummary(task));
      notifyTask(task);
    } else {
      // Gone (expired, or lost): its client would wait for an end no poll can show any more.
      const summary = tasks.get(taskId);
      tasks.delete(taskId);
      if (summary !== undefined) notifyTask(goneUnfinished(summary, why));
    }
  };
  let unfollow = asked.taskIds?.length ? engine.tasks.store.subscribe(tell) : undefined;
  const uris = new Set(filter.resourceSubscriptions);
  let held: number;
  try {
    for (const task of await followedTasks(asked.taskIds, rc)) {
      tasks.set(task.taskId, unfinishedSummary(task));
    }
    if (tasks.size > 0) filter.taskIds = [...tasks.keys()];
    else {
      // None of its own to follow: the store's changes are nothing to this stream.
      unfollow?.();
      unfollow = undefined;
    }
    for (const uri of uris) requireResourceScopes(rc, uri);
    // The stream keeps its request, its URIs and what it keeps of its tasks, for as long as it is open.
    held = heldSize(params) + uris.size * SLOT_BYTES + heldSize([...tasks.values()]);
    engine.memory.take(held, "subscriptions/listen");
  } catch (error) {
    unfollow?.();
    throw error;
  }
  channel.notify("notifications/subscriptions/acknowledged", {
    _meta: tag,
    notifications: filter,
  });
  const heardMeanwhile = early;
  early = undefined;
  for (const [taskId, task, why] of heardMeanwhile) tell(taskId, task, why);
  const unsubscribe = engine.bus.subscribe((change) => {
    for (const [method, fields] of deliver(change, filter, uris)) {
      channel.notify(method, { _meta: tag, ...fields });
    }
  });
  await ended(rc, () => {
    unsubscribe();
    unfollow?.();
    engine.memory.give(held);
  });
  // Reached on a graceful end (shutdown); a cancelled stream gets no response.
  return { _meta: tag };
}
