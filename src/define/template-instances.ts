import type { Resource } from "../protocol/types.js";
import { isPlainObject } from "./plain-object.js";
import type { ListedResource } from "./resource.js";
import type { UriTemplate } from "./uri-template.js";

/**
 * A template's current instances as resources/list shows them: each entry's
 * URI must match the template (else an error naming the template and the
 * entry, so one wrong entry does not list silently).
 */
export async function listInstances(
  name: string,
  template: UriTemplate,
  mimeType: string | undefined,
  list: () => ListedResource[] | Promise<ListedResource[]>,
): Promise<Resource[]> {
  const entries: unknown = await list();
  if (!Array.isArray(entries)) {
    throw new Error(
      `the list of resource template "${name}" returned ${typeof entries}; return an array of { uri, name? }`,
    );
  }
  return entries.map((entry, index) => {
    const uri = isPlainObject(entry) ? entry.uri : undefined;
    if (typeof uri !== "string" || template.match(uri) === undefined) {
      throw new Error(
        `the list of resource template "${name}" has an entry (${index}) whose uri ${JSON.stringify(uri)} does not match ${template.template}`,
      );
    }
    const { name: entryName, title, description, mimeType: entryMime } = entry as ListedResource;
    return {
      uri,
      name: typeof entryName === "string" && entryName !== "" ? entryName : uri,
      ...(typeof title === "string" && { title }),
      ...(typeof description === "string" && { description }),
      ...((entryMime ?? mimeType) !== undefined && { mimeType: entryMime ?? mimeType }),
    };
  });
}
