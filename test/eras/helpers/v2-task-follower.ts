/**
 * The official v2 client (`@modelcontextprotocol/client`) at 2026-07-28,
 * declaring the tasks extension, as a follower of tasks: it cannot create
 * one (it decodes no `resultType: "task"` yet), but its listen streams carry
 * `taskIds`, and what they tell of tasks reaches its fallback handler.
 */
import type { Client as ClientV2 } from "@modelcontextprotocol/client";
import { Inbox } from "../../server/helpers/inbox.js";
import type { Json } from "../../server/helpers/raw-client.js";
import { connectClient, type Target } from "./clients.js";
import { DECLARING } from "./task-wire.js";

export interface TaskFollower {
  readonly v2: ClientV2;
  /** The params of every `notifications/tasks` the client was told, in order. */
  readonly told: Inbox<Json>;
  /**
   * Opens a listen stream for `taskIds`; resolves once it is acknowledged
   * (the SDK keeps of the acknowledgement only the filters it knows).
   */
  follow(taskIds: string[]): Promise<void>;
}

/** Closed with the suite's other clients (closeClients). */
export async function taskFollower(target: Target): Promise<TaskFollower> {
  const client = await connectClient("v2 pinned to 2026-07-28", target, {
    capabilities: DECLARING,
  });
  const v2 = client.v2 as ClientV2;
  const told = new Inbox<Json>();
  v2.fallbackNotificationHandler = async (notification) => {
    if (notification.method === "notifications/tasks") told.push(notification.params as Json);
  };
  return {
    v2,
    told,
    async follow(taskIds) {
      // The SDK's filter type has no taskIds yet; the extension adds them.
      const filter = { taskIds } as Parameters<ClientV2["listen"]>[0];
      await v2.listen(filter);
    },
  };
}
