import type { UriTemplate } from "../define/uri-template.js";
import type { RegistryChange } from "../registry/registry.js";
import type { ChangeBus } from "./change-bus.js";

interface Pending {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
  uris: Set<string>;
  announced: Set<string>;
  templates: Set<UriTemplate>;
}

/**
 * Folds the registry changes of one turn of the event loop into one change
 * published on the bus, so a reload of several files sends one notification
 * per kind.
 */
export class ChangeNotifier {
  private pending: Pending | undefined;

  constructor(private readonly bus: ChangeBus) {}

  add(change: RegistryChange): void {
    const pending = this.open();
    pending.tools ||= change.tools;
    pending.prompts ||= change.prompts;
    pending.resources ||= change.resources;
    for (const uri of change.updatedUris) pending.uris.add(uri);
    for (const template of change.updatedTemplates ?? []) pending.templates.add(template);
  }

  /** Code said the resource at `uri` changed (`resourceUpdated`): every replica's subscribers hear it. */
  announce(uri: string): void {
    const pending = this.open();
    pending.uris.add(uri);
    pending.announced.add(uri);
  }

  private open(): Pending {
    if (!this.pending) {
      this.pending = {
        tools: false,
        prompts: false,
        resources: false,
        uris: new Set(),
        announced: new Set(),
        templates: new Set(),
      };
      setImmediate(() => this.flush());
    }
    return this.pending;
  }

  /**
   * Publishes what is pending now rather than at the end of the turn: a
   * session about to open must not hear of changes made before it, since
   * its client lists what they made (a bundle fills its registry in the turn
   * it reads a client's initialize).
   */
  flush(): void {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    const { tools, prompts, resources, uris, announced, templates } = pending;
    this.bus.publish({
      tools,
      prompts,
      resources,
      updatedUris: [...uris],
      announcedUris: [...announced],
      ...(templates.size > 0 && { updatedTemplates: [...templates] }),
    });
  }
}
