import { defineEntity, p } from '@mikro-orm/core';
import { Team, User } from '../teams/index.js';
import { DeviceRepository } from './device.repository.js';

/** Longest device identifier, name and version strings accepted (the columns are as wide). */
export const DEVICE_ID_MAX_LENGTH = 191;
export const DEVICE_NAME_MAX_LENGTH = 191;
export const DEVICE_PLATFORM_MAX_LENGTH = 32;
export const DEVICE_VERSION_MAX_LENGTH = 64;

/**
 * A phone or tablet running the capture app for one user in one team: registered by a login that names a device_id
 * (unique per team and user), kept current by heartbeats so the office can spot a stuck upload backlog.
 */
export const DeviceSchema = defineEntity({
  name: 'Device',
  tableName: 'devices',
  repository: () => DeviceRepository,
  uniques: [{ properties: ['team', 'user', 'deviceId'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** The app's own identifier of the installation, sent at login. */
    deviceId: p.string().length(DEVICE_ID_MAX_LENGTH),
    name: p.string().length(DEVICE_NAME_MAX_LENGTH).nullable(),
    platform: p.string().length(DEVICE_PLATFORM_MAX_LENGTH).nullable(),
    osVersion: p.string().length(DEVICE_VERSION_MAX_LENGTH).nullable(),
    appVersion: p.string().length(DEVICE_VERSION_MAX_LENGTH).nullable(),
    /** Captures waiting on the phone to be uploaded, as of the last heartbeat. */
    queueDepth: p.integer().nullable(),
    lastSeenAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Device extends DeviceSchema.class {}
DeviceSchema.setClass(Device);
