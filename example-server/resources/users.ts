import { defineResource, JsonRpcError, RESOURCE_NOT_FOUND } from "mcp-dir";
import { findMember, MEMBERS } from "../lib/team.js";

/**
 * A code file under resources/ defines resources: a fixed `uri`, or, as here,
 * a `uriTemplate` (RFC 6570) whose variables arrive in `params`. Its name,
 * "users", comes from the path. `complete` suggests values for a variable.
 *
 * An object returned by read() is served as JSON text.
 */
export default defineResource({
  uriTemplate: "users://{id}",
  title: "Team member",
  description: "A team member's profile: name, email, team and skills",
  mimeType: "application/json",
  complete: {
    id: ({ value }) => MEMBERS.map((member) => member.id).filter((id) => id.startsWith(value)),
  },
  read: ({ params }) => {
    const member = findMember(params.id);
    if (member === undefined) {
      throw new JsonRpcError(RESOURCE_NOT_FOUND, `No team member with id "${params.id}"`, {
        uri: `users://${params.id}`,
      });
    }
    return member;
  },
});
