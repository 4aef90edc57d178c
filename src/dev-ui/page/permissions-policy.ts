/**
 * A view's `_meta.ui.permissions` as an iframe's `allow` attribute: the
 * browser features it asks for (SEP-1865 names four), each a Permissions
 * Policy feature. The frame of the sandbox proxy and the view's frame inside
 * it both need it, since a frame may delegate only what it was given.
 */
const FEATURES: Readonly<Record<string, string>> = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
};

export function allowAttribute(permissions: unknown): string {
  return Object.keys(grantedPermissions(permissions))
    .map((name) => FEATURES[name])
    .join("; ");
}

/** The permissions granted: those asked for that the host can grant. */
export function grantedPermissions(permissions: unknown): Record<string, object> {
  if (typeof permissions !== "object" || permissions === null) return {};
  return Object.fromEntries(
    Object.keys(permissions)
      .filter((name) => FEATURES[name] !== undefined)
      .map((name) => [name, {}]),
  );
}
