// A user as other resources name them (assignee, ticked_by, closed_by, …): id and name only.
import { z } from 'zod';
import type { User } from './user.entity.js';

export const userRef = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'PhotosUserRef' });

export function presentUser(user: User | null | undefined): z.input<typeof userRef> | null {
  return user ? { id: user.id, name: user.name } : null;
}
