/**
 * What a browser and a web client do to sign a user in by the authorization
 * code flow (OpenID Connect): the authorization request, its redirects
 * followed with the issuer's cookies kept, then the code exchanged at the
 * token endpoint for an ID token and an access token.
 */

/** A confidential web client, as its registration at the issuer names it. */
export interface WebClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

export async function signInFlow(
  issuer: string,
  client: WebClient,
  request: { resource: string; scope: string; nonce: string | undefined },
): Promise<{ accessToken: string; idToken: string }> {
  const query = new URLSearchParams({
    client_id: client.clientId,
    response_type: "code",
    redirect_uri: client.redirectUri,
    scope: request.scope,
    resource: request.resource,
  });
  if (request.nonce !== undefined) query.set("nonce", request.nonce);
  const code = await followToRedirectUri(`${issuer}/auth?${query}`, client.redirectUri);
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: client.redirectUri,
      resource: request.resource,
    }),
  });
  const body = (await response.json()) as { access_token?: string; id_token?: string };
  if (!body.access_token || !body.id_token) throw new Error(`no tokens: ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, idToken: body.id_token };
}

/** Follows the issuer's redirects as a browser does, to the code it sends to the client. */
async function followToRedirectUri(start: string, redirectUri: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (location === null) {
      throw new Error(`sign-in stopped at ${url}: ${response.status} ${await response.text()}`);
    }
    await response.body?.cancel();
    url = new URL(location, url).href;
    if (url.startsWith(redirectUri)) {
      const code = new URL(url).searchParams.get("code");
      if (code === null) throw new Error(`no code: ${url}`);
      return code;
    }
  }
  throw new Error(`sign-in did not reach ${redirectUri}`);
}
