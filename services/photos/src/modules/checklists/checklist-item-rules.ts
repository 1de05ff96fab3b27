// What a PATCH of a checklist item does (spec "States and transitions"; README Decisions "Checklist items"). Pure: the
// service loads the item and checks that the photos exist and belong to the project.
//   tick, item not requires_photo                     ticked (ticked_at/by recorded)
//   tick, requires_photo, a photo attached after it   ticked (attach and tick in one PATCH works)
//   tick, requires_photo, no photo after it           refused (422 photo_required on `ticked`), nothing changes
//   detach the last photo of a ticked requires_photo  refused (422 photo_required on `detach_photo_ids`): untick first
//   tick a ticked item / untick an unticked one       no change (who ticked it first and when are kept)
//   attach an attached photo / detach an absent one   no change (a device's retry is harmless)
//   the same photo attached and detached              422 on detach_photo_ids
import type { FieldErrors } from '@tributary/kit';

/** Most photos one item holds as evidence. */
export const EVIDENCE_PHOTOS_MAX = 20;

export const PHOTO_REQUIRED = 'This item requires a photo: attach at least one (attach_photo_ids) to tick it.';
export const LAST_PHOTO_REQUIRED = 'This item is ticked and requires a photo: untick it (ticked: false) before removing its last photo.';
export const ATTACHED_AND_DETACHED = 'A photo cannot be attached and detached in one request.';
export const TOO_MANY_PHOTOS = `An item holds at most ${EVIDENCE_PHOTOS_MAX} photos.`;

export interface ItemState {
  requiresPhoto: boolean;
  ticked: boolean;
  photoIds: readonly number[];
}

export interface ItemChange {
  ticked?: boolean | undefined;
  attach: readonly number[];
  detach: readonly number[];
}

export type TickChange = 'tick' | 'untick' | null;

export interface AcceptedItemChange {
  ok: true;
  tick: TickChange;
  /** The evidence after the change, in order. */
  photoIds: number[];
  attached: number[];
  detached: number[];
}

export type ItemDecision = AcceptedItemChange | { ok: false; photoRequired: boolean; fields: FieldErrors };

/** The item after `change`, or the refusal (nothing may change then). */
export function decideItemChange(state: ItemState, change: ItemChange): ItemDecision {
  const both = change.attach.filter((id) => change.detach.includes(id));
  if (both.length > 0) return { ok: false, photoRequired: false, fields: { detach_photo_ids: [ATTACHED_AND_DETACHED] } };
  const attached = unique(change.attach.filter((id) => !state.photoIds.includes(id)));
  const detached = unique(change.detach.filter((id) => state.photoIds.includes(id)));
  const photoIds = [...state.photoIds.filter((id) => !detached.includes(id)), ...attached];
  if (photoIds.length > EVIDENCE_PHOTOS_MAX) return { ok: false, photoRequired: false, fields: { attach_photo_ids: [TOO_MANY_PHOTOS] } };
  const ticked = change.ticked ?? state.ticked;
  if (ticked && state.requiresPhoto && photoIds.length === 0) {
    const field = change.ticked === true && !state.ticked ? 'ticked' : 'detach_photo_ids';
    return { ok: false, photoRequired: true, fields: { [field]: [field === 'ticked' ? PHOTO_REQUIRED : LAST_PHOTO_REQUIRED] } };
  }
  return { ok: true, tick: tickChange(state.ticked, change.ticked), photoIds, attached, detached };
}

function tickChange(wasTicked: boolean, ticked: boolean | undefined): TickChange {
  if (ticked === true && !wasTicked) return 'tick';
  if (ticked === false && wasTicked) return 'untick';
  return null;
}

function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}
