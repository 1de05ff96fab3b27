// The auth routes' bodies and queries as zod schemas: the routes document them (auth.openapi.ts) and the services
// validate with them.
import { integerQueryParam, wellFormedText } from '@tributary/kit';
import { z } from 'zod';
import { DEVICE_ID_MAX_LENGTH, DEVICE_NAME_MAX_LENGTH, DEVICE_PLATFORM_MAX_LENGTH } from '../devices/index.js';
import { ABILITIES } from './abilities.js';
import { INTEGRATION_TOKEN_MAX_DAYS } from './access-token-credentials.js';

/** Any password up to this length is checked (a longer one fails like a wrong one would). */
export const LOGIN_PASSWORD_MAX_LENGTH = 1024;
export const EMAIL_MAX_LENGTH = 254;
export const TOKEN_NAME_MAX_LENGTH = 191;
/** Integration tokens per page of GET /api/v1/auth/tokens (decided here). */
export const TOKENS_PER_PAGE = 25;
export const TOKENS_PAGE_MAX = 10_000;

const text = (max: number) => wellFormedText(z.string().trim().min(1).max(max));
const teamId = z.number().int().min(1).max(2 ** 31 - 1).meta({ description: 'A team the user belongs to.', example: 1 });

export const loginInput = z.object({
  email: wellFormedText(z.string().max(EMAIL_MAX_LENGTH)).meta({ example: 'demo@photos.tributary.test' }),
  password: z.string().min(1).max(LOGIN_PASSWORD_MAX_LENGTH).meta({ example: 'demo-password-local-only' }),
  device_id: text(DEVICE_ID_MAX_LENGTH)
    .optional()
    .meta({ description: 'The capture app\'s installation id: present = a device token (ability `capture`); absent = an office session.', example: 'b9e1c2d4-5f6a-4b7c-8d9e-0f1a2b3c4d5e' }),
  device_name: text(DEVICE_NAME_MAX_LENGTH).optional().meta({ description: 'Shown to the office (e.g. "Sam\'s iPhone"); only with device_id.' }),
  platform: text(DEVICE_PLATFORM_MAX_LENGTH).optional().meta({ description: 'e.g. ios, android; only with device_id.', example: 'ios' }),
  team_id: teamId.optional().meta({ description: 'The team to sign in to; default: the user\'s first team (oldest membership).' }),
});
export type LoginInput = z.infer<typeof loginInput>;

export const switchTeamInput = z.object({ team_id: teamId });

/** An integration token: its abilities (the 15 scopes; `capture` is only minted by a device login) and its expiry. */
export const createTokenInput = z
  .object({
    name: text(TOKEN_NAME_MAX_LENGTH).meta({ example: 'Accounting export' }),
    abilities: z
      .array(z.enum(ABILITIES))
      .min(1)
      .max(ABILITIES.length)
      .refine((list) => new Set(list).size === list.length, { error: 'Must not repeat an ability.' })
      .meta({ description: 'The scopes the token holds (spec "Authentication").', example: ['projects:read', 'photos:read'] }),
    expires_in_days: z.number().int().min(1).max(INTEGRATION_TOKEN_MAX_DAYS).optional().meta({ description: `1 to ${INTEGRATION_TOKEN_MAX_DAYS}; give this or expires_at.` }),
    expires_at: z.iso.datetime({ offset: true }).optional().meta({ description: `A future ISO 8601 time at most ${INTEGRATION_TOKEN_MAX_DAYS} days ahead; give this or expires_in_days.` }),
  })
  .refine((body) => (body.expires_at === undefined) !== (body.expires_in_days === undefined), {
    error: 'Give exactly one of expires_at and expires_in_days.',
    path: ['expires_at'],
  });
export type CreateTokenInput = z.infer<typeof createTokenInput>;

export const listTokensQuery = z.object({
  page: integerQueryParam({ min: 1, max: TOKENS_PAGE_MAX, default: 1, description: `Page number from 1 (default 1), ${TOKENS_PER_PAGE} tokens per page.` }),
});

export const tokenPathParams = z.object({ token: z.string().meta({ description: 'Integration token id (digits); anything else reads as 404.' }) });
