// Idempotent demo data for local development (`cli seed`). The demo token and password are fixed, documented dev-only
// values, so `npm start` can print them on every start; they exist only in databases that were seeded.
import { SERVICE_NAME } from './service-name.js';
import { hashPassword, passwordMatches } from '@tributary/kit';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ACCESS_TOKEN_PREFIX, AccessToken, hashAccessToken } from './modules/auth/index.js';
import { Checklist, ChecklistItem } from './modules/checklists/index.js';
import { Project } from './modules/projects/index.js';
import { Team, TeamMembership, User, type TeamRole } from './modules/teams/index.js';
import { seedDemoCustomers } from './seed-customers.js';

export const DEMO_TEAM_NAME = 'Demo Builders';
/** The demo user's second team (as admin), so switch-team can be tried. */
export const DEMO_SECOND_TEAM_NAME = 'Demo Renovations';
export const DEMO_USER_EMAIL = 'demo@photos.tributary.test';
/** The demo user's password: POST /api/v1/auth/login {email, password[, device_id]}. */
export const DEMO_USER_PASSWORD = 'demo-password-local-only';
/** A teammate of the demo user in the demo team (member), to @mention in comments; signs in with the same password. */
export const DEMO_TEAMMATE = { email: 'ana@photos.tributary.test', name: 'Ana Ruiz' } as const;
export const DEMO_ACCESS_TOKEN = `${ACCESS_TOKEN_PREFIX}${'DemoPhotosTokenLocalDevOnly'.padEnd(48, '0')}`;

const DEMO_PROJECTS = [
  { name: 'Harbour View Apartments', address: '1 Quay Street, Auckland', latitude: -36.8433, longitude: 174.7676, radiusM: 150 },
  // About 160 m east of the apartments, its circle overlapping theirs: a fix between the two is ambiguous (the README's
  // walkthrough shows it), one at the apartments' centre with good accuracy is not.
  { name: 'Harbour View Car Park', address: '7 Quay Street, Auckland', latitude: -36.8433, longitude: 174.7694, radiusM: 120 },
  { name: 'Riverside School Extension', address: '20 River Road, Hamilton', latitude: -37.7826, longitude: 175.2828, radiusM: 200 },
  { name: 'Office Fit-out (no site coordinates)', address: null, latitude: null, longitude: null, radiusM: 150 },
] as const;

/** A checklist on the apartments to try ticking (README "Try the office"): one item needs a photo, one does not. */
export const DEMO_CHECKLIST = {
  project: 'Harbour View Apartments',
  title: 'Level 3 pre-pour inspection',
  items: [
    { title: 'Reinforcement photographed before the pour', requiresPhoto: true },
    { title: 'Formwork braced and signed off', requiresPhoto: false },
  ],
} as const;

export interface PhotosDemoCredentials {
  team_id: number;
  email: string;
  /** The demo user's sign-in password (dev only). */
  password: string;
  /** `Authorization: Bearer <token>`; `X-Photos-Authorization: Bearer <token>` at the gateway. */
  token: string;
}

export async function seedDemoData(em: EntityManager): Promise<PhotosDemoCredentials> {
  return em.transactional(async (tx) => {
    let user = await tx.findOne(User, { email: DEMO_USER_EMAIL });
    user ??= tx.create(User, { email: DEMO_USER_EMAIL, name: 'Demo Site Lead', passwordHash: null });
    // bcrypt hashes are salted: keep a matching one rather than rewriting it on every start.
    if (!(await passwordMatches(DEMO_USER_PASSWORD, user.passwordHash, SERVICE_NAME))) user.passwordHash = await hashPassword(DEMO_USER_PASSWORD);
    // The first team is created first, so it stays the user's oldest membership (the login's default team).
    const team = await demoTeam(tx, user, DEMO_TEAM_NAME, 'owner');
    await demoTeam(tx, user, DEMO_SECOND_TEAM_NAME, 'admin');
    await demoTeammate(tx, team);

    const tokenHash = hashAccessToken(DEMO_ACCESS_TOKEN);
    const token = await tx.findOne(AccessToken, { tokenHash });
    if (token) {
      Object.assign(token, { revokedAt: null, expiresAt: null, abilities: null, device: null, team });
    } else {
      tx.create(AccessToken, { user, team, tokenHash, name: 'demo-device', abilities: null, device: null, expiresAt: null, revokedAt: null });
    }

    for (const demo of DEMO_PROJECTS) {
      const existing = await tx.findOne(Project, { team, name: demo.name });
      if (!existing) tx.create(Project, { team, status: 'active', ...demo });
    }
    await tx.flush();
    await demoChecklist(tx, team, user);
    await seedDemoCustomers(tx, team);
    await tx.flush();
    return { team_id: team.id, email: DEMO_USER_EMAIL, password: DEMO_USER_PASSWORD, token: DEMO_ACCESS_TOKEN };
  });
}

/** Ana Ruiz, a member of the demo team (created once, like the demo user; her password is restored if changed). */
async function demoTeammate(tx: EntityManager, team: Team): Promise<void> {
  let ana = await tx.findOne(User, { email: DEMO_TEAMMATE.email });
  ana ??= tx.create(User, { email: DEMO_TEAMMATE.email, name: DEMO_TEAMMATE.name, passwordHash: null });
  if (!(await passwordMatches(DEMO_USER_PASSWORD, ana.passwordHash, SERVICE_NAME))) ana.passwordHash = await hashPassword(DEMO_USER_PASSWORD);
  if (!(await tx.findOne(TeamMembership, { user: ana, team }))) tx.create(TeamMembership, { team, user: ana, role: 'member' });
}

/** The user's team of that name (created with the membership, flushed so its membership id orders the teams). */
async function demoTeam(tx: EntityManager, user: User, name: string, role: TeamRole): Promise<Team> {
  const membership = await tx.findOne(TeamMembership, { user, team: { name } }, { populate: ['team'] });
  if (membership) return membership.team;
  const team = tx.create(Team, { name });
  tx.create(TeamMembership, { team, user, role });
  await tx.flush();
  return team;
}

/** The demo checklist, created once (found again by project and title). */
async function demoChecklist(tx: EntityManager, team: Team, user: User): Promise<void> {
  const project = await tx.findOneOrFail(Project, { team, name: DEMO_CHECKLIST.project });
  if (await tx.count(Checklist, { project, title: DEMO_CHECKLIST.title })) return;
  const checklist = tx.create(Checklist, { team, project, title: DEMO_CHECKLIST.title, createdBy: user });
  DEMO_CHECKLIST.items.forEach((item, index) => tx.create(ChecklistItem, { checklist, position: index + 1, title: item.title, requiresPhoto: item.requiresPhoto, assignee: user }));
  await tx.flush();
}
