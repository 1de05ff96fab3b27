import type { Request } from 'express';
import { subgraphContext, type SubgraphContext } from '@tributary/kit';
import { assertAbility, assertRole, type Ability, type AuthService, type IntegrationTokenService, type ScopeOptions, type PhotosPrincipal } from './modules/auth/index.js';
import type { DeviceService } from './modules/devices/index.js';
import type { BootstrapService } from './modules/bootstrap/index.js';
import type { ProjectService } from './modules/projects/index.js';
import type { TeamRole, TeamService } from './modules/teams/index.js';
import type { WebhookEndpointService } from './modules/webhook-endpoints/index.js';
import type { MediaUrlSigner, PhotoService } from './modules/photos/index.js';
import type { PhotoGroupService } from './modules/photo-groups/index.js';
import type { ChecklistService } from './modules/checklists/index.js';
import type { TaskService } from './modules/tasks/index.js';
import type { ReportService, ReportUrlSigner } from './modules/reports/index.js';
import type { CommentService, NotificationService } from './modules/comments/index.js';
import type { PageService } from './modules/pages/index.js';
import type { CustomerService } from './modules/customers/index.js';

/** The domain services the resolvers call (the same instances the REST routes use). */
export interface PhotosServices {
  auth: AuthService;
  teams: TeamService;
  projects: ProjectService;
  integrationTokens: IntegrationTokenService;
  devices: DeviceService;
  webhookEndpoints: WebhookEndpointService;
  bootstrap: BootstrapService;
  photos: PhotoService;
  photoGroups: PhotoGroupService;
  checklists: ChecklistService;
  tasks: TaskService;
  pages: PageService;
  customers: CustomerService;
  /** Signs the media URLs of the photos resolvers return. */
  mediaUrls: MediaUrlSigner;
  reports: ReportService;
  /** Signs reports' download URLs and makes their share links. */
  reportUrls: ReportUrlSigner;
  comments: CommentService;
  /** The caller's own notifications (mentions). */
  notifications: NotificationService;
}

/** The context of photos' resolvers (codegen's contextType, see schema/codegen.ts). */
export type PhotosContext = SubgraphContext<PhotosServices, PhotosPrincipal> & {
  /** The caller, refused with FORBIDDEN (naming the scope) when the token lacks `ability`: the REST guard's rule. */
  principalWith(ability: Ability, options?: ScopeOptions): Promise<PhotosPrincipal>;
  /** The caller, refused with FORBIDDEN unless an office session with one of `roles`: the REST requireRole rule. */
  principalWithRole(...roles: TeamRole[]): Promise<PhotosPrincipal>;
};

export function createContext(services: PhotosServices, req: Request): PhotosContext {
  const context = subgraphContext(services, () => services.auth.authenticate(req.headers.authorization));
  return {
    ...context,
    async principalWith(ability, options) {
      const principal = await context.principal();
      assertAbility(principal, ability, options);
      return principal;
    },
    async principalWithRole(...roles) {
      const principal = await context.principal();
      assertRole(principal, roles);
      return principal;
    },
  };
}
