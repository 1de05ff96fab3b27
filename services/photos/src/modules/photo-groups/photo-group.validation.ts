// The photo group inputs as zod schemas: the create body and the list query.
import { integerArgument, integerQueryParam } from '@tributary/kit';
import { z } from 'zod';
import { MAX_ID } from '../photos/index.js';

/** Page size of photo group lists (as for projects and photos). */
export const PHOTO_GROUPS_PER_PAGE = 25;
export const PHOTO_GROUPS_PAGE_MAX = 10_000;
const PHOTO_GROUPS_PAGE = { min: 1, max: PHOTO_GROUPS_PAGE_MAX, default: 1 } as const;

const photoId = (description: string) => z.number().int().min(1).max(MAX_ID).meta({ description });

export const createPhotoGroupBody = z
  .strictObject({
    before_photo_id: photoId('The photo taken before the work.'),
    after_photo_id: photoId('The photo taken after the work: another photo of the same project, captured no earlier than the before photo.'),
  })
  .meta({ id: 'PhotosPhotoGroupCreate' });
export type NewPhotoGroup = z.infer<typeof createPhotoGroupBody>;

export const listPhotoGroupsQuery = z.object({
  page: integerQueryParam({ ...PHOTO_GROUPS_PAGE, description: `Page number from 1 (default 1), ${PHOTO_GROUPS_PER_PAGE} groups per page.` }),
});

/** PhotosTeam.photoGroups's arguments: the list query's page, typed (BAD_USER_INPUT naming page). */
export const photoGroupListArgs = z.object({ page: integerArgument(PHOTO_GROUPS_PAGE) });
