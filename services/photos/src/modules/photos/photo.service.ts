import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  NotFoundError,
  ValidationError,
  checkInput,
  afterCommitAll,
  enqueueWorkflowStart,
  isWellFormedText,
  parseInput,
  transactionWithAfterCommit,
  type AfterCommit,
  type FieldErrors,
  type WorkflowOutbox,
} from '@tributary/kit';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { PhotosPrincipal } from '../auth/index.js';
import { Project, type ProjectService } from '../projects/index.js';
import type { MediaStorage } from '../../storage/index.js';
import type { UploadLimits } from '../../media-config.js';
import { placeholderImage, renditionSource } from './media-rendition.js';
import type { Rendition } from './media-urls.js';
import { assignmentFromMatch, chosenAssignment, type Assignment } from './photo-assignment.js';
import type { PhotoAnnouncements, PhotoEvent } from './photo-events.js';
import { photoMediaStart } from './photo-media.commands.js';
import { presentPhoto } from './photo.presenter.js';
import { receiveUpload, type ReceivedUpload, type StoredMedia } from './photo-upload.js';
import { Photo, type MediaType } from './photo.entity.js';
import {
  LOCAL_CAPTURE_ID_MAX,
  MAX_ID,
  PHOTOS_PER_PAGE,
  REPEATABLE_UPLOAD_PARTS,
  UPLOAD_FILE_PART,
  photoChanges,
  uploadFields,
  type PhotoChanges,
  type PhotoListQuery,
  type UploadFields,
} from './photo.validation.js';

export interface PhotoPage {
  items: Photo[];
  total: number;
  page: number;
  perPage: number;
}

/** What an upload produced: the photo, and whether it was already stored under the same local_capture_id. */
export interface PhotoUpload {
  photo: Photo;
  duplicate: boolean;
}

/** Media bytes to answer with; `exact` false for a stand-in (the original or a placeholder until a thumb exists). */
export interface MediaObject {
  body: Readable;
  sizeBytes: number;
  contentType: string;
  exact: boolean;
}

export interface PhotoServiceOptions {
  storage: MediaStorage;
  limits: UploadLimits;
  projects: ProjectService;
  /** Dispatches the media workflow's start right after the upload commits; without one the sweeper does. */
  outbox?: WorkflowOutbox;
  /** Where photo.created and photo.updated go (the team's webhooks); none: nothing is announced. */
  announcements?: PhotoAnnouncements | undefined;
}

const NO_ACTIVE_PROJECT = 'No active project with this id in your team.';

/** The photo domain, for REST and GraphQL alike; callers have checked the caller's scope. */
export class PhotoService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: PhotoServiceOptions,
  ) {}

  /**
   * Stores an upload (a multipart body, see photo-upload.ts) as a new photo, or answers the photo already stored under
   * its local_capture_id (`duplicate`; nothing new stored, also when two copies race). The media workflow's start is
   * committed with the photo and dispatched after the commit, so the upload never waits on thumbnails.
   */
  async upload(principal: PhotosPrincipal, body: IncomingMessage): Promise<PhotoUpload> {
    // The request's EntityManager, taken now: stream callbacks (skipFile) run outside the request's async context.
    const em = this.em.getContext();
    const received = await receiveUpload(body, {
      storage: this.options.storage,
      limits: this.options.limits,
      keyFor: (id) => `teams/${principal.teamId}/photos/${id}/original`,
      skipFile: async (parts) => {
        const ids = parts.local_capture_id ?? [];
        const id = ids[0]?.trim();
        // Only an id the upload could store is looked up (the full check of every part comes after the body).
        if (ids.length !== 1 || !id || id.length > LOCAL_CAPTURE_ID_MAX || !isWellFormedText(id)) return false;
        return (await em.getRepository(Photo).count({ team: principal.teamId, localCaptureId: id })) > 0;
      },
    });
    try {
      const fields = uploadFieldsOf(received);
      const existing = await this.findByCapture(principal.teamId, fields.local_capture_id);
      if (existing) {
        await this.discard(received.media);
        return { photo: existing, duplicate: true };
      }
      // A skipped file whose photo is gone by now (it never is: photos are not deleted) still needs its bytes.
      if (!received.media) throw new ValidationError({ [UPLOAD_FILE_PART]: ['This field is required.'] });
      const assignment = await this.assign(principal.teamId, fields);
      return await this.insert(principal, fields, received.media, assignment);
    } catch (error) {
      await this.discard(received.media);
      throw error;
    }
  }

  /** The caller's team's photo; another team's, unknown or malformed id: 404. */
  async get(principal: PhotosPrincipal, id: string): Promise<Photo> {
    const photo = await this.findVisible(principal, id);
    if (!photo) throw new NotFoundError(`photo ${id.slice(0, 40)}`);
    return photo;
  }

  /** Entity resolution: a photo is visible only inside its own team; anything else reads as absent. */
  async findVisible(principal: PhotosPrincipal, id: string | number): Promise<Photo | null> {
    const photoId = visibleId(id);
    if (photoId === null) return null;
    return this.em.getRepository(Photo).findOne({ id: photoId, team: principal.teamId }, { populate: ['project'] });
  }

  /** The team's photos, filtered, newest capture first. */
  async list(principal: PhotosPrincipal, query: PhotoListQuery): Promise<PhotoPage> {
    const page = query.page ?? 1;
    const { items, total } = await this.em.getRepository(Photo).list(
      { teamId: principal.teamId, projectId: query.projectId, tag: query.tag, capturedFrom: query.capturedFrom, capturedTo: query.capturedTo, source: query.source },
      { limit: PHOTOS_PER_PAGE, offset: (page - 1) * PHOTOS_PER_PAGE },
    );
    return { items, total, page, perPage: PHOTOS_PER_PAGE };
  }

  /**
   * Edits the caption (`description`), tags and project (spec: caption, tags, project); capture time, GPS and media are
   * read-only evidence and not among the changes a caller can express. A refused project is named `project`. Moving the photo to another project makes its assignment
   * `corrected` with the distance recomputed; naming its current project changes nothing.
   */
  async edit(principal: PhotosPrincipal, id: string, changes: PhotoChanges): Promise<Photo> {
    const edit = parseInput(photoChanges, changes);
    return transactionWithAfterCommit<Photo>(this.em, async (tx) => {
      const photoId = visibleId(id);
      const photo = photoId === null ? null : await tx.getRepository(Photo).findOne({ id: photoId, team: principal.teamId }, { populate: ['project'] });
      if (!photo) throw new NotFoundError(`photo ${id.slice(0, 40)}`);
      const project = edit.projectId === undefined ? null : await this.activeProject(principal.teamId, edit.projectId, { em: tx, field: 'project' });
      const before = JSON.stringify([photo.description, photo.tags, photo.project?.id ?? null]);
      if (edit.description !== undefined) photo.description = edit.description;
      if (edit.tags !== undefined) photo.tags = edit.tags;
      if (project && project.id !== photo.project?.id) {
        this.apply(photo, chosenAssignment(project, { lat: photo.latitude ?? null, lng: photo.longitude ?? null }, 'corrected'));
        project.lastActivityAt = new Date();
      }
      await tx.flush();
      // Only a real change is announced: naming the current values again is not an update.
      const changed = JSON.stringify([photo.description, photo.tags, photo.project?.id ?? null]) !== before;
      return { result: photo, afterCommit: changed ? await this.announce(tx, photo, 'photo.updated') : undefined };
    });
  }

  /** Photos and videos per project (the projects' counts). */
  async projectMediaCounts(projectIds: readonly number[]): Promise<Map<number, Record<MediaType, number>>> {
    return this.em.getRepository(Photo).countsByProject(projectIds);
  }

  /** Distinct tags of the team's photos, sorted (bootstrap's tags in use). */
  async tagsInUse(teamId: number): Promise<string[]> {
    return this.em.getRepository(Photo).tagsInUse(teamId);
  }

  /**
   * The bytes answering a rendition of a photo, whatever its team: only the signed media route calls this, after
   * checking the signature (which is the access check). Null when there is no such photo or rendition.
   */
  async openMedia(photoId: number, rendition: Rendition): Promise<MediaObject | null> {
    const photo = await this.em.getRepository(Photo).findOne({ id: photoId });
    const source = photo ? renditionSource(photo, rendition) : null;
    if (!source) return null;
    if (source.kind === 'placeholder') return { ...placeholderImage(), exact: false };
    const stored = await this.options.storage.get(source.key);
    return stored ? { ...stored, exact: source.exact } : null;
  }

  private async findByCapture(teamId: number, localCaptureId: string): Promise<Photo | null> {
    return this.em.getRepository(Photo).findOne({ team: teamId, localCaptureId }, { populate: ['project'] });
  }

  /** An active project of the team; else a 422 on `field` (the upload's `project_id`, the edit's `project`). */
  private async activeProject(teamId: number, projectId: number, { em = this.em, field = 'project_id' }: { em?: EntityManager; field?: string } = {}): Promise<Project> {
    const project = await em.getRepository(Project).findOne({ id: projectId, team: teamId, status: 'active' });
    if (!project) throw new ValidationError({ [field]: [NO_ACTIVE_PROJECT] });
    return project;
  }

  private async assign(teamId: number, fields: UploadFields): Promise<Assignment<Project>> {
    const fix = { lat: fields.lat ?? null, lng: fields.lng ?? null };
    if (fields.project_id !== undefined) return chosenAssignment(await this.activeProject(teamId, fields.project_id), fix, 'manual');
    return assignmentFromMatch(await this.options.projects.matchCapture(teamId, { lat: fields.lat, lng: fields.lng, accuracyM: fields.accuracy_m }));
  }

  private apply(photo: Photo, assignment: Assignment<Project>): void {
    photo.project = assignment.project;
    photo.assignmentSource = assignment.source;
    photo.distanceM = assignment.distanceM;
    photo.unassignedReason = assignment.reason;
  }

  /** Inserts the photo (touching its project's activity); a racing twin that committed first makes this a duplicate. */
  private async insert(principal: PhotosPrincipal, fields: UploadFields, media: StoredMedia, assignment: Assignment<Project>): Promise<PhotoUpload> {
    try {
      const id = await transactionWithAfterCommit<number>(this.em, async (tx) => {
        const photo = tx.create(Photo, {
          team: principal.teamId,
          project: assignment.project ? tx.getReference(Project, assignment.project.id) : null,
          uploadedByDevice: principal.deviceId,
          localCaptureId: fields.local_capture_id,
          capturedAt: fields.captured_at ?? null,
          mediaType: media.mediaType,
          mimeType: media.mimeType,
          description: fields.description ?? '',
          tags: fields.tags ?? [],
          latitude: fields.lat ?? null,
          longitude: fields.lng ?? null,
          accuracyM: fields.accuracy_m ?? null,
          assignmentSource: assignment.source,
          distanceM: assignment.distanceM,
          unassignedReason: assignment.reason,
          sizeBytes: media.sizeBytes,
          originalKey: media.key,
        });
        await tx.flush();
        if (assignment.project) await tx.nativeUpdate(Project, { id: assignment.project.id }, { lastActivityAt: photo.uploadedAt });
        const start = await enqueueWorkflowStart(tx, photoMediaStart(photo));
        const announced = await this.announce(tx, photo, 'photo.created');
        return { result: photo.id, afterCommit: afterCommitAll(this.options.outbox?.dispatchAfterCommit([start]), announced) };
      });
      return { photo: await this.em.getRepository(Photo).findOneOrFail({ id }, { populate: ['project'] }), duplicate: false };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      await this.discard(media);
      const existing = await this.findByCapture(principal.teamId, fields.local_capture_id);
      if (!existing) throw error;
      return { photo: existing, duplicate: true };
    }
  }

  /** Queues `event` with the photo as REST presents it (project loaded for its name), in `tx`. */
  private async announce(tx: EntityManager, photo: Photo, event: PhotoEvent): Promise<AfterCommit | undefined> {
    const announcements = this.options.announcements;
    if (!announcements) return undefined;
    await tx.populate(photo, ['project']);
    return announcements.sink.emit(tx, photo.team.id, event, presentPhoto(photo, announcements.urls));
  }

  private async discard(media: StoredMedia | null): Promise<void> {
    if (media) await this.options.storage.delete(media.key);
  }
}

/** A path id as a photo id, or null when it cannot be one (not digits, or beyond the id range). */
function visibleId(id: string | number): number | null {
  const text = String(id);
  return /^\d{1,10}$/.test(text) && Number(text) <= MAX_ID ? Number(text) : null;
}

/** The text parts as the zod schema reads them (single parts as strings, repeatable ones as lists), checked with the file. */
function uploadFieldsOf(received: ReceivedUpload): UploadFields {
  const input: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(received.parts)) {
    input[name] = (REPEATABLE_UPLOAD_PARTS as readonly string[]).includes(name) ? values : values[0];
  }
  const fields: FieldErrors = {};
  if (Object.hasOwn(input, UPLOAD_FILE_PART)) fields[UPLOAD_FILE_PART] = ['Send the media as a file part (with a filename).'];
  else if (!received.media && !received.skippedFile) fields[UPLOAD_FILE_PART] = ['This field is required.'];
  delete input[UPLOAD_FILE_PART];
  const checked = checkInput(uploadFields, input);
  if (!checked.success) Object.assign(fields, checked.fields);
  if (Object.keys(fields).length > 0 || !checked.success) throw new ValidationError(fields);
  return checked.data;
}
