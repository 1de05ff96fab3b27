// The project routes' inputs as zod schemas (the list's query, the create body, the nearby fix): the routes document
// them (project.openapi.ts) and parse with them.
import { integerQueryParam, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { MAX_PROJECT_RADIUS_M } from './project-matching.js';
import { PROJECT_STATUSES, type ProjectStatus } from './project.entity.js';

/** Status listed when none is asked for (not shown in the spec; decided here). */
export const DEFAULT_PROJECT_STATUS: ProjectStatus = 'active';
/** Page size of project lists (not shown in the spec; decided here). */
export const PROJECTS_PER_PAGE = 25;
/** Highest page number accepted (keeps OFFSET bounded). */
export const PROJECTS_PAGE_MAX = 10_000;
export const PROJECT_SEARCH_MAX = 191;
export const RADIUS_NEEDS_COORDINATES = 'Only allowed with coordinates.';

export const listProjectsQuery = z.object({
  q: z.string().trim().max(PROJECT_SEARCH_MAX).optional().meta({ description: 'Searches name and address (case-insensitive substring).' }),
  status: z.enum(PROJECT_STATUSES).default(DEFAULT_PROJECT_STATUS),
  page: integerQueryParam({ min: 1, max: PROJECTS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${PROJECTS_PER_PAGE} projects per page.` }),
});

/** A list query in the domain's terms (what the service takes: from REST once parsed, from GraphQL as it is). */
export interface ProjectListQuery {
  q?: string | undefined;
  status?: ProjectStatus | undefined;
  page?: number | undefined;
}

/** The smallest radius_m a project may have, metres: below a phone's GPS accuracy a smaller circle means nothing. */
export const MIN_PROJECT_RADIUS_M = 10;
export const PROJECT_NAME_MAX = 191;
export const PROJECT_ADDRESS_MAX = 500;

const requiredText = (max: number) =>
  wellFormedText(z.string().trim().min(1, { error: 'This field is required.' }).max(max, { error: `Must be at most ${max} characters.` }));

/** The create body (POST /api/v1/projects; the GraphQL input maps onto it). Unknown fields are refused. */
export const createProjectBody = z
  .strictObject({
    name: requiredText(PROJECT_NAME_MAX),
    address: wellFormedText(z.string().trim().max(PROJECT_ADDRESS_MAX, { error: `Must be at most ${PROJECT_ADDRESS_MAX} characters.` }))
      .nullable()
      .optional()
      .meta({ description: 'Street address; empty is stored as none.' }),
    coordinates: z
      .strictObject({
        lat: z.number().min(-90).max(90),
        lng: z.number().min(-180).max(180),
      })
      .nullable()
      .optional()
      .meta({ description: 'The site centre (WGS 84 degrees). Without coordinates the project is never matched by GPS.' }),
    radius_m: z
      .number()
      .min(MIN_PROJECT_RADIUS_M, { error: `Must be between ${MIN_PROJECT_RADIUS_M} and ${MAX_PROJECT_RADIUS_M}.` })
      .max(MAX_PROJECT_RADIUS_M, { error: `Must be between ${MIN_PROJECT_RADIUS_M} and ${MAX_PROJECT_RADIUS_M}.` })
      .optional()
      .meta({ description: `Match radius around the coordinates, metres (${MIN_PROJECT_RADIUS_M} to ${MAX_PROJECT_RADIUS_M}); default the team's default_match_radius_m. Only with coordinates.` }),
    customer_id: z
      .number()
      .int()
      .min(1)
      .max(2 ** 31 - 1)
      .nullable()
      .optional()
      .meta({ description: 'Links a customer of the team (the project resource then shows `customer {id, name}`).' }),
  })
  .refine((body) => body.radius_m === undefined || (body.coordinates ?? null) !== null, { error: RADIUS_NEEDS_COORDINATES, path: ['radius_m'] })
  .meta({ id: 'PhotosCreateProject' });

export type CreateProjectBody = z.infer<typeof createProjectBody>;

/** A create, validated and normalised (what the service stores and fingerprints). */
export interface NewProject {
  name: string;
  address: string | null;
  coordinates: { lat: number; lng: number } | null;
  /** null: the team's default (only with coordinates). */
  radiusM: number | null;
  /** The linked customer's id (checked against the team when stored); null: none. */
  customerId: number | null;
}

export function newProjectFrom(body: CreateProjectBody): NewProject {
  return {
    name: body.name,
    address: body.address ? body.address : null,
    coordinates: body.coordinates ? { lat: body.coordinates.lat, lng: body.coordinates.lng } : null,
    radiusM: body.radius_m ?? null,
    customerId: body.customer_id ?? null,
  };
}

/** A decimal number as a query parameter: digits with an optional sign, point and exponent (no hex, no `Infinity`). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export const NOT_A_NUMBER_MESSAGE = 'Must be a number.';

/**
 * A number query parameter of the nearby fix: absent or empty reads as no value (the decision is then `no_fix`); any
 * other text that is not a decimal number is refused (422 naming the parameter).
 */
function fixQueryParam(description: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      if (!DECIMAL.test(value.trim())) {
        ctx.addIssue({ code: 'custom', message: NOT_A_NUMBER_MESSAGE });
        return z.NEVER;
      }
      return Number(value);
    })
    .meta({
      description,
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { type: 'number', description });
      },
    });
}

export const nearbyProjectsQuery = z.object({
  lat: fixQueryParam('Latitude, WGS 84 degrees. Missing or outside -90..90: the decision is `no_fix`.'),
  lng: fixQueryParam('Longitude, WGS 84 degrees. Missing or outside -180..180: the decision is `no_fix`.'),
  accuracy_m: fixQueryParam('Horizontal accuracy of the fix, metres (the radius of its uncertainty circle). Missing or negative: `no_fix`.'),
});
