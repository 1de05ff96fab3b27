import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '../../src/index.js';
import { startService } from '../../src/runtime/index.js';
import { freeLoopbackPort } from '../../src/http/ports.js';
import { occupyLoopbackPort, postGraphql, serviceSchemaDiff, startServiceHarness, testServiceConfig, type OccupiedPort, type ServiceHarness } from '../../src/testing/index.js';
import { notesDocument, notesService } from '../fixtures/notes-service.js';

let h: ServiceHarness;
beforeAll(async () => {
  h = await startServiceHarness(notesService);
  await notesService.seed(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

describe('startServiceHarness + startService + composeServiceApp', () => {
  it('runs the service on a fresh migrated database; the schema diff leaves out only the webhook tables', async () => {
    expect(h.db.url).toMatch(/bnpl_test/);
    expect(h.service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The fixture's extra index is not declared on the entity: the diff reports it (webhook tables are filtered out).
    expect(await serviceSchemaDiff(h.orm)).toEqual(['drop index "notes_author_idx";']);
  });

  it('serves the REST routes with the request-scoped ORM, and /healthz', async () => {
    const res = await fetch(`${h.service.url}/api/notes/count`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ count: 1 });
    expect((await fetch(`${h.service.url}/healthz`)).status).toBe(200);
  });

  it('is ready while the database and Temporal answer', async () => {
    const res = await fetch(`${h.service.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
  });

  it('serves the OpenAPI document at `${restBase}/openapi.json` and the docs page', async () => {
    const json = await fetch(`${h.service.url}/api/openapi.json`);
    expect(await json.json()).toEqual(notesDocument);
    expect((await fetch(`${h.service.url}/docs`)).status).toBe(200);
  });

  it('serves the subgraph on /graphql, errors in the service’s error format elsewhere', async () => {
    const { status, body } = await postGraphql(h.service.url, '{ noteCount }');
    expect(status).toBe(200);
    expect(body).toEqual({ data: { noteCount: 1 } });
    const missing = await fetch(`${h.service.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('answers 503 not ready when Temporal is unreachable, and close() releases the ORM', async () => {
    const config = { ...testServiceConfig(notesService, h.db.url, { TEMPORAL_ADDRESS: '127.0.0.1:1' }), PORT: 0 };
    const service = await startService(notesService, config, createLogger({ service: 'notes', level: 'silent' }));
    try {
      const res = await fetch(`${service.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'not_ready', failing: ['temporal'] });
    } finally {
      await service.close();
    }
    expect(await service.orm.isConnected()).toBe(false);
  }, 30_000);

  it('a service whose database is unreachable starts, answers 503 with database failing, and closes', async () => {
    const config = { ...testServiceConfig(notesService, 'postgres://nobody@127.0.0.1:1/none'), PORT: 0 };
    const service = await startService(notesService, config, createLogger({ service: 'notes', level: 'silent' }));
    try {
      const res = await fetch(`${service.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'not_ready', failing: ['database'] });
    } finally {
      await service.close();
    }
  }, 30_000);
});

describe('a port taken before the service binds it', () => {
  let occupied: OccupiedPort;
  let taken: number;
  beforeAll(async () => {
    occupied = await occupyLoopbackPort();
    taken = occupied.port;
  });
  afterAll(async () => {
    await occupied.release();
  });

  it('startService refuses it with EADDRINUSE (after releasing what the app opened)', async () => {
    const config = { ...testServiceConfig(notesService, h.db.url), PORT: taken, HOST: '127.0.0.1' };
    const start = startService(notesService, config, createLogger({ service: 'notes', level: 'silent' }));
    await expect(start).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('the harness starts the service again on a fresh port', async () => {
    const offered: number[] = [];
    const pickPort = async () => {
      offered.push(offered.length === 0 ? taken : await freeLoopbackPort());
      return offered.at(-1)!;
    };
    const harness = await startServiceHarness(notesService, { pickPort });
    try {
      expect(offered).toHaveLength(2);
      expect(harness.service.url).toBe(`http://127.0.0.1:${offered[1]}`);
      expect((await fetch(`${harness.service.url}/healthz`)).status).toBe(200);
    } finally {
      await harness.close();
    }
  }, 30_000);

  it('a PORT the test gave is used as is: taken, the start fails', async () => {
    await expect(startServiceHarness(notesService, { env: { PORT: String(taken) } })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  }, 30_000);
});
