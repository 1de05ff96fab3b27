import { defineEntity, p } from '@mikro-orm/core';
import { Photo } from '../photos/index.js';
import { Team } from '../teams/index.js';

/** A before/after pair of two photos of one team (spec: "A photo group pairs two photos as before and after"). */
export const PhotoGroupSchema = defineEntity({
  name: 'PhotoGroup',
  tableName: 'photo_groups',
  uniques: [{ properties: ['before', 'after'] }],
  indexes: [{ properties: ['team', 'createdAt'] }, { properties: ['after'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    before: () => p.manyToOne(Photo).deleteRule('cascade'),
    after: () => p.manyToOne(Photo).deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class PhotoGroup extends PhotoGroupSchema.class {}
PhotoGroupSchema.setClass(PhotoGroup);
