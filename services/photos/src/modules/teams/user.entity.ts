import { defineEntity, p } from '@mikro-orm/core';

/** A person using the capture app or the office dashboard; belongs to teams through memberships. */
export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(191),
    email: p.string().length(254).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
