// The login steps' answers (spec: login → otp_sent, merchant_user_id; verify → user, token).
import type { z } from 'zod';
import type { IssuedDashboardToken, LoginStarted } from './dashboard-login.service.js';
import type { loginStartedResponse, loginVerifiedResponse } from './dashboard-login.openapi.js';

export function presentLoginStarted(started: LoginStarted): z.input<typeof loginStartedResponse> {
  return { otp_sent: true, merchant_user_id: started.merchantUserId };
}

export function presentLoginVerified({ user, token, expiresAt }: IssuedDashboardToken): z.input<typeof loginVerifiedResponse> {
  return {
    user: { id: user.id, email: user.email, name: user.name, merchant_id: user.merchant.id, merchant_name: user.merchant.name },
    token,
    expires_at: expiresAt.toISOString(),
  };
}
