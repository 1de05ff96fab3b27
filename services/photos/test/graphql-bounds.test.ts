// photos's own /graphql (the service's public port) is bounded like the gateway: the kit's depth, cost and alias
// limits refuse an operation before anything runs; and every numeric argument is checked like its REST twin (the same
// bounds, the same field messages), as BAD_USER_INPUT that changes nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GRAPHQL_LIMIT_CODES } from '@tributary/kit';
import { Project } from '../src/modules/projects/index.js';
import { addProject, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';
import { jpeg } from './support/media-fixtures.js';

let h: PhotosHarness;
let url: string;
let token: string;
const bearer = () => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  h = await startHarness();
  url = h.service.url;
  const member = await createTeam(h, 'Bounds Team', {}, { role: 'owner' });
  token = member.token;
  await addProject(h, member.team, { name: 'Second site', lat: 52.52, lng: 13.4 });
  const form = new FormData();
  form.append('local_capture_id', 'bounds-1');
  form.append('project_id', String(member.project.id));
  form.append('file', new Blob([new Uint8Array(await jpeg())]), 'capture.jpg');
  const upload = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(), body: form });
  expect(upload.status).toBe(201);
});
afterAll(async () => {
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies under test

/** `levels` fields down the project ↔ photos cycle below photosProjects, ending in id: depth levels + 2. */
const projectPhotosCycle = (levels: number): string => {
  const steps = ['photos', 'items', 'project'];
  const open = Array.from({ length: levels }, (_, i) => `${steps[i % 3]} {`).join(' ');
  return `{ photosProjects { ${open} id ${'} '.repeat(levels)}} }`;
};

describe('limits on photos /graphql', () => {
  it('refuses an operation deeper than GRAPHQL_MAX_DEPTH (10) through project ↔ photos with QUERY_TOO_DEEP; 10 runs', async () => {
    const refused = await gql(url, projectPhotosCycle(9), bearer());
    // A validation refusal: the operation never executes, so no resolver and no SQL statement runs.
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: 'Query depth limit of 10 exceeded, found 11.', extensions: { code: GRAPHQL_LIMIT_CODES.depth } }] } });
    const atLimit = await gql(url, projectPhotosCycle(8), bearer());
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.errors).toBeUndefined();
    expect(atLimit.body.data?.photosProjects).toHaveLength(2);
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES (15) with TOO_MANY_ALIASES; 15 run', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `p${i}: photosProjects { photos { items { project { photos { total } } } } }`).join(' ')} }`;
    const refused = await gql(url, aliases(16), bearer());
    expect(refused).toEqual({ status: 400, body: { errors: [{ message: 'Aliases limit of 15 exceeded, found 16.', extensions: { code: GRAPHQL_LIMIT_CODES.aliases } }] } });
    const atLimit = await gql(url, aliases(15), bearer());
    expect(atLimit.body.errors).toBeUndefined();
    expect(Object.keys(atLimit.body.data ?? {})).toHaveLength(15);
  });
});

/** A numeric argument: its GraphQL use (`$v`) and the REST request that takes the same value. */
interface NumericArgument {
  name: string;
  /** The variable's GraphQL type. */
  type: 'Int' | 'Float' | 'Float!' | 'ID!';
  graphql: string;
  rest: (value: number) => { method: 'GET' | 'POST'; path: string; body?: unknown };
  /** Out-of-range values (the REST twin's 422). */
  refused: readonly number[];
  /** In-range values at the bounds. */
  accepted: readonly number[];
}

const INT_MAX = 2 ** 31 - 1;
const PAGE_VALUES = { refused: [0, -1, 10_001, INT_MAX], accepted: [1, 10_000] } as const;
const page = (name: string, graphql: string, path: string): NumericArgument => ({
  name,
  type: 'Int',
  graphql,
  rest: (value) => ({ method: 'GET', path: `${path}${path.includes('?') ? '&' : '?'}page=${value}` }),
  ...PAGE_VALUES,
});

let projectId = 0;
const ARGUMENTS: NumericArgument[] = [
  page('PhotosTeam.photos(page)', '{ photosTeam { photos(page: $v) { total } } }', '/api/v1/photos'),
  page('PhotosProject.photos(page)', '{ photosProjects { photos(page: $v) { total } } }', '/api/v1/photos'),
  page('PhotosTeam.photoGroups(page)', '{ photosTeam { photoGroups(page: $v) { total } } }', '/api/v1/photo-groups'),
  page('PhotosTeam.checklists(page)', '{ photosTeam { checklists(page: $v) { total } } }', '/api/v1/checklists'),
  page('PhotosProject.checklists(page)', '{ photosProjects { checklists(page: $v) { total } } }', '/api/v1/checklists'),
  page('PhotosTeam.tasks(page)', '{ photosTeam { tasks(page: $v) { total } } }', '/api/v1/tasks'),
  page('PhotosProject.tasks(page)', '{ photosProjects { tasks(page: $v) { total } } }', '/api/v1/tasks'),
  page('PhotosProject.reports(page)', '{ photosProjects { reports(page: $v) { total } } }', '/api/v1/reports'),
  page('Query.photosNotifications(page)', '{ photosNotifications(page: $v) { total } }', '/api/v1/notifications'),
  { ...page('PhotosProject.comments(page)', '{ photosProjects { comments(page: $v) { total } } }', ''), rest: (value) => ({ method: 'GET', path: `/api/v1/comments?project_id=${projectId}&page=${value}` }) },
  { ...page('PhotosPhoto.comments(page)', '{ photosTeam { photos { items { comments(page: $v) { total } } } } }', ''), rest: (value) => ({ method: 'GET', path: `/api/v1/comments?project_id=${projectId}&page=${value}` }) },
  page('Query.photosCustomers(page)', '{ photosCustomers(page: $v) { total } }', '/api/v1/customers'),
  page('PhotosProject.pages(page)', '{ photosProjects { pages(page: $v) { total } } }', '/api/v1/pages'),
  {
    name: 'CreatePhotosProjectInput.radiusM',
    type: 'Float',
    graphql: 'mutation { createPhotosProject(input: { name: "Radius", coordinates: { lat: 1, lng: 2 }, radiusM: $v }) { id } }',
    rest: (value) => ({ method: 'POST', path: '/api/v1/projects', body: { name: 'Radius', coordinates: { lat: 1, lng: 2 }, radius_m: value } }),
    refused: [0, -1, 9.99, 5_000.5, 1e308],
    accepted: [10, 5_000],
  },
  {
    name: 'PhotosLatLngInput.lat',
    type: 'Float!',
    graphql: 'mutation { createPhotosProject(input: { name: "Lat", coordinates: { lat: $v, lng: 2 } }) { id } }',
    rest: (value) => ({ method: 'POST', path: '/api/v1/projects', body: { name: 'Lat', coordinates: { lat: value, lng: 2 } } }),
    refused: [-90.5, 90.5, 1e308, -1e308],
    accepted: [-90, 90],
  },
  {
    name: 'PhotosLatLngInput.lng',
    type: 'Float!',
    graphql: 'mutation { createPhotosProject(input: { name: "Lng", coordinates: { lat: 1, lng: $v } }) { id } }',
    rest: (value) => ({ method: 'POST', path: '/api/v1/projects', body: { name: 'Lng', coordinates: { lat: 1, lng: value } } }),
    refused: [-180.5, 180.5, 1e308],
    accepted: [-180, 180],
  },
  {
    name: 'CreatePhotosAccessTokenInput.expiresInDays',
    type: 'Int',
    graphql: 'mutation { createPhotosAccessToken(input: { name: "Bounds", abilities: ["projects:read"], expiresInDays: $v }) { token } }',
    rest: (value) => ({ method: 'POST', path: '/api/v1/auth/tokens', body: { name: 'Bounds', abilities: ['projects:read'], expires_in_days: value } }),
    refused: [0, -1, 366, INT_MAX],
    accepted: [1, 365],
  },
  {
    name: 'Mutation.markPhotosNotificationsRead(ids)',
    type: 'ID!',
    graphql: 'mutation { markPhotosNotificationsRead(ids: [$v]) }',
    rest: (value) => ({ method: 'POST', path: '/api/v1/notifications/read', body: { ids: [value] } }),
    refused: [0, -1, 2 ** 31],
    accepted: [1, INT_MAX],
  },
];

/** The operation with `$v` declared (an argument's value always travels as a variable, as a client's would). */
const withVariable = (argument: NumericArgument): string => {
  const operation = argument.graphql.startsWith('mutation') ? 'mutation' : 'query';
  return `${operation} ($v: ${argument.type}) ${argument.graphql.replace(/^mutation /, '')}`;
};

async function rest(argument: NumericArgument, value: number): Promise<{ status: number; body: Json }> {
  const request = argument.rest(value);
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: { ...bearer(), ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('numeric arguments on photos /graphql are checked like their REST twins', () => {
  beforeAll(async () => {
    projectId = (await h.orm.em.fork().findOneOrFail(Project, { name: 'Bounds Team site' })).id;
  });

  it.each(ARGUMENTS.flatMap((argument) => argument.refused.map((value) => [argument.name, value, argument] as const)))('%s = %d: BAD_USER_INPUT with the REST 422 fields', async (_name, value, argument) => {
    const twin = await rest(argument, value);
    expect(twin.status).toBe(422);
    const projects = await h.orm.em.fork().count(Project, {});
    const { status, body } = await gql(url, withVariable(argument), bearer(), { v: value });
    expect(status).toBe(200);
    expect(body.errors?.length).toBeGreaterThan(0);
    for (const error of body.errors ?? []) {
      expect(error).toMatchObject({ message: 'The given data was invalid.', extensions: { code: 'BAD_USER_INPUT', fields: twin.body.error.fields } });
    }
    expect(await h.orm.em.fork().count(Project, {})).toBe(projects);
  });

  it.each(ARGUMENTS.flatMap((argument) => argument.accepted.map((value) => [argument.name, value, argument] as const)))('%s = %d: answered', async (_name, value, argument) => {
    const { status, body } = await gql(url, withVariable(argument), bearer(), { v: value });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });
});

describe('list and float arguments on photos /graphql', () => {
  it('markPhotosNotificationsRead takes at most 100 ids, like POST /api/v1/notifications/read', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => i + 1);
    const twin = await rest({ rest: () => ({ method: 'POST', path: '/api/v1/notifications/read', body: { ids } }) } as unknown as NumericArgument, 0);
    expect(twin.status).toBe(422);
    const { body } = await gql(url, 'mutation ($ids: [ID!]) { markPhotosNotificationsRead(ids: $ids) }', bearer(), { ids: ids.map(String) });
    expect(body.errors).toEqual([expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT', fields: twin.body.error.fields } })]);
    expect((await gql(url, 'mutation ($ids: [ID!]) { markPhotosNotificationsRead(ids: $ids) }', bearer(), { ids: ids.slice(1).map(String) })).body).toEqual({ data: { markPhotosNotificationsRead: 0 } });
  });

  it('photosNearbyProjects answers an out-of-range fix as NO_FIX, like GET /api/v1/projects/nearby (SDL: "a missing or out-of-range value is NO_FIX")', async () => {
    const query = 'query ($lat: Float, $lng: Float, $acc: Float) { photosNearbyProjects(lat: $lat, lng: $lng, accuracyM: $acc) { decision reason } }';
    for (const [lat, lng, acc] of [[91, 13.4, 10], [-91, 13.4, 10], [52.5, 181, 10], [52.5, -181, 10], [52.5, 13.4, -1], [1e308, 13.4, 10], [52.5, 13.4, 1e308]] as const) {
      const fix = new URLSearchParams({ lat: String(lat), lng: String(lng), accuracy_m: String(acc) });
      const twin = await fetch(`${url}/api/v1/projects/nearby?${fix}`, { headers: bearer() });
      expect(twin.status).toBe(200);
      const twinReason = ((await twin.json()) as Json).data.reason;
      const { body } = await gql(url, query, bearer(), { lat, lng, acc });
      expect(body.errors).toBeUndefined();
      expect(body.data?.photosNearbyProjects).toEqual({ decision: 'UNASSIGNED', reason: String(twinReason).toUpperCase() });
    }
  });
});
