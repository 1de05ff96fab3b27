// The start of a report's rendering workflow, as a workflow outbox entry enqueued in the create's transaction: a
// rolled-back create starts nothing, and a start committed while Temporal is down is dispatched when it is back.
import type { WorkflowStartCommand } from '@tributary/kit';
import { TASK_QUEUES, WORKFLOW_TYPES, photosReportWorkflowId } from '@tributary/workflows';
import { SERVICE_NAME } from '../../service-name.js';

/** Start of the report's workflow, id `report-<id>`, on the photos task queue: once per report. */
export function reportRenderStart(report: { id: number; photoCount: number }): WorkflowStartCommand {
  return {
    workflowType: WORKFLOW_TYPES.photosReport,
    workflowId: photosReportWorkflowId(report.id),
    taskQueue: TASK_QUEUES[SERVICE_NAME],
    args: [{ reportId: report.id }],
    summary: `Report ${report.id}: PDF of ${report.photoCount} photos`,
  };
}
