// The page inputs as zod schemas: the create and edit bodies and the list's query.
import { integerQueryParam, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { MAX_ID } from '../photos/index.js';

export const PAGES_PER_PAGE = 25;
export const PAGES_PAGE_MAX = 10_000;
export const PAGE_TITLE_MAX = 191;
/** Longest Markdown body, characters (a long site diary fits; rendering stays fast). */
export const PAGE_BODY_MAX = 100_000;
export const PAGE_SEARCH_MAX = 191;

const title = wellFormedText(
  z.string().trim().min(1, { error: 'This field is required.' }).max(PAGE_TITLE_MAX, { error: `Must be at most ${PAGE_TITLE_MAX} characters.` }),
);
const body = wellFormedText(z.string().max(PAGE_BODY_MAX, { error: `Must be at most ${PAGE_BODY_MAX} characters.` })).meta({
  description: 'Markdown (CommonMark with tables and strikethrough; raw HTML is shown as text). May be empty.',
});

const projectId = z.number().int().min(1).max(MAX_ID).meta({ description: 'An active or archived project of the team.' });

export const createPageBody = z.strictObject({ project_id: projectId, title, body }).meta({ id: 'PhotosPageCreate' });

/** A new page in the domain's terms: what PageService.create takes (from REST once parsed, from GraphQL as typed). */
export const newPage = z.strictObject({ projectId, title, body });
export type NewPage = z.infer<typeof newPage>;

export const editPageBody = z
  .strictObject({ title: title.optional(), body: body.optional() })
  .meta({ id: 'PhotosPageEdit', description: 'Title and/or body; the page stays with its project.' });
export type PageChanges = z.infer<typeof editPageBody>;

const DIGITS = /^\d{1,10}$/;
const PROJECT_PARAM_MESSAGE = `Must be an integer between 1 and ${MAX_ID}.`;

export const listPagesQuery = z.object({
  project: z
    .string()
    .regex(DIGITS, { error: PROJECT_PARAM_MESSAGE })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: PROJECT_PARAM_MESSAGE }).max(MAX_ID, { error: PROJECT_PARAM_MESSAGE }))
    .optional()
    .meta({
      description: 'Only pages of this project.',
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: MAX_ID, description: 'Only pages of this project.' });
      },
    }),
  q: wellFormedText(z.string().trim().max(PAGE_SEARCH_MAX, { error: `Must be at most ${PAGE_SEARCH_MAX} characters.` }))
    .optional()
    .meta({ description: 'Searches title and body: a case- and accent-insensitive substring.' }),
  page: integerQueryParam({ min: 1, max: PAGES_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${PAGES_PER_PAGE} pages per page.` }),
});

/** A list query in the domain's terms (from REST once parsed, from GraphQL as it is). */
export interface PageListQuery {
  projectId?: number | undefined;
  q?: string | undefined;
  page?: number | undefined;
}
