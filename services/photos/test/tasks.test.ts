// Tasks over real HTTP against the real database (README Decisions "Tasks", "Task status"): create from a photo alone
// or a project, list filters (status incl. overdue, project, mine), show with the photo, edit/close/reopen, withdraw,
// scopes, another team's tasks, webhooks, GraphQL and the projects' open_tasks count.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookDelivery } from '@tributary/kit';
import { NOT_A_MEMBER, TeamMembership, User } from '../src/modules/teams/index.js';
import { NO_PROJECT, PHOTO_NOT_FOUND, PHOTO_OF_OTHER_PROJECT, PROJECT_OR_PHOTO, TITLE_REQUIRED, UNASSIGNED_PHOTO } from '../src/modules/tasks/task.service.js';
import { Task } from '../src/modules/tasks/index.js';
import { addProject, addToken, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';
import { jpeg } from './support/media-fixtures.js';

let h: PhotosHarness;
let url: string;

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

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${url}${path}`, { method, headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {}, headers: res.headers };
}

async function upload(token: string, parts: Record<string, string>): Promise<Json> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(await jpeg())]), 'capture.jpg');
  const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(token), body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json).data as Json;
}

async function addMember(team: Team, name: string): Promise<{ user: User; token: string }> {
  const em = h.orm.em.fork();
  const user = em.create(User, { name, email: `${crypto.randomUUID()}@example.test`, passwordHash: null });
  em.create(TeamMembership, { team: team.team.id, user, role: 'member' });
  await em.flush();
  return { user, token: await addToken(h, { team: team.team, user }, null) };
}

async function createTask(team: Team, body: Json): Promise<Json> {
  const res = await call('POST', '/api/v1/tasks', team.token, body);
  expect(res.status).toBe(201);
  return res.body.data as Json;
}

describe('POST /api/v1/tasks', () => {
  it('photo_id alone suffices: the project is the photo\'s, the title its description; GET answers the same task with the photo', async () => {
    const team = await createTeam(h, 'Task Photo Team');
    const photo = await upload(team.token, { local_capture_id: 'task-1', project_id: String(team.project.id), description: 'Crack in slab\nnear C4' });
    const res = await call('POST', '/api/v1/tasks', team.token, { photo_id: photo.id });
    expect(res.status).toBe(201);
    const task = res.body.data as Json;
    expect(res.headers.get('location')).toBe(`/api/v1/tasks/${task.id}`);
    expect(task).toMatchObject({
      project: { id: team.project.id, name: team.project.name }, title: 'Crack in slab', description: '', status: 'open', overdue: false,
      assignee: null, due_at: null, created_by: { id: team.user.id, name: 'Member' }, closed_at: null, closed_by: null, withdrawn_at: null,
    });
    expect(task.photo).toEqual((await call('GET', `/api/v1/photos/${photo.id}`, team.token)).body.data);
    expect((await call('GET', `/api/v1/tasks/${task.id}`, team.token)).body).toEqual({ data: task });
    const bare = await upload(team.token, { local_capture_id: 'task-2', project_id: String(team.project.id) });
    expect((await createTask(team, { photo_id: bare.id })).title).toBe(`Follow up on photo ${bare.id}`);
  });

  it('with project_id: title required; assignee, due_at, description kept', async () => {
    const team = await createTeam(h, 'Task Project Team');
    const colleague = await addMember(team, 'Colleague');
    const task = await createTask(team, { project_id: team.project.id, title: 'Order scaffolding', description: 'Two bays', assignee_id: colleague.user.id, due_at: '2030-01-02T03:04:05+01:00' });
    expect(task).toMatchObject({ title: 'Order scaffolding', description: 'Two bays', assignee: { id: colleague.user.id, name: 'Colleague' }, due_at: '2030-01-02T02:04:05.000Z', photo: null });
  });

  it('refuses with 422 naming each field; nothing is created', async () => {
    const team = await createTeam(h, 'Task Invalid Team');
    const other = await createTeam(h, 'Task Invalid Other');
    const elsewhere = await addProject(h, team.team, { name: 'Elsewhere' });
    const photo = await upload(team.token, { local_capture_id: 'p', project_id: String(team.project.id) });
    const unassigned = await upload(team.token, { local_capture_id: 'u' });
    const foreignPhoto = await upload(other.token, { local_capture_id: 'f', project_id: String(other.project.id) });
    const cases: Array<[Json, Record<string, string[]>]> = [
      [{}, { project_id: [PROJECT_OR_PHOTO], title: [TITLE_REQUIRED] }],
      [{ project_id: team.project.id }, { title: [TITLE_REQUIRED] }],
      [{ project_id: other.project.id, title: 'x' }, { project_id: [NO_PROJECT] }],
      [{ photo_id: foreignPhoto.id }, { photo_id: [PHOTO_NOT_FOUND] }],
      [{ photo_id: unassigned.id }, { photo_id: [UNASSIGNED_PHOTO] }],
      [{ photo_id: photo.id, project_id: elsewhere.id }, { photo_id: [PHOTO_OF_OTHER_PROJECT] }],
      [{ photo_id: photo.id, assignee_id: other.user.id }, { assignee_id: [NOT_A_MEMBER] }],
    ];
    for (const [body, fields] of cases) {
      const res = await call('POST', '/api/v1/tasks', team.token, body);
      expect({ body, status: res.status, fields: res.body.error?.fields }).toEqual({ body, status: 422, fields });
    }
    for (const body of [{ photo_id: photo.id, due_at: 'tomorrow' }, { photo_id: photo.id, due_at: '2026-12-01T10:00:00' }, { photo_id: photo.id, title: '' }, { photo_id: '1' }, { photo_id: photo.id, status: 'done' }, 'x']) {
      expect((await call('POST', '/api/v1/tasks', team.token, body)).status).toBe(422);
    }
    expect(await h.orm.em.fork().count(Task, { team: team.team.id })).toBe(0);
  });
});

describe('GET /api/v1/tasks', () => {
  it('status open (default, overdue included), done, overdue, all; project and mine filters; withdrawn and other teams\' never', async () => {
    const team = await createTeam(h, 'Task List Team');
    const colleague = await addMember(team, 'Colleague');
    const second = await addProject(h, team.team, { name: 'Second' });
    const other = await createTeam(h, 'Task List Other');
    const foreign = await createTask(other, { project_id: other.project.id, title: 'foreign' });
    const later = await createTask(team, { project_id: team.project.id, title: 'later', due_at: '2099-01-01T00:00:00Z', assignee_id: team.user.id });
    const overdue = await createTask(team, { project_id: second.id, title: 'overdue', due_at: '2020-01-01T00:00:00Z', assignee_id: colleague.user.id });
    const undated = await createTask(team, { project_id: team.project.id, title: 'undated' });
    const done = await createTask(team, { project_id: team.project.id, title: 'done', due_at: '2021-01-01T00:00:00Z' });
    expect((await call('PATCH', `/api/v1/tasks/${done.id}`, team.token, { completed: true })).status).toBe(200);
    const withdrawn = await createTask(team, { project_id: team.project.id, title: 'withdrawn' });
    expect((await call('DELETE', `/api/v1/tasks/${withdrawn.id}`, team.token)).status).toBe(200);

    const titles = async (query: string, token = team.token) => {
      const res = await call('GET', `/api/v1/tasks${query}`, token);
      expect(res.status).toBe(200);
      return res.body.data.map((t: Json) => t.title);
    };
    const list = await call('GET', '/api/v1/tasks', team.token);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 25, total: 3, last_page: 1 });
    expect(list.body.data.map((t: Json) => t.title)).toEqual(['overdue', 'later', 'undated']);
    expect(list.body.data[0]).toMatchObject({ id: overdue.id, overdue: true, status: 'open' });
    expect(await titles('?status=open')).toEqual(['overdue', 'later', 'undated']);
    expect(await titles('?status=overdue')).toEqual(['overdue']);
    expect(await titles('?status=done')).toEqual(['done']);
    expect(await titles('?status=all')).toEqual(['overdue', 'done', 'later', 'undated']);
    expect(await titles(`?status=all&project=${second.id}`)).toEqual(['overdue']);
    expect(await titles('?mine=1')).toEqual(['later']);
    expect(await titles('?mine=1', colleague.token)).toEqual(['overdue']);
    expect(await titles('?page=2')).toEqual([]);
    expect(JSON.stringify((await call('GET', '/api/v1/tasks?status=all', team.token)).body)).not.toContain(String(foreign.title));
    void later;
    void undated;
  });

  it('refuses bad query values with 422 naming each parameter', async () => {
    const team = await createTeam(h, 'Task Query Team');
    const res = await call('GET', '/api/v1/tasks?status=closed&mine=true&project=-1&page=abc', team.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['mine', 'page', 'project', 'status']);
  });
});

describe('PATCH and DELETE /api/v1/tasks/{task}', () => {
  it('edits and reassigns; completed true closes (closed_by, closed_at), false reopens; naming the current values changes nothing', async () => {
    const team = await createTeam(h, 'Task Edit Team');
    const colleague = await addMember(team, 'Colleague');
    const task = await createTask(team, { project_id: team.project.id, title: 'Fix gutter', due_at: '2030-01-01T00:00:00Z' });
    const edited = await call('PATCH', `/api/v1/tasks/${task.id}`, team.token, { title: 'Fix gutters', description: 'Both sides', assignee_id: colleague.user.id, due_at: null });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ title: 'Fix gutters', description: 'Both sides', assignee: { id: colleague.user.id }, due_at: null, status: 'open' });
    const closed = await call('PATCH', `/api/v1/tasks/${task.id}`, colleague.token, { completed: true });
    expect(closed.body.data).toMatchObject({ status: 'done', closed_by: { id: colleague.user.id, name: 'Colleague' } });
    expect(Date.now() - Date.parse(closed.body.data.closed_at)).toBeLessThan(60_000);
    const again = await call('PATCH', `/api/v1/tasks/${task.id}`, team.token, { completed: true });
    expect(again.body.data).toEqual(closed.body.data);
    const reopened = await call('PATCH', `/api/v1/tasks/${task.id}`, team.token, { completed: false, assignee_id: null });
    expect(reopened.body.data).toMatchObject({ status: 'open', closed_at: null, closed_by: null, assignee: null });
    for (const body of [{ project_id: 1 }, { photo_id: 1 }, { completed: 'yes' }, { title: '' }, { assignee_id: 999999 }, { due_at: 'soon' }]) {
      expect((await call('PATCH', `/api/v1/tasks/${task.id}`, team.token, body)).status).toBe(422);
    }
    expect((await call('GET', `/api/v1/tasks/${task.id}`, team.token)).body.data).toEqual(reopened.body.data);
  });

  it('DELETE withdraws: 200 with the task as withdrawn, then 404 everywhere; another team\'s task is 404', async () => {
    const team = await createTeam(h, 'Task Withdraw Team');
    const other = await createTeam(h, 'Task Withdraw Other');
    const task = await createTask(team, { project_id: team.project.id, title: 'Obsolete' });
    for (const [method, body] of [['GET'], ['PATCH', { completed: true }], ['DELETE']] as const) expect((await call(method, `/api/v1/tasks/${task.id}`, other.token, body)).status).toBe(404);
    const withdrawn = await call('DELETE', `/api/v1/tasks/${task.id}`, team.token);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data).toMatchObject({ id: task.id, status: 'withdrawn', title: 'Obsolete' });
    expect(withdrawn.body.data.withdrawn_at).not.toBeNull();
    expect((await call('GET', `/api/v1/tasks/${task.id}`, team.token)).status).toBe(404);
    expect((await call('PATCH', `/api/v1/tasks/${task.id}`, team.token, { completed: true })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/tasks/${task.id}`, team.token)).status).toBe(404);
    for (const id of ['abc', '0', '99999999999']) expect((await call('GET', `/api/v1/tasks/${id}`, team.token)).status).toBe(404);
  });
});

describe('task scopes', () => {
  it('tasks:read reads, tasks:write creates, edits, closes and withdraws; each missing one is 403 naming it; a device token has neither', async () => {
    const team = await createTeam(h, 'Task Scope Team', {}, { password: 'task-scope-password' });
    const task = await createTask(team, { project_id: team.project.id, title: 'Scoped' });
    const reader = await addToken(h, team, ['tasks:read']);
    const writer = await addToken(h, team, ['tasks:write']);
    const login = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: team.user.email, password: 'task-scope-password', device_id: 'phone' }) });
    const device = ((await login.json()) as Json).data.token as string;
    const reads: Array<[string, string]> = [['GET', '/api/v1/tasks'], ['GET', `/api/v1/tasks/${task.id}`]];
    const writes: Array<[string, string, unknown]> = [['POST', '/api/v1/tasks', { project_id: team.project.id, title: 'x' }], ['PATCH', `/api/v1/tasks/${task.id}`, { completed: true }], ['DELETE', `/api/v1/tasks/${task.id}`, undefined]];
    for (const [method, path] of reads) {
      for (const token of [writer, device]) expect((await call(method, path, token)).body.error).toMatchObject({ code: 'forbidden', missing_scope: 'tasks:read' });
      expect((await call(method, path, reader)).status).toBe(200);
    }
    for (const [method, path, body] of writes) {
      for (const token of [reader, device]) expect((await call(method, path, token, body)).body.error).toMatchObject({ code: 'forbidden', missing_scope: 'tasks:write' });
    }
    expect((await call('POST', '/api/v1/tasks', writer, writes[0]![2])).status).toBe(201);
    expect((await call('PATCH', `/api/v1/tasks/${task.id}`, writer, { completed: true })).body.data.closed_by).toEqual({ id: team.user.id, name: 'Member' });
    expect((await call('DELETE', `/api/v1/tasks/${task.id}`, writer)).status).toBe(200);
  });
});

describe('task webhooks and counts', () => {
  it('task.created, task.updated, task.closed and task.withdrawn are queued with data byte for byte the REST answer; open_tasks counts', async () => {
    const team = await createTeam(h, 'Task Webhook Team');
    await h.orm.em.fork().nativeUpdate(TeamMembership, { id: team.membership.id }, { role: 'owner' });
    const events = ['task.created', 'task.updated', 'task.closed', 'task.withdrawn'];
    expect((await call('POST', '/api/v1/webhook-endpoints', team.token, { url: 'https://localhost:9/hook', events })).status).toBe(201);
    const created = await call('POST', '/api/v1/tasks', team.token, { project_id: team.project.id, title: 'Hooked' });
    expect((await call('GET', `/api/v1/projects/${team.project.id}`, team.token)).body.data.counts.open_tasks).toBe(1);
    const updated = await call('PATCH', `/api/v1/tasks/${created.body.data.id}`, team.token, { title: 'Hooked again' });
    await call('PATCH', `/api/v1/tasks/${created.body.data.id}`, team.token, { title: 'Hooked again' }); // no change: not announced
    const closed = await call('PATCH', `/api/v1/tasks/${created.body.data.id}`, team.token, { completed: true });
    expect((await call('GET', `/api/v1/projects/${team.project.id}`, team.token)).body.data.counts.open_tasks).toBe(0);
    const withdrawn = await call('DELETE', `/api/v1/tasks/${created.body.data.id}`, team.token);
    const deliveries = await h.orm.em.fork().find(WebhookDelivery, { ownerId: String(team.team.id) }, { orderBy: { createdAt: 'asc' } });
    expect(deliveries.map((d) => d.eventName)).toEqual(events);
    const dataText = (delivery: WebhookDelivery) => delivery.body.slice(delivery.body.indexOf('"data":') + 7, -1);
    expect(deliveries.map(dataText)).toEqual([created, updated, closed, withdrawn].map((res) => JSON.stringify(res.body.data)));
  });
});

describe('tasks in GraphQL', () => {
  it('creates from a photo, lists a project\'s tasks, closes and withdraws with the same rules; names the missing scope', async () => {
    const team = await createTeam(h, 'Task GraphQL Team');
    const photo = await upload(team.token, { local_capture_id: 'gql', project_id: String(team.project.id), description: 'Loose tile' });
    const create = await gqlJson(url, 'mutation($input: CreatePhotosTaskInput!) { createPhotosTask(input: $input) { id title status project { id } photo { id } } }', bearer(team.token), { input: { photoId: String(photo.id) } });
    const task = create.body.data.createPhotosTask as Json;
    expect(task).toMatchObject({ title: 'Loose tile', status: 'OPEN', project: { id: String(team.project.id) }, photo: { id: String(photo.id) } });
    const listed = await gqlJson(url, `{ photosTeam { tasks(status: ALL) { total items { id } } } photosTask(id: "${task.id}") { id overdue } }`, bearer(team.token));
    expect(listed.body.data).toEqual({ photosTeam: { tasks: { total: 1, items: [{ id: task.id }] } }, photosTask: { id: task.id, overdue: false } });
    const close = await gqlJson(url, 'mutation($id: ID!) { updatePhotosTask(id: $id, input: { completed: true }) { status closedBy { id } closedAt } }', bearer(team.token), { id: task.id });
    expect(close.body.data.updatePhotosTask).toMatchObject({ status: 'DONE', closedBy: { id: String(team.user.id) } });
    const invalid = await gqlJson(url, 'mutation { createPhotosTask(input: { projectId: "abc" }) { id } }', bearer(team.token));
    expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', fields: expect.objectContaining({ project_id: expect.any(Array) }) });
    const withdraw = await gqlJson(url, 'mutation($id: ID!) { withdrawPhotosTask(id: $id) { status withdrawnAt } }', bearer(team.token), { id: task.id });
    expect(withdraw.body.data.withdrawPhotosTask.status).toBe('WITHDRAWN');
    expect((await gqlJson(url, `{ photosTask(id: "${task.id}") { id } }`, bearer(team.token))).body.data.photosTask).toBeNull();
    const reader = await addToken(h, team, ['tasks:read']);
    const refused = await gqlJson(url, 'mutation { createPhotosTask(input: { projectId: "1", title: "x" }) { id } }', bearer(reader));
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'tasks:write' });
  });
});
