import { reasonOf } from "./verdicts.js";

/** What the resource server needs of its authorization server's metadata. */
export interface IssuerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
}

const FETCH_TIMEOUT_MS = 5000;

/**
 * Where an issuer's metadata may be: RFC 8414's well-known URL (the path
 * inserted after the host), then OpenID discovery's (appended to the issuer,
 * and inserted, as some servers with a path serve it).
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const urls = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  if (path !== "") urls.push(`${url.origin}/.well-known/openid-configuration${path}`);
  return urls;
}

/**
 * Reads the issuer's metadata. Throws, naming the URL and what to check, when
 * the server cannot be reached, serves none, or names another issuer (a
 * token's `iss` is compared with the configured issuer exactly).
 */
export async function discoverIssuer(issuer: string): Promise<IssuerMetadata> {
  const tried: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(
        `Cannot reach the authorization server ${issuer}: fetching ${url} failed: ${reasonOf(error)}; check the issuer (--auth-issuer, auth.issuer) and that it is up`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      tried.push(`${url} (${response.status})`);
      continue;
    }
    // A site in front of the issuer may answer any path with a page of its own: look on.
    const metadata = await jsonObject(response);
    if (metadata === undefined) {
      tried.push(
        `${url} (${response.status}, not JSON: ${response.headers.get("content-type") ?? "no content type"})`,
      );
      continue;
    }
    if (metadata.issuer !== issuer) {
      throw new Error(
        `The authorization server metadata at ${url} names the issuer ${JSON.stringify(metadata.issuer)}, not ${JSON.stringify(issuer)}; set the issuer (--auth-issuer, auth.issuer) to exactly what it names`,
      );
    }
    return metadata as unknown as IssuerMetadata;
  }
  throw new Error(
    `The authorization server ${issuer} publishes no metadata: ${tried.join(", ")}; check the issuer (--auth-issuer, auth.issuer), or give auth.jwksUri`,
  );
}

/** A response's body as a JSON object; undefined when it is anything else. */
async function jsonObject(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
