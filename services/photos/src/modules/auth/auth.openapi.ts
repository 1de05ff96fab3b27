// The auth routes as OpenAPI operations; auth.routes.ts mounts its handlers on these definitions.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { ACCESS_TOKEN_SECURITY } from '../../api-security.js';
import { TEAM_ROLES } from '../teams/index.js';
import { ABILITIES, CAPTURE_ABILITY } from './abilities.js';
import { DEVICE_TOKEN_TTL_DAYS, SESSION_TOKEN_TTL_DAYS } from './access-token-credentials.js';
import { TOKENS_PER_PAGE, createTokenInput, listTokensQuery, loginInput, switchTeamInput, tokenPathParams } from './auth.validation.js';

export const LOGIN_PATH = `${REST_BASE}/auth/login`;
const tags = ['Auth'];

const userResource = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
const teamResource = z.object({ id: z.number().int(), name: z.string() });

export const meResponse = z.object({
  data: z
    .object({ user: userResource, role: z.enum(TEAM_ROLES), team: teamResource })
    .meta({ id: 'PhotosSignedInUser' }),
});

export const issuedTokenResponse = z.object({
  data: z
    .object({
      token: z.string().meta({ description: '`ph_` + 48 characters. Shown only in the login response (switch-team answers the token the request carried); only its SHA-256 is stored.' }),
      token_type: z.literal('Bearer'),
      kind: z.enum(['session', 'device']).meta({ description: '`device` when the login named a device_id.' }),
      abilities: z.array(z.literal(CAPTURE_ABILITY)).nullable().meta({ description: `null for an office session (the role decides); ["${CAPTURE_ABILITY}"] for a device token.` }),
      expires_at: z.iso.datetime().meta({ description: `Office sessions last ${SESSION_TOKEN_TTL_DAYS} days, device tokens ${DEVICE_TOKEN_TTL_DAYS} days.` }),
      user: userResource,
      role: z.enum(TEAM_ROLES),
      team: teamResource,
      device: z
        .object({ id: z.number().int(), device_id: z.string(), name: z.string().nullable(), platform: z.string().nullable() })
        .nullable()
        .meta({ description: 'The device a device token belongs to; null for an office session.' }),
    })
    .meta({ id: 'PhotosIssuedToken' }),
});

export const integrationTokenResource = z
  .object({
    id: z.number().int(),
    name: z.string(),
    abilities: z.array(z.enum(ABILITIES)),
    user: userResource.meta({ description: 'The user the token acts as.' }),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'PhotosIntegrationToken', description: 'An integration token without its secret.' });

export const createdIntegrationTokenResponse = z.object({
  data: integrationTokenResource
    .extend({ token: z.string().meta({ description: '`ph_` + 48 characters. Shown only in this response; only its SHA-256 is stored.' }) })
    .meta({ id: 'PhotosCreatedIntegrationToken' }),
});

const pageMeta = z.object({ current_page: z.number().int(), per_page: z.number().int(), total: z.number().int(), last_page: z.number().int() });
export const integrationTokenListResponse = z.object({ data: z.array(integrationTokenResource), meta: pageMeta });

const ownerOrAdmin = 'Needs an office session of an owner or admin (403 for a member, and for any token with abilities).';

export const authApi = {
  me: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/auth/me`,
    errors: [401],
    operation: {
      operationId: 'getSignedInUser',
      summary: 'The signed-in user, their role and the team the token is scoped to',
      tags,
      security: ACCESS_TOKEN_SECURITY,
      responses: { '200': { description: 'The signed-in user.', content: { 'application/json': { schema: meResponse } } } },
    },
  }),
  login: defineApiRoute({
    method: 'post',
    path: LOGIN_PATH,
    errors: [401, 403, 422, 429],
    operation: {
      operationId: 'login',
      summary: 'Sign in: an office session, or with a device_id a device token (ability capture)',
      description:
        'Unknown e-mail, wrong password and a user without a password or team all answer the identical 401 after the same bcrypt work. ' +
        'A new login of the same device (same user, team and device_id) revokes that device\'s earlier token. `team_id` naming a team the user is not in → 403. ' +
        'Rate limited per e-mail and per client IP (429 with Retry-After).',
      tags,
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: loginInput } } },
      responses: { '200': { description: 'Signed in; the token is shown only here.', content: { 'application/json': { schema: issuedTokenResponse } } } },
    },
  }),
  logout: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/auth/logout`,
    errors: [401],
    operation: {
      operationId: 'logout',
      summary: 'Revoke the token this request carries',
      tags,
      security: ACCESS_TOKEN_SECURITY,
      responses: { '204': { description: 'Revoked: the token answers 401 from the next request on.' } },
    },
  }),
  switchTeam: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/auth/switch-team`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'switchTeam',
      summary: 'Move the session to another team of the user',
      description:
        'Moves the calling token to `team_id`: the same token keeps working, scoped to that team from the next request, with the same kind and expiry (a device token becomes the token of the same device_id in that team); the old team\'s data is out of its reach at once. ' +
        'Answers the login body with that token. A team the user is not in (or that does not exist) → 403, the token stays where it was; integration tokens are bound to their team → 403.',
      tags,
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: switchTeamInput } } },
      responses: { '200': { description: 'The same token, now scoped to `team_id`.', content: { 'application/json': { schema: issuedTokenResponse } } } },
    },
  }),
  listTokens: defineApiRoute({
    method: 'get',
    path: `${REST_BASE}/auth/tokens`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'listIntegrationTokens',
      summary: "The team's live integration tokens (without secrets)",
      description: `Unrevoked, unexpired integration tokens of the team, newest first, ${TOKENS_PER_PAGE} per page. ${ownerOrAdmin}`,
      tags,
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { query: listTokensQuery },
      responses: { '200': { description: 'One page of tokens.', content: { 'application/json': { schema: integrationTokenListResponse } } } },
    },
  }),
  createToken: defineApiRoute({
    method: 'post',
    path: `${REST_BASE}/auth/tokens`,
    errors: [401, 403, 422],
    operation: {
      operationId: 'createIntegrationToken',
      summary: 'Create an integration token with explicit abilities and an expiry',
      description: `The token acts as the caller in the caller's team, limited to its abilities. ${ownerOrAdmin}`,
      tags,
      security: ACCESS_TOKEN_SECURITY,
      requestBody: { required: true, content: { 'application/json': { schema: createTokenInput } } },
      responses: { '201': { description: 'Created; the token is shown only here.', content: { 'application/json': { schema: createdIntegrationTokenResponse } } } },
    },
  }),
  revokeToken: defineApiRoute({
    method: 'delete',
    path: `${REST_BASE}/auth/tokens/:token`,
    errors: [401, 403, 404],
    operation: {
      operationId: 'revokeIntegrationToken',
      summary: 'Revoke an integration token of the team',
      description: `Another team's token, a session or device token, an unknown, revoked or expired one all read as 404. ${ownerOrAdmin}`,
      tags,
      security: ACCESS_TOKEN_SECURITY,
      requestParams: { path: tokenPathParams },
      responses: { '204': { description: 'Revoked.' } },
    },
  }),
};
