import type { Resolvers } from '../../graphql/resolvers-types.js';
import { dashboardMerchantId } from '../merchant-auth/index.js';

const TEST_CLOCKS = 'Test clocks';

// Thin resolvers over TestClockService: the caller's own test clock, dashboard token only (like sales).
export const testClockResolvers = {
  Mutation: {
    advanceBnplTestClock: async (_parent, { by }, ctx) => ctx.testClocks.advance(dashboardMerchantId(await ctx.principal(), TEST_CLOCKS), by),
  },
  BnplMerchant: {
    testClock: async (_merchant, _args, ctx) => ctx.testClocks.read(dashboardMerchantId(await ctx.principal(), TEST_CLOCKS)),
  },
  BnplTestClock: {
    now: (clock) => clock.now.toISOString(),
  },
} satisfies Resolvers;
