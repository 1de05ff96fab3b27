// Activities of the report workflow (contract: PhotosReportActivities in @tributary/workflows), built by a factory with
// storage and the report record injected, so the worker and the tests share one path. Each original is copied to a
// temp file while it is hashed (the manifest's SHA-256 is of the bytes actually read), then printed from that file.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApplicationFailure } from '@temporalio/client';
import type { Logger } from '@tributary/kit';
import type { PhotosReportActivities, RenderPhotosReportResult } from '@tributary/workflows';
import { UnrenderableMediaError } from '../../media/index.js';
import type { MediaStorage } from '../../storage/index.js';
import { printImage, type PrintImage } from './report-images.js';
import { renderReportPdf, type PrintedPhoto } from './report-pdf.js';
import type { PhotoToPrint, ReportRenderRecords, ReportToRender } from './report-render-records.js';

export interface ReportActivityDeps {
  storage: MediaStorage;
  records: ReportRenderRecords;
  logger: Logger;
  /** Directory for temp copies of originals; the OS temp directory by default. */
  workDir?: string;
}

/** Failure type of a report whose photo can never be read (non-retryable: the workflow records the report failed). */
export const UNRENDERABLE_REPORT_MEDIA_FAILURE = 'UnrenderableReportMedia';
export const REPORT_PDF_CONTENT_TYPE = 'application/pdf';

/** Where a report's PDF is stored: one key per report, so a retry overwrites its own earlier attempt. */
export function reportPdfKey(teamId: number, reportId: number): string {
  return `teams/${teamId}/reports/${reportId}/report.pdf`;
}

export function photosReportActivities(deps: ReportActivityDeps): PhotosReportActivities {
  const { storage, records, logger } = deps;
  return {
    async renderPhotosReport({ reportId }): Promise<RenderPhotosReportResult> {
      const start = await records.begin(reportId);
      if (start.kind === 'gone') return { outcome: 'gone', pdfSha256: null, pageCount: null };
      if (start.kind === 'ready') return { outcome: 'rendered', pdfSha256: start.pdfSha256, pageCount: start.pageCount };
      const report = start.report;
      let printed: PrintedPhoto[];
      try {
        printed = await printPhotos(report, storage, deps.workDir ?? tmpdir(), logger);
      } catch (error) {
        if (!(error instanceof UnrenderableMediaError)) throw error;
        throw ApplicationFailure.create({ message: error.message, type: UNRENDERABLE_REPORT_MEDIA_FAILURE, nonRetryable: true });
      }
      const { pdf, pageCount } = await renderReportPdf(report, printed);
      const pdfKey = reportPdfKey(report.teamId, report.id);
      await storage.put(pdfKey, Readable.from([pdf]), REPORT_PDF_CONTENT_TYPE);
      const pdfSha256 = createHash('sha256').update(pdf).digest('hex');
      const photoSha256 = new Map(printed.map((item) => [item.photo.id, item.sha256]));
      await records.complete(reportId, { pdfKey, pdfSha256, pdfSizeBytes: pdf.length, pageCount, photoSha256 });
      return { outcome: 'rendered', pdfSha256, pageCount };
    },

    async recordPhotosReportFailure({ reportId, reason, message }): Promise<void> {
      logger.warn({ reportId, reason, message }, 'photos report recorded as failed');
      await records.fail(reportId, reason, message);
    },
  };
}

/** Each photo hashed and printed, in order; a missing original throws UnrenderableMediaError (the report cannot vouch for it). */
async function printPhotos(report: ReportToRender, storage: MediaStorage, workDir: string, logger: Logger): Promise<PrintedPhoto[]> {
  const dir = await mkdtemp(join(workDir, 'photos-report-'));
  try {
    const printed: PrintedPhoto[] = [];
    for (const photo of report.photos) {
      const path = join(dir, `original-${photo.position}`);
      const sha256 = await copyHashed(storage, photo, path);
      printed.push({ photo, sha256, ...(await imageOf(photo, path, storage, logger)) });
    }
    return printed;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function copyHashed(storage: MediaStorage, photo: PhotoToPrint, path: string): Promise<string> {
  const object = await storage.get(photo.originalKey);
  if (!object) throw new UnrenderableMediaError(`The original of photo ${photo.id} is missing from storage.`);
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  await pipeline(object.body, tap, createWriteStream(path));
  return hash.digest('hex');
}

/** The image printed for a photo: the photo itself or a video's poster; none (the reason printed instead) when neither decodes. */
async function imageOf(photo: PhotoToPrint, path: string, storage: MediaStorage, logger: Logger): Promise<{ image: PrintImage | null; imageNote: string | null }> {
  let source: string | Buffer = path;
  if (photo.mediaType === 'video') {
    const poster = photo.posterKey ? await storage.get(photo.posterKey) : null;
    if (!poster) return { image: null, imageNote: 'Video without a poster frame: see the original (urls.full).' };
    source = Buffer.concat(await poster.body.toArray());
  }
  try {
    return { image: await printImage(source), imageNote: null };
  } catch (error) {
    if (!(error instanceof UnrenderableMediaError)) throw error;
    logger.warn({ photoId: photo.id, mimeType: photo.mimeType, err: error.message }, 'report photo printed without its image');
    return { image: null, imageNote: `This ${photo.mimeType} cannot be printed (its bytes cannot be decoded here); its hash is still in the manifest.` };
  }
}
