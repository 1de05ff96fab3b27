// Dashboard token format (not shown in the spec; decided here): `dt_` + 48 characters [A-Za-z0-9]; its lifetime.
import { randomChars, sha256Hex } from '@tributary/kit';

export const DASHBOARD_TOKEN_PREFIX = 'dt_';
export const DASHBOARD_TOKEN_PATTERN = /^dt_[A-Za-z0-9]{48}$/;
/** A token issued by the login flow is valid this long (a working day), then the user signs in again. */
export const DASHBOARD_TOKEN_TTL_HOURS = 12;

export function generateDashboardToken(): string {
  return `${DASHBOARD_TOKEN_PREFIX}${randomChars(48)}`;
}

export const hashDashboardToken = sha256Hex;

export function dashboardTokenExpiry(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + DASHBOARD_TOKEN_TTL_HOURS * 3_600_000);
}
