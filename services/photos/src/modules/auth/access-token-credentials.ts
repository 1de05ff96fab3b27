// Bearer token format (not shown in the spec; decided here): `ph_` + 48 characters [A-Za-z0-9]. Only SHA-256 is stored.
import { randomChars, sha256Hex } from '@tributary/kit';

export const ACCESS_TOKEN_PREFIX = 'ph_';
export const ACCESS_TOKEN_PATTERN = /^ph_[A-Za-z0-9]{48}$/;

export function generateAccessToken(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomChars(48)}`;
}

export const hashAccessToken = sha256Hex;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Token lifetimes (not shown in the spec; decided here, see the README's Decisions table). */
export const SESSION_TOKEN_TTL_DAYS = 30;
export const DEVICE_TOKEN_TTL_DAYS = 365;
/** An integration token's expiry is chosen at creation: 1 to this many days ahead. */
export const INTEGRATION_TOKEN_MAX_DAYS = 365;

export function daysAfter(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}
