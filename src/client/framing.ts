import { META } from "../protocol/meta.js";
import type { Params, ServerNotification } from "./link.js";

/** `params` without `key` in its `_meta`, and without `_meta` when nothing else is left there. */
export function withoutMetaKey(params: Params, key: string): Params {
  const { _meta, ...rest } = params;
  const { [key]: _dropped, ...own } = (_meta ?? {}) as Params;
  return Object.keys(own).length > 0 ? { ...rest, _meta: own } : rest;
}

/** 2026-07-28 frames every result; clients see what both eras share. */
export function withoutFraming(result: Params): Params {
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  return withoutMetaKey(rest, META.serverInfo);
}

/**
 * A notification as both eras share it: 2026-07-28 names, in `_meta`, the
 * listen stream that carried it; a 2025 session has no such stream.
 */
export function notificationWithoutFraming(notification: ServerNotification): ServerNotification {
  const meta = notification.params._meta as Params | undefined;
  if (meta === undefined || !(META.subscriptionId in meta)) return notification;
  return {
    method: notification.method,
    params: withoutMetaKey(notification.params, META.subscriptionId),
  };
}
