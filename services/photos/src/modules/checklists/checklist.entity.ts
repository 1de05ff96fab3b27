import { defineEntity, p } from '@mikro-orm/core';
import { Device } from '../devices/index.js';
import { Photo } from '../photos/index.js';
import { Project } from '../projects/index.js';
import { Team, User } from '../teams/index.js';

/** A checklist of one project (spec: "a checklist has items, each with evidence"), created by the office. */
export const ChecklistSchema = defineEntity({
  name: 'Checklist',
  tableName: 'checklists',
  indexes: [{ properties: ['team', 'createdAt'] }, { properties: ['project'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    title: p.string().length(191),
    createdBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    items: () => p.oneToMany(ChecklistItem).mappedBy('checklist').orderBy({ position: 'asc', id: 'asc' }),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Checklist extends ChecklistSchema.class {
  /** Ticked items of all (items loaded); done when every item is ticked. */
  progress(): { ticked: number; total: number; status: 'open' | 'done' } {
    const items = this.items.getItems();
    const ticked = items.filter((item) => item.isTicked()).length;
    return { ticked, total: items.length, status: ticked === items.length ? 'done' : 'open' };
  }
}
ChecklistSchema.setClass(Checklist);

/**
 * One line of a checklist. `tickedAt`/`tickedBy` are set together (ticked) or both null; a ticked item flagged
 * `requiresPhoto` always has at least one evidence photo (checklist-item-rules.ts keeps that true).
 */
export const ChecklistItemSchema = defineEntity({
  name: 'ChecklistItem',
  tableName: 'checklist_items',
  indexes: [{ properties: ['assignee'] }],
  uniques: [{ properties: ['checklist', 'position'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    checklist: () => p.manyToOne(Checklist).deleteRule('cascade'),
    /** 1-based order within the checklist. */
    position: p.integer(),
    title: p.string().length(191),
    requiresPhoto: p.boolean().default(false),
    assignee: () => p.manyToOne(User).deleteRule('set null').nullable(),
    tickedAt: p.datetime().nullable(),
    tickedBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    /** The evidence's note (optional text beside the photos). */
    note: p.text().nullable(),
    evidence: () => p.oneToMany(ChecklistEvidence).mappedBy('item').orderBy({ attachedAt: 'asc', id: 'asc' }),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class ChecklistItem extends ChecklistItemSchema.class {
  isTicked(): boolean {
    return this.tickedAt != null;
  }
}
ChecklistItemSchema.setClass(ChecklistItem);

/** A photo attached to an item as evidence; always a photo of the checklist's project. */
export const ChecklistEvidenceSchema = defineEntity({
  name: 'ChecklistEvidence',
  tableName: 'checklist_evidence',
  uniques: [{ properties: ['item', 'photo'] }],
  indexes: [{ properties: ['photo'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    item: () => p.manyToOne(ChecklistItem).deleteRule('cascade'),
    photo: () => p.manyToOne(Photo).deleteRule('cascade'),
    attachedBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    /** The device whose token attached it (null for office sessions and integration tokens). */
    attachedByDevice: () => p.manyToOne(Device).deleteRule('set null').nullable(),
    attachedAt: p.datetime().onCreate(() => new Date()),
  },
});

export class ChecklistEvidence extends ChecklistEvidenceSchema.class {}
ChecklistEvidenceSchema.setClass(ChecklistEvidence);
