import type { Request } from 'express';
import type { AuthService, PhotosPrincipal } from './modules/auth/auth.service.js';
import type { ProjectService } from './modules/projects/project.service.js';
import type { TeamService } from './modules/teams/team.service.js';

export interface PhotosServices {
  auth: AuthService;
  teams: TeamService;
  projects: ProjectService;
}

export interface PhotosContext extends PhotosServices {
  /** Authenticates on first use (memoized); rejects with the one authentication error. */
  principal: () => Promise<PhotosPrincipal>;
}

export function createContext(services: PhotosServices, req: Request): PhotosContext {
  let principal: Promise<PhotosPrincipal> | undefined;
  return { ...services, principal: () => (principal ??= services.auth.authenticate(req.headers.authorization)) };
}
