import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessRuleError, NotFoundError, ValidationError, parseInput, transactionWithAfterCommit, type FieldErrors } from '@tributary/kit';
import { pathId } from '../../list-query-params.js';
import type { PhotosPrincipal } from '../auth/index.js';
import { Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import { NOT_A_MEMBER, User, teamMembersByIds } from '../teams/index.js';
import type { ChecklistEvent, ChecklistServiceOptions } from './checklist-events.js';
import { decideItemChange, type AcceptedItemChange } from './checklist-item-rules.js';
import { Checklist, ChecklistEvidence, ChecklistItem } from './checklist.entity.js';
import { presentChecklist, presentChecklistItem, type ChecklistPage } from './checklist.presenter.js';
import {
  CHECKLISTS_PER_PAGE, CHECKLIST_ITEMS_MAX, createChecklistBody, updateChecklistBody, updateChecklistItemBody, type ChecklistListQuery, type NewChecklistItem,
} from './checklist.validation.js';
import { listChecklistIds, openChecklistIds } from './checklist-queries.js';

/** What the presenters read: an item's people and evidence photos (with their project, for the photo resource). */
const ITEM_POPULATE = ['checklist', 'assignee', 'tickedBy', 'evidence', 'evidence.photo', 'evidence.photo.project'] as const;
const CHECKLIST_POPULATE = ['project', 'createdBy', 'items', 'items.assignee', 'items.tickedBy', 'items.evidence', 'items.evidence.photo', 'items.evidence.photo.project'] as const;

export const NO_PROJECT = 'No project with this id in your team.';
export const PHOTO_NOT_FOUND = 'No photo with this id in your team.';
export const PHOTO_OF_OTHER_PROJECT = "Must be a photo of the checklist's project.";
export const NOT_THE_DEVICES_PHOTO = 'A device may attach only photos it uploaded.';
export const NOT_THE_DEVICES_EVIDENCE = 'A device may remove only photos it attached.';

/** Checklists of the caller's team, for REST, GraphQL and bootstrap; callers have checked the scope. */
export class ChecklistService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: ChecklistServiceOptions,
  ) {}

  /** A checklist of a team project with its items in the order given (announced as checklist.created). */
  async create(principal: PhotosPrincipal, body: unknown): Promise<Checklist> {
    const input = parseInput(createChecklistBody, body, { rootField: 'body' });
    const id = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const project = await tx.findOne(Project, { id: input.project_id, team: principal.teamId });
      const fields = await assigneeProblems(tx, principal.teamId, input.items, 'items');
      if (!project) fields.project_id = [NO_PROJECT];
      if (Object.keys(fields).length > 0) throw new ValidationError(fields);
      const checklist = tx.create(Checklist, { team: principal.teamId, project: project!, title: input.title, createdBy: principal.userId });
      addItems(tx, checklist, input.items, 1);
      await tx.flush();
      await tx.populate(checklist, CHECKLIST_POPULATE);
      return { result: checklist.id, afterCommit: await this.announce(tx, principal.teamId, 'checklist.created', presentChecklist(checklist, this.options.urls)) };
    });
    return this.em.findOneOrFail(Checklist, id, { populate: CHECKLIST_POPULATE, refresh: true });
  }

  /**
   * Renames the checklist and/or appends items (positions continue after the last); announced as checklist.updated
   * when something changed. Existing items are changed through PATCH /checklist-items/{item}.
   */
  async update(principal: PhotosPrincipal, id: string, body: unknown): Promise<Checklist> {
    const changes = parseInput(updateChecklistBody, body, { rootField: 'body' });
    const checklistId = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const found = pathId(id) === null ? null : await tx.findOne(Checklist, { id: pathId(id)!, team: principal.teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) throw new NotFoundError(`checklist ${id.slice(0, 40)}`);
      const checklist = await tx.findOneOrFail(Checklist, found.id, { populate: ['items'], refresh: true });
      const added = changes.add_items ?? [];
      const fields = await assigneeProblems(tx, principal.teamId, added, 'add_items');
      if (checklist.items.length + added.length > CHECKLIST_ITEMS_MAX) fields.add_items = [`A checklist holds at most ${CHECKLIST_ITEMS_MAX} items.`];
      if (Object.keys(fields).length > 0) throw new ValidationError(fields);
      const renamed = changes.title !== undefined && changes.title !== checklist.title;
      if (!renamed && added.length === 0) return { result: checklist.id };
      if (renamed) checklist.title = changes.title!;
      addItems(tx, checklist, added, Math.max(0, ...checklist.items.getItems().map((item) => item.position)) + 1);
      checklist.updatedAt = new Date();
      await tx.flush();
      const fresh = await tx.findOneOrFail(Checklist, checklist.id, { populate: CHECKLIST_POPULATE, refresh: true });
      return { result: checklist.id, afterCommit: await this.announce(tx, principal.teamId, 'checklist.updated', presentChecklist(fresh, this.options.urls)) };
    });
    return this.em.findOneOrFail(Checklist, checklistId, { populate: CHECKLIST_POPULATE, refresh: true });
  }

  /** The team's checklists, newest first, filtered (project, open/done, mine = an item assigned to the caller). */
  async list(principal: PhotosPrincipal, query: ChecklistListQuery): Promise<ChecklistPage> {
    const page = query.page ?? 1;
    const { ids, total } = await listChecklistIds(this.em, {
      teamId: principal.teamId,
      projectId: query.projectId,
      status: query.status ?? 'all',
      assigneeId: query.mine ? principal.userId : undefined,
      limit: CHECKLISTS_PER_PAGE,
      offset: (page - 1) * CHECKLISTS_PER_PAGE,
    });
    return { items: await this.loadInOrder(ids), total, page, perPage: CHECKLISTS_PER_PAGE };
  }

  /** The team's open checklists on active projects, newest first (bootstrap's `checklists`). */
  async openChecklists(teamId: number): Promise<object[]> {
    const checklists = await this.loadInOrder(await openChecklistIds(this.em, teamId));
    return checklists.map((checklist) => presentChecklist(checklist, this.options.urls));
  }

  /** The caller's team's checklist; another team's, unknown or malformed id: 404. */
  async get(principal: PhotosPrincipal, id: string | number): Promise<Checklist> {
    const checklist = await this.findVisible(principal, id);
    if (!checklist) throw new NotFoundError(`checklist ${String(id).slice(0, 40)}`);
    return checklist;
  }

  async findVisible(principal: PhotosPrincipal, id: string | number): Promise<Checklist | null> {
    const checklistId = pathId(id);
    if (checklistId === null) return null;
    return this.em.findOne(Checklist, { id: checklistId, team: principal.teamId }, { populate: CHECKLIST_POPULATE });
  }

  /**
   * Ticks, unticks, attaches and removes evidence (checklist-item-rules.ts) under a lock of the item, so two devices
   * ticking at once see each other's photos. A refusal changes nothing. A real change is announced as checklist_item.updated.
   */
  async updateItem(principal: PhotosPrincipal, id: string, body: unknown): Promise<ChecklistItem> {
    const changes = parseInput(updateChecklistItemBody, body, { rootField: 'body' });
    const itemId = await transactionWithAfterCommit<number>(this.em, async (tx) => {
      const item = await this.lockedItem(tx, principal, id);
      const attach = changes.attach_photo_ids ?? [];
      const detach = changes.detach_photo_ids ?? [];
      await this.checkPhotos(tx, principal, item, attach, detach);
      const photoIds = item.evidence.getItems().map((e) => e.photo.id);
      const decision = decideItemChange({ requiresPhoto: item.requiresPhoto, ticked: item.isTicked(), photoIds }, { ticked: changes.ticked, attach, detach });
      if (!decision.ok) {
        if (decision.photoRequired) throw new BusinessRuleError(Object.values(decision.fields)[0]![0]!, decision.fields, { code: 'photo_required' });
        throw new ValidationError(decision.fields);
      }
      const note = changes.note === undefined ? undefined : changes.note || null;
      const changed = decision.tick !== null || decision.attached.length + decision.detached.length > 0 || (note !== undefined && note !== (item.note ?? null));
      if (!changed) return { result: item.id };
      applyItemChange(tx, principal, item, decision);
      if (note !== undefined) item.note = note;
      await tx.flush();
      const fresh = await tx.findOneOrFail(ChecklistItem, item.id, { populate: ITEM_POPULATE, refresh: true });
      return { result: item.id, afterCommit: await this.announce(tx, principal.teamId, 'checklist_item.updated', presentChecklistItem(fresh, this.options.urls)) };
    });
    return this.em.findOneOrFail(ChecklistItem, itemId, { populate: ITEM_POPULATE, refresh: true });
  }

  private async lockedItem(tx: EntityManager, principal: PhotosPrincipal, id: string): Promise<ChecklistItem> {
    const itemId = pathId(id);
    const found = itemId === null ? null : await tx.findOne(ChecklistItem, { id: itemId, checklist: { team: principal.teamId } });
    if (!found) throw new NotFoundError(`checklist item ${id.slice(0, 40)}`);
    await tx.findOneOrFail(ChecklistItem, found.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    return tx.findOneOrFail(ChecklistItem, found.id, { populate: ['checklist', 'evidence', 'evidence.photo'], refresh: true });
  }

  /** 422 unless every photo to attach is a team photo of the checklist's project (a device's: one it uploaded). */
  private async checkPhotos(tx: EntityManager, principal: PhotosPrincipal, item: ChecklistItem, attach: readonly number[], detach: readonly number[]): Promise<void> {
    const photos = attach.length === 0 ? [] : await tx.find(Photo, { id: { $in: [...new Set(attach)] }, team: principal.teamId });
    const byId = new Map(photos.map((photo) => [photo.id, photo]));
    const problems = new Set<string>();
    for (const photoId of attach) {
      const photo = byId.get(photoId);
      if (!photo) problems.add(PHOTO_NOT_FOUND);
      else if (photo.project?.id !== item.checklist.project.id) problems.add(PHOTO_OF_OTHER_PROJECT);
      else if (principal.deviceId !== null && photo.uploadedByDevice?.id !== principal.deviceId) problems.add(NOT_THE_DEVICES_PHOTO);
    }
    const fields: FieldErrors = problems.size > 0 ? { attach_photo_ids: [...problems] } : {};
    const foreignEvidence = item.evidence.getItems().some((e) => detach.includes(e.photo.id) && principal.deviceId !== null && e.attachedByDevice?.id !== principal.deviceId);
    if (foreignEvidence) fields.detach_photo_ids = [NOT_THE_DEVICES_EVIDENCE];
    if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  }

  /** Entities for ids in that order, with everything the presenter reads (a constant number of queries). */
  private async loadInOrder(ids: readonly number[]): Promise<Checklist[]> {
    if (ids.length === 0) return [];
    const found = await this.em.find(Checklist, { id: { $in: [...ids] } }, { populate: CHECKLIST_POPULATE });
    const byId = new Map(found.map((checklist) => [checklist.id, checklist]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  private async announce(tx: EntityManager, teamId: number, event: ChecklistEvent, data: object) {
    return this.options.events?.emit(tx, teamId, event, data);
  }
}

/** 422 fields for new items whose assignee is not a member of the team (`<field>.N.assignee_id`). */
async function assigneeProblems(tx: EntityManager, teamId: number, items: readonly NewChecklistItem[], field: string): Promise<FieldErrors> {
  const members = await teamMembersByIds(tx, teamId, items.flatMap((item) => (item.assignee_id ? [item.assignee_id] : [])));
  const fields: FieldErrors = {};
  items.forEach((item, index) => {
    if (item.assignee_id && !members.has(item.assignee_id)) fields[`${field}.${index}.assignee_id`] = [NOT_A_MEMBER];
  });
  return fields;
}

/** Creates the items in order from position `first`. */
function addItems(tx: EntityManager, checklist: Checklist, items: readonly NewChecklistItem[], first: number): void {
  items.forEach((item, index) =>
    tx.create(ChecklistItem, { checklist, position: first + index, title: item.title, requiresPhoto: item.requires_photo, assignee: item.assignee_id ?? null }),
  );
}

/** Writes an accepted decision: evidence rows added and removed, the tick recorded or cleared, the times touched. */
function applyItemChange(tx: EntityManager, principal: PhotosPrincipal, item: ChecklistItem, decision: AcceptedItemChange): void {
  for (const photoId of decision.attached) {
    item.evidence.add(tx.create(ChecklistEvidence, { item, photo: tx.getReference(Photo, photoId), attachedBy: principal.userId, attachedByDevice: principal.deviceId }));
  }
  for (const gone of item.evidence.getItems().filter((e) => decision.detached.includes(e.photo.id))) tx.remove(gone);
  if (decision.tick === 'tick') Object.assign(item, { tickedAt: new Date(), tickedBy: tx.getReference(User, principal.userId) });
  if (decision.tick === 'untick') Object.assign(item, { tickedAt: null, tickedBy: null });
  item.updatedAt = new Date();
  item.checklist.updatedAt = item.updatedAt;
}
