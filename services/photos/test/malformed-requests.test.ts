// Input the HTTP layer refuses before any photos code runs (kit: createServiceApp), in the kit's envelope, never a 500.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MALFORMED_URL_MESSAGE } from '@tributary/kit';
import { DEMO_ACCESS_TOKEN, seedDemoData } from '../src/seed.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

const bearer = { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` };

describe('malformed URLs', () => {
  it.each(['/api/v1/projects?q=%00', '/api/v1/projects?q=%F4%82', '/api/v1/projects?page=%C0%B1'])('%s answers 400 malformed_request', async (path) => {
    const res = await fetch(`${h.service.url}${path}`, { headers: bearer });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'malformed_request', message: MALFORMED_URL_MESSAGE } });
  });

  it('a search for well-formed multi-byte text is an ordinary search', async () => {
    const res = await fetch(`${h.service.url}/api/v1/projects?q=${encodeURIComponent('Straße 😀')}`, { headers: bearer });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: [] });
  });
});

describe('405 Method Not Allowed', () => {
  it('PUT /api/v1/projects answers 405 method_not_allowed with Allow', async () => {
    const res = await fetch(`${h.service.url}/api/v1/projects`, { method: 'PUT', headers: { ...bearer, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await res.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });
});
