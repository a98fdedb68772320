export { orderWorkflow } from './order.js';
export { taskWorkflow } from './task.js';
