export { registerConsole, type ConsoleDeps } from './console-routes.js';
export { ConsoleSessions } from './console-session.js';
