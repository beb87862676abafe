export { registerAdminRoutes } from './register-admin-routes.js';
export type { AdminOptions } from './admin-types.js';
export { startOperatorSide, type OperatorSide } from './start-operator.js';
