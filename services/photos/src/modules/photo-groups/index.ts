// Before/after pairs of a team's photos (spec: "A photo group pairs two photos as before and after").
import { PhotoGroupSchema } from './photo-group.entity.js';

export { PhotoGroup, PhotoGroupSchema } from './photo-group.entity.js';
export { PhotoGroupService, type PhotoGroupPage } from './photo-group.service.js';
export { photoGroupCountSource } from './photo-group-project-counts.js';
export { PHOTO_GROUPS_PER_PAGE } from './photo-group.validation.js';
export { presentPhotoGroup, presentPhotoGroupPage } from './photo-group.presenter.js';
export { photoGroupRoutes } from './photo-group.routes.js';
export { photoGroupApi } from './photo-group.openapi.js';

export const photoGroupEntities = [PhotoGroupSchema];
export { photoGroupResolvers } from './photo-group.resolvers.js';
