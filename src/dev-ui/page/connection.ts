import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";

/**
 * The page's MCP client: the official one, pinned to 2026-07-28, over
 * Streamable HTTP to the server `dev` runs, with this run's secret as its
 * bearer token. It answers elicitation and shows views, as a host would.
 */

export const EXTENSION = "io.modelcontextprotocol/ui";

export interface Lists {
  tools: Record<string, unknown>[];
  prompts: Record<string, unknown>[];
  resources: Record<string, unknown>[];
  templates: Record<string, unknown>[];
}

export function createClient(): Client {
  return new Client({ name: "mcp-dir dev UI", version: "1.0.0" }, {
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    capabilities: {
      elicitation: { form: {}, url: {} },
      extensions: { [EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
    },
  } as ConstructorParameters<typeof Client>[1]);
}

export async function connect(client: Client, secret: string): Promise<void> {
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", location.origin), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
}

/** Everything the server lists, afresh (never from the client's response cache). */
export async function listAll(client: Client): Promise<Lists> {
  const fresh = { cacheMode: "bypass" } as const;
  const [tools, prompts, resources, templates] = await Promise.all([
    client.listTools(undefined, fresh),
    client.listPrompts(undefined, fresh),
    client.listResources(undefined, fresh),
    client.listResourceTemplates(undefined, fresh),
  ]);
  return {
    tools: tools.tools as Record<string, unknown>[],
    prompts: prompts.prompts as Record<string, unknown>[],
    resources: resources.resources as Record<string, unknown>[],
    templates: templates.resourceTemplates as Record<string, unknown>[],
  };
}
