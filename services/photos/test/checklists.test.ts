// Checklists over real HTTP against the real database (README Decisions "Checklists", "Checklist items", "Capture and
// checklists"): create, list (mine, project, status), show with evidence, tick with the requires_photo rule, device
// tokens, bootstrap's checklists, webhooks and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookDelivery } from '@tributary/kit';
import { PHOTO_REQUIRED, LAST_PHOTO_REQUIRED } from '../src/modules/checklists/checklist-item-rules.js';
import { NOT_THE_DEVICES_EVIDENCE, NOT_THE_DEVICES_PHOTO, NO_PROJECT, PHOTO_NOT_FOUND, PHOTO_OF_OTHER_PROJECT } from '../src/modules/checklists/checklist.service.js';
import { Project } from '../src/modules/projects/index.js';
import { NOT_A_MEMBER, TeamMembership, User } from '../src/modules/teams/index.js';
import { addProject, addToken, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';
import { jpeg } from './support/media-fixtures.js';

let h: PhotosHarness;
let url: string;
const PASSWORD = 'checklist-test-password';

beforeAll(async () => {
  h = await startHarness({ env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'localhost' } });
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test
type Team = Awaited<ReturnType<typeof createTeam>>;
/** GraphQL answers as loose JSON (the fields under test). */
const gqlJson = async (...args: Parameters<typeof gql>) => ({ body: (await gql(...args)).body as Json });

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json; text: string; headers: Headers }> {
  const res = await fetch(`${url}${path}`, { method, headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {}, text, headers: res.headers };
}

async function upload(token: string, projectId: number, id: string): Promise<Json> {
  const form = new FormData();
  form.append('local_capture_id', id);
  form.append('project_id', String(projectId));
  form.append('file', new Blob([new Uint8Array(await jpeg())]), 'capture.jpg');
  const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(token), body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json).data as Json;
}

/** A second member of the team (to assign items to), with an office session token. */
async function addMember(team: Team, name: string): Promise<{ user: User; token: string }> {
  const em = h.orm.em.fork();
  const user = em.create(User, { name, email: `${crypto.randomUUID()}@example.test`, passwordHash: null });
  em.create(TeamMembership, { team: team.team.id, user, role: 'member' });
  await em.flush();
  return { user, token: await addToken(h, { team: team.team, user }, null) };
}

/** A device token of the team's user (login with a device_id: the single ability capture). */
async function deviceToken(team: Team, deviceId = 'phone-1'): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: team.user.email, password: PASSWORD, device_id: deviceId }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Json).data.token as string;
}

/** SQL statements the running service sends while `work` runs (as in test/bootstrap.test.ts). */
async function queriesDuring(work: () => Promise<unknown>): Promise<string[]> {
  const logger = h.service.orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  const seen: string[] = [];
  logger.logQuery = (context) => {
    seen.push(context.query ?? '');
    original(context);
  };
  try {
    await work();
  } finally {
    logger.logQuery = original;
  }
  return seen;
}

const teamWithPassword = (name: string) => createTeam(h, name, {}, { password: PASSWORD });

async function createChecklist(team: Team, body: Json = {}): Promise<Json> {
  const res = await call('POST', '/api/v1/checklists', team.token, {
    project_id: team.project.id,
    title: 'Pre-pour',
    items: [{ title: 'Rebar photographed', requires_photo: true, assignee_id: team.user.id }, { title: 'Formwork braced' }],
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.data as Json;
}

describe('POST /api/v1/checklists', () => {
  it('creates a checklist with its items in order (201, Location); GET answers the same resource', async () => {
    const team = await createTeam(h, 'Checklist Create Team');
    const res = await call('POST', '/api/v1/checklists', team.token, {
      project_id: team.project.id,
      title: '  Pre-pour  ',
      items: [{ title: 'Rebar photographed', requires_photo: true, assignee_id: team.user.id }, { title: 'Formwork braced' }],
    });
    expect(res.status).toBe(201);
    const created = res.body.data as Json;
    expect(res.headers.get('location')).toBe(`/api/v1/checklists/${created.id}`);
    expect(created).toMatchObject({
      project: { id: team.project.id, name: team.project.name },
      title: 'Pre-pour',
      status: 'open',
      progress: { ticked: 0, total: 2 },
      created_by: { id: team.user.id, name: 'Member' },
    });
    expect(created.items.map((item: Json) => [item.position, item.title, item.requires_photo, item.assignee, item.ticked, item.ticked_at, item.ticked_by, item.evidence])).toEqual([
      [1, 'Rebar photographed', true, { id: team.user.id, name: 'Member' }, false, null, null, { note: null, photos: [] }],
      [2, 'Formwork braced', false, null, false, null, null, { note: null, photos: [] }],
    ]);
    expect((await call('GET', `/api/v1/checklists/${created.id}`, team.token)).body).toEqual({ data: created });
  });

  it('refuses another team\'s project or assignee, no items, unknown fields (422 naming each); nothing is created', async () => {
    const team = await createTeam(h, 'Checklist Invalid Team');
    const other = await createTeam(h, 'Checklist Invalid Other');
    const foreign = await call('POST', '/api/v1/checklists', team.token, { project_id: other.project.id, title: 'X', items: [{ title: 'a', assignee_id: other.user.id }] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.fields).toEqual({ project_id: [NO_PROJECT], 'items.0.assignee_id': [NOT_A_MEMBER] });
    const empty = await call('POST', '/api/v1/checklists', team.token, { project_id: team.project.id, title: ' ', items: [], colour: 'red' });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(['colour', 'items', 'title']);
    expect((await call('POST', '/api/v1/checklists', team.token, 'not an object')).status).toBe(422);
    expect((await call('GET', '/api/v1/checklists', team.token)).body.meta.total).toBe(0);
  });

  it('needs checklists:write: a token with checklists:read and a device token get 403 naming it; any role may create', async () => {
    const team = await teamWithPassword('Checklist Scope Team');
    const body = { project_id: team.project.id, title: 'T', items: [{ title: 'a' }] };
    const reader = await addToken(h, team, ['checklists:read']);
    for (const token of [reader, await deviceToken(team)]) {
      const refused = await call('POST', '/api/v1/checklists', token, body);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'forbidden', missing_scope: 'checklists:write' });
    }
    expect((await call('POST', '/api/v1/checklists', await addToken(h, team, ['checklists:write']), body)).status).toBe(201);
    expect((await call('POST', '/api/v1/checklists', team.token, body)).status).toBe(201); // an office session of a member
  });
});

describe('PATCH /api/v1/checklists/{checklist}', () => {
  it('renames and appends items after the last (positions continue); naming the current title changes nothing', async () => {
    const team = await createTeam(h, 'Checklist Edit Team');
    const checklist = await createChecklist(team);
    const res = await call('PATCH', `/api/v1/checklists/${checklist.id}`, team.token, { title: 'Pre-pour, level 3', add_items: [{ title: 'Cover ordered', requires_photo: true }] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: checklist.id, title: 'Pre-pour, level 3', progress: { ticked: 0, total: 3 } });
    expect(res.body.data.items.map((item: Json) => [item.position, item.title])).toEqual([[1, 'Rebar photographed'], [2, 'Formwork braced'], [3, 'Cover ordered']]);
    const same = await call('PATCH', `/api/v1/checklists/${checklist.id}`, team.token, { title: 'Pre-pour, level 3' });
    expect(same.body).toEqual(res.body);
    expect((await call('GET', `/api/v1/checklists/${checklist.id}`, team.token)).body).toEqual(res.body);
  });

  it('refuses bad input with 422 naming each field, nothing changed; another team\'s is 404; needs checklists:write (not capture)', async () => {
    const team = await teamWithPassword('Checklist Edit Invalid Team');
    const other = await createTeam(h, 'Checklist Edit Other');
    const checklist = await createChecklist(team);
    const bad = await call('PATCH', `/api/v1/checklists/${checklist.id}`, team.token, { title: '', add_items: [{ title: 'a', assignee_id: other.user.id }] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['title']);
    const stranger = await call('PATCH', `/api/v1/checklists/${checklist.id}`, team.token, { add_items: [{ title: 'a', assignee_id: other.user.id }] });
    expect(stranger.body.error.fields).toEqual({ 'add_items.0.assignee_id': [NOT_A_MEMBER] });
    const tooMany = await call('PATCH', `/api/v1/checklists/${checklist.id}`, team.token, { add_items: Array.from({ length: 99 }, (_, i) => ({ title: `item ${i}` })) });
    expect(tooMany.body.error.fields).toEqual({ add_items: ['A checklist holds at most 100 items.'] });
    for (const body of [{ items: [] }, { project_id: other.project.id }, 'x']) expect((await call('PATCH', `/api/v1/checklists/${checklist.id}`, team.token, body)).status).toBe(422);
    expect((await call('GET', `/api/v1/checklists/${checklist.id}`, team.token)).body.data).toEqual(checklist);
    expect((await call('PATCH', `/api/v1/checklists/${checklist.id}`, other.token, { title: 'mine' })).status).toBe(404);
    expect((await call('PATCH', '/api/v1/checklists/abc', team.token, { title: 'mine' })).status).toBe(404);
    for (const token of [await addToken(h, team, ['checklists:read']), await deviceToken(team)]) {
      expect((await call('PATCH', `/api/v1/checklists/${checklist.id}`, token, { title: 'x' })).body.error).toMatchObject({ code: 'forbidden', missing_scope: 'checklists:write' });
    }
  });
});

describe('GET /api/v1/checklists and /checklists/{checklist}', () => {
  it('lists newest first with meta; mine=1, project and status filter; another team\'s are never listed or shown', async () => {
    const team = await createTeam(h, 'Checklist List Team');
    const colleague = await addMember(team, 'Colleague');
    const second = await addProject(h, team.team, { name: 'Second site' });
    const other = await createTeam(h, 'Checklist List Other');
    const otherChecklist = await createChecklist(other);
    const first = await createChecklist(team, { items: [{ title: 'a', assignee_id: colleague.user.id }] });
    const mine = await createChecklist(team, { project_id: second.id, items: [{ title: 'b', assignee_id: team.user.id }] });
    const list = await call('GET', '/api/v1/checklists', team.token);
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 25, total: 2, last_page: 1 });
    expect(list.body.data.map((c: Json) => c.id)).toEqual([mine.id, first.id]);
    expect(list.body.data[0]).toEqual(mine);
    const ids = async (query: string, token = team.token) => (await call('GET', `/api/v1/checklists?${query}`, token)).body.data.map((c: Json) => c.id);
    expect(await ids('mine=1')).toEqual([mine.id]);
    expect(await ids('mine=1', colleague.token)).toEqual([first.id]);
    expect(await ids('mine=0')).toEqual([mine.id, first.id]);
    expect(await ids(`project=${second.id}`)).toEqual([mine.id]);
    expect(await ids('status=done')).toEqual([]);
    await call('PATCH', `/api/v1/checklist-items/${mine.items[0].id}`, team.token, { ticked: true });
    expect(await ids('status=done')).toEqual([mine.id]);
    expect(await ids('status=open')).toEqual([first.id]);
    expect(await ids('page=2')).toEqual([]);
    expect((await call('GET', `/api/v1/checklists/${otherChecklist.id}`, team.token)).status).toBe(404);
    for (const id of ['abc', '0', '99999999999', String(otherChecklist.id + 1000)]) expect((await call('GET', `/api/v1/checklists/${id}`, team.token)).status).toBe(404);
  });

  it('refuses bad query values with 422 naming each parameter', async () => {
    const team = await createTeam(h, 'Checklist Query Team');
    const res = await call('GET', '/api/v1/checklists?mine=yes&project=abc&status=closed&page=0', team.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['mine', 'page', 'project', 'status']);
  });

  it('needs checklists:read (403 naming it); a device token (capture) reads both', async () => {
    const team = await teamWithPassword('Checklist Read Scope Team');
    const checklist = await createChecklist(team);
    const writer = await addToken(h, team, ['checklists:write', 'tasks:read']);
    for (const path of ['/api/v1/checklists', `/api/v1/checklists/${checklist.id}`]) {
      const refused = await call('GET', path, writer);
      expect(refused.status).toBe(403);
      expect(refused.body.error.missing_scope).toBe('checklists:read');
    }
    const reader = await addToken(h, team, ['checklists:read']);
    const device = await deviceToken(team);
    for (const token of [reader, device]) {
      expect((await call('GET', '/api/v1/checklists', token)).status).toBe(200);
      expect((await call('GET', `/api/v1/checklists/${checklist.id}`, token)).body).toEqual({ data: checklist });
    }
  });
});

describe('PATCH /api/v1/checklist-items/{item}', () => {
  it('ticks an item that does not require a photo, recording who and when; unticking clears both', async () => {
    const team = await createTeam(h, 'Tick Plain Team');
    const checklist = await createChecklist(team);
    const plain = checklist.items[1] as Json;
    const ticked = await call('PATCH', `/api/v1/checklist-items/${plain.id}`, team.token, { ticked: true, note: 'Checked by eye' });
    expect(ticked.status).toBe(200);
    expect(ticked.body.data).toMatchObject({ id: plain.id, checklist_id: checklist.id, ticked: true, ticked_by: { id: team.user.id, name: 'Member' }, evidence: { note: 'Checked by eye', photos: [] } });
    expect(Date.now() - Date.parse(ticked.body.data.ticked_at)).toBeLessThan(60_000);
    const again = await call('PATCH', `/api/v1/checklist-items/${plain.id}`, team.token, { ticked: true });
    expect(again.body.data.ticked_at).toBe(ticked.body.data.ticked_at);
    const shown = await call('GET', `/api/v1/checklists/${checklist.id}`, team.token);
    expect(shown.body.data.items[1]).toEqual(ticked.body.data);
    expect(shown.body.data.progress).toEqual({ ticked: 1, total: 2 });
    const unticked = await call('PATCH', `/api/v1/checklist-items/${plain.id}`, team.token, { ticked: false, note: null });
    expect(unticked.body.data).toMatchObject({ ticked: false, ticked_at: null, ticked_by: null, evidence: { note: null } });
  });

  it('refuses ticking a requires_photo item without a photo: 422 photo_required, nothing changed; attach and tick in one PATCH works', async () => {
    const team = await createTeam(h, 'Tick Photo Team');
    const checklist = await createChecklist(team);
    const item = checklist.items[0] as Json;
    const refused = await call('PATCH', `/api/v1/checklist-items/${item.id}`, team.token, { ticked: true, note: 'done' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: { code: 'photo_required', message: PHOTO_REQUIRED, fields: { ticked: [PHOTO_REQUIRED] } } });
    expect((await call('GET', `/api/v1/checklists/${checklist.id}`, team.token)).body.data).toEqual(checklist);

    const photo = await upload(team.token, team.project.id, 'tick-1');
    const accepted = await call('PATCH', `/api/v1/checklist-items/${item.id}`, team.token, { ticked: true, attach_photo_ids: [photo.id] });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ ticked: true, ticked_by: { id: team.user.id } });
    // The evidence photo is the full photo resource, as GET /photos/{photo} answers it.
    expect(accepted.body.data.evidence.photos).toEqual([(await call('GET', `/api/v1/photos/${photo.id}`, team.token)).body.data]);

    const removeLast = await call('PATCH', `/api/v1/checklist-items/${item.id}`, team.token, { detach_photo_ids: [photo.id] });
    expect(removeLast.status).toBe(422);
    expect(removeLast.body.error).toMatchObject({ code: 'photo_required', fields: { detach_photo_ids: [LAST_PHOTO_REQUIRED] } });
    const untickAndRemove = await call('PATCH', `/api/v1/checklist-items/${item.id}`, team.token, { ticked: false, detach_photo_ids: [photo.id] });
    expect(untickAndRemove.body.data).toMatchObject({ ticked: false, evidence: { photos: [] } });
  });

  it('attaches only the team\'s photos of the checklist\'s project; bad bodies are 422; another team\'s item is 404', async () => {
    const team = await createTeam(h, 'Evidence Rules Team');
    const other = await createTeam(h, 'Evidence Rules Other');
    const elsewhere = await addProject(h, team.team, { name: 'Elsewhere' });
    const checklist = await createChecklist(team);
    const item = checklist.items[1] as Json;
    const wrongProject = await upload(team.token, elsewhere.id, 'wrong-project');
    const foreign = await upload(other.token, other.project.id, 'foreign');
    const res = await call('PATCH', `/api/v1/checklist-items/${item.id}`, team.token, { ticked: true, attach_photo_ids: [wrongProject.id, foreign.id] });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ attach_photo_ids: [PHOTO_OF_OTHER_PROJECT, PHOTO_NOT_FOUND] });
    for (const body of [{ ticked: 'yes' }, { attach_photo_ids: [0] }, { attach_photo_ids: 'x' }, { note: 'x'.repeat(2001) }, { title: 'renamed' }, []]) {
      expect((await call('PATCH', `/api/v1/checklist-items/${item.id}`, team.token, body)).status).toBe(422);
    }
    expect((await call('GET', `/api/v1/checklists/${checklist.id}`, team.token)).body.data).toEqual(checklist);
    expect((await call('PATCH', `/api/v1/checklist-items/${item.id}`, other.token, { ticked: true })).status).toBe(404);
    expect((await call('PATCH', '/api/v1/checklist-items/abc', team.token, { ticked: true })).status).toBe(404);
  });

  it('needs checklists:write (403 naming it)', async () => {
    const team = await createTeam(h, 'Tick Scope Team');
    const checklist = await createChecklist(team);
    const reader = await addToken(h, team, ['checklists:read', 'photos:write']);
    const refused = await call('PATCH', `/api/v1/checklist-items/${checklist.items[1].id}`, reader, { ticked: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error.missing_scope).toBe('checklists:write');
    expect((await call('PATCH', `/api/v1/checklist-items/${checklist.items[1].id}`, await addToken(h, team, ['checklists:write']), { ticked: true })).status).toBe(200);
  });

  it('a device token ticks with a photo it uploaded, not with another device\'s or the office\'s, and removes only what it attached', async () => {
    const team = await teamWithPassword('Device Tick Team');
    const checklist = await createChecklist(team);
    const item = checklist.items[0] as Json;
    const phone = await deviceToken(team, 'phone-a');
    const ownPhoto = await upload(phone, team.project.id, 'device-own');
    const officePhoto = await upload(team.token, team.project.id, 'office-photo');
    const otherPhone = await deviceToken(team, 'phone-b');
    const otherPhonePhoto = await upload(otherPhone, team.project.id, 'device-other');
    const refused = await call('PATCH', `/api/v1/checklist-items/${item.id}`, phone, { ticked: true, attach_photo_ids: [officePhoto.id, otherPhonePhoto.id] });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual({ attach_photo_ids: [NOT_THE_DEVICES_PHOTO] });
    const ticked = await call('PATCH', `/api/v1/checklist-items/${item.id}`, phone, { ticked: true, attach_photo_ids: [ownPhoto.id] });
    expect(ticked.status).toBe(200);
    expect(ticked.body.data.evidence.photos.map((p: Json) => p.id)).toEqual([ownPhoto.id]);
    // The office attaches its photo; the phone may not remove it, but may remove its own.
    expect((await call('PATCH', `/api/v1/checklist-items/${item.id}`, team.token, { attach_photo_ids: [officePhoto.id] })).status).toBe(200);
    const removeOffice = await call('PATCH', `/api/v1/checklist-items/${item.id}`, phone, { detach_photo_ids: [officePhoto.id] });
    expect(removeOffice.body.error.fields).toEqual({ detach_photo_ids: [NOT_THE_DEVICES_EVIDENCE] });
    const removeOwn = await call('PATCH', `/api/v1/checklist-items/${item.id}`, phone, { detach_photo_ids: [ownPhoto.id] });
    expect(removeOwn.body.data).toMatchObject({ ticked: true, evidence: { photos: [{ id: officePhoto.id }] } });
  });
});

describe('bootstrap checklists', () => {
  it('carries the team\'s open checklists of active projects as GET /checklists/{checklist} answers them, in the same queries for 1 or 3', async () => {
    const team = await createTeam(h, 'Bootstrap Checklist Team');
    const archived = await addProject(h, team.team, { name: 'Archived site' });
    const open = await createChecklist(team);
    const done = await createChecklist(team, { items: [{ title: 'only' }] });
    await call('PATCH', `/api/v1/checklist-items/${done.items[0].id}`, team.token, { ticked: true });
    await createChecklist(team, { project_id: archived.id });
    await h.orm.em.fork().nativeUpdate(Project, { id: archived.id }, { status: 'archived' });
    const body = (await call('GET', '/api/v1/bootstrap', team.token)).body;
    expect(body.data.checklists).toEqual([(await call('GET', `/api/v1/checklists/${open.id}`, team.token)).body.data]);

    const three = await createTeam(h, 'Bootstrap Three Checklists Team');
    for (let i = 0; i < 3; i += 1) await createChecklist(three);
    const forOne = await queriesDuring(() => call('GET', '/api/v1/bootstrap', team.token));
    const forThree = await queriesDuring(() => call('GET', '/api/v1/bootstrap', three.token));
    // The same statements, only the length of the id lists differs: no query per checklist, item or photo.
    const shape = (queries: string[]) => queries.map((query) => query.replace(/in \((\?, )*\?\)/g, 'in (…)'));
    expect(shape(forThree)).toEqual(shape(forOne));
    expect(forThree).toHaveLength(8);
  });
});

describe('checklist webhooks', () => {
  it('checklist.created, checklist_item.updated and checklist.updated are queued with data byte for byte the REST resource', async () => {
    const team = await createTeam(h, 'Checklist Webhook Team');
    await h.orm.em.fork().nativeUpdate(TeamMembership, { id: team.membership.id }, { role: 'owner' });
    const hook = await call('POST', '/api/v1/webhook-endpoints', team.token, { url: 'https://localhost:9/hook', events: ['checklist.created', 'checklist.updated', 'checklist_item.updated'] });
    expect(hook.status).toBe(201);
    const created = await call('POST', '/api/v1/checklists', team.token, { project_id: team.project.id, title: 'Hooked', items: [{ title: 'a' }] });
    const ticked = await call('PATCH', `/api/v1/checklist-items/${created.body.data.items[0].id}`, team.token, { ticked: true });
    await call('PATCH', `/api/v1/checklist-items/${created.body.data.items[0].id}`, team.token, { ticked: true }); // no change: not announced
    const renamed = await call('PATCH', `/api/v1/checklists/${created.body.data.id}`, team.token, { title: 'Hooked again' });
    const deliveries = await h.orm.em.fork().find(WebhookDelivery, { ownerId: String(team.team.id) }, { orderBy: { createdAt: 'asc' } });
    expect(deliveries.map((d) => d.eventName)).toEqual(['checklist.created', 'checklist_item.updated', 'checklist.updated']);
    const dataText = (delivery: WebhookDelivery) => delivery.body.slice(delivery.body.indexOf('"data":') + 7, -1);
    expect(dataText(deliveries[0]!)).toBe(JSON.stringify(created.body.data));
    expect(dataText(deliveries[1]!)).toBe(JSON.stringify(ticked.body.data));
    expect(dataText(deliveries[2]!)).toBe(JSON.stringify(renamed.body.data));
  });
});

describe('checklists in GraphQL', () => {
  it('reads a checklist and its project\'s checklists, ticks with the same rules, and names the missing scope', async () => {
    const team = await createTeam(h, 'Checklist GraphQL Team');
    const checklist = await createChecklist(team);
    const item = checklist.items[0] as Json;
    const read = await gqlJson(url, `{ photosChecklist(id: "${checklist.id}") { id title status progress { ticked total } project { id checklists { total } } items { id requiresPhoto assignee { id name } evidence { photos { id } } } } }`, bearer(team.token));
    expect(read.body.data.photosChecklist).toEqual({
      id: String(checklist.id), title: 'Pre-pour', status: 'OPEN', progress: { ticked: 0, total: 2 }, project: { id: String(team.project.id), checklists: { total: 1 } },
      items: [{ id: String(item.id), requiresPhoto: true, assignee: { id: String(team.user.id), name: 'Member' }, evidence: { photos: [] } }, expect.objectContaining({ requiresPhoto: false })],
    });
    const tick = `mutation($id: ID!, $input: UpdatePhotosChecklistItemInput!) { updatePhotosChecklistItem(id: $id, input: $input) { ticked evidence { photos { id } } } }`;
    const refused = await gqlJson(url, tick, bearer(team.token), { id: String(item.id), input: { ticked: true } });
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'photo_required', fields: { ticked: [PHOTO_REQUIRED] } });
    const photo = await upload(team.token, team.project.id, 'gql-tick');
    const accepted = await gqlJson(url, tick, bearer(team.token), { id: String(item.id), input: { ticked: true, attachPhotoIds: [String(photo.id)] } });
    expect(accepted.body.data.updatePhotosChecklistItem).toEqual({ ticked: true, evidence: { photos: [{ id: String(photo.id) }] } });
    const scoped = await addToken(h, team, ['tasks:read']);
    const forbidden = await gqlJson(url, `{ photosChecklist(id: "${checklist.id}") { id } }`, bearer(scoped));
    expect(forbidden.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'checklists:read' });
    const other = await createTeam(h, 'Checklist GraphQL Other');
    expect((await gqlJson(url, `{ photosChecklist(id: "${checklist.id}") { id } }`, bearer(other.token))).body.data.photosChecklist).toBeNull();
    const create = await gqlJson(url, 'mutation($input: CreatePhotosChecklistInput!) { createPhotosChecklist(input: $input) { title items { position title } } }', bearer(team.token), {
      input: { projectId: String(team.project.id), title: 'From GraphQL', items: [{ title: 'one', requiresPhoto: true }] },
    });
    expect(create.body.data.createPhotosChecklist).toEqual({ title: 'From GraphQL', items: [{ position: 1, title: 'one' }] });
    const update = await gqlJson(url, 'mutation($id: ID!, $input: UpdatePhotosChecklistInput!) { updatePhotosChecklist(id: $id, input: $input) { title items { position title } } }', bearer(team.token), {
      id: String(checklist.id), input: { title: 'Renamed', addItems: [{ title: 'three' }] },
    });
    expect(update.body.data.updatePhotosChecklist).toEqual({ title: 'Renamed', items: [{ position: 1, title: 'Rebar photographed' }, { position: 2, title: 'Formwork braced' }, { position: 3, title: 'three' }] });
  });
});
