// The two login steps' bodies (spec "Endpoints": login {email, password}, otp/verify {email, code}), as zod schemas:
// the routes document them (dashboard-login.openapi.ts) and DashboardLoginService validates with them.
import { z } from 'zod';
import { emailInput } from '../merchants/index.js';
import { LOGIN_CODE_PATTERN } from './login-code-credentials.js';

/** Any password up to this length is checked (and fails like a wrong one when it cannot be a password at all). */
export const LOGIN_PASSWORD_MAX_LENGTH = 1024;

export const loginInput = z.object({
  email: emailInput.meta({ example: 'demo@bnpl.tributary.test' }),
  password: z.string().min(1).max(LOGIN_PASSWORD_MAX_LENGTH),
});

export const verifyLoginCodeInput = z.object({
  email: emailInput.meta({ example: 'demo@bnpl.tributary.test' }),
  code: z.string().regex(LOGIN_CODE_PATTERN, { error: 'Must be the 6-digit code from the e-mail.' }).meta({ description: 'The 6-digit code from the e-mail.', example: '042137' }),
});
