import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  afterCommitAll,
  enqueueWorkflowStart,
  parseInput,
  transactionWithAfterCommit,
  type AfterCommit,
  type FieldErrors,
  type WorkflowOutbox,
} from '@tributary/kit';
import type { Readable } from 'node:stream';
import type { PhotosPrincipal } from '../auth/index.js';
import { MAX_ID, Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import type { MediaStorage } from '../../storage/index.js';
import { hasPdf } from './report-status.js';
import { hashShareToken, isShareToken, newShareToken } from './report-share.js';
import type { ReportAnnouncements, ReportEvent } from './report-events.js';
import { reportRenderStart } from './report.commands.js';
import { Report, ReportPhoto } from './report.entity.js';
import { presentReport } from './report.presenter.js';
import { REPORTS_PER_PAGE, createReportBody, type NewReport, type ReportListQuery } from './report.validation.js';

export interface ReportPage {
  items: Report[];
  total: number;
  page: number;
  perPage: number;
}

/** A report with its new share link's token (answered once, never stored). */
export interface SharedReport {
  report: Report;
  token: string;
}

/** A rendered PDF to answer with. */
export interface ReportPdf {
  body: Readable;
  sizeBytes: number;
  sha256: string;
  filename: string;
}

export interface ReportServiceOptions {
  storage: MediaStorage;
  /** Dispatches the rendering workflow's start right after the create commits; without one the sweeper does. */
  outbox?: WorkflowOutbox | undefined;
  /** Where report events go (the team's webhooks); none: nothing is announced. */
  announcements?: ReportAnnouncements | undefined;
}

export const NO_PROJECT = 'No project with this id in your team.';
export const NO_PHOTO = 'No photo with this id in your team.';
export const OTHER_PROJECT = 'Must be a photo of the report\'s project.';
export const NOT_RENDERED = 'The report is not rendered yet (status must be ready to share it).';
const FULL = ['project', 'createdBy', 'photos.photo.project'] as const;

/** Reports of a team, for REST and GraphQL; callers have checked the scope or role. */
export class ReportService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: ReportServiceOptions,
  ) {}

  /** Creates a queued report of the project's photos in the given order and queues its rendering (report-<id>). */
  async create(principal: PhotosPrincipal, body: unknown): Promise<Report> {
    const input = parseInput(createReportBody, body, { rootField: 'body' });
    const id = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const photos = await this.checkedPhotos(tx, principal.teamId, input);
      const report = tx.create(Report, {
        team: principal.teamId,
        project: input.project_id,
        createdBy: principal.userId,
        title: input.title,
        notes: input.notes ?? '',
        photoCount: photos.length,
        failureReason: null,
        failureMessage: null,
        pdfKey: null,
        pdfSha256: null,
        pdfSizeBytes: null,
        pageCount: null,
        renderedAt: null,
        shareTokenHash: null,
        sharedAt: null,
      });
      photos.forEach((photo, index) => tx.create(ReportPhoto, { report, photo, position: index + 1, sha256: null }));
      await tx.flush();
      const start = await enqueueWorkflowStart(tx, reportRenderStart(report));
      const announced = await this.announce(tx, report, 'report.created');
      return { result: report.id, afterCommit: afterCommitAll(this.options.outbox?.dispatchAfterCommit([start]), announced) };
    });
    return this.load(this.em, principal.teamId, id) as Promise<Report>;
  }

  /** The team's reports, newest first, filtered by project and status. */
  async list(principal: PhotosPrincipal, query: ReportListQuery): Promise<ReportPage> {
    const page = query.page ?? 1;
    const [items, total] = await this.em.getRepository(Report).findAndCount(
      { team: principal.teamId, ...(query.projectId !== undefined ? { project: query.projectId } : {}), ...(query.status ? { status: query.status } : {}) },
      { populate: ['project', 'createdBy'], orderBy: { createdAt: 'desc', id: 'desc' }, limit: REPORTS_PER_PAGE, offset: (page - 1) * REPORTS_PER_PAGE },
    );
    return { items, total, page, perPage: REPORTS_PER_PAGE };
  }

  /** The caller's team's report with its photos in order; another team's, unknown or malformed id: 404. */
  async get(principal: PhotosPrincipal, id: string | number): Promise<Report> {
    const report = await this.findVisible(principal, id);
    if (!report) throw new NotFoundError(`report ${String(id).slice(0, 40)}`);
    return report;
  }

  /** Entity resolution: a report is visible only inside its own team. */
  async findVisible(principal: PhotosPrincipal, id: string | number): Promise<Report | null> {
    const reportId = visibleId(id);
    return reportId === null ? null : this.load(this.em, principal.teamId, reportId);
  }

  /** The report's photos in order, each with its photo and the photo's project (GraphQL lists load reports without them). */
  async photosOf(report: Report): Promise<ReportPhoto[]> {
    await this.em.populate(report, ['photos.photo.project']);
    return report.photos.getItems();
  }

  /** A new share link (replacing any earlier one) of a rendered report; the token is answered once, never stored. */
  async share(principal: PhotosPrincipal, id: string): Promise<SharedReport> {
    const token = newShareToken();
    const report = await this.changeShare(principal, id, (report) => {
      if (!hasPdf(report.status)) throw new ConflictError(NOT_RENDERED);
      report.shareTokenHash = hashShareToken(token);
      report.sharedAt = new Date();
      return true;
    });
    return { report, token };
  }

  /** Revokes the share link: the report is private again (already private: unchanged). */
  async unshare(principal: PhotosPrincipal, id: string): Promise<Report> {
    return this.changeShare(principal, id, (report) => {
      if (!report.shareTokenHash) return false;
      report.shareTokenHash = null;
      report.sharedAt = null;
      return true;
    });
  }

  /** The PDF behind a share link, whatever the team (the token is the credential); null for any other token. */
  async openShared(token: string): Promise<ReportPdf | null> {
    if (!isShareToken(token)) return null;
    const report = await this.em.getRepository(Report).findOne({ shareTokenHash: hashShareToken(token) });
    return report ? this.openPdf(report) : null;
  }

  /** A report by id, whatever the team: only the signed download route calls this (the signature is its access check). */
  async findForDownload(id: string): Promise<Report | null> {
    const reportId = visibleId(id);
    return reportId === null ? null : this.em.getRepository(Report).findOne({ id: reportId });
  }

  async openPdf(report: Report): Promise<ReportPdf | null> {
    if (!hasPdf(report.status) || !report.pdfKey || !report.pdfSha256) return null;
    const stored = await this.options.storage.get(report.pdfKey);
    return stored ? { body: stored.body, sizeBytes: stored.sizeBytes, sha256: report.pdfSha256, filename: `report-${report.id}.pdf` } : null;
  }

  private async changeShare(principal: PhotosPrincipal, id: string, change: (report: Report) => boolean): Promise<Report> {
    const reportId = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const found = visibleId(id);
      const report = found === null ? null : await this.load(tx, principal.teamId, found);
      if (!report) throw new NotFoundError(`report ${id.slice(0, 40)}`);
      const changed = change(report);
      await tx.flush();
      return { result: report.id, afterCommit: changed ? await this.announce(tx, report, 'report.updated') : undefined };
    });
    return this.load(this.em.fork(), principal.teamId, reportId) as Promise<Report>;
  }

  /** The photos in the body's order, each of the team and of the project; else 422 naming project_id or photo_ids.<i>. */
  private async checkedPhotos(tx: EntityManager, teamId: number, input: NewReport): Promise<Photo[]> {
    const project = await tx.getRepository(Project).findOne({ id: input.project_id, team: teamId });
    if (!project) throw new ValidationError({ project_id: [NO_PROJECT] });
    const found = await tx.getRepository(Photo).find({ id: { $in: input.photo_ids }, team: teamId });
    const byId = new Map(found.map((photo) => [photo.id, photo]));
    const fields: FieldErrors = {};
    input.photo_ids.forEach((photoId, index) => {
      const photo = byId.get(photoId);
      if (!photo) fields[`photo_ids.${index}`] = [NO_PHOTO];
      else if (photo.project?.id !== project.id) fields[`photo_ids.${index}`] = [OTHER_PROJECT];
    });
    if (Object.keys(fields).length > 0) throw new ValidationError(fields);
    return input.photo_ids.map((photoId) => byId.get(photoId)!);
  }

  private async load(em: EntityManager, teamId: number, id: number): Promise<Report | null> {
    return em.getRepository(Report).findOne({ id, team: teamId }, { populate: FULL, refresh: true });
  }

  /** Queues `event` with the report as REST presents it, in `tx`. */
  private async announce(tx: EntityManager, report: Report, event: ReportEvent): Promise<AfterCommit | undefined> {
    const announcements = this.options.announcements;
    if (!announcements) return undefined;
    await tx.populate(report, FULL, { refresh: true });
    return announcements.sink.emit(tx, report.team.id, event, presentReport(report, announcements.urls));
  }
}

/** A path id as a report id, or null when it cannot be one (not digits, or beyond the id range). */
function visibleId(id: string | number): number | null {
  const text = String(id);
  return /^\d{1,10}$/.test(text) && Number(text) <= MAX_ID ? Number(text) : null;
}
