// Checklists of a team's projects (spec: "a checklist has items, each with evidence; an item may be flagged
// requires_photo"): created by the office, ticked with photo evidence by the office and the capture app.
import { ChecklistEvidenceSchema, ChecklistItemSchema, ChecklistSchema } from './checklist.entity.js';

export { Checklist, ChecklistEvidence, ChecklistItem } from './checklist.entity.js';
export { ChecklistService } from './checklist.service.js';
export type { ChecklistEvent, ChecklistEventSink, ChecklistServiceOptions } from './checklist-events.js';
export { CHECKLISTS_PER_PAGE } from './checklist.validation.js';
export { presentChecklist, presentChecklistItem, presentChecklistPage, type ChecklistPage } from './checklist.presenter.js';
export { checklistRoutes } from './checklist.routes.js';
export { checklistApi, checklistItemResource, checklistResource } from './checklist.openapi.js';
export { checklistResolvers } from './checklist.resolvers.js';

export const checklistEntities = [ChecklistSchema, ChecklistItemSchema, ChecklistEvidenceSchema];
