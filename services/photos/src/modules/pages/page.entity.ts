import { defineEntity, p } from '@mikro-orm/core';
import { Project } from '../projects/index.js';
import { Team, User } from '../teams/index.js';

/**
 * A page written in the office: Markdown of one project. The excerpt is derived from the body when it is written
 * (lists show it without reading bodies); the HTML is rendered when read, so a tightened renderer covers old pages too.
 */
export const PageSchema = defineEntity({
  name: 'Page',
  tableName: 'pages',
  indexes: [{ properties: ['team', 'updatedAt'] }, { properties: ['project'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    team: () => p.manyToOne(Team).deleteRule('cascade'),
    project: () => p.manyToOne(Project).deleteRule('cascade'),
    title: p.string().length(191),
    body: p.text(),
    excerpt: p.string().length(300),
    /** The last editor; null once their account is gone (the name stays). */
    updatedBy: () => p.manyToOne(User).deleteRule('set null').nullable(),
    /** The last editor's name as it was when they saved (the spec's updated_by). */
    updatedByName: p.string().length(191),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Page extends PageSchema.class {}
PageSchema.setClass(Page);
