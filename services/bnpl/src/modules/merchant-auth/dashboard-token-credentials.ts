// Dashboard token format (not shown in the spec; decided here): `dt_` + 48 characters [A-Za-z0-9].
import { randomChars, sha256Hex } from '@tributary/kit';

export const DASHBOARD_TOKEN_PREFIX = 'dt_';
export const DASHBOARD_TOKEN_PATTERN = /^dt_[A-Za-z0-9]{48}$/;

export function generateDashboardToken(): string {
  return `${DASHBOARD_TOKEN_PREFIX}${randomChars(48)}`;
}

export const hashDashboardToken = sha256Hex;
