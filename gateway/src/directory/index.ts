export { registerDirectory, type DirectoryOptions } from './directory-routes.js';
export { renderDirectory, renderSetupPage } from './render-directory.js';
