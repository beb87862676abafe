export { registerConsole, type ConsoleDeps } from './console-routes.js';
export { createConsoleSessions, type ConsoleSessions } from './console-session.js';
