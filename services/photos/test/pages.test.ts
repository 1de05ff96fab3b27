// Pages over real HTTP against the real database (README Decisions "Pages", "Page bodies"): write, read, list, edit,
// scopes, team isolation, validation, escaped HTML, webhooks and GraphQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookDelivery } from '@tributary/kit';
import { EXCERPT_MAX, Page, PAGE_BODY_MAX } from '../src/modules/pages/index.js';
import { User } from '../src/modules/teams/index.js';
import { addProject, addToken, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';

let h: PhotosHarness;
let url: string;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test
const RECEIVER = 'https://93.184.216.34/hooks/pages';

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
}

const pageCount = async (teamId: number) => h.orm.em.fork().count(Page, { team: teamId });

describe('POST /api/v1/pages and GET /api/v1/pages/{page}', () => {
  it('writes a page: 201 with exactly the spec\'s fields, Location, updated_by the writer\'s name, <script> escaped', async () => {
    const team = await createTeam(h, 'Pages Write');
    const body = '# Handover\n\nKeys are with **Ana**.\n\n<script>alert(1)</script>\n\n[plan](https://example.test/plan.pdf) [bad](javascript:alert(1))';
    const created = await call('POST', '/pages', team.token, { project_id: team.project.id, title: '  Handover notes  ', body });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data)).toEqual(['id', 'title', 'excerpt', 'project', 'updated_by', 'updated_at', 'body', 'body_html']);
    expect(created.body.data).toMatchObject({
      title: 'Handover notes',
      excerpt: 'Handover Keys are with Ana. <script>alert(1)</script> plan [bad](javascript:alert(1))',
      project: { id: team.project.id, name: team.project.name },
      updated_by: 'Member',
      body,
    });
    expect(created.body.data.body_html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(created.body.data.body_html).not.toMatch(/<script|javascript:alert\(1\)"/i);
    expect(created.body.data.body_html).toContain('<a href="https://example.test/plan.pdf" rel="nofollow noopener noreferrer">plan</a>');
    expect(created.headers.get('location')).toBe(`/api/v1/pages/${created.body.data.id}`);
    const read = await call('GET', `/pages/${created.body.data.id}`, team.token);
    expect(read).toMatchObject({ status: 200, body: { data: created.body.data } });
  });

  it('another team\'s page, an unknown id or one that is not digits: 404', async () => {
    const team = await createTeam(h, 'Pages Own');
    const other = await createTeam(h, 'Pages Other');
    const created = await call('POST', '/pages', team.token, { project_id: team.project.id, title: 'Mine', body: '' });
    expect(created.status).toBe(201);
    for (const id of [created.body.data.id, 'abc', '1.5', '99999999999', String(created.body.data.id + 100_000)]) {
      expect((await call('GET', `/pages/${id}`, other.token)).status).toBe(404);
    }
    expect((await call('PATCH', `/pages/${created.body.data.id}`, other.token, { title: 'Taken' })).status).toBe(404);
    expect((await call('GET', `/pages/${created.body.data.id}`, team.token)).body.data.title).toBe('Mine');
  });

  it('refuses invalid bodies with 422 naming every field, and stores nothing', async () => {
    const team = await createTeam(h, 'Pages Invalid');
    const other = await createTeam(h, 'Pages Invalid Other');
    const cases: Array<[unknown, string[]]> = [
      [{}, ['body', 'project_id', 'title']],
      [{ project_id: team.project.id, title: '   ', body: 'x' }, ['title']],
      [{ project_id: team.project.id, title: 'x'.repeat(192), body: 'x' }, ['title']],
      [{ project_id: team.project.id, title: 'T', body: 'x'.repeat(PAGE_BODY_MAX + 1) }, ['body']],
      [{ project_id: team.project.id, title: 'T\u0000', body: 'x' }, ['title']],
      [{ project_id: String(team.project.id), title: 'T', body: 'x' }, ['project_id']],
      [{ project_id: other.project.id, title: 'T', body: 'x' }, ['project_id']],
      [{ project_id: 2 ** 31, title: 'T', body: 'x' }, ['project_id']],
      [{ project_id: team.project.id, title: 'T', body: 'x', updated_by: 'Someone' }, ['updated_by']],
      [[1], ['body']],
    ];
    for (const [payload, fields] of cases) {
      const res = await call('POST', '/pages', team.token, payload);
      expect({ fields: Object.keys(res.body.error?.fields ?? {}).sort(), status: res.status }).toEqual({ fields, status: 422 });
    }
    const foreign = await call('POST', '/pages', team.token, { project_id: other.project.id, title: 'T', body: 'x' });
    expect(foreign.body.error.fields).toEqual({ project_id: ['No project with this id in your team.'] });
    expect(await pageCount(team.team.id)).toBe(0);
  });
});

describe('PATCH /api/v1/pages/{page}', () => {
  it('an edit records the editor\'s name and time and re-derives the excerpt; the same values change nothing', async () => {
    const team = await createTeam(h, 'Pages Edit');
    const created = (await call('POST', '/pages', team.token, { project_id: team.project.id, title: 'Diary', body: 'Day one' })).body.data;
    // A second member of the team edits.
    const em = h.orm.em.fork();
    const editor = em.create(User, { name: 'Ana Editor', email: `${crypto.randomUUID()}@example.test`, passwordHash: null });
    await em.flush();
    const { TeamMembership } = await import('../src/modules/teams/index.js');
    em.create(TeamMembership, { team: team.team.id, user: editor, role: 'member' });
    await em.flush();
    const editorToken = await addToken(h, { team: team.team, user: editor }, null);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const edited = await call('PATCH', `/pages/${created.id}`, editorToken, { body: 'Day one\n\nDay **two**' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ title: 'Diary', excerpt: 'Day one Day two', updated_by: 'Ana Editor', body: 'Day one\n\nDay **two**' });
    expect(edited.body.data.body_html).toBe('<p>Day one</p>\n<p>Day <strong>two</strong></p>\n');
    expect(Date.parse(edited.body.data.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));

    const again = await call('PATCH', `/pages/${created.id}`, team.token, { title: 'Diary', body: 'Day one\n\nDay **two**' });
    expect(again.body.data).toEqual(edited.body.data);
    const empty = await call('PATCH', `/pages/${created.id}`, team.token, {});
    expect(empty.body.data).toEqual(edited.body.data);
  });

  it('refuses unknown and invalid fields with 422 (the project stays), and changes nothing', async () => {
    const team = await createTeam(h, 'Pages Edit Invalid');
    const created = (await call('POST', '/pages', team.token, { project_id: team.project.id, title: 'Keep', body: 'Keep' })).body.data;
    const cases: Array<[unknown, string[]]> = [
      [{ title: '' }, ['title']],
      [{ title: 'New', project_id: team.project.id }, ['project_id']],
      [{ body: 5 }, ['body']],
      [{ body_html: '<b>x</b>' }, ['body_html']],
      ['text', ['body']],
    ];
    for (const [payload, fields] of cases) {
      const res = await call('PATCH', `/pages/${created.id}`, team.token, payload);
      expect({ fields: Object.keys(res.body.error?.fields ?? {}).sort(), status: res.status }).toEqual({ fields, status: 422 });
    }
    expect((await call('GET', `/pages/${created.id}`, team.token)).body.data).toEqual(created);
  });
});

describe('GET /api/v1/pages', () => {
  it('lists the team\'s pages without bodies, last edited first; filters by project and q (case and accents ignored); paginates', async () => {
    const team = await createTeam(h, 'Pages List');
    const other = await createTeam(h, 'Pages List Other');
    const second = await addProject(h, team.team, { name: 'Second site' });
    const write = (projectId: number, title: string, body: string) => call('POST', '/pages', team.token, { project_id: projectId, title, body });
    const first = (await write(team.project.id, 'Café inspection', 'Ceiling OK')).body.data;
    const middle = (await write(second.id, 'Snag list', 'Paint the CAFÉ door; 100% done')).body.data;
    const last = (await write(team.project.id, 'Handover', `${'long words '.repeat(40)}end`)).body.data;
    await call('POST', '/pages', other.token, { project_id: other.project.id, title: 'Café elsewhere', body: '' });

    const all = await call('GET', '/pages', team.token);
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ current_page: 1, per_page: 25, total: 3, last_page: 1 });
    expect(all.body.data.map((page: Json) => page.id)).toEqual([last.id, middle.id, first.id]);
    expect(Object.keys(all.body.data[0])).toEqual(['id', 'title', 'excerpt', 'project', 'updated_by', 'updated_at']);
    expect(all.body.data[0].excerpt.length).toBeLessThanOrEqual(EXCERPT_MAX + 1);
    expect(all.body.data[0].excerpt.endsWith('…')).toBe(true);

    const ids = async (query: string) => (await call('GET', `/pages?${query}`, team.token)).body.data.map((page: Json) => page.id);
    expect(await ids(`project=${second.id}`)).toEqual([middle.id]);
    expect(await ids('q=cafe')).toEqual([middle.id, first.id]);
    expect(await ids('q=CAFÉ')).toEqual([middle.id, first.id]);
    expect(await ids(`q=cafe&project=${team.project.id}`)).toEqual([first.id]);
    expect(await ids('q=ceiling%20ok')).toEqual([first.id]);
    expect(await ids('q=100%25')).toEqual([middle.id]);
    expect(await ids('q=_')).toEqual([]);
    expect(await ids('q=elsewhere')).toEqual([]);
    expect(await ids(`project=${other.project.id}`)).toEqual([]);
    const beyond = await call('GET', '/pages?page=2', team.token);
    expect(beyond.body).toEqual({ data: [], meta: { current_page: 2, per_page: 25, total: 3, last_page: 1 } });
    for (const query of ['page=0', 'project=abc', 'project=-1', `q=${'x'.repeat(192)}`]) {
      expect((await call('GET', `/pages?${query}`, team.token)).status).toBe(422);
    }
  });
});

describe('scopes', () => {
  // unaccent() folds the full-width ％ ＿ ＼ to % _ \, so q is escaped after normalising: a character is never a wildcard.
  it('q takes the full-width ％, ＿ and ＼ literally: only pages holding the character match', async () => {
    const team = await createTeam(h, 'Pages Full-width');
    const write = async (title: string, body: string) => (await call('POST', '/pages', team.token, { project_id: team.project.id, title, body })).body.data.id as number;
    const percent = await write('Progress', 'Slab poured: ５０％');
    const snake = await write('Naming', 'file_name of the drawing');
    const slash = await write('Paths', 'C:＼drawings');
    await write('Plain', 'Nothing special here');
    const ids = async (q: string) => (await call('GET', `/pages?q=${encodeURIComponent(q)}`, team.token)).body.data.map((page: Json) => page.id);
    expect(await ids('％')).toEqual([percent]);
    expect(await ids('%')).toEqual([percent]);
    expect(await ids('＿')).toEqual([snake]);
    expect(await ids('＼')).toEqual([slash]);
    expect(await ids('\\')).toEqual([slash]);
    expect(await ids('％％')).toEqual([]);
  });

  it('pages:read reads, pages:write writes; each missing ability is a 403 naming it; a device token reaches neither', async () => {
    const team = await createTeam(h, 'Pages Scopes');
    const page = (await call('POST', '/pages', team.token, { project_id: team.project.id, title: 'Scoped', body: '' })).body.data;
    const reader = await addToken(h, team, ['pages:read']);
    const writer = await addToken(h, team, ['pages:write']);
    const device = await addToken(h, team, ['capture']);
    const unrelated = await addToken(h, team, ['projects:read', 'photos:read', 'customers:read']);
    const write = { project_id: team.project.id, title: 'By token', body: '' };

    expect((await call('GET', '/pages', reader)).status).toBe(200);
    expect((await call('GET', `/pages/${page.id}`, reader)).status).toBe(200);
    expect((await call('POST', '/pages', writer, write)).status).toBe(201);
    expect((await call('PATCH', `/pages/${page.id}`, writer, { title: 'Renamed' })).status).toBe(200);
    for (const token of [reader, device, unrelated]) {
      for (const [method, path, body] of [['POST', '/pages', write], ['PATCH', `/pages/${page.id}`, { title: 'x' }]] as const) {
        const res = await call(method, path, token, body);
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: expect.objectContaining({ code: 'forbidden', missing_scope: 'pages:write' }) });
      }
    }
    for (const token of [writer, device, unrelated]) {
      for (const path of ['/pages', `/pages/${page.id}`]) {
        const res = await call('GET', path, token);
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 403, error: expect.objectContaining({ code: 'forbidden', missing_scope: 'pages:read' }) });
      }
    }
    expect((await fetch(`${url}/api/v1/pages`)).status).toBe(401);
  });
});

describe('webhooks', () => {
  it('page.created and page.updated carry the REST resource byte for byte; an edit that changes nothing announces nothing', async () => {
    const team = await createTeam(h, 'Pages Hooks', {}, { role: 'owner' });
    const hook = await call('POST', '/webhook-endpoints', team.token, { url: RECEIVER, events: ['page.created', 'page.updated'] });
    expect(hook.status).toBe(201);
    const created = await fetch(`${url}/api/v1/pages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${team.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: team.project.id, title: 'Hooked', body: 'Hello <b>there</b>' }),
    });
    const createdText = await created.text();
    const id = (JSON.parse(createdText) as Json).data.id as number;
    const edited = await fetch(`${url}/api/v1/pages/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${team.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Hooked again' }),
    });
    const editedText = await edited.text();
    await call('PATCH', `/pages/${id}`, team.token, { title: 'Hooked again' });

    const deliveries = await h.orm.em.fork().find(WebhookDelivery, { ownerId: String(team.team.id) }, { orderBy: { createdAt: 'asc' } });
    expect(deliveries.map((delivery) => delivery.eventName)).toEqual(['page.created', 'page.updated']);
    const dataOf = (body: string) => body.slice(body.indexOf('"data":') + '"data":'.length, -1);
    expect(dataOf(deliveries[0]!.body)).toBe(JSON.stringify((JSON.parse(createdText) as Json).data));
    expect(dataOf(deliveries[1]!.body)).toBe(JSON.stringify((JSON.parse(editedText) as Json).data));
  });
});

describe('GraphQL', () => {
  it('createPhotosPage, photosPage, PhotosProject.pages and updatePhotosPage follow the REST rules', async () => {
    const team = await createTeam(h, 'Pages GraphQL');
    const other = await createTeam(h, 'Pages GraphQL Other');
    const auth = { authorization: `Bearer ${team.token}` };
    const fields = 'id title excerpt updatedBy updatedAt body bodyHtml project { id name }';
    const created = await gql(url, `mutation($input: CreatePhotosPageInput!) { createPhotosPage(input: $input) { ${fields} } }`, auth, {
      input: { projectId: String(team.project.id), title: 'From GraphQL', body: '<img src=x onerror=alert(1)>' },
    });
    const page = created.body.data?.createPhotosPage as Json;
    expect(page).toMatchObject({ title: 'From GraphQL', updatedBy: 'Member', bodyHtml: '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n', project: { id: String(team.project.id) } });
    const rest = (await call('GET', `/pages/${page.id}`, team.token)).body.data;
    expect(page.bodyHtml).toBe(rest.body_html);

    const read = await gql(url, `query($id: ID!) { photosPage(id: $id) { id } }`, auth, { id: page.id });
    expect(read.body.data?.photosPage).toEqual({ id: page.id });
    const foreign = await gql(url, `query($id: ID!) { photosPage(id: $id) { id } }`, { authorization: `Bearer ${other.token}` }, { id: page.id });
    expect(foreign.body.data?.photosPage).toBeNull();

    const listed = await gql(url, `{ photosProjects { id pages(q: "graphql") { total items { id title } } } }`, auth);
    expect(listed.body.data?.photosProjects).toEqual([{ id: String(team.project.id), pages: { total: 1, items: [{ id: page.id, title: 'From GraphQL' }] } }]);

    const updated = await gql(url, `mutation($id: ID!) { updatePhotosPage(id: $id, input: { title: "Renamed" }) { title body } }`, auth, { id: page.id });
    expect(updated.body.data?.updatePhotosPage).toEqual({ title: 'Renamed', body: '<img src=x onerror=alert(1)>' });

    const invalid = await gql(url, `mutation($input: CreatePhotosPageInput!) { createPhotosPage(input: $input) { id } }`, auth, {
      input: { projectId: String(other.project.id), title: 'x', body: '' },
    });
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const reader = await addToken(h, team, ['pages:read']);
    const refused = await gql(url, `mutation($id: ID!) { updatePhotosPage(id: $id, input: { title: "No" }) { id } }`, { authorization: `Bearer ${reader}` }, { id: page.id });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'pages:write' });
  });
});
