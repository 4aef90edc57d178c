/**
 * The name a definition gets when it gives none, from its path inside its kind
 * folder: the extension is dropped and folders join with "_"
 * (tools/math/add.ts → "math_add"). A named export adds its own name
 * (export `add` in tools/math.ts → "math_add"); the default export takes the
 * file's name alone.
 */
export function deriveName(relativePath: string, exportName = "default"): string {
  const [, ...inFolder] = relativePath.split("/");
  const last = inFolder.length - 1;
  inFolder[last] = (inFolder[last] ?? "").replace(/\.[^.]*$/, "");
  const fileName = inFolder.join("_");
  return exportName === "default" ? fileName : `${fileName}_${exportName}`;
}
