export { orderWorkflow } from './order.js';
export { uploadExpiryWorkflow } from './uploadExpiry.js';
export { orderDeletionWorkflow } from './orderDeletion.js';
