// Reports end to end: the real app over HTTP, the real photos worker (report and media activities) on the time-skipping
// Temporal server, real photos in local storage. A report of three photos is created, rendered to PDF by the worker,
// downloaded and parsed with pdfjs (pages, text, embedded images, the manifest's hashes); scopes, roles, other teams,
// validation, share links and a failed rendering are checked over HTTP; webhooks carry the REST resource.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createLogger, generateSecretBoxKey, verifyStandardWebhook } from '@tributary/kit';
import { startHttpsReceiver, waitFor, type HttpsReceiver } from '@tributary/kit/testing';
import { startTimeSkippingEnvironment } from '@tributary/workflows/testing';
import { OPS, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { Photo } from '../src/modules/photos/index.js';
import { Project } from '../src/modules/projects/index.js';
import { Report } from '../src/modules/reports/index.js';
import { TeamMembership, User } from '../src/modules/teams/index.js';
import { LocalMediaStorage } from '../src/storage/index.js';
import { startWorker, type RunningWorker } from '../src/worker.js';
import { addProject, addToken, createTeam, gql, startHarness, type PhotosHarness } from './helpers.js';
import { writeHevcHeic } from './support/heic.js';
import { jpeg, jpegWithOrientation6, landscapeImage, mp4, tempDir } from './support/media-fixtures.js';

type TimeSkippingEnvironment = Awaited<ReturnType<typeof startTimeSkippingEnvironment>>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const KEY = generateSecretBoxKey();
const PRIVATE_HOSTS = ['localhost', '127.0.0.1'];
const STANDARD_FONTS = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let temporal: TimeSkippingEnvironment;
let h: PhotosHarness;
let receiver: HttpsReceiver;
let worker: RunningWorker;
let url: string;
let team: Awaited<ReturnType<typeof createTeam>>;
let other: Awaited<ReturnType<typeof createTeam>>;
let hookSecret: string;
/** The three photos of the first report: uploaded bytes and resources, in upload order. */
const uploaded: Array<{ bytes: Buffer; data: Json }> = [];

beforeAll(async () => {
  temporal = await startTimeSkippingEnvironment();
  const env = { SECRETS_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS.join(','), TEMPORAL_ADDRESS: temporal.address };
  h = await startHarness({ env });
  url = h.service.url;
  receiver = await startHttpsReceiver();
  worker = await startWorker({
    orm: h.orm,
    logger: createLogger({ service: 'photos', level: 'silent' }),
    config: { TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace ?? 'default', WEBHOOK_ALLOW_PRIVATE_HOSTS: PRIVATE_HOSTS },
    // The worker signs the URLs of its webhooks' data for the service's own base URL, as the stack's worker does.
    env: { ...env, MEDIA_STORAGE_DIR: h.mediaDir, PUBLIC_BASE_URL: url },
  });
  team = await createTeam(h, 'Reporting Builders');
  other = await createTeam(h, 'Other Builders');
  await setUpProject();
}, 180_000);

afterAll(async () => {
  await worker?.shutdown();
  await temporal?.teardown();
  await receiver?.close();
  await h?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(method: string, route: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = token ? bearer(token) : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}/api/v1${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (text ? JSON.parse(text) : null) as Json };
}

async function upload(token: string, bytes: Buffer, parts: Record<string, string>): Promise<Json> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), 'photo.jpg');
  const res = await fetch(`${url}/api/v1/photos`, { method: 'POST', headers: bearer(token), body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: Json }).data;
}

/** The team's project gets an address and coordinates, three photos with captions, GPS and capture times, and a webhook endpoint. */
async function setUpProject(): Promise<void> {
  const em = h.orm.em.fork();
  await em.nativeUpdate(Project, { id: team.project.id }, { address: '12 Harbour Street, Auckland', latitude: -36.8433, longitude: 174.7676 });
  const photos: Array<[Buffer, Record<string, string>]> = [
    [await landscapeImage('jpeg', 800, 600), { description: 'North stair before demolition', lat: '-36.84331', lng: '174.76762', accuracy_m: '6', captured_at: '2026-11-20T09:15:00Z' }],
    [await jpegWithOrientation6(900, 600), { description: 'Portrait of the lift shaft', captured_at: '2026-11-21T10:00:00Z' }],
    [await jpeg(640, 480), { description: 'Roof membrane, east edge', lat: '-36.8434', lng: '174.7677', accuracy_m: '4' }],
  ];
  for (const [index, [bytes, parts]] of photos.entries()) {
    const data = await upload(team.token, bytes, { local_capture_id: `report-${index}`, project_id: String(team.project.id), ...parts });
    uploaded.push({ bytes, data });
  }
  // Webhook endpoints are an owner's or admin's; reports are made by the team's member.
  const hook = await call('POST', '/webhook-endpoints', await addOwner(), { url: `${receiver.url}/reports-hook`, events: ['report.created', 'report.ready', 'report.failed', 'report.updated'] });
  expect(hook.status).toBe(201);
  hookSecret = hook.body.data.secret;
}

/** A second user of the team, an owner, with an office session. */
async function addOwner(): Promise<string> {
  const em = h.orm.em.fork();
  const user = em.create(User, { name: 'Owner', email: `${crypto.randomUUID()}@example.test`, passwordHash: null });
  em.create(TeamMembership, { team: team.team.id, user, role: 'owner' });
  await em.flush();
  return addToken(h, { team: team.team, user }, null);
}

const ready = (id: number, token = team.token) =>
  waitFor(async () => (await call('GET', `/reports/${id}`, token)).body.data as Json, (report) => report.status === 'ready' || report.status === 'failed', 60_000);

/** The text of each page, and whether each page paints an image. */
async function readPdf(bytes: Uint8Array) {
  const pdf = await getDocument({ data: bytes, standardFontDataUrl: STANDARD_FONTS }).promise;
  const pages: Array<{ text: string; images: number }> = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const text = (await page.getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join(' ');
    const operators = await page.getOperatorList();
    pages.push({ text, images: operators.fnArray.filter((op) => op === OPS.paintImageXObject).length });
  }
  await pdf.cleanup();
  return pages;
}

let report: Json;

describe('a report of three photos', () => {
  it('is created queued, with its photos in the order given; Location names it', async () => {
    const order = [uploaded[1]!, uploaded[0]!, uploaded[2]!].map((u) => u.data.id as number);
    const created = await call('POST', '/reports', team.token, { project_id: team.project.id, title: 'Handover: stair and roof', photo_ids: order, notes: 'For the owner\'s handover meeting.' });
    expect(created.status).toBe(201);
    report = created.body.data;
    expect(created.headers.get('location')).toBe(`/api/v1/reports/${report.id}`);
    expect(report).toMatchObject({
      title: 'Handover: stair and roof',
      project: { id: team.project.id, name: team.project.name },
      status: 'queued',
      failure: null,
      share: { state: 'private', shared_at: null },
      photo_count: 3,
      download_url: null,
      pdf_sha256: null,
      created_by: { id: team.user.id, name: 'Member' },
    });
    expect(report.photos.map((p: Json) => [p.position, p.photo.id])).toEqual(order.map((id, index) => [index + 1, id]));
    expect(report.manifest.photos.map((p: Json) => p.sha256)).toEqual([null, null, null]);
    const stored = await h.orm.em.fork().findOneOrFail(Report, { id: report.id });
    expect(stored.status === 'queued' || stored.status === 'rendering' || stored.status === 'ready').toBe(true);
  });

  it('is rendered by the worker: ready, with each original\'s SHA-256 and a download_url', async () => {
    const rendered = await ready(report.id);
    expect(rendered.status).toBe('ready');
    expect(rendered.page_count).toBe(5);
    expect(rendered.rendered_at).not.toBeNull();
    const expected = [uploaded[1]!, uploaded[0]!, uploaded[2]!].map((u) => sha256(u.bytes));
    expect(rendered.manifest).toEqual({
      algorithm: 'SHA-256',
      photos: [1, 0, 2].map((i, index) => ({ position: index + 1, photo_id: uploaded[i]!.data.id, local_capture_id: `report-${i}`, sha256: expected[index] })),
    });
    expect(rendered.download_url).toMatch(new RegExp(`^${url}/api/v1/reports/${report.id}/pdf\\?expires=\\d+&signature=`));
    report = rendered;
  });

  it('downloads without a token; the PDF is what pdf_sha256 and Repr-Digest say', async () => {
    const res = await fetch(report.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(sha256(bytes)).toBe(report.pdf_sha256);
    expect(bytes.length).toBe(report.pdf_size_bytes);
    expect(res.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(report.pdf_sha256, 'hex').toString('base64')}:`);
  });

  it('holds the cover, one page per photo with its image and evidence, and the manifest last', async () => {
    const bytes = new Uint8Array(await (await fetch(report.download_url)).arrayBuffer());
    // Read before pdfjs takes the bytes (it detaches the buffer it is given).
    const dictionaries = Buffer.from(bytes).toString('latin1');
    const pages = await readPdf(bytes);
    expect(pages).toHaveLength(5);
    const [cover, first, second, third, manifest] = pages;
    expect(cover!.text).toContain('Handover: stair and roof');
    expect(cover!.text).toContain(team.project.name);
    expect(cover!.text).toContain('12 Harbour Street, Auckland');
    expect(cover!.text).toContain('-36.843300, 174.767600');
    expect(cover!.text).toContain("For the owner's handover meeting.");
    expect(cover!.images).toBe(0);
    // Print order: the portrait photo first, then the stair, then the roof.
    expect(first!.text).toContain('Portrait of the lift shaft');
    expect(first!.text).toContain('2026-11-21 10:00:00 UTC');
    expect(first!.text).toContain('no fix');
    expect(second!.text).toContain('North stair before demolition');
    expect(second!.text).toContain('-36.843310, 174.767620 (accuracy 6 m)');
    expect(second!.text).toContain('manual');
    expect(third!.text).toContain('Roof membrane, east edge');
    expect(third!.text).toContain('not reported by the device');
    for (const page of [first, second, third]) expect(page!.images).toBe(1);
    expect(manifest!.images).toBe(0);
    expect(manifest!.text).toContain('Manifest');
    for (const entry of report.manifest.photos) expect(manifest!.text).toContain(entry.sha256);
    // The images are embedded at their own size, EXIF orientation applied (900×600 stored sideways prints 600×900).
    const sizes = [...dictionaries.matchAll(/\/Subtype \/Image[\s\S]{0,200}?\/Width (\d+)\s*\/Height (\d+)/g)].map((m) => `${m[1]}x${m[2]}`);
    expect(sizes.sort()).toEqual(['600x900', '640x480', '800x600']);
  });

  it('report.created and report.ready reached the endpoint, signed, data byte for byte the REST resource', async () => {
    const hooks = await waitFor(async () => receiver.requests.filter((r) => r.path === '/reports-hook'), (requests) => requests.length >= 2, 30_000);
    const readyHook = hooks.find((r) => r.body.toString('utf8').includes('"type":"report.ready"'))!;
    expect(verifyStandardWebhook(hookSecret, readyHook.headers, readyHook.body)).toEqual({ ok: true });
    const shown = await call('GET', `/reports/${report.id}`, team.token);
    expect(readyHook.body.toString('utf8')).toContain(`"data":${JSON.stringify(shown.body.data)}}`);
    expect(hooks.some((r) => r.body.toString('utf8').includes('"type":"report.created"') && r.body.toString('utf8').includes('"status":"queued"'))).toBe(true);
  });

  it('is listed with status and share state (photos omitted), filtered by project and status', async () => {
    const listed = await call('GET', `/reports?project=${team.project.id}&status=ready`, team.token);
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toEqual({ current_page: 1, per_page: 25, total: 1, last_page: 1 });
    expect(listed.body.data[0]).toMatchObject({ id: report.id, status: 'ready', share: { state: 'private' }, photo_count: 3 });
    expect(listed.body.data[0].photos).toBeUndefined();
    expect((await call('GET', '/reports?status=failed', team.token)).body.data.map((r: Json) => r.id)).not.toContain(report.id);
  });
});

describe('the signed download URL', () => {
  it('refuses an altered signature or expiry (403) and an unknown report (404)', async () => {
    const link = new URL(report.download_url);
    const signature = link.searchParams.get('signature')!;
    link.searchParams.set('signature', `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    expect((await fetch(link)).status).toBe(403);
    const stretched = new URL(report.download_url);
    stretched.searchParams.set('expires', String(Number(stretched.searchParams.get('expires')) + 3600));
    expect((await fetch(stretched)).status).toBe(403);
    expect((await fetch(`${url}/api/v1/reports/${report.id}/pdf`)).status).toBe(403);
    expect((await fetch(report.download_url.replace(`/reports/${report.id}/`, '/reports/999999/'))).status).toBe(404);
  });
});

describe('share links', () => {
  it('a link downloads the PDF without a token; making it again replaces it; revoking makes it 404', async () => {
    const shared = await call('POST', `/reports/${report.id}/share`, team.token);
    expect(shared.status).toBe(200);
    expect(shared.body.data.share).toEqual({ state: 'link', shared_at: expect.any(String) });
    const link: string = shared.body.share_url;
    expect(link).toMatch(new RegExp(`^${url}/api/v1/shared-reports/rps_[A-Za-z0-9_-]{43}$`));
    const res = await fetch(link);
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'application/pdf', 'no-store']);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(report.pdf_sha256);
    // The token is never stored: only its hash.
    const stored = await h.orm.em.fork().findOneOrFail(Report, { id: report.id });
    expect(stored.shareTokenHash).toBe(sha256(Buffer.from(link.split('/').pop()!)));
    expect((await call('GET', `/reports/${report.id}`, team.token)).text).not.toContain(link.split('/').pop()!);

    const again = await call('POST', `/reports/${report.id}/share`, team.token);
    expect(again.body.share_url).not.toBe(link);
    expect((await fetch(link)).status).toBe(404);
    expect((await fetch(again.body.share_url)).status).toBe(200);

    const revoked = await call('DELETE', `/reports/${report.id}/share`, team.token);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.share).toEqual({ state: 'private', shared_at: null });
    expect((await fetch(again.body.share_url)).status).toBe(404);
    expect((await call('DELETE', `/reports/${report.id}/share`, team.token)).body.data.share.state).toBe('private');
    expect((await fetch(`${url}/api/v1/shared-reports/rps_${'A'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${url}/api/v1/shared-reports/not-a-token`)).status).toBe(404);
  });

  it('share changes are announced as report.updated with the REST resource', async () => {
    const updates = await waitFor(async () => receiver.requests.filter((r) => r.body.toString('utf8').includes('"type":"report.updated"')), (r) => r.length >= 3, 30_000);
    const last = (await call('GET', `/reports/${report.id}`, team.token)).body.data;
    expect(updates.some((r) => r.body.toString('utf8').includes(`"data":${JSON.stringify(last)}}`))).toBe(true);
    // The second revoke changed nothing: three updates (share, share again, revoke), not four.
    const rows = await h.orm.em.fork().getConnection().execute<Array<{ n: string }>>(`select count(*) as n from webhook_deliveries where event_name = 'report.updated'`);
    expect(Number(rows[0]!.n)).toBe(3);
  });
});

describe('scopes and roles', () => {
  it('reads need reports:read (403 naming it); a token holding it reads', async () => {
    const reader = await addToken(h, team, ['reports:read']);
    const photosOnly = await addToken(h, team, ['photos:read', 'projects:read']);
    const device = await addToken(h, team, ['capture']);
    expect((await call('GET', '/reports', reader)).status).toBe(200);
    expect((await call('GET', `/reports/${report.id}`, reader)).body.data.id).toBe(report.id);
    for (const token of [photosOnly, device]) {
      for (const route of ['/reports', `/reports/${report.id}`]) {
        const refused = await call('GET', route, token);
        expect([refused.status, refused.body]).toEqual([403, { error: expect.objectContaining({ code: 'forbidden', missing_scope: 'reports:read' }) }]);
      }
    }
    expect((await call('GET', '/reports', null)).status).toBe(401);
  });

  it('create, share and unshare need an office session: tokens with abilities get 403, whatever they hold', async () => {
    const everything = await addToken(h, team, ['reports:read', 'photos:write', 'photos:read', 'projects:write']);
    const before = await h.orm.em.fork().count(Report, {});
    const body = { project_id: team.project.id, title: 'By token', photo_ids: [uploaded[0]!.data.id] };
    for (const [method, route, payload] of [['POST', '/reports', body], ['POST', `/reports/${report.id}/share`, undefined], ['DELETE', `/reports/${report.id}/share`, undefined]] as const) {
      const refused = await call(method, route, everything, payload);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('office session');
    }
    expect(await h.orm.em.fork().count(Report, {})).toBe(before);
  });

  it("another team's report reads as 404 everywhere; its lists never show it", async () => {
    for (const [method, route] of [['GET', `/reports/${report.id}`], ['POST', `/reports/${report.id}/share`], ['DELETE', `/reports/${report.id}/share`]] as const) {
      expect((await call(method, route, other.token)).status).toBe(404);
    }
    expect((await call('GET', '/reports', other.token)).body.data).toEqual([]);
    expect((await call('GET', '/reports/abc', team.token)).status).toBe(404);
    expect((await call('GET', '/reports/99999999999', team.token)).status).toBe(404);
  });
});

describe('validation', () => {
  it('refuses bad bodies with 422 naming the field, and creates nothing', async () => {
    const second = await addProject(h, team.team, { name: 'Second site' });
    const elsewhere = await upload(team.token, await jpeg(), { local_capture_id: 'elsewhere', project_id: String(second.id) });
    const othersPhoto = await upload(other.token, await jpeg(), { local_capture_id: 'theirs', project_id: String(other.project.id) });
    const ids = uploaded.map((u) => u.data.id as number);
    const base = { project_id: team.project.id, title: 'T', photo_ids: ids };
    const cases: Array<[unknown, string]> = [
      [{ ...base, title: '   ' }, 'title'],
      [{ ...base, title: undefined }, 'title'],
      [{ ...base, photo_ids: [] }, 'photo_ids'],
      [{ ...base, photo_ids: [ids[0], ids[0]] }, 'photo_ids'],
      [{ ...base, photo_ids: Array.from({ length: 51 }, (_, i) => i + 1) }, 'photo_ids'],
      [{ ...base, photo_ids: ['1'] }, 'photo_ids.0'],
      [{ ...base, photo_ids: [ids[0], elsewhere.id] }, 'photo_ids.1'],
      [{ ...base, photo_ids: [othersPhoto.id] }, 'photo_ids.0'],
      [{ ...base, photo_ids: [2_000_000_000] }, 'photo_ids.0'],
      [{ ...base, project_id: other.project.id }, 'project_id'],
      [{ ...base, project_id: 0 }, 'project_id'],
      [{ ...base, notes: 'x'.repeat(5_001) }, 'notes'],
      [{ ...base, status: 'ready' }, 'status'],
      [[], 'body'],
    ];
    const before = await h.orm.em.fork().count(Report, {});
    for (const [body, field] of cases) {
      const refused = await call('POST', '/reports', team.token, body);
      expect([JSON.stringify(body).slice(0, 60), refused.status, Object.keys(refused.body.error.fields ?? {})]).toEqual([JSON.stringify(body).slice(0, 60), 422, expect.arrayContaining([field])]);
    }
    expect(await h.orm.em.fork().count(Report, {})).toBe(before);
  });

  it('refuses bad list queries with 422 naming the parameter', async () => {
    for (const [query, field] of [['status=done', 'status'], ['project=abc', 'project'], ['project=0', 'project'], ['page=0', 'page'], ['page=1.5', 'page']]) {
      const refused = await call('GET', `/reports?${query}`, team.token);
      expect([query, refused.status, Object.keys(refused.body.error.fields ?? {})]).toEqual([query, 422, [field]]);
    }
  });
});

describe('a report whose photo cannot be read', () => {
  it('is recorded failed with the reason (no retries for a missing original); it cannot be shared', async () => {
    const lost = await upload(team.token, await jpeg(), { local_capture_id: 'lost', project_id: String(team.project.id) });
    const photo = await h.orm.em.fork().findOneOrFail(Photo, { id: lost.id });
    await new LocalMediaStorage(h.mediaDir).delete(photo.originalKey);
    const created = await call('POST', '/reports', team.token, { project_id: team.project.id, title: 'Missing original', photo_ids: [uploaded[0]!.data.id, lost.id] });
    expect(created.status).toBe(201);
    const failed = await ready(created.body.data.id);
    expect(failed).toMatchObject({ status: 'failed', failure: { reason: 'unrenderable_media', message: `The original of photo ${lost.id} is missing from storage.` }, download_url: null, pdf_sha256: null });
    const share = await call('POST', `/reports/${failed.id}/share`, team.token);
    expect([share.status, share.body.error.code]).toEqual([409, 'conflict']);
    const hooks = await waitFor(async () => receiver.requests.filter((r) => r.body.toString('utf8').includes('"type":"report.failed"')), (r) => r.length >= 1, 30_000);
    expect(hooks[0]!.body.toString('utf8')).toContain(`"data":${JSON.stringify(failed)}}`);
  });
});

describe('videos and photos that cannot be decoded', () => {
  it('a video prints its poster frame; an HEVC HEIC prints a note instead of the image; both keep their hash', async () => {
    const dir = tempDir('reports-heic');
    try {
      const videoBytes = await mp4();
      const heicBytes = writeHevcHeic(dir.dir);
      const video = await upload(team.token, videoBytes, { local_capture_id: 'report-video', project_id: String(team.project.id), description: 'Walk-through video' });
      const heic = await upload(team.token, heicBytes, { local_capture_id: 'report-heic', project_id: String(team.project.id), description: 'iPhone HEIC' });
      // The poster is the media workflow's: the report is made once it exists.
      await waitFor(async () => h.orm.em.fork().findOneOrFail(Photo, { id: video.id }), (photo) => photo.mediaProcessedAt != null, 60_000);
      const created = await call('POST', '/reports', team.token, { project_id: team.project.id, title: 'Mixed media', photo_ids: [video.id, heic.id] });
      const done = await ready(created.body.data.id);
      expect(done.status).toBe('ready');
      expect(done.manifest.photos.map((p: Json) => p.sha256)).toEqual([sha256(videoBytes), sha256(heicBytes)]);
      const pages = await readPdf(new Uint8Array(await (await fetch(done.download_url)).arrayBuffer()));
      expect(pages.map((page) => page.images)).toEqual([0, 1, 0, 0]);
      expect(pages[1]!.text).toContain('Walk-through video');
      expect(pages[1]!.text).toContain('video, video/mp4');
      expect(pages[2]!.text).toContain('This image/heic cannot be printed');
    } finally {
      dir.cleanup();
    }
  }, 90_000);
});

describe('GraphQL', () => {
  const REPORT_FIELDS = 'id title status share { state sharedAt } pdfSha256 downloadUrl photoCount photos { position sha256 photo { id description } }';

  it('PhotosProject.reports and photosReport answer what REST answers, with reports:read', async () => {
    const reader = await addToken(h, team, ['reports:read', 'projects:read', 'photos:read']);
    const answer = await gql(url, `{ photosReport(id: "${report.id}") { ${REPORT_FIELDS} } photosProjects { id reports(status: READY) { total items { id status } } } }`, bearer(reader));
    expect(answer.body.errors).toBeUndefined();
    const shown = (answer.body.data as Json).photosReport;
    expect(shown).toMatchObject({ id: String(report.id), status: 'READY', pdfSha256: report.pdf_sha256, photoCount: 3, share: { state: 'PRIVATE', sharedAt: null } });
    expect(shown.photos.map((p: Json) => p.sha256)).toEqual(report.manifest.photos.map((p: Json) => p.sha256));
    expect((await fetch(shown.downloadUrl)).status).toBe(200);
    const project = (answer.body.data as Json).photosProjects.find((p: Json) => p.id === String(team.project.id));
    const rest = (await call('GET', `/reports?project=${team.project.id}&status=ready`, team.token)).body.data as Json[];
    expect(project.reports.items).toEqual(rest.map((r) => ({ id: String(r.id), status: 'READY' })));
    expect(project.reports.items).toContainEqual({ id: String(report.id), status: 'READY' });
    const refused = await gql(url, `{ photosReport(id: "${report.id}") { id } }`, bearer(await addToken(h, team, ['photos:read'])));
    expect(refused.body.errors?.[0]?.extensions).toEqual(expect.objectContaining({ code: 'FORBIDDEN', missing_scope: 'reports:read' }));
    expect(((await gql(url, `{ photosReport(id: "${report.id}") { id } }`, bearer(other.token))).body.data as Json).photosReport).toBeNull();
  });

  it('createPhotosReport, sharePhotosReport and unsharePhotosReport follow the REST rules', async () => {
    const create = `mutation($input: CreatePhotosReportInput!) { createPhotosReport(input: $input) { id status photos { position photo { id } } } }`;
    const input = { projectId: String(team.project.id), title: 'From the dashboard', photoIds: [String(uploaded[2]!.data.id), String(uploaded[0]!.data.id)] };
    const created = await gql(url, create, bearer(team.token), { input });
    expect(created.body.errors).toBeUndefined();
    const made = (created.body.data as Json).createPhotosReport;
    expect(made.photos.map((p: Json) => p.photo.id)).toEqual(input.photoIds);
    const invalid = await gql(url, create, bearer(team.token), { input: { ...input, photoIds: [] } });
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const byToken = await gql(url, create, bearer(await addToken(h, team, ['reports:read'])), { input });
    expect(byToken.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    await ready(Number(made.id));
    const shared = await gql(url, `mutation { sharePhotosReport(id: "${made.id}") { shareUrl report { share { state } } } }`, bearer(team.token));
    const { shareUrl, report: sharedReport } = (shared.body.data as Json).sharePhotosReport;
    expect(sharedReport.share.state).toBe('LINK');
    expect((await fetch(shareUrl)).status).toBe(200);
    const unshared = await gql(url, `mutation { unsharePhotosReport(id: "${made.id}") { share { state } } }`, bearer(team.token));
    expect((unshared.body.data as Json).unsharePhotosReport.share.state).toBe('PRIVATE');
    expect((await fetch(shareUrl)).status).toBe(404);
  }, 90_000);
});
