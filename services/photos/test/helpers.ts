// photos's test harness: the kit's real-service harness (fresh migrated database, free port) with photos's definition,
// and the one factory of teams with a member, a project and the member's token.
import { startServiceHarness, type ServiceHarness } from '@tributary/kit/testing';
import { AccessToken, generateAccessToken, hashAccessToken } from '../src/modules/auth/index.js';
import { Project } from '../src/modules/projects/index.js';
import { Team, TeamMembership, User } from '../src/modules/teams/index.js';
import { photosService } from '../src/service.js';

export { postGraphql as gql, serviceSchemaDiff as ownSchemaDiff, type ServiceHarness as Harness } from '@tributary/kit/testing';
/** `env` adds service variables to the test config (e.g. WEBHOOK_ALLOW_PRIVATE_HOSTS, SECRETS_ENCRYPTION_KEY). */
export const startHarness = (options: { env?: NodeJS.ProcessEnv } = {}): Promise<ServiceHarness> => startServiceHarness(photosService, options);

/** A team with one member, one project and a token for the member, made through the entities (login comes later). */
export async function createTeam(h: ServiceHarness, name: string, token: Partial<Pick<AccessToken, 'revokedAt' | 'expiresAt' | 'abilities'>> = {}) {
  const em = h.orm.em.fork();
  const team = em.create(Team, { name });
  const user = em.create(User, { name: 'Member', email: `${crypto.randomUUID()}@example.test` });
  const membership = em.create(TeamMembership, { team, user, role: 'member' });
  const project = em.create(Project, { team, name: `${name} site`, status: 'active', address: null, latitude: null, longitude: null });
  const plaintext = generateAccessToken();
  em.create(AccessToken, { user, team, tokenHash: hashAccessToken(plaintext), name: 'test-device', abilities: null, revokedAt: null, expiresAt: null, ...token });
  await em.flush();
  return { team, user, membership, project, token: plaintext };
}
