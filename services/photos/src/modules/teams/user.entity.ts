import { defineEntity, p } from '@mikro-orm/core';

/** A person using the capture app or the office dashboard; belongs to teams through memberships. */
export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(191),
    email: p.string().length(254).unique(),
    /** bcrypt hash of the sign-in password (modules/auth/password.ts); null = cannot sign in with a password. */
    passwordHash: p.string().length(60).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
