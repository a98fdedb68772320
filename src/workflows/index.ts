export { orderWorkflow } from './order.js';
