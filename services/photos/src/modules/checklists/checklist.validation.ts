// The checklist inputs as zod schemas: the create body, the list query and an item's PATCH body.
import { integerQueryParam, parseInput, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { mineQueryParam, optionalIdQueryParam } from '../../list-query-params.js';
import { MAX_ID } from '../photos/index.js';
import { EVIDENCE_PHOTOS_MAX } from './checklist-item-rules.js';

/** Page size of checklist lists (as for projects and photos). */
export const CHECKLISTS_PER_PAGE = 25;
export const CHECKLISTS_PAGE_MAX = 10_000;
export const CHECKLIST_TITLE_MAX = 191;
export const CHECKLIST_ITEMS_MAX = 100;
export const ITEM_NOTE_MAX = 2_000;

const requiredText = (max: number) =>
  wellFormedText(z.string().trim().min(1, { error: 'This field is required.' }).max(max, { error: `Must be at most ${max} characters.` }));
const id = (description: string) => z.number().int().min(1).max(MAX_ID).meta({ description });

export const newChecklistItem = z
  .strictObject({
    title: requiredText(CHECKLIST_TITLE_MAX),
    requires_photo: z.boolean().default(false).meta({ description: 'Ticking the item needs at least one attached photo (else 422).' }),
    assignee_id: id('A member of the team who should do it (user id).').nullable().optional(),
  })
  .meta({ id: 'PhotosChecklistItemCreate' });
export type NewChecklistItem = z.infer<typeof newChecklistItem>;

export const createChecklistBody = z
  .strictObject({
    project_id: id('A project of the team (archived ones too).'),
    title: requiredText(CHECKLIST_TITLE_MAX),
    items: z
      .array(newChecklistItem)
      .min(1, { error: 'A checklist needs at least one item.' })
      .max(CHECKLIST_ITEMS_MAX, { error: `At most ${CHECKLIST_ITEMS_MAX} items.` })
      .meta({ description: 'In order: positions are 1, 2, 3 … as given.' }),
  })
  .meta({ id: 'PhotosChecklistCreate' });
export type NewChecklist = z.infer<typeof createChecklistBody>;

export const updateChecklistBody = z
  .strictObject({
    title: requiredText(CHECKLIST_TITLE_MAX).optional(),
    add_items: z
      .array(newChecklistItem)
      .max(CHECKLIST_ITEMS_MAX, { error: `At most ${CHECKLIST_ITEMS_MAX} items.` })
      .optional()
      .meta({ description: 'Appended after the last item, in order.' }),
  })
  .meta({ id: 'PhotosChecklistUpdate', description: 'Rename and/or append items; items are ticked and given evidence through PATCH /checklist-items/{item}.' });

export const CHECKLIST_STATUSES = ['open', 'done', 'all'] as const;
export type ChecklistStatusFilter = (typeof CHECKLIST_STATUSES)[number];

export const listChecklistsQuery = z.object({
  project: optionalIdQueryParam('Only checklists of this project.'),
  status: z
    .enum(CHECKLIST_STATUSES)
    .default('all')
    .meta({ description: 'open: some item unticked; done: every item ticked; all (default).' }),
  mine: mineQueryParam('1: only checklists with an item assigned to the caller.'),
  page: integerQueryParam({ min: 1, max: CHECKLISTS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${CHECKLISTS_PER_PAGE} checklists per page.` }),
});

/** A list query in the domain's terms (from REST once parsed, from GraphQL as it is). */
export interface ChecklistListQuery {
  projectId?: number | undefined;
  status?: ChecklistStatusFilter | undefined;
  mine?: boolean | undefined;
  page?: number | undefined;
}

const photoIds = (description: string) =>
  z
    .array(id('Photo id.'))
    .max(EVIDENCE_PHOTOS_MAX, { error: `At most ${EVIDENCE_PHOTOS_MAX} photos.` })
    .optional()
    .meta({ description });

export const updateChecklistItemBody = z
  .strictObject({
    ticked: z.boolean().optional().meta({ description: 'true ticks the item (422 when it requires a photo and none is attached after this request), false unticks it.' }),
    attach_photo_ids: photoIds('Photos of the checklist\'s project to attach as evidence (applied before the tick). A device token may attach only photos it uploaded.'),
    detach_photo_ids: photoIds('Attached photos to remove. A device token may remove only photos it attached.'),
    note: wellFormedText(z.string().trim().max(ITEM_NOTE_MAX, { error: `Must be at most ${ITEM_NOTE_MAX} characters.` }))
      .nullable()
      .optional()
      .meta({ description: 'The evidence note; null or empty clears it.' }),
  })
  .meta({ id: 'PhotosChecklistItemUpdate' });
export type ChecklistItemChanges = z.infer<typeof updateChecklistItemBody>;

/** The REST query (raw) in the domain's terms. */
export function checklistListQueryOf(raw: unknown): ChecklistListQuery {
  const query = parseInput(listChecklistsQuery, raw);
  return { projectId: query.project, status: query.status, mine: query.mine, page: query.page };
}
