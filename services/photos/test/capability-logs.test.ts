// A report's share token opens its PDF to whoever holds the link: the real service's access log keeps only `rps_` and
// its next four characters (capabilities.ts, kit http/capabilities.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { capturingLogger, waitFor } from '@tributary/kit/testing';
import { Report } from '../src/modules/reports/index.js';
import { createTeam, startHarness, type PhotosHarness } from './helpers.js';

const logs = capturingLogger('info', 'photos');
let h: PhotosHarness;

beforeAll(async () => {
  h = await startHarness({ logger: logs.logger });
});
afterAll(async () => {
  await h?.close();
});

const accessUrls = () => logs.lines().filter((line) => typeof line.req === 'object').map((line) => (line.req as { url: string }).url);

/** A rendered report of the team (its PDF is not stored: the share link then answers 404, which is logged the same). */
async function renderedReport(team: Awaited<ReturnType<typeof createTeam>>): Promise<number> {
  const em = h.orm.em.fork();
  const report = em.create(Report, {
    team: team.team.id,
    project: team.project.id,
    createdBy: team.user.id,
    title: 'Capability logs',
    photoCount: 0,
    status: 'ready',
    failureReason: null,
    failureMessage: null,
    pdfKey: 'reports/not-stored.pdf',
    pdfSha256: '0'.repeat(64),
    pdfSizeBytes: 1,
    pageCount: 1,
    renderedAt: new Date(),
    shareTokenHash: null,
    sharedAt: null,
  });
  await em.flush();
  return report.id;
}

describe('report share tokens in the access log', () => {
  it('are logged as rps_ and four characters, never whole', async () => {
    const team = await createTeam(h, 'Capability Logs Team');
    const id = await renderedReport(team);
    const shared = await fetch(`${h.service.url}/api/v1/reports/${id}/share`, { method: 'POST', headers: { authorization: `Bearer ${team.token}` } });
    expect(shared.status).toBe(200);
    const link = ((await shared.json()) as { share_url: string }).share_url;
    const token = link.slice(link.lastIndexOf('/') + 1);
    expect(token).toMatch(/^rps_/);

    expect((await fetch(link)).status).toBe(404);
    expect((await fetch(`${link}/`)).status).toBe(404);

    const short = `${token.slice(0, 8)}…`;
    const expected = [`/api/v1/reports/${id}/share`, `/api/v1/shared-reports/${short}`, `/api/v1/shared-reports/${short}/`];
    expect(await waitFor(async () => accessUrls(), (urls) => urls.length >= expected.length, 5_000)).toEqual(expected);
    expect(logs.text()).not.toContain(token);
  });
});
