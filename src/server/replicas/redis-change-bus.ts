import { isStringArray } from "../../define/string-array.js";
import { thrownMessage } from "../../define/thrown.js";
import {
  type ChangeBus,
  type ChangeListener,
  InProcessChangeBus,
  type ServerChange,
} from "../change-bus.js";
import type { RedisLink } from "./redis-link.js";

/**
 * A change bus shared by replicas: each change is told here at once, and the
 * resource updates code announced are also published to the other replicas,
 * whose subscribers (2025 sessions, listen streams) hear them as their own.
 * List changes and updates of the folder's files stay on their replica.
 */
export class RedisChangeBus implements ChangeBus {
  private readonly local = new InProcessChangeBus();
  private listening: Promise<() => void> | undefined;

  constructor(
    private readonly link: RedisLink,
    private readonly channel: string,
    /** This replica: what it published comes back to it, and is not told twice. */
    private readonly replica: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** Resolves once this replica hears what the others announce. */
  listen(): Promise<unknown> {
    this.listening ??= this.link.subscribe(this.channel, (message) => this.heard(message));
    return this.listening;
  }

  publish(change: ServerChange): void {
    this.local.publish(change);
    if (change.announcedUris.length === 0) return;
    const message = JSON.stringify({ from: this.replica, uris: change.announcedUris });
    this.link
      .command("Announcing a resource update", ["PUBLISH", this.channel, message])
      .catch((error: unknown) => {
        // An outage is told once by the link; anything else is worth a line each time.
        if (!this.link.isOutage(error))
          this.warn(`a resource update was not shared: ${thrownMessage(error)}`);
      });
  }

  subscribe(listener: ChangeListener): () => void {
    return this.local.subscribe(listener);
  }

  private heard(message: string): void {
    let heard: { from?: unknown; uris?: unknown };
    try {
      heard = JSON.parse(message) as typeof heard;
    } catch {
      heard = {};
    }
    const { from, uris } = heard;
    if (!isStringArray(uris)) {
      this.warn(`a resource update heard from Redis is not one, and was ignored: ${message}`);
      return;
    }
    if (from === this.replica) return;
    this.local.publish({
      tools: false,
      prompts: false,
      resources: false,
      updatedUris: uris,
      announcedUris: [],
    });
  }
}
