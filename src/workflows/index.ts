export { orderWorkflow } from './order.js';
export { taskWorkflow } from './legacy/tasksAsChildren.js';
