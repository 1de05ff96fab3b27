// Pages written in the office: Markdown of a project, rendered to escaped HTML (page-render.ts), with an excerpt.
import { PageSchema } from './page.entity.js';

export { Page, PageSchema } from './page.entity.js';
export { PageService, NO_SUCH_PROJECT, type PageList, type PageServiceOptions } from './page.service.js';
export type { PageEvent, PageEventSink } from './page-events.js';
export { ELLIPSIS, EXCERPT_MAX, isSafeLinkDestination, pageExcerpt, renderPageBody } from './page-render.js';
export { PAGES_PER_PAGE, PAGE_BODY_MAX } from './page.validation.js';
export { presentPage, presentPageSummary } from './page.presenter.js';
export { pageRoutes } from './page.routes.js';
export { pageResolvers } from './page.resolvers.js';
export { pageApi } from './page.openapi.js';

export const pageEntities = [PageSchema];
