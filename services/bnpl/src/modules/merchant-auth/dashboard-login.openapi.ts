// The dashboard login routes (spec "Endpoints": login, otp/verify; logout is additive) as OpenAPI operations: the same
// zod schemas validate the bodies (DashboardLoginService) and document them; dashboard-login.routes.ts mounts them.
import { defineApiRoute } from '@tributary/kit';
import { z } from 'zod';
import { MERCHANT_PREFIX } from '../../api-paths.js';
import { DASHBOARD_TOKEN_SECURITY } from '../../api-security.js';
import { DASHBOARD_TOKEN_TTL_HOURS } from './dashboard-token-credentials.js';
import { loginInput, verifyLoginCodeInput } from './dashboard-login.validation.js';
import { LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_TTL_MINUTES } from './login-code-credentials.js';

const tags = ['Dashboard login'];

/** The login routes' paths (the rate limits are mounted on the same values). */
export const LOGIN_PATH = `${MERCHANT_PREFIX}/auth/login`;
export const VERIFY_LOGIN_CODE_PATH = `${MERCHANT_PREFIX}/auth/otp/verify`;
export const LOGOUT_PATH = `${MERCHANT_PREFIX}/auth/logout`;

export const loginStartedResponse = z
  .object({
    otp_sent: z.literal(true).meta({ description: 'The code was handed to the mail server.' }),
    merchant_user_id: z.uuid(),
  })
  .meta({ id: 'BnplLoginStarted' });

export const dashboardUserResource = z
  .object({
    id: z.uuid().meta({ description: 'The merchant user id (as `merchant_user_id` in the login answer).' }),
    email: z.string(),
    name: z.string(),
    merchant_id: z.uuid(),
    merchant_name: z.string(),
  })
  .meta({ id: 'BnplDashboardUser', description: 'The signed-in dashboard user and the merchant it belongs to.' });

export const loginVerifiedResponse = z
  .object({
    user: dashboardUserResource,
    token: z.string().meta({ description: `Dashboard token (DT) \`dt_\` + 48 characters, valid ${DASHBOARD_TOKEN_TTL_HOURS} hours; shown only here.` }),
    expires_at: z.iso.datetime().meta({ description: 'When the token stops working (ISO 8601 UTC).' }),
  })
  .meta({ id: 'BnplLoginVerified' });

const refusal = 'Every refusal is the same 401 body: unknown e-mail, wrong password, and a wrong, expired, used or exhausted code read alike.';

export const dashboardLoginApi = {
  login: defineApiRoute({
    method: 'post',
    path: LOGIN_PATH,
    errors: [401, 429],
    operation: {
      operationId: 'dashboardLogin',
      summary: 'Dashboard login, step 1: e-mail and password; e-mails a 6-digit code',
      description: `${refusal} A new login replaces the previous code. Rate limited per e-mail and per client IP.`,
      tags,
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: loginInput } } },
      responses: { '200': { description: 'The code was sent.', content: { 'application/json': { schema: loginStartedResponse } } } },
    },
  }),
  verify: defineApiRoute({
    method: 'post',
    path: VERIFY_LOGIN_CODE_PATH,
    errors: [401, 429],
    operation: {
      operationId: 'dashboardVerifyLoginCode',
      summary: 'Dashboard login, step 2: the e-mailed code for a dashboard token',
      description: `${refusal} A code is valid ${LOGIN_CODE_TTL_MINUTES} minutes and once; a wrong code costs one of its ${LOGIN_CODE_MAX_ATTEMPTS} tries (the ${LOGIN_CODE_MAX_ATTEMPTS}th wrong one invalidates it). Rate limited per e-mail and per client IP.`,
      tags,
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: verifyLoginCodeInput } } },
      responses: { '200': { description: 'Signed in.', content: { 'application/json': { schema: loginVerifiedResponse } } } },
    },
  }),
  logout: defineApiRoute({
    method: 'post',
    path: LOGOUT_PATH,
    errors: [401],
    operation: {
      operationId: 'dashboardLogout',
      summary: 'Revoke the dashboard token this request carries',
      tags,
      security: DASHBOARD_TOKEN_SECURITY,
      responses: { '204': { description: 'Revoked: the token answers 401 from the next request on.' } },
    },
  }),
};
