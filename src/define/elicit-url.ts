const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * What is wrong with a URL a handler sends the user to, or undefined: it must
 * be absolute `https:` (`http:` only on this machine, for development) and
 * carry no credentials, since the client and its user see it whole.
 */
export function elicitUrlProblem(url: unknown): string | undefined {
  if (typeof url !== "string") return `the url must be a string, got ${typeof url}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `the url must be an absolute URL, got ${JSON.stringify(url)}`;
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return "the url must not carry a user name or password: the client and the user see the whole URL";
  }
  if (parsed.protocol === "https:") return undefined;
  if (parsed.protocol === "http:" && isLoopback(parsed.hostname)) return undefined;
  return `the url must use https: (http: only for localhost), got ${JSON.stringify(url)}`;
}
