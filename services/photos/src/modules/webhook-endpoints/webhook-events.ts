// The photos webhook events (the spec names none; decided here, see the README's Decisions table). Each event's `data`
// is the REST resource of its kind, made by the same presenter as the REST answer.
export const PHOTOS_WEBHOOK_EVENTS = [
  'photo.created',
  'photo.updated',
  'project.created',
  // Checklists and tasks (issue 11).
  'checklist.created',
  'checklist.updated',
  'checklist_item.updated',
  'task.created',
  'task.updated',
  'task.closed',
  'task.withdrawn',
  // Reports (issue 11).
  'report.created',
  'report.updated',
  'report.ready',
  'report.failed',
  // Comments (issue 11).
  'comment.created',
  // Pages and customers (issue 11).
  'page.created',
  'page.updated',
  'customer.created',
] as const;
export type PhotosWebhookEvent = (typeof PHOTOS_WEBHOOK_EVENTS)[number];

export function isPhotosWebhookEvent(name: string): name is PhotosWebhookEvent {
  return (PHOTOS_WEBHOOK_EVENTS as readonly string[]).includes(name);
}
