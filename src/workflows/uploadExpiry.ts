// An upload's expiry (issue 52): the API starts this workflow when the upload is created, delayed by
// UPLOAD_TTL_HOURS (Temporal's start delay: a durable timer, whatever restarts meanwhile); it then
// ends the upload, keeping it as the media of the orders placed on it (src/orders/uploads.ts).
import * as wf from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import type { UploadExpiryInput } from '../contracts/uploads.js';

const { expireUpload } = wf.proxyActivities<ReturnType<typeof createActivities>>({
  // Keeping an order's media may decode and render it (ffmpeg): a video can take a while.
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { maximumInterval: '10 minutes' },
});

export async function uploadExpiryWorkflow(input: UploadExpiryInput): Promise<void> {
  await expireUpload(input);
}
