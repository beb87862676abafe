import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { GatewayConfig } from '../config.js';
import { get } from './container.js';
import { registerApp } from './register-app.js';
import { registerEngine } from './register-engine.js';
import { registerJobs } from './register-jobs.js';
import { registerJournal } from './register-journal.js';
import { registerOperatorSide } from './register-operator.js';
import { registerDataDir, registerProcess } from './register-process.js';
import { registerSeeding } from './register-seeding.js';
import { registerStorage } from './register-storage.js';
import { TOKENS } from './tokens.js';

/** Register every part of a gateway process on `c`, read from `config`. */
export function registerGateway(c: DependencyContainer, config: GatewayConfig): void {
  registerProcess(c, config); // config, the resource scope, logging, clock
  registerDataDir(c, config); // the data directory, the admin token in force
  registerStorage(c, config); // databases, master key, stores, idempotency cache, Redis
  registerEngine(c, config); // embedded or remote engine, metrics, the timed port
  registerSeeding(c, config); // seed file, demo sandbox
  registerJournal(c, config); // the delivery journal and its pruning
  registerOperatorSide(c, config); // the one webhook pipeline; runs, runner, reconciler, subscriptions, vendor changes; /admin and /directory
  registerJobs(c, config); // schedules, prunings, the settings report: TOKENS.backgroundJobs
  registerApp(c, config); // featured doors, app options, the app
}

/** The composition root: a child of tsyringe's root container with every registration of a gateway process. */
export function createGatewayContainer(config: GatewayConfig): DependencyContainer {
  const c = rootContainer.createChildContainer();
  registerGateway(c, config);
  return c;
}

/** Close every resource the container opened, in reverse order of opening. */
export const closeContainer = (c: DependencyContainer): Promise<void> => get(c, TOKENS.scope).close();
