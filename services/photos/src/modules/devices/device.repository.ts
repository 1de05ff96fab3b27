import { LockMode } from '@mikro-orm/core';
import { EntityRepository } from '@mikro-orm/postgresql';
import type { Device } from './device.entity.js';

/** What a login tells about the device it runs on. */
export interface DeviceRegistration {
  teamId: number;
  userId: number;
  deviceId: string;
  name?: string | undefined;
  platform?: string | undefined;
}

export class DeviceRepository extends EntityRepository<Device> {
  /**
   * The (team, user, device_id) row, created on first login (an upsert, so concurrent logins cannot collide) and
   * locked for the caller's transaction, so concurrent logins of one device take turns replacing its token. A name or
   * platform sent again replaces the stored one.
   */
  async registerLocked(registration: DeviceRegistration): Promise<Device> {
    const { teamId, userId, deviceId } = registration;
    const changes = {
      ...(registration.name === undefined ? {} : { name: registration.name }),
      ...(registration.platform === undefined ? {} : { platform: registration.platform }),
    };
    await this.em.getConnection().execute(
      `insert into "devices" ("team_id", "user_id", "device_id", "name", "platform", "created_at") values (?, ?, ?, ?, ?, now())
       on conflict ("team_id", "user_id", "device_id") do nothing`,
      [teamId, userId, deviceId, changes.name ?? null, changes.platform ?? null],
      'run',
      this.em.getTransactionContext(),
    );
    const device = await this.findOneOrFail({ team: teamId, user: userId, deviceId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    Object.assign(device, changes);
    return device;
  }

  /** The team's devices with their users, most recently seen first (never-seen devices last). */
  listForTeam(teamId: number): Promise<Device[]> {
    return this.find({ team: teamId }, { populate: ['user'], orderBy: { lastSeenAt: 'desc nulls last', id: 'desc' } });
  }
}
