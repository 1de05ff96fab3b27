import { parseInput } from '@tributary/kit';
import type { Resolvers } from '../../graphql/resolvers-types.js';
import { renderPageBody } from './page-render.js';
import { listPagesQuery, type PageListQuery } from './page.validation.js';

/** GraphQL list arguments through the REST query's schema: the same checks and the same 422 field names. */
function listQueryOf(args: { q?: string | null; page?: number | null }): PageListQuery {
  const query = parseInput(listPagesQuery, { q: args.q ?? undefined, page: args.page == null ? undefined : String(args.page) });
  return { q: query.q, page: query.page };
}

/** An ID argument as the service's number (one that is not digits fails the service's check as NaN). */
const idNumber = (id: string): number => (/^\d{1,10}$/.test(id) ? Number(id) : Number.NaN);

// Typed by the Resolvers generated from schema/subgraphs/photos.graphql (PhotosPage's parent is the Page entity).
export const pageResolvers = {
  Query: {
    photosPage: async (_parent, args, ctx) => ctx.pages.findVisible(await ctx.principalWith('pages:read'), args.id),
  },
  Mutation: {
    createPhotosPage: async (_parent, { input }, ctx) =>
      ctx.pages.create(await ctx.principalWith('pages:write'), { projectId: idNumber(input.projectId), title: input.title, body: input.body }),
    updatePhotosPage: async (_parent, { id, input }, ctx) =>
      ctx.pages.edit(await ctx.principalWith('pages:write'), id, {
        ...(input.title != null ? { title: input.title } : {}),
        ...(input.body != null ? { body: input.body } : {}),
      }),
  },
  PhotosProject: {
    pages: async (project, args, ctx) => ctx.pages.list(await ctx.principalWith('pages:read'), { ...listQueryOf(args), projectId: project.id }),
  },
  PhotosPage: {
    id: (page) => String(page.id),
    project: (page) => page.project,
    updatedBy: (page) => page.updatedByName,
    updatedAt: (page) => page.updatedAt.toISOString(),
    bodyHtml: (page) => renderPageBody(page.body),
  },
} satisfies Resolvers;
