/** What callEcho sees when the authorization server's keys cannot be fetched: 503, no challenge. */
export const KEYS_UNAVAILABLE = {
  status: 503,
  challenge: null,
  body: {
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message:
        "Service Unavailable: the authorization server's keys cannot be fetched to check the access token; try again later",
    },
  },
};
