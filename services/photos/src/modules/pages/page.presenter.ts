// The page as the spec's table has it (id, title, excerpt, project, updated_by, updated_at, body, body_html), and the
// list, which omits the bodies.
import type { z } from 'zod';
import { REST_BASE } from '../../api-paths.js';
import { renderPageBody } from './page-render.js';
import type { Page } from './page.entity.js';
import type { pageListResponse, pageResource, pageSummary } from './page.openapi.js';
import type { PageList } from './page.service.js';

export function presentPageSummary(page: Page): z.input<typeof pageSummary> {
  return {
    id: page.id,
    title: page.title,
    excerpt: page.excerpt,
    project: { id: page.project.id, name: page.project.name },
    updated_by: page.updatedByName,
    updated_at: page.updatedAt.toISOString(),
  };
}

export function presentPage(page: Page): z.input<typeof pageResource> {
  return { ...presentPageSummary(page), body: page.body, body_html: renderPageBody(page.body) };
}

export function presentPageList(list: PageList): z.input<typeof pageListResponse> {
  return {
    data: list.items.map(presentPageSummary),
    meta: { current_page: list.page, per_page: list.perPage, total: list.total, last_page: Math.max(1, Math.ceil(list.total / list.perPage)) },
  };
}

export function pagePath(page: Page): string {
  return `${REST_BASE}/pages/${page.id}`;
}
