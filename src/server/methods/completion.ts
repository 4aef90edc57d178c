import { complete } from "../../define/complete.js";
import { kind } from "../../define/content-shape.js";
import { invalidParams, optionalObject, type Params, requireString } from "../params.js";
import type { RequestContext } from "../request-context.js";
import { requireScopes } from "../scope-check.js";
import { BOTH_ERAS, type MethodTable } from "./method.js";

export const completionMethods: MethodTable = {
  "completion/complete": { eras: BOTH_ERAS, capability: "completions", handler: completion },
};

async function completion(params: Params, rc: RequestContext): Promise<unknown> {
  const ref = optionalObject(params, "ref", "completion/complete");
  const argument = optionalObject(params, "argument", "completion/complete");
  if (!ref || !argument) {
    throw invalidParams('completion/complete: "ref" and "argument" are required');
  }
  const argumentName = requireString(argument, "name", "completion/complete argument");
  const value = requireString(argument, "value", "completion/complete argument");
  const context = optionalObject(params, "context", "completion/complete");
  const chosen = chosenArguments(context);

  let completers: Readonly<Record<string, unknown>>;
  let owner: string;
  if (ref.type === "ref/prompt") {
    const name = requireString(ref, "name", "completion/complete ref");
    const prompt = rc.engine.registry.prompt(name);
    if (!prompt) throw invalidParams(`Unknown prompt: "${name}"`);
    requireScopes(rc.env, rc.engine.registry.served(prompt).scopes, `prompt "${name}"`);
    completers = prompt.complete;
    owner = `prompt ${JSON.stringify(name)}`;
  } else if (ref.type === "ref/resource") {
    const uri = requireString(ref, "uri", "completion/complete ref");
    const { registry } = rc.engine;
    // The ref names "the URI or URI template of the resource". A fixed URI has
    // no variables (its definition may not give `complete`), so nothing
    // completes, as for a variable without a completer.
    const resource = registry.templateByUri(uri) ?? registry.fixedResource(uri);
    if (!resource) throw invalidParams(`Unknown resource or resource template: "${uri}"`);
    owner = `${resource.template ? "resource template" : "resource"} ${JSON.stringify(uri)}`;
    requireScopes(rc.env, registry.served(resource).scopes, owner);
    completers = resource.complete;
  } else {
    throw invalidParams('completion/complete: ref.type must be "ref/prompt" or "ref/resource"');
  }
  // Own keys only: an argument named "toString" must not find Object's method.
  const completer = (
    Object.hasOwn(completers, argumentName) ? completers[argumentName] : undefined
  ) as Parameters<typeof complete>[0];
  return {
    completion: await complete(
      completer,
      { value, arguments: chosen },
      `complete.${argumentName} of ${owner}`,
    ),
  };
}

/** The values already chosen (`context.arguments`): strings, as the completer is promised. */
function chosenArguments(context: Params | undefined): Record<string, string> {
  const chosen = optionalObject(context ?? {}, "arguments", "completion/complete context") ?? {};
  for (const [name, value] of Object.entries(chosen)) {
    if (typeof value !== "string") {
      throw invalidParams(
        `completion/complete: context.arguments.${name} must be a string (the value chosen for that argument), got ${kind(value)}`,
      );
    }
  }
  return chosen as Record<string, string>;
}
