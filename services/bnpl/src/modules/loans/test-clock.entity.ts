import { defineEntity, p } from '@mikro-orm/core';
import { Merchant } from '../merchants/index.js';

/**
 * A merchant's test clock (README "Test clocks"): how far its test mode runs ahead of real time. Every test-mode loan
 * of the merchant lives on it (real time plus the offset); live loans always use the real clock. Created on the first
 * advance; a merchant without one is at offset 0.
 */
export const TestClockSchema = defineEntity({
  name: 'TestClock',
  tableName: 'test_clocks',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    merchant: () => p.oneToOne(Merchant).owner().unique().deleteRule('cascade'),
    /** Total advance over real time; only ever grows. */
    offsetSeconds: p.integer(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class TestClock extends TestClockSchema.class {}
TestClockSchema.setClass(TestClock);
