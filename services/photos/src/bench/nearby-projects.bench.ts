// Benchmark `nearby-projects` (npm run bench -- nearby-projects): GET /api/v1/projects/nearby on the real photos service
// (`photos serve` in its own process, NODE_ENV=production, info logs to a file) with 100 000 projects in the caller's
// team, side by side with a bare Express app running the same indexed candidate query (nearby-projects-baseline.ts).
// Then the figure the issue sets (issue 9 §3: p95 ≤ 10 ms server time): one request at a time, a different fix each
// time, so the latency is the service's own time plus a loopback round trip, with no queueing behind other requests.
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { benchLog, benchmarkResult, benchSettings, benchSize, httpLoadRunner, measureSideBySide, runBenchmark, startBenchServer, summarizeLatencies, type BenchServer, type LatencySummary, type Target } from '@tributary/kit/bench';
import { migrateUp } from '@tributary/kit';
import { createTestDatabase, type TestDatabase } from '@tributary/kit/testing';
import { REST_BASE } from '../api-paths.js';
import { AccessToken, generateAccessToken, hashAccessToken } from '../modules/auth/index.js';
import { Team, TeamMembership, User } from '../modules/teams/index.js';
import { openDatabase } from '../service.js';

const NAME = 'nearby-projects';
const PROJECTS = benchSize(100_000, 1_000);
/** The seeded area: 4° × 4° of the South Island (about 445 km × 330 km), so a fix sees some 70 candidates. */
const AREA = { lat: -45, lng: 168, sizeDeg: 4 };
const SEQUENTIAL_REQUESTS = benchSize(2_000, 20);
/** Issue 9 §3: p95 at most 10 ms server time. */
const P95_LIMIT_MS = 10;
/**
 * No ratio bound: the floor does one query and nothing else (no token, no geometry), so the ratio prices the whole
 * request stack rather than matching; the side-by-side figures are printed for reference. The bar, p95 of
 * the server time, is checked below.
 */
const TARGET: Target = {};

interface Prepared {
  db: TestDatabase;
  teamId: number;
  token: string;
}

/** A fresh database with photos' migrations, one team with a member and a token, and PROJECTS projects in one INSERT. */
async function prepareDatabase(): Promise<Prepared> {
  const db = await createTestDatabase('photos_bench');
  let orm: MikroORM | undefined;
  try {
    orm = await openDatabase(db.url);
    await migrateUp(orm);
    const em = orm.em.fork();
    const team = em.create(Team, { name: 'Bench Builders' });
    const user = em.create(User, { name: 'Bench', email: 'bench@photos.tributary.test' });
    em.create(TeamMembership, { team, user, role: 'member' });
    const token = generateAccessToken();
    em.create(AccessToken, { user, team, tokenHash: hashAccessToken(token), name: 'bench', abilities: ['capture'], revokedAt: null, expiresAt: null });
    await em.flush();
    const started = Date.now();
    await em.getConnection().execute(
      `insert into projects (team_id, name, status, latitude, longitude, radius_m, created_at, updated_at, last_activity_at)
       select ?, 'Site ' || g, 'active', ? + random() * ?, ? + random() * ?, 50 + random() * 250, now(), now(), now()
       from generate_series(1, ?) g`,
      [team.id, AREA.lat, AREA.sizeDeg, AREA.lng, AREA.sizeDeg, PROJECTS],
    );
    await em.getConnection().execute('analyze projects');
    benchLog(`seeded ${PROJECTS} projects in ${Date.now() - started} ms`);
    return { db, teamId: team.id, token };
  } catch (error) {
    await db.drop();
    throw error;
  } finally {
    await orm?.close();
  }
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** A fix somewhere in the seeded area, accuracy 5 to 30 m. */
function randomFixQuery(): string {
  const lat = AREA.lat + Math.random() * AREA.sizeDeg;
  const lng = AREA.lng + Math.random() * AREA.sizeDeg;
  return `lat=${lat.toFixed(6)}&lng=${lng.toFixed(6)}&accuracy_m=${(5 + Math.random() * 25).toFixed(1)}`;
}

/** One request at a time over one keep-alive connection, a different fix each time: latency without queueing. */
async function sequentialLatencies(url: string, headers: Record<string, string>): Promise<LatencySummary> {
  const samples: number[] = [];
  for (let i = 0; i < SEQUENTIAL_REQUESTS; i += 1) {
    const started = performance.now();
    const res = await fetch(`${url}${REST_BASE}/projects/nearby?${randomFixQuery()}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`nearby answered ${res.status}`);
    samples.push(performance.now() - started);
  }
  return summarizeLatencies(samples);
}

runBenchmark(async () => {
  const settings = benchSettings();
  const cleanup: Array<() => Promise<void>> = [];
  try {
    const prepared = await prepareDatabase();
    cleanup.unshift(() => prepared.db.drop());
    // The per-token limiter stays in the path (its cost is part of the server time) with a ceiling above the load: the
    // benchmark's one token would otherwise be refused by design after 600 requests.
    const env = { DATABASE_URL: prepared.db.url, NODE_ENV: 'production', LOG_LEVEL: 'info', PHOTOS_RATE_LIMIT_PER_MINUTE: '1000000' };
    const photos: BenchServer = await startBenchServer({ name: 'photos', script: here('../cli.js'), args: ['serve'], readyPath: '/readyz', env });
    cleanup.unshift(() => photos.stop());
    const baseline = await startBenchServer({ name: 'nearby-baseline', script: here('./nearby-projects-baseline.js'), readyPath: '/readyz', env: { ...env, TEAM_ID: String(prepared.teamId) } });
    cleanup.unshift(() => baseline.stop());
    benchLog(`photos ${photos.url} (log ${photos.logFile}), baseline ${baseline.url}`);

    const headers = { authorization: `Bearer ${prepared.token}` };
    const centre = `lat=${AREA.lat + AREA.sizeDeg / 2}&lng=${AREA.lng + AREA.sizeDeg / 2}&accuracy_m=10`;
    const path = `${REST_BASE}/projects/nearby?${centre}`;
    const measured = await measureSideBySide(
      { ours: httpLoadRunner('photos', { url: `${photos.url}${path}`, headers }, [photos]), baseline: httpLoadRunner('express+sql', { url: `${baseline.url}${path}` }, [baseline]) },
      settings,
      benchLog,
    );
    const sequential = await sequentialLatencies(photos.url, headers);
    const figures = `one at a time (${SEQUENTIAL_REQUESTS} random fixes, ${PROJECTS} projects in the team): p50 ${sequential.p50.toFixed(2)} ms, p95 ${sequential.p95.toFixed(2)} ms, p99 ${sequential.p99.toFixed(2)} ms`;
    benchLog(`nearby ${figures}`);
    const result = benchmarkResult({
      name: NAME,
      description: `GET /api/v1/projects/nearby at ${PROJECTS} projects in one team vs a bare Express app running the same indexed candidate query`,
      settings,
      measured,
      target: TARGET,
      notes: [
        `server time, ${figures}; target p95 <= ${P95_LIMIT_MS} ms.`,
        `seed: ${PROJECTS} active projects in one INSERT … SELECT generate_series over ${AREA.sizeDeg}° × ${AREA.sizeDeg}° from (${AREA.lat}, ${AREA.lng}), radius 50 to 300 m; the concurrent load asks for the centre of that area with accuracy 10 m.`,
        'ours: `photos serve` with NODE_ENV=production and LOG_LEVEL=info (request logs written to a file); a device token (capture) authenticates every request.',
        'baseline: Express 5 with the same candidate query through MikroORM\'s driver and pool, rows as JSON; no authentication, team settings, validation, hydration or decision.',
      ],
    });
    // The issue's own bar is absolute (p95 server time), which the kit's ratio targets cannot express: added here.
    if (sequential.p95 > P95_LIMIT_MS) {
      result.verdict = { passed: false, misses: [...result.verdict.misses, `server-time p95 ${sequential.p95.toFixed(2)} ms, above the ${P95_LIMIT_MS} ms target`] };
    }
    return result;
  } finally {
    for (const step of cleanup) await step().catch((error: unknown) => benchLog(`cleanup: ${String(error)}`));
  }
});
