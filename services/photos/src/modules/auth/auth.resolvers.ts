import type { Resolvers } from '../../graphql/resolvers-types.js';
import { ABILITIES, type Ability } from './abilities.js';
import { TEAM_ADMIN_ROLES } from './roles.js';

// Integration tokens in GraphQL, through the same IntegrationTokenService as REST and with the same rule: an office
// session of an owner or admin (principalWithRole), else FORBIDDEN.
export const authResolvers = {
  Mutation: {
    createPhotosAccessToken: async (_parent, { input }, ctx) => {
      const principal = await ctx.principalWithRole(...TEAM_ADMIN_ROLES);
      return ctx.integrationTokens.create(principal, {
        name: input.name,
        abilities: input.abilities,
        ...(input.expiresInDays == null ? {} : { expires_in_days: input.expiresInDays }),
        ...(input.expiresAt == null ? {} : { expires_at: input.expiresAt }),
      });
    },
    revokePhotosAccessToken: async (_parent, { id }, ctx) => {
      const principal = await ctx.principalWithRole(...TEAM_ADMIN_ROLES);
      await ctx.integrationTokens.revoke(principal.teamId, id);
      return id;
    },
  },
  PhotosTeam: {
    accessTokens: async (_team, _args, ctx) => (await ctx.integrationTokens.list((await ctx.principalWithRole(...TEAM_ADMIN_ROLES)).teamId)).items,
  },
  PhotosAccessToken: {
    id: (token) => String(token.id),
    abilities: (token) => (token.abilities ?? []).filter((ability): ability is Ability => (ABILITIES as readonly string[]).includes(ability)),
    userName: (token) => token.user.name,
    createdAt: (token) => token.createdAt.toISOString(),
    expiresAt: (token) => token.expiresAt!.toISOString(),
  },
  PhotosCreatedAccessToken: {
    token: (created) => created.token,
    accessToken: (created) => created.record,
  },
} satisfies Resolvers;
