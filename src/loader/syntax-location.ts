/** Where esbuild finds the first syntax error in a source file (1-based), if it finds one. */
export async function locateSyntaxError(
  source: string,
  path: string,
): Promise<{ line: number; column: number } | undefined> {
  const loader = /\.m?ts$/.test(path) ? "ts" : "js";
  // Only needed when a file fails to load: not worth loading esbuild up front.
  const { transform } = await import("esbuild");
  try {
    await transform(source, { loader, format: "esm", sourcefile: path, logLevel: "silent" });
    return undefined;
  } catch (error) {
    const location = (error as { errors?: { location?: { line: number; column: number } }[] })
      .errors?.[0]?.location;
    return location && { line: location.line, column: location.column + 1 };
  }
}
