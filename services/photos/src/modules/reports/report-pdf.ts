// The report as a PDF (pdfkit, A4): a cover with the project's details, one page per photo (the image at print size,
// caption, capture time, GPS, assignment reasoning, the original's SHA-256), and the manifest last. Text uses the
// built-in Helvetica (no font files to ship): characters outside Windows-1252 print as "?" (the REST resource keeps the
// exact text; README, Decisions).
import PDFDocument from 'pdfkit';
import type { PrintImage } from './report-images.js';
import type { PhotoToPrint, ReportToRender } from './report-render-records.js';

/** One photo as printed: its original's hash, and the image (null: a video without poster, or undecodable bytes). */
export interface PrintedPhoto {
  photo: PhotoToPrint;
  sha256: string;
  image: PrintImage | null;
  /** Why there is no image (printed instead of it). */
  imageNote: string | null;
}

const MARGIN = 48;
const PAGE = { width: 595.28, height: 841.89 };
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
/** Height the image may take on a photo page; the evidence below it needs the rest. */
const IMAGE_BOX_HEIGHT = 430;
const MUTED = '#555555';
export const MANIFEST_HEADING = 'Manifest: SHA-256 of each original';

export async function renderReportPdf(report: ReportToRender, printed: readonly PrintedPhoto[], now: Date = new Date()): Promise<{ pdf: Buffer; pageCount: number }> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: printable(report.title), Subject: printable(report.project.name), Producer: 'Tributary photos' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  cover(doc, report, now);
  for (const item of printed) photoPage(doc, item, printed.length);
  manifest(doc, report, printed);
  const pageCount = doc.bufferedPageRange().count;
  footers(doc, report, pageCount);
  doc.end();
  await ended;
  return { pdf: Buffer.concat(chunks), pageCount };
}

function cover(doc: PDFKit.PDFDocument, report: ReportToRender, now: Date): void {
  const { project } = report;
  doc.fillColor(MUTED).font('Helvetica').fontSize(11).text('Photo report');
  doc.moveDown(0.5).fillColor('black').font('Helvetica-Bold').fontSize(24).text(printable(report.title));
  doc.moveDown(1).fontSize(16).text(printable(project.name));
  doc.font('Helvetica').fontSize(11).moveDown(0.5);
  field(doc, 'Address', project.address ? printable(project.address) : 'none recorded');
  field(doc, 'Coordinates', project.coordinates ? `${fixed(project.coordinates.lat, 6)}, ${fixed(project.coordinates.lng, 6)} (match radius ${Math.round(project.coordinates.radiusM)} m)` : 'none recorded');
  field(doc, 'Photos', String(report.photos.length));
  field(doc, 'Created', `${utc(report.createdAt)}${report.createdBy ? ` by ${printable(report.createdBy)}` : ''}`);
  field(doc, 'Rendered', utc(now));
  field(doc, 'Report', `#${report.id} (project #${project.id})`);
  if (report.notes.trim()) doc.moveDown(1).font('Helvetica-Bold').text('Notes').font('Helvetica').text(printable(report.notes));
}

function photoPage(doc: PDFKit.PDFDocument, item: PrintedPhoto, total: number): void {
  const { photo } = item;
  doc.addPage();
  doc.fillColor(MUTED).font('Helvetica').fontSize(10).text(`Photo ${photo.position} of ${total} - #${photo.id} (${printable(photo.localCaptureId)})`);
  doc.fillColor('black').moveDown(0.5);
  const top = doc.y;
  if (item.image) {
    doc.image(item.image.jpeg, MARGIN, top, { fit: [CONTENT_WIDTH, IMAGE_BOX_HEIGHT], align: 'center', valign: 'center' });
  } else {
    doc.rect(MARGIN, top, CONTENT_WIDTH, IMAGE_BOX_HEIGHT).stroke('#bbbbbb');
    doc.fillColor(MUTED).text(item.imageNote ?? 'No image.', MARGIN + 16, top + IMAGE_BOX_HEIGHT / 2 - 6, { width: CONTENT_WIDTH - 32, align: 'center' }).fillColor('black');
  }
  doc.x = MARGIN;
  doc.y = top + IMAGE_BOX_HEIGHT + 12;
  doc.font('Helvetica-Bold').fontSize(12).text(photo.description.trim() ? printable(photo.description) : 'No caption', { width: CONTENT_WIDTH });
  doc.font('Helvetica').fontSize(10).moveDown(0.4);
  evidence(doc, photo, item.sha256);
}

function evidence(doc: PDFKit.PDFDocument, photo: PhotoToPrint, sha256: string): void {
  field(doc, 'Captured', photo.capturedAt ? utc(photo.capturedAt) : 'not reported by the device');
  field(doc, 'Uploaded', utc(photo.uploadedAt));
  const { location, assignment } = photo;
  field(doc, 'GPS', location ? `${fixed(location.lat, 6)}, ${fixed(location.lng, 6)}${location.accuracyM === null ? '' : ` (accuracy ${Math.round(location.accuracyM)} m)`}` : 'no fix');
  const distance = assignment.distanceM === null ? '' : `, ${Math.round(assignment.distanceM)} m from the project's centre`;
  field(doc, 'Assignment', `${assignment.source}${distance}${assignment.reason ? ` (reason: ${assignment.reason})` : ''}`);
  if (photo.tags.length > 0) field(doc, 'Tags', printable(photo.tags.join(', ')));
  const duration = photo.durationSeconds === null ? '' : `, ${fixed(photo.durationSeconds, 1)} s`;
  field(doc, 'Media', `${photo.mediaType}, ${photo.mimeType}, ${photo.sizeBytes} bytes${duration}`);
  field(doc, 'SHA-256', sha256);
}

function manifest(doc: PDFKit.PDFDocument, report: ReportToRender, printed: readonly PrintedPhoto[]): void {
  doc.addPage();
  doc.font('Helvetica-Bold').fontSize(16).text(MANIFEST_HEADING);
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  doc.text(
    `Each line is the SHA-256 of a photo's original as stored by the service when report #${report.id} was rendered. ` +
      'To check a photo, download its original (GET /api/v1/photos/{id}, urls.full) and compare: sha256sum original.jpg. ' +
      "This PDF's own SHA-256 cannot be printed inside it: it is the report's pdf_sha256 (GET /api/v1/reports/{id}) and the Repr-Digest header of every download.",
  );
  doc.moveDown(0.8).font('Courier').fontSize(8);
  for (const { photo, sha256 } of printed) {
    doc.text(`${String(photo.position).padStart(3)}  #${String(photo.id).padEnd(8)} ${sha256}  ${printable(photo.localCaptureId)}`);
  }
  doc.font('Helvetica');
}

function footers(doc: PDFKit.PDFDocument, report: ReportToRender, pageCount: number): void {
  for (let index = 0; index < pageCount; index += 1) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    // Writing inside the bottom margin would start a new page: lift the margin while the footer is written.
    doc.page.margins.bottom = 0;
    doc.fillColor(MUTED).font('Helvetica').fontSize(8).text(`${printable(report.title)} - report #${report.id} - page ${index + 1} of ${pageCount}`, MARGIN, PAGE.height - 30, { width: CONTENT_WIDTH, align: 'center', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.fillColor('black');
}

function field(doc: PDFKit.PDFDocument, label: string, value: string): void {
  doc.font('Helvetica-Bold').text(`${label}: `, { continued: true }).font('Helvetica').text(value);
}

const utc = (date: Date) => `${date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '')} UTC`;
const fixed = (value: number, digits: number) => value.toFixed(digits);

/** Windows-1252 beyond Latin-1: the characters the built-in fonts can show besides U+0020–U+007E and U+00A0–U+00FF. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** The text with every character the built-in fonts cannot show replaced by "?" (newlines and tabs kept, CR dropped). */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    if (char === '\r') continue;
    const code = char.codePointAt(0)!;
    const shown = (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || char === '\n' || char === '\t' || WIN_ANSI_EXTRA.has(char);
    out += shown ? char : '?';
  }
  return out;
}
