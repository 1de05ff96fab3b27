import { defineEntity, p } from '@mikro-orm/core';
import { Device } from '../devices/index.js';
import { Project, UNASSIGNED_REASONS } from '../projects/index.js';
import { Team } from '../teams/index.js';
import { PhotoRepository } from './photo.repository.js';

export const MEDIA_TYPES = ['photo', 'video'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/** How a photo got its project (spec: assignment.source). */
export const ASSIGNMENT_SOURCES = ['gps', 'manual', 'corrected', 'unassigned'] as const;
export type AssignmentSource = (typeof ASSIGNMENT_SOURCES)[number];

/**
 * A captured photo or video of a team. Capture time and GPS fix are read-only evidence; description, tags and project
 * may be edited. The rendition columns (thumb_key … media_processed_at) are written by the media workflow after the
 * upload commits; null until then.
 */
export const PhotoSchema = defineEntity({
  name: 'Photo',
  tableName: 'photos',
  repository: () => PhotoRepository,
  uniques: [{ properties: ['team', 'localCaptureId'] }],
  indexes: [{ properties: ['team', 'capturedAt'] }, { properties: ['project', 'mediaType'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    project: () => p.manyToOne(Project).deleteRule('set null').nullable(),
    /** The device whose token uploaded it (null for other tokens): a device may attach only its own photos as evidence. */
    uploadedByDevice: () => p.manyToOne(Device).deleteRule('set null').nullable(),
    /** The capture app's own id of the capture: uploads are idempotent on it, per team. */
    localCaptureId: p.string().length(191),
    /** When the capture was taken, as the device reported it; null when it did not say. */
    capturedAt: p.datetime().nullable(),
    uploadedAt: p.datetime().onCreate(() => new Date()),
    mediaType: p.enum(MEDIA_TYPES),
    /** Sniffed from the bytes, never taken from the client. */
    mimeType: p.string().length(100),
    description: p.text().default(''),
    tags: p.array().default([]),
    latitude: p.float().columnType('double precision').nullable(),
    longitude: p.float().columnType('double precision').nullable(),
    accuracyM: p.float().columnType('double precision').nullable(),
    assignmentSource: p.enum(ASSIGNMENT_SOURCES),
    /** Distance from the fix to the project's centre, metres; null without a project, a fix or project coordinates. */
    distanceM: p.float().columnType('double precision').nullable(),
    unassignedReason: p.enum(UNASSIGNED_REASONS).nullable(),
    sizeBytes: p.bigint('number'),
    originalKey: p.string().length(300),
    thumbKey: p.string().length(300).nullable(),
    posterKey: p.string().length(300).nullable(),
    durationSeconds: p.float().columnType('double precision').nullable(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    mediaProcessedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Photo extends PhotoSchema.class {
  location(): { lat: number; lng: number; accuracyM: number | null } | null {
    if (this.latitude == null || this.longitude == null) return null;
    return { lat: this.latitude, lng: this.longitude, accuracyM: this.accuracyM ?? null };
  }
}
PhotoSchema.setClass(Photo);
