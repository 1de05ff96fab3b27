// The photos webhook events (the spec names none; decided here, see the README's Decisions table). Each event's `data`
// is the REST resource of its kind, made by the same presenter as the REST answer.
export const PHOTOS_WEBHOOK_EVENTS = ['photo.created', 'photo.updated', 'project.created', 'page.created', 'page.updated', 'customer.created'] as const;
export type PhotosWebhookEvent = (typeof PHOTOS_WEBHOOK_EVENTS)[number];

export function isPhotosWebhookEvent(name: string): name is PhotosWebhookEvent {
  return (PHOTOS_WEBHOOK_EVENTS as readonly string[]).includes(name);
}
