// Whether two photos may be paired as before and after (decided in the README). Pure: the service loads the photos.
//   missing or another team's photo   422 on that field, worded the same (another team's photos are not revealed)
//   the same photo twice               422 on after_photo_id
//   not in one project                 422 on after_photo_id: a pair documents one job (an unassigned photo is assigned first)
//   after captured before before       422 on before_photo_id (photos without a capture time are not ordered)
import type { FieldErrors } from '@tributary/kit';

export interface PairablePhoto {
  id: number;
  projectId: number | null;
  capturedAt: Date | null;
}

export const PHOTO_NOT_FOUND = 'No photo with this id in your team.';
export const SAME_PHOTO = 'Must be a different photo than before_photo_id.';
export const UNASSIGNED_PHOTO = 'Assign the photo to a project first: a pair documents one project.';
export const OTHER_PROJECT = 'Must be a photo of the same project as the before photo.';
export const WRONG_ORDER = 'The before photo must not be captured after the after photo.';

/** The 422 fields refusing the pair, or null when it may be made. */
export function pairProblems(before: PairablePhoto | null, after: PairablePhoto | null): FieldErrors | null {
  const fields: FieldErrors = {};
  if (!before) fields.before_photo_id = [PHOTO_NOT_FOUND];
  if (!after) fields.after_photo_id = [PHOTO_NOT_FOUND];
  if (!before || !after) return fields;
  if (before.id === after.id) return { after_photo_id: [SAME_PHOTO] };
  if (before.projectId === null) fields.before_photo_id = [UNASSIGNED_PHOTO];
  if (after.projectId === null) fields.after_photo_id = [UNASSIGNED_PHOTO];
  else if (before.projectId !== null && before.projectId !== after.projectId) fields.after_photo_id = [OTHER_PROJECT];
  if (Object.keys(fields).length > 0) return fields;
  if (before.capturedAt && after.capturedAt && before.capturedAt.getTime() > after.capturedAt.getTime()) return { before_photo_id: [WRONG_ORDER] };
  return null;
}
