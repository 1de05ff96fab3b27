// The report inputs as zod schemas: the create body and the list query. Routes parse with these and the OpenAPI
// document shows them.
import { integerQueryParam, integerRangeMessage, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { MAX_ID } from '../photos/index.js';
import { REPORT_STATUSES, type ReportStatus } from './report-status.js';

/** Page size of report lists (as for projects and photos). */
export const REPORTS_PER_PAGE = 25;
export const REPORTS_PAGE_MAX = 10_000;
export const REPORT_TITLE_MAX = 191;
export const REPORT_NOTES_MAX = 5_000;
/** Photos in one report: each is printed at full page size, so a report stays a document one can send (README). */
export const REPORT_PHOTOS_MAX = 50;

const id = (description: string) => z.number().int().min(1).max(MAX_ID).meta({ description });

export const createReportBody = z
  .strictObject({
    project_id: id('The project the report documents (a project of the caller\'s team).'),
    title: wellFormedText(z.string().trim().min(1).max(REPORT_TITLE_MAX)).meta({ description: 'Shown on the cover.' }),
    photo_ids: z
      .array(id('A photo of the project.'))
      .min(1)
      .max(REPORT_PHOTOS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, { error: 'Each photo may appear once.' })
      .meta({ description: `The photos in print order, 1–${REPORT_PHOTOS_MAX}, each a photo or video of the project, none twice.` }),
    notes: wellFormedText(z.string().max(REPORT_NOTES_MAX)).optional().meta({ description: 'Printed on the cover under the project details.' }),
  })
  .meta({ id: 'PhotosReportCreate' });
export type NewReport = z.infer<typeof createReportBody>;

/** An optional id filter sent as digits, documented as the integer a client sends (as integerQueryParam, without default). */
function idQueryParam(description: string) {
  const error = integerRangeMessage(1, MAX_ID);
  return z
    .string()
    .regex(/^\d{1,10}$/, { error })
    .transform(Number)
    .pipe(z.number().int().min(1, { error }).max(MAX_ID, { error }))
    .optional()
    .meta({
      description,
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: MAX_ID, description });
      },
    });
}

export const listReportsQuery = z.object({
  project: idQueryParam('Only reports of this project.'),
  status: z.enum(REPORT_STATUSES).optional().meta({ description: 'Only reports in this status.' }),
  page: integerQueryParam({ min: 1, max: REPORTS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${REPORTS_PER_PAGE} reports per page.` }),
});

export interface ReportListQuery {
  projectId?: number | undefined;
  status?: ReportStatus | undefined;
  page?: number | undefined;
}
