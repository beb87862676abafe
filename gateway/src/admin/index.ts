export { registerAdminRoutes } from './register-admin-routes.js';
export type { AdminOptions, OperatorSide } from './admin-types.js';
