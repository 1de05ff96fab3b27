// The README's "Try the office: checklists and tasks" steps against the seeded demo data, over real HTTP: the
// requires_photo item is refused without a photo and accepted with one attached in the same PATCH; a task is made from
// the photo alone, closed and withdrawn. Also: the seed's demo checklist is created once however often seed runs.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Checklist, ChecklistItem } from '../src/modules/checklists/index.js';
import { DEMO_ACCESS_TOKEN, DEMO_CHECKLIST, seedDemoData } from '../src/seed.js';
import { startHarness, type PhotosHarness } from './helpers.js';
import { jpeg } from './support/media-fixtures.js';

let h: PhotosHarness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemoData(h.orm.em.fork());
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test
const A = { authorization: `Bearer ${DEMO_ACCESS_TOKEN}` };

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${h.service.url}/api/v1${path}`, { method, headers: { ...A, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('Try the office', () => {
  it('seed creates the demo checklist once: two items, one requiring a photo', async () => {
    await seedDemoData(h.orm.em.fork());
    const em = h.orm.em.fork();
    const checklists = await em.find(Checklist, { title: DEMO_CHECKLIST.title }, { populate: ['project'] });
    expect(checklists.map((c) => c.project.name)).toEqual([DEMO_CHECKLIST.project]);
    const items = await em.find(ChecklistItem, { checklist: checklists[0]! }, { orderBy: { position: 'asc' } });
    expect(items.map((i) => [i.title, i.requiresPhoto])).toEqual(DEMO_CHECKLIST.items.map((i) => [i.title, i.requiresPhoto]));
  });

  it('tick refused without a photo, accepted with one; a task from the photo alone, closed and withdrawn', async () => {
    const mine = await call('GET', '/checklists?mine=1');
    expect(mine.body.data).toHaveLength(1);
    const checklist = mine.body.data[0] as Json;
    const item = checklist.items.find((i: Json) => i.requires_photo) as Json;
    const refused = await call('PATCH', `/checklist-items/${item.id}`, { ticked: true });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('photo_required');

    const form = new FormData();
    form.append('local_capture_id', 'rebar-1');
    form.append('project_id', String(checklist.project.id));
    form.append('description', 'Rebar spacing at grid C4');
    form.append('file', new Blob([new Uint8Array(await jpeg())]), 'rebar.jpg');
    const photo = ((await (await fetch(`${h.service.url}/api/v1/photos`, { method: 'POST', headers: A, body: form })).json()) as Json).data as Json;
    const ticked = await call('PATCH', `/checklist-items/${item.id}`, { ticked: true, attach_photo_ids: [photo.id] });
    expect(ticked.status).toBe(200);
    expect(ticked.body.data).toMatchObject({ ticked: true, evidence: { photos: [{ id: photo.id }] } });

    const task = await call('POST', '/tasks', { photo_id: photo.id });
    expect(task.status).toBe(201);
    expect(task.body.data).toMatchObject({ title: 'Rebar spacing at grid C4', project: { id: checklist.project.id }, photo: { id: photo.id } });
    expect((await call('GET', `/tasks?project=${checklist.project.id}`)).body.data.map((t: Json) => t.id)).toEqual([task.body.data.id]);
    expect((await call('PATCH', `/tasks/${task.body.data.id}`, { completed: true })).body.data.status).toBe('done');
    expect((await call('GET', '/tasks?status=done')).body.data.map((t: Json) => t.id)).toEqual([task.body.data.id]);
    expect((await call('DELETE', `/tasks/${task.body.data.id}`)).body.data.status).toBe('withdrawn');
  });
});
