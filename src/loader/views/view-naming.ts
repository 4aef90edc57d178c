import { deriveName } from "../derive-name.js";
import { titleFromFileName } from "../resource-naming.js";

/**
 * Where a view file is served: `ui://` and its path inside views/ without the
 * extension, each segment percent-encoded (views/charts/bar.tsx → ui://charts/bar).
 */
export function viewUri(file: string): string {
  const inViews = file
    .split("/")
    .slice(1)
    .join("/")
    .replace(/\.[^./]*$/, "");
  return `ui://${inViews.split("/").map(encodeURIComponent).join("/")}`;
}

/** A view's name, as a tool's is derived (views/charts/bar.tsx → "charts_bar"): the tool it shows by convention. */
export function viewName(file: string): string {
  return deriveName(file);
}

/** "views/weather-map.tsx" → "Weather map". */
export function viewTitle(file: string): string {
  return titleFromFileName(file.split("/").pop() ?? file);
}
