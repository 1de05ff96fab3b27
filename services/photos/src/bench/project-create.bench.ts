// Benchmark `project-create` (npm run bench -- project-create; issue 13 §1): POST /api/v1/projects on the real photos
// service (`photos serve` in its own process, as production runs it: NODE_ENV=production, info logs to a file, the
// team's project.created subscribers looked up in the create's transaction) against a bare Express + INSERT of the same row
// (project-create-baseline.ts), side by side at the same concurrency. Target: at least half the baseline's
// throughput, p99 at most 3× the baseline's.
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { benchLog, benchmarkResult, benchSettings, httpLoadRunner, measureSideBySide, runBenchmark, startBenchServer, type BenchServer, type Target } from '@tributary/kit/bench';
import { migrateUp } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { REST_BASE } from '../api-paths.js';
import { AccessToken, generateAccessToken, hashAccessToken } from '../modules/auth/index.js';
import { Team, TeamMembership, User } from '../modules/teams/index.js';
import { openDatabase } from '../service.js';

const NAME = 'project-create';
const TARGET: Target = { minThroughputRatio: 0.5, maxP99Ratio: 3 };
const PROJECTS_PATH = `${REST_BASE}/projects`;

/** A valid create body: a site with an address and coordinates (the team's default radius), a new name each time. */
const projectBody = (prefix: string) => (sequence: number) => ({
  name: `${prefix} site ${sequence}`,
  address: `${sequence} Queen Street, Auckland`,
  coordinates: { lat: -36.85 + (sequence % 1000) / 100_000, lng: 174.76 + (sequence % 777) / 100_000 },
});

interface Prepared {
  db: TestDatabase;
  teamId: number;
  token: string;
}

/** A fresh database with photos' migrations, one team with a member and an integration token with projects:write. */
async function prepareDatabase(prefix: string): Promise<Prepared> {
  const db = await createTestDatabase(prefix);
  let orm: MikroORM | undefined;
  try {
    orm = await openDatabase(db.url);
    await migrateUp(orm);
    const em = orm.em.fork();
    const team = em.create(Team, { name: 'Bench Builders' });
    const user = em.create(User, { name: 'Bench', email: 'bench@photos.tributary.test' });
    em.create(TeamMembership, { team, user, role: 'member' });
    const token = generateAccessToken();
    em.create(AccessToken, { user, team, tokenHash: hashAccessToken(token), name: 'bench', abilities: ['projects:write'], revokedAt: null, expiresAt: null });
    await em.flush();
    return { db, teamId: team.id, token };
  } catch (error) {
    await db.drop();
    throw error;
  } finally {
    await orm?.close();
  }
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

runBenchmark(async () => {
  const settings = benchSettings();
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const ours = await prepareDatabase('photos_bench_create');
    cleanup.unshift(() => ours.db.drop());
    const floor = await prepareDatabase('photos_bench_create_baseline');
    cleanup.unshift(() => floor.db.drop());
    // The per-token limiter stays in the path with a ceiling above the load (the one token would be refused after 600).
    const env = { NODE_ENV: 'production', LOG_LEVEL: 'info', PHOTOS_RATE_LIMIT_PER_MINUTE: '1000000' };
    const photos: BenchServer = await startBenchServer({ name: 'photos', script: here('../cli.js'), args: ['serve'], readyPath: '/readyz', env: { ...env, DATABASE_URL: ours.db.url } });
    cleanup.unshift(() => photos.stop());
    const baseline = await startBenchServer({
      name: 'project-create-baseline',
      script: here('./project-create-baseline.js'),
      readyPath: '/readyz',
      env: { ...env, DATABASE_URL: floor.db.url, TEAM_ID: String(floor.teamId) },
    });
    cleanup.unshift(() => baseline.stop());
    benchLog(`photos ${photos.url} (log ${photos.logFile}), baseline ${baseline.url}`);

    const measured = await measureSideBySide(
      {
        ours: httpLoadRunner('photos', { url: `${photos.url}${PROJECTS_PATH}`, headers: { authorization: `Bearer ${ours.token}` }, bodyFor: projectBody('bench-ours') }, [photos]),
        baseline: httpLoadRunner('express+sql', { url: `${baseline.url}${PROJECTS_PATH}`, bodyFor: projectBody('bench-baseline') }, [baseline]),
      },
      settings,
      benchLog,
    );
    return benchmarkResult({
      name: NAME,
      description: 'POST /api/v1/projects (integration token, projects:write) vs a bare Express 5 + INSERT of the same projects row',
      settings,
      measured,
      target: TARGET,
      notes: [
        "ours: `photos serve` with NODE_ENV=production and LOG_LEVEL=info (request logs written to a file); each create validates the body, reads the team (its default radius), inserts the project and looks up the team's project.created webhook subscribers in one transaction (none is registered, so no delivery is queued); no photos worker runs.",
        "baseline: Express 5 with one INSERT … RETURNING id into the same projects table (photos' migrations, own database) through MikroORM's driver and pool (pg), the same JSON answer; no authentication, validation, team lookup, idempotency, ORM entity, transaction, event or logging.",
      ],
    });
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
