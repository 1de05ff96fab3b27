import { enumMapping } from '@tributary/kit';
import type { BnplWidgetSessionStatus, Resolvers } from '../../graphql/resolvers-types.js';
import { effectiveStatus, type SessionStatus } from './session-status-engine.js';

const sessionStatus = enumMapping<SessionStatus, BnplWidgetSessionStatus>({
  initialized: 'INITIALIZED',
  eligible: 'ELIGIBLE',
  ineligible: 'INELIGIBLE',
  authorized: 'AUTHORIZED',
  cancelled: 'CANCELLED',
  expired: 'EXPIRED',
});

// Typed by the Resolvers generated from schema/subgraphs/bnpl.graphql (BnplWidgetSession's parent is the entity).
export const widgetSessionResolvers = {
  BnplMerchant: {
    // The caller's own sessions (a BnplMerchant parent is always the caller's merchant); a key pair sees its mode's only.
    sessions: async (_merchant, { first }, ctx) => ctx.widgetSessions.recent(await ctx.principal(), first),
  },
  BnplWidgetSession: {
    sessionToken: (session) => session.token,
    status: (session, _args, ctx) => sessionStatus(effectiveStatus(session.toState(), ctx.widgetSessions.clock())),
    expiresAt: (session) => session.expiresAt.toISOString(),
    createdAt: (session) => session.createdAt.toISOString(),
    authorizedAt: (session) => session.authorizedAt?.toISOString() ?? null,
    cancelledAt: (session) => session.cancelledAt?.toISOString() ?? null,
  },
} satisfies Resolvers;
