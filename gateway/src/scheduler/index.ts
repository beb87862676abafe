export { createCatalogRunner, type CatalogRunner, type CatalogRunnerOptions, type StartedRun } from './catalog-runner.js';
export { startCatalogScheduler, slotOf, type CatalogScheduler, type CatalogSchedulerOptions } from './catalog-scheduler.js';
export { DEFAULT_PAGE_POLICY, type PagePolicy } from './pull-all-pages.js';
