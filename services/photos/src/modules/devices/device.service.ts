import type { EntityManager } from '@mikro-orm/postgresql';
import { parseInput } from '@tributary/kit';
import type { PhotosPrincipal } from '../auth/index.js';
import { Device } from './device.entity.js';
import { heartbeatInput } from './device.validation.js';

/** The capture devices of a team: heartbeats from the device, the list for the office. */
export class DeviceService {
  constructor(private readonly em: EntityManager) {}

  /** Records a heartbeat of the caller's device (the caller holds a device token: principal.deviceId is set). */
  async heartbeat(principal: PhotosPrincipal, body: unknown): Promise<Device> {
    const input = parseInput(heartbeatInput, body);
    const device = await this.em.findOneOrFail(Device, { id: principal.deviceId!, team: principal.teamId });
    device.queueDepth = input.queue_depth;
    device.appVersion = input.app_version;
    if (input.platform !== undefined) device.platform = input.platform;
    if (input.os_version !== undefined) device.osVersion = input.os_version;
    device.lastSeenAt = new Date();
    await this.em.flush();
    return device;
  }

  /** The team's devices with their users, most recently seen first. */
  listForTeam(principal: PhotosPrincipal): Promise<Device[]> {
    return this.em.getRepository(Device).listForTeam(principal.teamId);
  }
}
