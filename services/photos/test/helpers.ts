// photos's test harness: the kit's real-service harness (fresh migrated database, free port) with photos's definition,
// and the one factory of teams with a member, a project and the member's token.
import { hashPassword } from '@tributary/kit';
import { startServiceHarness, type ServiceHarness, type ServiceHarnessOptions } from '@tributary/kit/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AccessToken, generateAccessToken, hashAccessToken } from '../src/modules/auth/index.js';
import { Project } from '../src/modules/projects/index.js';
import { Team, TeamMembership, User, type TeamRole } from '../src/modules/teams/index.js';
import { photosService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';

/** The harness with its own media directory (MEDIA_STORAGE_DIR in a fresh temp dir, removed on close). */
export type PhotosHarness = ServiceHarness & { mediaDir: string };

/** `env` adds service variables to the test config (e.g. lower rate limits, REDIS_URL, SECRETS_ENCRYPTION_KEY). */
export async function startHarness(options: ServiceHarnessOptions = {}): Promise<PhotosHarness> {
  const mediaDir = await mkdtemp(path.join(os.tmpdir(), 'photos-media-test-'));
  const h = await startServiceHarness(photosService, { ...options, env: { MEDIA_STORAGE_DIR: mediaDir, ...options.env } });
  return {
    ...h,
    mediaDir,
    async close() {
      await h.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

/** Who the team's user is: their role (default member) and a sign-in password (default none). */
export interface TestMember {
  role?: TeamRole;
  password?: string;
}

/**
 * A team with one user, one project and a token for the user, made through the entities. The token is an office session
 * by default (abilities null), an integration token with `abilities`; use POST /auth/login for device tokens.
 */
export async function createTeam(h: ServiceHarness, name: string, token: Partial<Pick<AccessToken, 'revokedAt' | 'expiresAt' | 'abilities'>> = {}, member: TestMember = {}) {
  const em = h.orm.em.fork();
  const team = em.create(Team, { name });
  const passwordHash = member.password === undefined ? null : await hashPassword(member.password);
  const user = em.create(User, { name: 'Member', email: `${crypto.randomUUID()}@example.test`, passwordHash });
  const membership = em.create(TeamMembership, { team, user, role: member.role ?? 'member' });
  const project = em.create(Project, { team, name: `${name} site`, status: 'active', address: null, latitude: null, longitude: null });
  const plaintext = generateAccessToken();
  em.create(AccessToken, { user, team, tokenHash: hashAccessToken(plaintext), name: 'test-token', abilities: null, device: null, revokedAt: null, expiresAt: null, ...token });
  await em.flush();
  return { team, user, membership, project, token: plaintext };
}

/** Another token of a member made by createTeam (e.g. a device token holding only `capture`). */
export async function addToken(h: ServiceHarness, member: { team: Team; user: User }, abilities: string[] | null): Promise<string> {
  const em = h.orm.em.fork();
  const plaintext = generateAccessToken();
  em.create(AccessToken, { user: member.user.id, team: member.team.id, tokenHash: hashAccessToken(plaintext), name: 'test-token', abilities, revokedAt: null, expiresAt: null });
  await em.flush();
  return plaintext;
}

/** A project of the team with coordinates (GPS matching candidates). */
export async function addProject(h: ServiceHarness, team: Team, fields: { name: string; lat?: number; lng?: number; radiusM?: number; status?: 'active' | 'archived' }): Promise<Project> {
  const em = h.orm.em.fork();
  const project = em.create(Project, {
    team: team.id,
    name: fields.name,
    status: fields.status ?? 'active',
    address: null,
    latitude: fields.lat ?? null,
    longitude: fields.lng ?? null,
    radiusM: fields.radiusM ?? 150,
  });
  await em.flush();
  return project;
}

/** Another user in a team made by createTeam (a teammate to @mention), with a token of their own (an office session by default). */
export async function addTeammate(h: ServiceHarness, team: Team, fields: { name: string; email?: string; role?: TeamRole; abilities?: string[] | null }) {
  const em = h.orm.em.fork();
  const user = em.create(User, { name: fields.name, email: fields.email ?? `${crypto.randomUUID()}@example.test`, passwordHash: null });
  em.create(TeamMembership, { team: team.id, user, role: fields.role ?? 'member' });
  await em.flush();
  return { team, user, token: await addToken(h, { team, user }, fields.abilities ?? null) };
}
