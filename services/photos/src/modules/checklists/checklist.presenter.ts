// The checklist and its items as REST answers them and webhooks carry them: one presenter for both. Evidence photos
// are full photo resources (presentPhoto). Expects the relations of CHECKLIST_POPULATE to be loaded.
import type { z } from 'zod';
import { presentPhoto, type MediaUrlSigner } from '../photos/index.js';
import { presentUser } from '../teams/index.js';
import type { Checklist, ChecklistItem } from './checklist.entity.js';
import type { checklistItemResource, checklistListResponse, checklistResource } from './checklist.openapi.js';

export interface ChecklistPage {
  items: Checklist[];
  total: number;
  page: number;
  perPage: number;
}

export function presentChecklistItem(item: ChecklistItem, urls: MediaUrlSigner): z.input<typeof checklistItemResource> {
  return {
    id: item.id,
    checklist_id: item.checklist.id,
    position: item.position,
    title: item.title,
    requires_photo: item.requiresPhoto,
    assignee: presentUser(item.assignee),
    ticked: item.isTicked(),
    ticked_at: item.tickedAt?.toISOString() ?? null,
    ticked_by: item.isTicked() ? presentUser(item.tickedBy) : null,
    evidence: { note: item.note ?? null, photos: item.evidence.getItems().map((evidence) => presentPhoto(evidence.photo, urls)) },
    updated_at: item.updatedAt.toISOString(),
  };
}

export function presentChecklist(checklist: Checklist, urls: MediaUrlSigner): z.input<typeof checklistResource> {
  const { ticked, total, status } = checklist.progress();
  return {
    id: checklist.id,
    project: { id: checklist.project.id, name: checklist.project.name },
    title: checklist.title,
    status,
    progress: { ticked, total },
    created_by: presentUser(checklist.createdBy),
    created_at: checklist.createdAt.toISOString(),
    updated_at: checklist.updatedAt.toISOString(),
    items: checklist.items.getItems().map((item) => presentChecklistItem(item, urls)),
  };
}

export function presentChecklistPage(page: ChecklistPage, urls: MediaUrlSigner): z.input<typeof checklistListResponse> {
  return {
    data: page.items.map((checklist) => presentChecklist(checklist, urls)),
    meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: Math.max(1, Math.ceil(page.total / page.perPage)) },
  };
}
