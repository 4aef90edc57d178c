import { defineTool, resourceLink } from "mcp-dir";
import { z } from "zod";
import { MEMBERS, TEAMS } from "../lib/team.js";

/**
 * One file, several tools: each named export that is a definition registers,
 * named "<file>_<export>": "team_lookup" and "team_invite". (A default export
 * would be "team".) Exports that are not definitions are ignored.
 */

export const lookup = defineTool({
  title: "Find team members",
  description: "Finds team members by name, team or skill; links to their users://{id} profiles",
  input: { query: z.string().min(1).describe("Part of a name, a team or a skill") },
  annotations: { readOnlyHint: true },
  handler: ({ query }) => {
    const needle = query.toLowerCase();
    const found = MEMBERS.filter((member) =>
      [member.name, member.team, ...member.skills].some((field) =>
        field.toLowerCase().includes(needle),
      ),
    );
    if (found.length === 0) return `Nobody matches "${query}".`;
    // Resource links point the client at resources it can read.
    return found.map((member) =>
      resourceLink({
        uri: `users://${member.id}`,
        name: member.id,
        title: member.name,
        description: `${member.team}: ${member.skills.join(", ")}`,
        mimeType: "application/json",
      }),
    );
  },
});

/**
 * Asks the user, through the client, which team and role to invite someone to
 * when the call does not say (elicitation). ctx.elicit resolves with the
 * user's answer, validated against the schema, or with decline/cancel.
 */
export const invite = defineTool({
  title: "Invite someone",
  description: "Invites a person to a team; asks the user for the team and role when not given",
  input: {
    email: z.string().email().describe("The address the invitation goes to"),
    team: z.enum(TEAMS).optional().describe("The team to join; asked for when left out"),
  },
  handler: async ({ email, team }, ctx) => {
    if (team !== undefined) return `Invited ${email} to ${team} as a member.`;
    if (ctx.client.capabilities.elicitation === undefined) {
      throw new Error(`Say which team to invite ${email} to (${TEAMS.join(", ")})`);
    }
    const answer = await ctx.elicit({
      message: `Which team should ${email} join, and with which role?`,
      schema: {
        team: z.enum(TEAMS).describe("The team"),
        role: z.enum(["member", "admin"]).describe("Their role in the team"),
      },
    });
    if (answer.action !== "accept")
      return `No invitation sent: the user chose to ${answer.action}.`;
    return `Invited ${email} to ${answer.content.team} as ${answer.content.role === "admin" ? "an admin" : "a member"}.`;
  },
});

/** Not a definition, so not a tool: named exports may share constants and helpers. */
export const INVITABLE_TEAMS = TEAMS;
