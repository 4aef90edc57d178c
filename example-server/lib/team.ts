/**
 * Code shared by several definitions lives outside tools/, prompts/ and
 * resources/ (here lib/), or in a file whose name starts with "_": the loader
 * never registers either. tools/team.ts and resources/users.ts both use it.
 */
export const TEAMS = ["platform", "design", "research"] as const;
export type Team = (typeof TEAMS)[number];

export type TeamMember = {
  id: string;
  name: string;
  email: string;
  team: Team;
  skills: string[];
};

export const MEMBERS: readonly TeamMember[] = [
  {
    id: "ada",
    name: "Ada Lovelace",
    email: "ada@example.com",
    team: "research",
    skills: ["mathematics", "algorithms"],
  },
  {
    id: "alan",
    name: "Alan Turing",
    email: "alan@example.com",
    team: "research",
    skills: ["cryptography", "computability"],
  },
  {
    id: "grace",
    name: "Grace Hopper",
    email: "grace@example.com",
    team: "platform",
    skills: ["compilers", "cobol"],
  },
  {
    id: "margaret",
    name: "Margaret Hamilton",
    email: "margaret@example.com",
    team: "platform",
    skills: ["flight software", "reliability"],
  },
  {
    id: "susan",
    name: "Susan Kare",
    email: "susan@example.com",
    team: "design",
    skills: ["icons", "typography"],
  },
];

export function findMember(id: string): TeamMember | undefined {
  return MEMBERS.find((member) => member.id === id);
}
