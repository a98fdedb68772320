// What the API and the workers share about uploads (issue 52): the workflow that ends an unused
// upload when it expires, started by the API when the upload is created, and its id.

/** The workflow type that expires an upload (src/workflows/uploadExpiry.ts). */
export const UPLOAD_EXPIRY_WORKFLOW = 'uploadExpiryWorkflow';

export interface UploadExpiryInput {
  uploadId: string;
}

/** One expiry per upload. */
export const uploadExpiryWorkflowId = (uploadId: string) => `upload-expiry-${uploadId}`;
