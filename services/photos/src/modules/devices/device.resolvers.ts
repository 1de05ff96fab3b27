import type { Resolvers } from '../../graphql/resolvers-types.js';

// PhotosTeam.devices for the office (any role; office sessions only, like every team-administration read): queue depth
// and last seen, so a phone with a stuck backlog stands out.
export const deviceResolvers = {
  PhotosTeam: {
    devices: async (_team, _args, ctx) => ctx.devices.listForTeam(await ctx.principalWithRole('owner', 'admin', 'member')),
  },
  PhotosDevice: {
    id: (device) => String(device.id),
    name: (device) => device.name ?? null,
    platform: (device) => device.platform ?? null,
    osVersion: (device) => device.osVersion ?? null,
    appVersion: (device) => device.appVersion ?? null,
    queueDepth: (device) => device.queueDepth ?? null,
    lastSeenAt: (device) => device.lastSeenAt?.toISOString() ?? null,
    userName: (device) => device.user.name,
    createdAt: (device) => device.createdAt.toISOString(),
  },
} satisfies Resolvers;
