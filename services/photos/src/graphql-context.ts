import type { Request } from 'express';
import { subgraphContext, type SubgraphContext } from '@tributary/kit';
import type { AuthService, PhotosPrincipal } from './modules/auth/auth.service.js';
import type { ProjectService } from './modules/projects/project.service.js';
import type { TeamService } from './modules/teams/team.service.js';

export interface PhotosServices {
  auth: AuthService;
  teams: TeamService;
  projects: ProjectService;
}

/** The context of photos' resolvers (codegen's contextType, see schema/codegen.ts). */
export type PhotosContext = SubgraphContext<PhotosServices, PhotosPrincipal>;

export function createContext(services: PhotosServices, req: Request): PhotosContext {
  return subgraphContext(services, () => services.auth.authenticate(req.headers.authorization));
}
