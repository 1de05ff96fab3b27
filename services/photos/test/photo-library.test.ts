// Reading and editing photos (GET list/show, PATCH), before/after groups, and the counts other modules show: real HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Photo, PhotoService } from '../src/modules/photos/index.js';
import { PhotoGroupService } from '../src/modules/photo-groups/index.js';
import { ProjectService } from '../src/modules/projects/index.js';
import { LocalMediaStorage } from '../src/storage/local-media-storage.js';
import { addProject, addToken, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';
import { jpeg, mp4 } from './support/media-fixtures.js';

let h: PhotosHarness;
let url: string;

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
});
afterAll(async () => {
  await h?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test

async function upload(token: string, parts: Record<string, string | string[]>, file?: Buffer): Promise<Json> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) for (const item of [value].flat()) form.append(name, item);
  form.append('file', new Blob([new Uint8Array(file ?? (await jpeg()))]), 'capture.jpg');
  const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(token), body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as Json).data as Json;
}

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${path}`, { method, headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('GET /api/v1/photos/{photo}', () => {
  it('answers every field of the spec\'s Photo table (no duplicate flag); another team\'s, unknown or non-digit ids are 404', async () => {
    const member = await createTeam(h, 'Show Team');
    const other = await createTeam(h, 'Show Other');
    const uploaded = await upload(member.token, { local_capture_id: 'show-1', tags: ['a'] });
    const res = await call('GET', `/api/v1/photos/${uploaded.id}`, member.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(Object.keys(res.body.data).sort()).toEqual(
      ['assignment', 'captured_at', 'description', 'duration_seconds', 'id', 'local_capture_id', 'location', 'media_type', 'mime_type', 'project', 'size_bytes', 'tags', 'uploaded_at', 'urls'].sort(),
    );
    expect(Object.keys(res.body.data.urls).sort()).toEqual(['annotated', 'full', 'poster', 'thumb']);
    expect(res.body.data).toEqual(uploaded);
    for (const id of [String(uploaded.id + 100_000), 'abc', '1.5', '99999999999']) expect((await call('GET', `/api/v1/photos/${id}`, member.token)).status).toBe(404);
    expect((await call('GET', `/api/v1/photos/${uploaded.id}`, other.token)).status).toBe(404);
  });
});

describe('GET /api/v1/photos', () => {
  it('filters by project, tag, captured date range and source; paginates with meta; only the team\'s photos', async () => {
    const member = await createTeam(h, 'List Team');
    const other = await createTeam(h, 'List Other');
    await upload(other.token, { local_capture_id: 'foreign' });
    const site = await addProject(h, member.team, { name: 'Site', lat: 1, lng: 1 });
    const a = await upload(member.token, { local_capture_id: 'a', captured_at: '2026-09-01T08:00:00Z', lat: '1', lng: '1', accuracy_m: '5', tags: ['roof'] });
    const b = await upload(member.token, { local_capture_id: 'b', captured_at: '2026-09-02T23:59:00Z', tags: ['roof', 'gutter'] });
    const c = await upload(member.token, { local_capture_id: 'c', captured_at: '2026-09-03T00:00:00Z', project_id: String(site.id) });
    const d = await upload(member.token, { local_capture_id: 'd' });
    const ids = async (query: string) => {
      const res = await call('GET', `/api/v1/photos${query}`, member.token);
      expect(res.status).toBe(200);
      return (res.body.data as Json[]).map((photo) => photo.local_capture_id as string);
    };
    // Newest capture first, captures without a time last.
    expect(await ids('')).toEqual(['c', 'b', 'a', 'd']);
    expect(await ids(`?project=${site.id}`)).toEqual(['c', 'a']);
    expect(await ids('?tag=roof')).toEqual(['b', 'a']);
    expect(await ids('?tag=gutter')).toEqual(['b']);
    expect(await ids('?captured_from=2026-09-02&captured_to=2026-09-02')).toEqual(['b']);
    expect(await ids('?captured_from=2026-09-01T09:00:00Z')).toEqual(['c', 'b']);
    expect(await ids('?captured_to=2026-09-01')).toEqual(['a']);
    expect(await ids('?source=gps')).toEqual(['a']);
    expect(await ids('?source=manual')).toEqual(['c']);
    expect(await ids('?source=unassigned')).toEqual(['b', 'd']);
    const page = await call('GET', '/api/v1/photos?page=2', member.token);
    expect(page.body).toEqual({ data: [], meta: { current_page: 2, per_page: 25, total: 4, last_page: 1 } });
    const bad = await call('GET', '/api/v1/photos?source=guess&captured_from=last-week&project=x&page=0', member.token);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['captured_from', 'page', 'project', 'source']);
    expect([a, b, c, d].every((photo) => typeof photo.id === 'number')).toBe(true);
  });

  it('is open to a device token (capture) and to photos:read; refused with 403 naming photos:read otherwise', async () => {
    const member = await createTeam(h, 'List Scopes');
    expect((await call('GET', '/api/v1/photos', await addToken(h, member, ['capture']))).status).toBe(200);
    expect((await call('GET', '/api/v1/photos', await addToken(h, member, ['photos:read']))).status).toBe(200);
    const refused = await call('GET', '/api/v1/photos', await addToken(h, member, ['projects:read']));
    expect(refused.status).toBe(403);
    expect(refused.body.error.missing_scope).toBe('photos:read');
  });
});

describe('PATCH /api/v1/photos/{photo}', () => {
  it('edits description and tags; a new project makes the assignment corrected with the distance recomputed', async () => {
    const member = await createTeam(h, 'Edit Team');
    const near = await addProject(h, member.team, { name: 'Near', lat: 30, lng: 30 });
    const far = await addProject(h, member.team, { name: 'Far', lat: 30.01, lng: 30 });
    const photo = await upload(member.token, { local_capture_id: 'e1', lat: '30', lng: '30', accuracy_m: '4', description: 'old' });
    expect(photo.assignment.source).toBe('gps');
    const edited = await call('PATCH', `/api/v1/photos/${photo.id}`, member.token, { description: 'new caption', tags: ['x', 'y', 'x'] });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ description: 'new caption', tags: ['x', 'y'], assignment: photo.assignment, project: { id: near.id } });
    const moved = await call('PATCH', `/api/v1/photos/${photo.id}`, member.token, { project_id: far.id });
    expect(moved.body.data.project).toEqual({ id: far.id, name: 'Far' });
    expect(moved.body.data.assignment.source).toBe('corrected');
    expect(moved.body.data.assignment.distance_m).toBeCloseTo(1112, -1);
    expect(moved.body.data.captured_at).toBe(photo.captured_at);
    expect(moved.body.data.location).toEqual(photo.location);
    // Naming the current project changes nothing.
    const same = await call('PATCH', `/api/v1/photos/${photo.id}`, member.token, { project_id: far.id });
    expect(same.body.data.assignment).toEqual(moved.body.data.assignment);
  });

  // Spec, endpoint table: "PATCH | /api/v1/photos/{photo} | photos:write | caption, tags, project".
  it('takes the spec\'s names caption, tags and project; description and project_id are aliases, never both with their name', async () => {
    const member = await createTeam(h, 'Spec Edit Team');
    const other = await createTeam(h, 'Spec Edit Other');
    const first = await addProject(h, member.team, { name: 'Spec First', lat: 40, lng: 40 });
    const second = await addProject(h, member.team, { name: 'Spec Second', lat: 40.01, lng: 40 });
    const photo = await upload(member.token, { local_capture_id: 'spec-edit', lat: '40', lng: '40', accuracy_m: '4' });
    const edited = await call('PATCH', `/api/v1/photos/${photo.id}`, member.token, { caption: 'Rebar at C4', tags: ['rebar'], project: second.id });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ description: 'Rebar at C4', tags: ['rebar'], project: { id: second.id, name: 'Spec Second' } });
    expect(edited.body.data.assignment.source).toBe('corrected');
    const aliased = await call('PATCH', `/api/v1/photos/${photo.id}`, member.token, { description: 'Rebar at C5', project_id: first.id });
    expect(aliased.status).toBe(200);
    expect(aliased.body.data).toMatchObject({ description: 'Rebar at C5', project: { id: first.id } });
    const refusals: Array<[Json, string[]]> = [
      [{ caption: 'a', description: 'b' }, ['caption', 'description']],
      [{ project: second.id, project_id: second.id, tags: ['z'] }, ['project', 'project_id']],
      [{ caption: 7 }, ['caption']],
      [{ project: 'Spec Second' }, ['project']],
      [{ project: other.project.id }, ['project']],
      [{ project_id: other.project.id }, ['project_id']],
    ];
    for (const [body, fields] of refusals) {
      const res = await call('PATCH', `/api/v1/photos/${photo.id}`, member.token, body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.error.fields).sort()).toEqual(fields);
    }
    expect((await call('GET', `/api/v1/photos/${photo.id}`, member.token)).body.data).toEqual(aliased.body.data);
  });

  it('refuses capture time, GPS, media and any other field with 422 naming it, and changes nothing', async () => {
    const member = await createTeam(h, 'Evidence Team');
    const other = await createTeam(h, 'Evidence Other');
    const photo = await upload(member.token, { local_capture_id: 'ev', captured_at: '2026-09-01T08:00:00Z', lat: '5', lng: '5', accuracy_m: '3' });
    const attempts: Array<[Json, string[]]> = [
      [{ captured_at: '2020-01-01T00:00:00Z', description: 'sneaky' }, ['captured_at']],
      [{ location: { lat: 1, lng: 1 } }, ['location']],
      [{ lat: 1, lng: 2, accuracy_m: 3 }, ['accuracy_m', 'lat', 'lng']],
      [{ local_capture_id: 'other', size_bytes: 1, urls: {} }, ['local_capture_id', 'size_bytes', 'urls']],
      [{ colour: 'red' }, ['colour']],
      [{ project_id: other.project.id }, ['project_id']],
      [{ tags: 'not-a-list' }, ['tags']],
    ];
    for (const [body, fields] of attempts) {
      const res = await call('PATCH', `/api/v1/photos/${photo.id}`, member.token, body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.error.fields).sort()).toEqual(fields);
    }
    expect((await call('GET', `/api/v1/photos/${photo.id}`, member.token)).body.data).toEqual(photo);
  });

  it('is not a capture endpoint: a device token gets 403 naming photos:write', async () => {
    const member = await createTeam(h, 'Edit Scopes');
    const photo = await upload(member.token, { local_capture_id: 'es' });
    const res = await call('PATCH', `/api/v1/photos/${photo.id}`, await addToken(h, member, ['capture']), { description: 'x' });
    expect(res.status).toBe(403);
    expect(res.body.error.missing_scope).toBe('photos:write');
  });
});

describe('photo groups', () => {
  it('pairs two photos of one project as before and after; lists pairs with both halves resolved', async () => {
    const member = await createTeam(h, 'Groups Team');
    const before = await upload(member.token, { local_capture_id: 'g-before', captured_at: '2026-09-01T08:00:00Z', project_id: String(member.project.id) });
    const after = await upload(member.token, { local_capture_id: 'g-after', captured_at: '2026-09-05T08:00:00Z', project_id: String(member.project.id) });
    const device = await addToken(h, member, ['capture']);
    const created = await call('POST', '/api/v1/photo-groups', device, { before_photo_id: before.id, after_photo_id: after.id });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ project: { id: member.project.id, name: member.project.name }, before, after });
    expect(typeof created.body.data.created_at).toBe('string');
    const again = await call('POST', '/api/v1/photo-groups', member.token, { before_photo_id: before.id, after_photo_id: after.id });
    expect(again.status).toBe(409);
    const list = await call('GET', '/api/v1/photo-groups', device);
    expect(list.body).toEqual({ data: [created.body.data], meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 } });
  });

  it('422 for a missing, foreign or identical photo, photos of different or no projects, and a before captured after the after', async () => {
    const member = await createTeam(h, 'Group Rules');
    const other = await createTeam(h, 'Group Other');
    const second = await addProject(h, member.team, { name: 'Second' });
    const at = (id: string, capturedAt: string, projectId?: number) => upload(member.token, { local_capture_id: id, captured_at: capturedAt, ...(projectId ? { project_id: String(projectId) } : {}) });
    const early = await at('early', '2026-09-01T08:00:00Z', member.project.id);
    const late = await at('late', '2026-09-02T08:00:00Z', member.project.id);
    const elsewhere = await at('elsewhere', '2026-09-03T08:00:00Z', second.id);
    const loose = await at('loose', '2026-09-03T08:00:00Z');
    const foreign = await upload(other.token, { local_capture_id: 'foreign', project_id: String(other.project.id) });
    const cases: Array<[Json, Record<string, string[]>]> = [
      [{ before_photo_id: early.id, after_photo_id: 999_999 }, { after_photo_id: ['No photo with this id in your team.'] }],
      [{ before_photo_id: foreign.id, after_photo_id: late.id }, { before_photo_id: ['No photo with this id in your team.'] }],
      [{ before_photo_id: early.id, after_photo_id: early.id }, { after_photo_id: ['Must be a different photo than before_photo_id.'] }],
      [{ before_photo_id: early.id, after_photo_id: elsewhere.id }, { after_photo_id: ['Must be a photo of the same project as the before photo.'] }],
      [{ before_photo_id: early.id, after_photo_id: loose.id }, { after_photo_id: ['Assign the photo to a project first: a pair documents one project.'] }],
      [{ before_photo_id: late.id, after_photo_id: early.id }, { before_photo_id: ['The before photo must not be captured after the after photo.'] }],
      [{ before_photo_id: early.id }, { after_photo_id: ['This field is required.'] }],
    ];
    for (const [body, fields] of cases) {
      const res = await call('POST', '/api/v1/photo-groups', member.token, body);
      expect([res.status, res.body.error.fields]).toEqual([422, fields]);
    }
    expect((await call('GET', '/api/v1/photo-groups', member.token)).body.meta.total).toBe(0);
  });
});

describe('ports for other modules', () => {
  it('counts photos, videos and pairs per project, and lists the team\'s tags in use, sorted', async () => {
    const member = await createTeam(h, 'Counts Team');
    const other = await createTeam(h, 'Counts Other');
    const p = String(member.project.id);
    const first = await upload(member.token, { local_capture_id: 'c1', project_id: p, tags: ['zinc', 'Beam'] });
    const second = await upload(member.token, { local_capture_id: 'c2', project_id: p, tags: ['alpha', 'zinc'] });
    await upload(member.token, { local_capture_id: 'c3', project_id: p }, await mp4());
    await upload(other.token, { local_capture_id: 'c1', tags: ['other'] });
    await call('POST', '/api/v1/photo-groups', member.token, { before_photo_id: first.id, after_photo_id: second.id });
    const em = h.orm.em.fork();
    const photos = new PhotoService(em, { storage: new LocalMediaStorage(h.mediaDir), limits: { photoMaxBytes: 1, videoMaxBytes: 1 }, projects: new ProjectService(em) });
    expect((await photos.projectMediaCounts([member.project.id, other.project.id])).get(member.project.id)).toEqual({ photo: 2, video: 1 });
    expect((await photos.projectMediaCounts([other.project.id])).get(other.project.id)).toEqual({ photo: 0, video: 0 });
    expect(await new PhotoGroupService(em).countsByProject([member.project.id, other.project.id])).toEqual(new Map([[member.project.id, 1], [other.project.id, 0]]));
    expect(await photos.tagsInUse(member.team.id)).toEqual(['Beam', 'alpha', 'zinc']);
    expect(await em.count(Photo, { team: member.team.id })).toBe(3);
  });
});

describe('subgraph', () => {
  const PHOTO_FIELDS = 'id localCaptureId project { id name } capturedAt mediaType tags location { lat lng accuracyM } assignment { source distanceM reason } urls { full thumb annotated poster } sizeBytes durationSeconds';

  it('PhotosTeam.photos and PhotosProject.photos with the assignment reasoning, photoGroups with both halves', async () => {
    const member = await createTeam(h, 'Graph Team');
    const site = await addProject(h, member.team, { name: 'Graph Site', lat: 40, lng: 40 });
    const matched = await upload(member.token, { local_capture_id: 'g1', lat: '40', lng: '40.0001', accuracy_m: '5', tags: ['deck'] });
    const loose = await upload(member.token, { local_capture_id: 'g2', captured_at: '2026-09-09T00:00:00Z' });
    await call('PATCH', `/api/v1/photos/${loose.id}`, member.token, { project_id: site.id });
    await call('POST', '/api/v1/photo-groups', member.token, { before_photo_id: matched.id, after_photo_id: loose.id });
    const { body } = await gql(
      url,
      `{ photosTeam { photos(source: GPS) { total items { ${PHOTO_FIELDS} } } all: photos { total } photoGroups { total items { project { name } before { localCaptureId } after { localCaptureId assignment { source } } } } }
         photosProjects { name photos(tag: "deck") { total items { localCaptureId } } } }`,
      bearer(member.token),
    );
    expect(body.errors).toBeUndefined();
    const team = body.data!.photosTeam as Json;
    expect(team.all.total).toBe(2);
    expect(team.photos.total).toBe(1);
    const photo = team.photos.items[0] as Json;
    expect(photo).toMatchObject({
      id: String(matched.id),
      localCaptureId: 'g1',
      project: { id: String(site.id), name: 'Graph Site' },
      capturedAt: null,
      mediaType: 'PHOTO',
      tags: ['deck'],
      location: { lat: 40, lng: 40.0001, accuracyM: 5 },
      assignment: { source: 'GPS', distanceM: matched.assignment.distance_m, reason: null },
      urls: { annotated: null, poster: null },
      sizeBytes: matched.size_bytes,
      durationSeconds: null,
    });
    expect((await fetch(photo.urls.full)).status).toBe(200);
    expect(team.photoGroups).toEqual({ total: 1, items: [{ project: { name: 'Graph Site' }, before: { localCaptureId: 'g1' }, after: { localCaptureId: 'g2', assignment: { source: 'CORRECTED' } } }] });
    const projects = body.data!.photosProjects as Json[];
    expect(projects.find((p) => p.name === 'Graph Site')?.photos).toEqual({ total: 1, items: [{ localCaptureId: 'g1' }] });
    expect(projects.find((p) => p.name !== 'Graph Site')?.photos).toEqual({ total: 0, items: [] });
  });

  it('_entities resolves the caller\'s own photos only (photos:read), another team\'s as null', async () => {
    const member = await createTeam(h, 'Entities Team');
    const other = await createTeam(h, 'Entities Other');
    const own = await upload(member.token, { local_capture_id: 'ent' });
    const foreign = await upload(other.token, { local_capture_id: 'ent' });
    const query = 'query($reps: [_Any!]!) { _entities(representations: $reps) { ... on PhotosPhoto { id localCaptureId } } }';
    const reps = [{ __typename: 'PhotosPhoto', id: String(own.id) }, { __typename: 'PhotosPhoto', id: String(foreign.id) }];
    const { body } = await gql(url, query, bearer(member.token), { reps });
    expect(body.data?._entities).toEqual([{ id: String(own.id), localCaptureId: 'ent' }, null]);
    const refused = await gql(url, query, bearer(await addToken(h, member, ['projects:read'])), { reps });
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'photos:read' });
  });

  it('updatePhotosPhoto edits description, tags and project with PATCH\'s rules; needs photos:write', async () => {
    const member = await createTeam(h, 'Graph Edit');
    const site = await addProject(h, member.team, { name: 'Graph Edit Site' });
    const photo = await upload(member.token, { local_capture_id: 'ge' });
    const mutation = 'mutation($id: ID!, $input: PhotosPhotoEditInput!) { updatePhotosPhoto(id: $id, input: $input) { description tags project { name } assignment { source reason } } }';
    const edited = await gql(url, mutation, bearer(member.token), { id: String(photo.id), input: { description: 'from GraphQL', tags: ['a'], projectId: String(site.id) } });
    expect(edited.body.data?.updatePhotosPhoto).toEqual({ description: 'from GraphQL', tags: ['a'], project: { name: 'Graph Edit Site' }, assignment: { source: 'CORRECTED', reason: null } });
    const refused = await gql(url, mutation, bearer(member.token), { id: String(photo.id), input: { projectId: 'nope' } });
    expect(refused.body.data?.updatePhotosPhoto).toBeNull();
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const device = await gql(url, mutation, bearer(await addToken(h, member, ['capture'])), { id: String(photo.id), input: { description: 'x' } });
    expect(device.body.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', missing_scope: 'photos:write' });
    const other = await createTeam(h, 'Graph Edit Other');
    const foreign = await gql(url, mutation, bearer(other.token), { id: String(photo.id), input: { description: 'x' } });
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await call('GET', `/api/v1/photos/${photo.id}`, member.token)).body.data.description).toBe('from GraphQL');
  });

  it('updatePhotosPhoto takes the spec\'s caption, with description as its alias (never both)', async () => {
    const member = await createTeam(h, 'Graph Caption');
    const photo = await upload(member.token, { local_capture_id: 'gc' });
    const mutation = 'mutation($id: ID!, $input: PhotosPhotoEditInput!) { updatePhotosPhoto(id: $id, input: $input) { description } }';
    const edited = await gql(url, mutation, bearer(member.token), { id: String(photo.id), input: { caption: 'captioned' } });
    expect(edited.body.data?.updatePhotosPhoto).toEqual({ description: 'captioned' });
    const both = await gql(url, mutation, bearer(member.token), { id: String(photo.id), input: { caption: 'a', description: 'b' } });
    expect(both.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await call('GET', `/api/v1/photos/${photo.id}`, member.token)).body.data.description).toBe('captioned');
  });
});
