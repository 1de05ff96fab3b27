import { defineEntity, p } from '@mikro-orm/core';
import { Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import { Team, User } from '../teams/index.js';
import { REPORT_FAILURE_REASONS, REPORT_STATUSES } from './report-status.js';

/**
 * A PDF report of a project: an ordered list of its photos, rendered by the report workflow (report-status.ts for the
 * lifecycle). The share link's token is stored only as its SHA-256 (shown once, when the link is made).
 */
export const ReportSchema = defineEntity({
  name: 'Report',
  tableName: 'reports',
  indexes: [{ properties: ['team', 'createdAt'] }, { properties: ['project', 'createdAt'] }],
  uniques: [{ properties: ['shareTokenHash'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    createdBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    title: p.string().length(191),
    notes: p.text().default(''),
    /** How many photos it holds (its report_photos rows), kept for lists. */
    photoCount: p.integer(),
    status: p.enum(REPORT_STATUSES).default('queued'),
    failureReason: p.enum(REPORT_FAILURE_REASONS).nullable(),
    failureMessage: p.text().nullable(),
    /** Storage key of the rendered PDF (`teams/<team>/reports/<id>/report.pdf`). */
    pdfKey: p.string().length(300).nullable(),
    /** SHA-256 of the stored PDF, lowercase hex. */
    pdfSha256: p.string().length(64).nullable(),
    pdfSizeBytes: p.bigint('number').nullable(),
    pageCount: p.integer().nullable(),
    renderedAt: p.datetime().nullable(),
    /** SHA-256 (hex) of the share link's token; null while private. */
    shareTokenHash: p.string().length(64).nullable(),
    sharedAt: p.datetime().nullable(),
    photos: () => p.oneToMany(ReportPhoto).mappedBy('report').orderBy({ position: 'asc' }),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Report extends ReportSchema.class {}
ReportSchema.setClass(Report);

/** One photo of a report at its position (1-based), with the SHA-256 of its original once the report is rendered. */
export const ReportPhotoSchema = defineEntity({
  name: 'ReportPhoto',
  tableName: 'report_photos',
  uniques: [{ properties: ['report', 'position'] }, { properties: ['report', 'photo'] }],
  indexes: [{ properties: ['photo'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    report: () => p.manyToOne(Report).deleteRule('cascade'),
    photo: () => p.manyToOne(Photo).deleteRule('cascade'),
    position: p.integer(),
    /** SHA-256 of the stored original, lowercase hex, taken while rendering; null until then. */
    sha256: p.string().length(64).nullable(),
  },
});

export class ReportPhoto extends ReportPhotoSchema.class {}
ReportPhotoSchema.setClass(ReportPhoto);
