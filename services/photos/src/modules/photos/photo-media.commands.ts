// The command the upload gives the media workflow (thumbnail; for video also poster and duration), as a workflow outbox
// entry enqueued in the transaction that stored the photo: the workflow never hears of a rolled-back upload, and a
// start committed while Temporal is down is dispatched when it is back.
import type { WorkflowStartCommand } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, photoMediaWorkflowId } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';

/** What the command needs to know of a photo. */
export interface UploadedMedia {
  id: number;
  mediaType: string;
  mimeType: string;
  sizeBytes: number;
}

/** Start of the photo's media workflow, id `photo-media-<id>`, on the photos task queue: once per photo. */
export function photoMediaStart(photo: UploadedMedia): WorkflowStartCommand {
  return {
    workflowType: WORKFLOW_TYPES.photoMedia,
    workflowId: photoMediaWorkflowId(photo.id),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [{ photoId: photo.id }],
    summary: `Photo ${photo.id}: ${photo.mediaType} renditions (${photo.mimeType}, ${photo.sizeBytes} bytes)`,
  };
}
