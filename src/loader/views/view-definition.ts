import { brand } from "../../define/brand.js";
import { VIEW_MIME_TYPE, type ViewUiMeta } from "../../protocol/ui.js";
import type { Definition } from "../../registry/definition.js";
import { viewName, viewTitle, viewUri } from "./view-naming.js";

/** A view as built: what `serve` serves and `mcp-dir build` embeds. */
export interface CompiledView {
  /** The page a host loads: one self-contained HTML document. */
  html: string;
  title?: string;
  description?: string;
  /** What it needs from the host's sandbox and how it likes to be shown (MCP Apps' `_meta.ui`). */
  ui?: ViewUiMeta;
}

/**
 * The resource a view file is: `ui://` and its path (views/weather.tsx →
 * ui://weather), named like the tool it shows by convention, with the
 * extension's MIME type and its `_meta.ui` both where it is listed and where
 * it is read, as the extension's own server helpers put them. It has no
 * size: saving a view changes what it reads, not the list it is in.
 */
export function viewDefinition(file: string, view: CompiledView): Definition {
  const ui = view.ui !== undefined && Object.keys(view.ui).length > 0 ? view.ui : undefined;
  const meta = ui && { _meta: { ui } };
  return brand("resource", {
    name: viewName(file),
    title: view.title ?? viewTitle(file),
    ...(view.description !== undefined && { description: view.description }),
    uri: viewUri(file),
    mimeType: VIEW_MIME_TYPE,
    ...meta,
    read: () => ({ text: view.html, ...meta }),
  }) as unknown as Definition;
}
