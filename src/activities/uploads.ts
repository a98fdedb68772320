// The activity that ends an expired upload (src/orders/uploads.ts), for src/workflows/uploadExpiry.ts.
import type { ActivityDeps } from './deps.js';
import type { UploadExpiryInput } from '../contracts/uploads.js';
import { expireUpload } from '../orders/uploads.js';

export function createUploadActivities(deps: ActivityDeps) {
  return {
    async expireUpload({ uploadId }: UploadExpiryInput): Promise<void> {
      if (deps.uploads) await expireUpload({ ...deps, uploads: deps.uploads }, uploadId);
    },
  };
}
