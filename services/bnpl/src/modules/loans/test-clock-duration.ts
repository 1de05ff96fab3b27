// How far a test clock is advanced: a whole number of days, hours or minutes, e.g. `14d`, `36h`, `90m` (the admin
// command's `--by` and the GraphQL mutation's `by`). Pure.

export const TEST_CLOCK_DURATION_PATTERN = /^([1-9]\d{0,5})([dhm])$/;
/** A test clock is never more than ten years ahead of real time. */
export const TEST_CLOCK_MAX_OFFSET_SECONDS = 3650 * 86_400;
export const TEST_CLOCK_DURATION_MESSAGE = 'Must be a whole number of days, hours or minutes, e.g. 14d, 36h or 90m.';

const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60 } as const;

/** The duration in seconds, or null when it is not of the form above. */
export function parseTestClockDuration(text: string): number | null {
  const match = TEST_CLOCK_DURATION_PATTERN.exec(text);
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}
