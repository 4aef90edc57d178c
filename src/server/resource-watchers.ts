import type { CompiledResource, ResourceDefinition, ResourceWatch } from "../define/resource.js";
import { thrownMessage } from "../define/thrown.js";
import type { Registry } from "../registry/registry.js";

/**
 * Runs the `watch` of every resource definition while it is registered: started
 * when it arrives, stopped when it leaves (a dev reload replaces it, a file is
 * deleted) or the server closes, so nothing keeps firing for a definition no
 * longer served. What `watch` announces goes out as resources/updated.
 */
export class ResourceWatchers {
  private readonly running = new Map<ResourceDefinition, () => void>();

  constructor(
    private readonly announce: (uri: string) => void,
    private readonly warn: (message: string) => void,
  ) {}

  sync(registry: Registry): void {
    const served = new Map<ResourceDefinition, CompiledResource>();
    for (const resource of [...registry.resources, ...registry.templates]) {
      if (typeof resource.definition.watch === "function") {
        served.set(resource.definition, resource);
      }
    }
    for (const [definition, stop] of this.running) {
      if (!served.has(definition)) {
        this.running.delete(definition);
        this.stopSafely(definition, stop);
      }
    }
    for (const [definition, resource] of served) {
      if (!this.running.has(definition)) this.start(resource);
    }
  }

  stopAll(): void {
    for (const [definition, stop] of this.running) this.stopSafely(definition, stop);
    this.running.clear();
  }

  private start(resource: CompiledResource): void {
    const { definition, name } = resource;
    const updated = (uri?: string) => this.announce(uriOf(resource, uri));
    try {
      const stop = (definition.watch as ResourceWatch)(updated);
      this.running.set(definition, typeof stop === "function" ? stop : () => {});
    } catch (error) {
      this.warn(
        `resource "${name}": its watch threw, so its changes are not announced: ${describe(error)}`,
      );
    }
  }

  private stopSafely(definition: ResourceDefinition, stop: () => void): void {
    try {
      stop();
    } catch (error) {
      this.warn(
        `resource "${definition.name ?? "?"}": stopping its watch threw: ${describe(error)}`,
      );
    }
  }
}

/** The URI a watch announces: its own for a fixed resource, one it matches for a template. */
function uriOf(resource: CompiledResource, uri: string | undefined): string {
  if (resource.uri !== undefined) {
    if (uri !== undefined && uri !== resource.uri) {
      throw new Error(
        `resource "${resource.name}": updated(${JSON.stringify(uri)}) names another URI; call updated() for ${resource.uri}`,
      );
    }
    return resource.uri;
  }
  const template = resource.template?.template ?? "";
  if (uri === undefined || resource.template?.match(uri) === undefined) {
    throw new Error(
      `resource "${resource.name}": updated(${JSON.stringify(uri)}) needs a URI that matches its template ${template}`,
    );
  }
  return uri;
}

function describe(error: unknown): string {
  return thrownMessage(error);
}
