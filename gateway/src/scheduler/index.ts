export { createCatalogRunner, type CatalogRunner, type CatalogRunnerOptions, type StartedRun } from './catalog-runner.js';
export { catalogScheduleOf, type EffectiveCatalogSchedule } from './catalog-schedule-of.js';
export {
  startCatalogScheduler,
  slotOf,
  type CatalogJob,
  type CatalogScheduler,
  type CatalogSchedulerOptions,
} from './catalog-scheduler.js';
export { cronProblem, isValidCron, nextRunOf, scheduleCron, type CronJob, type CronJobOptions, type CronRun } from './cron-clock.js';
export { DEFAULT_PAGE_POLICY, type PagePolicy } from './pull-all-pages.js';
