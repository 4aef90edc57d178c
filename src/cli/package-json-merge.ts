import { isJsonObject } from "../jsonrpc/json-object.js";
import type { PackageNeeds } from "./scaffold.js";

type Section = keyof PackageNeeds;

/** Names by package.json section, in the order they were met. */
export type SectionNames = [section: string, names: string[]][];

export interface PackageMerge {
  /** The new package.json, indented as the old one was. */
  readonly text: string;
  readonly added: SectionNames;
  /** What was there already (a dependency in whichever section holds it, a script by any command). */
  readonly kept: SectionNames;
}

const DEPENDENCY_SECTIONS = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
] as const;

type Json = Record<string, unknown>;

function note(list: SectionNames, section: string, name: string): void {
  const entry = list.find(([key]) => key === section);
  if (entry) entry[1].push(name);
  else list.push([section, [name]]);
}

/** "dependencies mcp-dir, zod; scripts dev, list" */
export function describeSections(list: SectionNames): string {
  return list.map(([section, names]) => `${section} ${names.join(", ")}`).join("; ");
}

/**
 * Adds what a server needs to an existing package.json: each dependency no
 * section has yet, each script not defined yet. Nothing there is changed or
 * removed. Throws an Error saying what is wrong when the text is not a JSON
 * object (or a section is not one).
 */
export function mergePackageJson(text: string, needs: PackageNeeds): PackageMerge {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not valid JSON (${(error as Error).message})`);
  }
  if (!isJsonObject(parsed)) throw new Error("is not a JSON object");
  const manifest = parsed;
  const added: SectionNames = [];
  const kept: SectionNames = [];
  const sectionOf = (section: Section): Json => {
    const existing = manifest[section];
    if (isJsonObject(existing)) return existing;
    if (existing !== undefined) throw new Error(`has a "${section}" that is not an object`);
    const created: Json = {};
    manifest[section] = created;
    return created;
  };

  for (const section of ["dependencies", "devDependencies"] as const) {
    for (const [name, range] of Object.entries(needs[section])) {
      const holder = DEPENDENCY_SECTIONS.find(
        (key) => isJsonObject(manifest[key]) && Object.hasOwn(manifest[key], name),
      );
      if (holder !== undefined) {
        note(kept, holder, name);
        continue;
      }
      const target = sectionOf(section);
      target[name] = range;
      // npm keeps dependencies sorted by name, as `npm install` will write them.
      manifest[section] = Object.fromEntries(
        Object.entries(target).sort(([a], [b]) => a.localeCompare(b, "en")),
      );
      note(added, section, name);
    }
  }
  for (const [name, command] of Object.entries(needs.scripts)) {
    const scripts = sectionOf("scripts");
    if (Object.hasOwn(scripts, name)) {
      note(kept, "scripts", name);
    } else {
      scripts[name] = command;
      note(added, "scripts", name);
    }
  }

  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? "  ";
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const json = JSON.stringify(manifest, null, indent).replace(/\n/g, newline);
  return { text: text.endsWith("\n") ? `${json}${newline}` : json, added, kept };
}
