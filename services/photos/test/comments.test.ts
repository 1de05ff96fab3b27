// Comments with @mentions and the mentioned users' notifications (README Decisions "Comments", "Comment mentions",
// "Notifications"): GET/POST /api/v1/comments and the GraphQL fields over real HTTP against PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateSecretBoxKey, WebhookDelivery } from '@tributary/kit';
import { Comment } from '../src/modules/comments/index.js';
import { DEMO_ACCESS_TOKEN, DEMO_TEAMMATE, DEMO_TEAM_NAME, DEMO_USER_PASSWORD, seedDemoData } from '../src/seed.js';
import { TeamMembership, User } from '../src/modules/teams/index.js';
import { addProject, addTeammate, addToken, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';
import { jpeg } from './support/media-fixtures.js';

let h: PhotosHarness;
let url: string;

beforeAll(async () => {
  h = await startHarness({ env: { SECRETS_ENCRYPTION_KEY: generateSecretBoxKey() } });
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json; text: string }> {
  const res = await fetch(`${url}${path}`, { method, headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Json, text };
}

const post = (token: string, body: unknown) => call('POST', '/api/v1/comments', token, body);
const thread = (token: string, query: string) => call('GET', `/api/v1/comments?${query}`, token);

async function upload(token: string, parts: Record<string, string>): Promise<Json> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(await jpeg())]), 'capture.jpg');
  const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(token), body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json).data as Json;
}

async function notifications(token: string, unreadOnly = false): Promise<Json> {
  const { body } = await gql(url, `query($u: Boolean) { photosNotifications(unreadOnly: $u) { total unread items { id kind readAt comment { id body author { name } mentions { user { id name } text } } } } }`, bearer(token), { u: unreadOnly });
  expect(body.errors).toBeUndefined();
  return (body.data as Json).photosNotifications as Json;
}

/** A team whose lead (an office session) has teammates Ana Ruiz, Ana María Pérez and José Núñez. */
async function office(name: string) {
  const lead = await createTeam(h, name);
  await h.orm.em.fork().nativeUpdate(User, { id: lead.user.id }, { name: 'Lee Lead' });
  const ana = await addTeammate(h, lead.team, { name: 'Ana Ruiz', email: `ana.${lead.team.id}@example.test` });
  const anaMaria = await addTeammate(h, lead.team, { name: 'Ana María Pérez' });
  const jose = await addTeammate(h, lead.team, { name: 'José Núñez' });
  return { lead, ana, anaMaria, jose };
}

describe('POST /api/v1/comments', () => {
  it('posts on a project: mentions by e-mail, quoted name and word resolve; ambiguous, unknown and foreign ones stay text', async () => {
    const { lead, ana, anaMaria, jose } = await office('Mention Team');
    const stranger = await createTeam(h, 'Stranger Team');
    const body = `@${ana.user.email} and @"ana maría pérez": check with @jose. @Ana? @Zoe, mail ${stranger.user.email}, @${stranger.user.email}`;
    const res = await post(lead.token, { project_id: lead.project.id, body: `  ${body}\n` });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    const comment = res.body.data;
    expect(Object.keys(comment)).toEqual(['id', 'body', 'photo_id', 'project', 'author', 'mentions', 'created_at']);
    expect(comment).toMatchObject({ body, photo_id: null, project: { id: lead.project.id, name: lead.project.name }, author: { id: lead.user.id, name: 'Lee Lead' } });
    expect(comment.mentions).toEqual([
      { user: { id: ana.user.id, name: 'Ana Ruiz' }, text: `@${ana.user.email}`, start: 0, end: ana.user.email.length + 1 },
      { user: { id: anaMaria.user.id, name: 'Ana María Pérez' }, text: '@"ana maría pérez"', start: body.indexOf('@"'), end: body.indexOf('@"') + 18 },
      { user: { id: jose.user.id, name: 'José Núñez' }, text: '@jose', start: body.indexOf('@jose'), end: body.indexOf('@jose') + 5 },
    ]);
    for (const mention of comment.mentions as Json[]) expect(body.slice(mention.start, mention.end)).toBe(mention.text);
  });

  it('notifies each mentioned teammate once (repeats and the author\'s self-mention notify nobody twice or at all)', async () => {
    const { lead, ana, jose } = await office('Notify Team');
    const created = await post(lead.token, { project_id: lead.project.id, body: '@Ana @"Ana Ruiz" @jose @Lee please look' });
    expect(created.status).toBe(201);
    // @Ana alone is ambiguous here (two Anas); the quoted name is not. @Lee is the author: listed, not notified.
    expect((created.body.data.mentions as Json[]).map((m) => m.text)).toEqual(['@"Ana Ruiz"', '@jose', '@Lee']);
    const again = await post(lead.token, { project_id: lead.project.id, body: `@"Ana Ruiz" again, @${ana.user.email}` });
    expect(again.body.data.mentions).toHaveLength(2);

    const anas = await notifications(ana.token);
    expect(anas).toMatchObject({ total: 2, unread: 2 });
    expect((anas.items as Json[]).map((n) => [n.kind, n.readAt, n.comment.id])).toEqual([
      ['MENTION', null, String(again.body.data.id)],
      ['MENTION', null, String(created.body.data.id)],
    ]);
    expect(anas.items[1].comment).toMatchObject({ author: { name: 'Lee Lead' }, body: '@Ana @"Ana Ruiz" @jose @Lee please look' });
    expect((await notifications(jose.token)).total).toBe(1);
    expect((await notifications(lead.token)).total).toBe(0);

    // Marking read: one by id (another user's and an unknown id are skipped), then all; unreadOnly filters.
    const mark = async (token: string, ids?: string[]) => (await gql(url, 'mutation($ids: [ID!]) { markPhotosNotificationsRead(ids: $ids) }', bearer(token), { ids })).body;
    const joseId = (await notifications(jose.token)).items[0].id as string;
    expect(await mark(ana.token, [joseId, anas.items[0].id, '2147483647'])).toEqual({ data: { markPhotosNotificationsRead: 1 } });
    expect(await notifications(ana.token, true)).toMatchObject({ total: 1, unread: 1, items: [{ comment: { id: String(created.body.data.id) } }] });
    expect(await mark(ana.token)).toEqual({ data: { markPhotosNotificationsRead: 1 } });
    expect(await notifications(ana.token)).toMatchObject({ total: 2, unread: 0 });
    expect((await notifications(jose.token)).unread).toBe(1);
  });

  it('keeps who was mentioned when the user is renamed later; a newcomer of the same name changes nothing', async () => {
    const { lead, jose } = await office('Rename Team');
    const created = await post(lead.token, { project_id: lead.project.id, body: 'Over to @jose' });
    expect(created.body.data.mentions).toMatchObject([{ user: { id: jose.user.id }, text: '@jose' }]);
    await h.orm.em.fork().nativeUpdate(User, { id: jose.user.id }, { name: 'Joseph Newman' });
    const newcomer = await addTeammate(h, lead.team, { name: 'Jose Other' });
    const read = await thread(lead.token, `project_id=${lead.project.id}`);
    expect(read.body.data[0]).toMatchObject({ body: 'Over to @jose', mentions: [{ user: { id: jose.user.id, name: 'Joseph Newman' }, text: '@jose', start: 8, end: 13 }] });
    // Written now, @jose names the newcomer only.
    const later = await post(lead.token, { project_id: lead.project.id, body: 'and @jose' });
    expect(later.body.data.mentions).toMatchObject([{ user: { id: newcomer.user.id, name: 'Jose Other' } }]);
  });

  it('comments on a photo of the team, assigned or not; the photo\'s project is shown', async () => {
    const { lead } = await office('Photo Comment Team');
    const site = await addProject(h, lead.team, { name: 'Photo Site' });
    const assigned = await upload(lead.token, { local_capture_id: 'c-1', project_id: String(site.id) });
    const unassigned = await upload(lead.token, { local_capture_id: 'c-2' });
    const onAssigned = await post(lead.token, { photo_id: assigned.id, body: 'Crack by the window' });
    expect(onAssigned.status).toBe(201);
    expect(onAssigned.body.data).toMatchObject({ photo_id: assigned.id, project: { id: site.id, name: 'Photo Site' }, mentions: [] });
    const onUnassigned = await post(lead.token, { photo_id: unassigned.id, body: 'Where is this?' });
    expect(onUnassigned.body.data).toMatchObject({ photo_id: unassigned.id, project: null });
    // A photo's thread and its project's own thread are apart.
    expect((await thread(lead.token, `photo_id=${assigned.id}`)).body.data).toEqual([onAssigned.body.data]);
    expect((await thread(lead.token, `project_id=${site.id}`)).body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('refuses bad bodies with 422 naming the field, and stores nothing', async () => {
    const { lead } = await office('Invalid Team');
    const photo = await upload(lead.token, { local_capture_id: 'v-1' });
    const cases: Array<[unknown, string[]]> = [
      [{ body: 'no target' }, ['photo_id', 'project_id']],
      [{ photo_id: photo.id, project_id: lead.project.id, body: 'both' }, ['photo_id', 'project_id']],
      [{ project_id: lead.project.id, body: '' }, ['body']],
      [{ project_id: lead.project.id, body: ' \n\t ' }, ['body']],
      [{ project_id: lead.project.id, body: 'x'.repeat(5_001) }, ['body']],
      [{ project_id: lead.project.id }, ['body']],
      [{ project_id: lead.project.id, body: 42 }, ['body']],
      [{ project_id: lead.project.id, body: 'a\u0000b' }, ['body']],
      [{ project_id: '1', body: 'string id' }, ['project_id']],
      [{ project_id: 0, body: 'zero' }, ['project_id']],
      [{ project_id: lead.project.id, body: 'hi', author_id: 1 }, ['author_id']],
    ];
    for (const [body, fields] of cases) {
      const res = await post(lead.token, body);
      expect({ body, status: res.status, code: res.body.error?.code, fields: Object.keys(res.body.error?.fields ?? {}).sort() }).toEqual({ body, status: 422, code: 'validation_failed', fields });
    }
    expect((await post(lead.token, [])).status).toBe(422);
    expect((await post(lead.token, { project_id: lead.project.id, body: 'x'.repeat(5_000) })).status).toBe(201);
    expect(await h.orm.em.fork().count(Comment, { team: lead.team.id })).toBe(1);
  });
});

describe('REST notifications (additive)', () => {
  it('GET /api/v1/notifications lists the caller\'s own, newest first, with the comment resource; POST /notifications/read marks them', async () => {
    const { lead, ana, jose } = await office('REST Notify Team');
    const first = await post(lead.token, { project_id: lead.project.id, body: 'one for @"Ana Ruiz"' });
    const second = await post(lead.token, { project_id: lead.project.id, body: 'two for @"Ana Ruiz" and @jose' });
    const list = await call('GET', '/api/v1/notifications', ana.token);
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 25, total: 2, last_page: 1, unread: 2 });
    expect(list.body.data.map((n: Json) => Object.keys(n))).toEqual([['id', 'kind', 'comment', 'read_at', 'created_at'], ['id', 'kind', 'comment', 'read_at', 'created_at']]);
    expect(list.body.data.map((n: Json) => [n.kind, n.read_at])).toEqual([['mention', null], ['mention', null]]);
    expect(list.body.data.map((n: Json) => n.comment)).toEqual([second.body.data, first.body.data]);

    const joseId = (await call('GET', '/api/v1/notifications', jose.token)).body.data[0].id as number;
    const marked = await call('POST', '/api/v1/notifications/read', ana.token, { ids: [list.body.data[1].id, joseId, 2_000_000_000] });
    expect(marked).toMatchObject({ status: 200, body: { data: { marked: 1 } } });
    const unread = await call('GET', '/api/v1/notifications?unread=1', ana.token);
    expect(unread.body.data.map((n: Json) => n.comment.id)).toEqual([second.body.data.id]);
    expect(unread.body.meta).toMatchObject({ total: 1, unread: 1 });
    expect((await call('POST', '/api/v1/notifications/read', ana.token, {})).body).toEqual({ data: { marked: 1 } });
    expect((await call('GET', '/api/v1/notifications?unread=true', ana.token)).body.meta).toMatchObject({ total: 0, unread: 0 });
    expect((await call('GET', '/api/v1/notifications', jose.token)).body.meta).toMatchObject({ total: 1, unread: 1 });
  });

  it('needs comments:read; bad queries and bodies are 422 and change nothing', async () => {
    const { lead, ana } = await office('REST Notify Rules');
    await post(lead.token, { project_id: lead.project.id, body: '@"Ana Ruiz"' });
    const writeOnly = await addToken(h, ana, ['comments:write']);
    for (const res of [await call('GET', '/api/v1/notifications', writeOnly), await call('POST', '/api/v1/notifications/read', writeOnly, {})]) {
      expect({ status: res.status, missing: res.body.error.missing_scope }).toEqual({ status: 403, missing: 'comments:read' });
    }
    expect((await call('GET', '/api/v1/notifications', await addToken(h, ana, ['comments:read']))).body.meta.total).toBe(1);
    for (const query of ['unread=yes', 'page=0', 'page=abc']) expect({ query, status: (await call('GET', `/api/v1/notifications?${query}`, ana.token)).status }).toEqual({ query, status: 422 });
    for (const body of [{ ids: 'all' }, { ids: [0] }, { ids: ['1'] }, { ids: Array.from({ length: 101 }, (_, i) => i + 1) }, { every: true }, []]) {
      const res = await call('POST', '/api/v1/notifications/read', ana.token, body);
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
    }
    expect((await call('GET', '/api/v1/notifications', ana.token)).body.meta.unread).toBe(1);
  });
});

describe('GET /api/v1/comments', () => {
  it('answers a thread oldest first, 25 per page with meta', async () => {
    const { lead } = await office('Thread Team');
    for (let i = 1; i <= 27; i++) expect((await post(lead.token, { project_id: lead.project.id, body: `note ${i}` })).status).toBe(201);
    const first = await thread(lead.token, `project_id=${lead.project.id}`);
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ current_page: 1, per_page: 25, total: 27, last_page: 2 });
    expect((first.body.data as Json[]).map((c) => c.body)).toEqual(Array.from({ length: 25 }, (_, i) => `note ${i + 1}`));
    const second = await thread(lead.token, `project_id=${lead.project.id}&page=2`);
    expect((second.body.data as Json[]).map((c) => c.body)).toEqual(['note 26', 'note 27']);
    expect((await thread(lead.token, `project_id=${lead.project.id}&page=3`)).body).toMatchObject({ data: [], meta: { current_page: 3, last_page: 2 } });
  });

  it('refuses a query without exactly one well-formed target with 422', async () => {
    const { lead } = await office('Query Team');
    for (const [query, fields] of [
      ['', ['query']],
      [`photo_id=1&project_id=${lead.project.id}`, ['query']],
      ['project_id=abc', ['project_id']],
      ['project_id=1.5', ['project_id']],
      ['project_id=0', ['project_id']],
      ['photo_id=99999999999', ['photo_id']],
      [`project_id=${lead.project.id}&page=0`, ['page']],
    ] as const) {
      const res = await thread(lead.token, query);
      expect({ query, status: res.status, fields: Object.keys(res.body.error?.fields ?? {}).sort() }).toEqual({ query, status: 422, fields });
    }
  });
});

describe('teams and scopes', () => {
  it('another team\'s photo or project reads as 404 on both routes, like a missing one', async () => {
    const mine = await createTeam(h, 'Own Team');
    const theirs = await createTeam(h, 'Their Team');
    const photo = await upload(theirs.token, { local_capture_id: 'theirs' });
    expect((await post(theirs.token, { project_id: theirs.project.id, body: 'private' })).status).toBe(201);
    for (const target of [{ project_id: theirs.project.id }, { photo_id: photo.id }, { project_id: 2_000_000_000 }, { photo_id: 2_000_000_000 }]) {
      const [key, id] = Object.entries(target)[0]!;
      expect({ target, status: (await post(mine.token, { ...target, body: 'hello' })).status }).toEqual({ target, status: 404 });
      const read = await thread(mine.token, `${key}=${id}`);
      expect({ target, status: read.status, code: read.body.error.code }).toEqual({ target, status: 404, code: 'not_found' });
    }
    expect(await h.orm.em.fork().count(Comment, { team: mine.team.id })).toBe(0);
  });

  it('GET needs comments:read and POST comments:write (403 naming the scope); capture reaches neither', async () => {
    const team = await createTeam(h, 'Scope Team');
    const readOnly = await addToken(h, team, ['comments:read']);
    const writeOnly = await addToken(h, team, ['comments:write']);
    const capture = await addToken(h, team, ['capture']);
    const other = await addToken(h, team, ['photos:read', 'projects:read']);
    const body = { project_id: team.project.id, body: 'scoped' };
    const query = `project_id=${team.project.id}`;
    expect((await post(writeOnly, body)).status).toBe(201);
    expect((await thread(readOnly, query)).status).toBe(200);
    for (const token of [readOnly, capture, other]) {
      const res = await post(token, body);
      expect({ status: res.status, missing: res.body.error.missing_scope }).toEqual({ status: 403, missing: 'comments:write' });
    }
    for (const token of [writeOnly, capture, other]) {
      const res = await thread(token, query);
      expect({ status: res.status, missing: res.body.error.missing_scope }).toEqual({ status: 403, missing: 'comments:read' });
    }
    // Notifications: comments:read too.
    const refused = await gql(url, '{ photosNotifications { total } }', bearer(writeOnly));
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'comments:read' });
    expect((await gql(url, '{ photosNotifications { total } }', bearer(readOnly))).body.data).toEqual({ photosNotifications: { total: 0 } });
  });
});

describe('comment.created webhook', () => {
  it('is queued in the comment\'s transaction, data byte for byte the POST answer\'s resource', async () => {
    const { lead } = await office('Hook Team');
    await h.orm.em.fork().nativeUpdate(TeamMembership, { id: lead.membership.id }, { role: 'owner' });
    const registered = await call('POST', '/api/v1/webhook-endpoints', lead.token, { url: 'https://93.184.216.34/hooks/comments', events: ['comment.created'] });
    expect(registered.status).toBe(201);
    const created = await post(lead.token, { project_id: lead.project.id, body: 'Hook for @"Ana Ruiz"' });
    expect(created.status).toBe(201);
    const resourceText = JSON.stringify(JSON.parse(created.text).data);
    const deliveries = await h.orm.em.fork().find(WebhookDelivery, { ownerId: String(lead.team.id), eventName: 'comment.created' });
    expect(deliveries).toHaveLength(1);
    const envelope = JSON.parse(deliveries[0]!.body) as { id: string; timestamp: string };
    expect(deliveries[0]!.body).toBe(`{"id":"${envelope.id}","type":"comment.created","timestamp":"${envelope.timestamp}","data":${resourceText}}`);
    // A refused comment announces nothing.
    expect((await post(lead.token, { project_id: lead.project.id, body: '' })).status).toBe(422);
    expect(await h.orm.em.fork().count(WebhookDelivery, { ownerId: String(lead.team.id) })).toBe(1);
  });
});

describe('GraphQL', () => {
  it('createPhotosComment, PhotosProject.comments and PhotosPhoto.comments follow the REST rules', async () => {
    const { lead, ana } = await office('Graph Team');
    const photo = await upload(lead.token, { local_capture_id: 'g-1', project_id: String(lead.project.id) });
    const create = `mutation($input: CreatePhotosCommentInput!) { createPhotosComment(input: $input) { id body photoId author { id name } mentions { user { id name } text start end } project { id name } } }`;
    const onProject = await gql(url, create, bearer(lead.token), { input: { projectId: String(lead.project.id), body: 'Ping @"Ana Ruiz"' } });
    expect(onProject.body.errors).toBeUndefined();
    expect((onProject.body.data as Json).createPhotosComment).toMatchObject({
      body: 'Ping @"Ana Ruiz"',
      photoId: null,
      author: { id: String(lead.user.id), name: 'Lee Lead' },
      mentions: [{ user: { id: String(ana.user.id), name: 'Ana Ruiz' }, text: '@"Ana Ruiz"', start: 5, end: 16 }],
      project: { id: String(lead.project.id) },
    });
    const onPhoto = await gql(url, create, bearer(lead.token), { input: { photoId: String(photo.id), body: 'On the photo' } });
    expect((onPhoto.body.data as Json).createPhotosComment).toMatchObject({ photoId: String(photo.id), project: { id: String(lead.project.id) } });

    const threads = await gql(url, '{ photosProjects { id comments { total items { body } } photos { items { id comments { total items { body } } } } } }', bearer(lead.token));
    const project = ((threads.body.data as Json).photosProjects as Json[]).find((p) => p.id === String(lead.project.id))!;
    expect(project.comments).toEqual({ total: 1, items: [{ body: 'Ping @"Ana Ruiz"' }] });
    expect(project.photos.items[0].comments).toEqual({ total: 1, items: [{ body: 'On the photo' }] });

    // Same refusals as REST: both targets, another team's project, and a token without comments:write.
    const both = await gql(url, create, bearer(lead.token), { input: { photoId: String(photo.id), projectId: String(lead.project.id), body: 'x' } });
    expect(both.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const stranger = await createTeam(h, 'Graph Stranger');
    const foreign = await gql(url, create, bearer(stranger.token), { input: { projectId: String(lead.project.id), body: 'x' } });
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const readOnly = await addToken(h, lead, ['comments:read']);
    const refused = await gql(url, create, bearer(readOnly), { input: { projectId: String(lead.project.id), body: 'x' } });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'comments:write' });
    expect(await h.orm.em.fork().count(Comment, { team: lead.team.id })).toBe(2);

    // comments:read alone shows the comment and its photoId; the photo and project objects need their own scopes.
    const onlyComments = await addToken(h, ana, ['comments:read']);
    const fields = await gql(url, '{ photosNotifications { items { comment { body photoId photo { id } project { id } } } } }', bearer(onlyComments));
    expect(fields.body.data).toEqual({ photosNotifications: { items: [{ comment: { body: 'Ping @"Ana Ruiz"', photoId: null, photo: null, project: null } }] } });
    expect(((fields.body.errors ?? []) as Json[]).map((e) => [e.path?.join('.'), e.extensions?.missing_scope])).toEqual([
      ['photosNotifications.items.0.comment.photo', 'photos:read'],
      ['photosNotifications.items.0.comment.project', 'projects:read'],
    ]);
  });
});

describe('demo seed and the README walkthrough', () => {
  it('adds Ana Ruiz to the demo team once; the demo user mentions her three ways, she signs in, reads and marks the notification', async () => {
    await seedDemoData(h.orm.em.fork());
    await seedDemoData(h.orm.em.fork());
    const em = h.orm.em.fork();
    const memberships = await em.find(TeamMembership, { user: { email: DEMO_TEAMMATE.email } }, { populate: ['team', 'user'] });
    expect(memberships.map((m) => [m.team.name, m.role, m.user.name])).toEqual([[DEMO_TEAM_NAME, 'member', DEMO_TEAMMATE.name]]);

    const projects = await call('GET', '/api/v1/projects?q=Harbour%20View%20Apartments', DEMO_ACCESS_TOKEN);
    const body = `@${DEMO_TEAMMATE.email} can you check the north wall? cc @"Ana Ruiz" @Ana @Zoe`;
    const res = await post(DEMO_ACCESS_TOKEN, { project_id: projects.body.data[0].id, body });
    expect(res.status).toBe(201);
    expect(res.body.data.mentions.map((m: Json) => [m.user.name, m.text])).toEqual([
      [DEMO_TEAMMATE.name, `@${DEMO_TEAMMATE.email}`],
      [DEMO_TEAMMATE.name, '@"Ana Ruiz"'],
      [DEMO_TEAMMATE.name, '@Ana'],
    ]);
    expect((await thread(DEMO_ACCESS_TOKEN, `project_id=${projects.body.data[0].id}`)).body.data).toEqual([res.body.data]);

    const login = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: DEMO_TEAMMATE.email, password: DEMO_USER_PASSWORD }) });
    const ana = ((await login.json()) as Json).data.token as string;
    const read = await gql(url, '{ photosNotifications { unread items { id kind comment { body author { name } mentions { text } } } } }', bearer(ana));
    expect(read.body.data).toEqual({
      photosNotifications: { unread: 1, items: [{ id: expect.any(String), kind: 'MENTION', comment: { body, author: { name: 'Demo Site Lead' }, mentions: [{ text: `@${DEMO_TEAMMATE.email}` }, { text: '@"Ana Ruiz"' }, { text: '@Ana' }] } }] },
    });
    expect((await gql(url, 'mutation { markPhotosNotificationsRead }', bearer(ana))).body).toEqual({ data: { markPhotosNotificationsRead: 1 } });
  }, 30_000);
});
