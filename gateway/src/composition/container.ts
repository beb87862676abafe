import 'reflect-metadata';
import { instancePerContainerCachingFactory, type DependencyContainer, type FactoryProvider } from 'tsyringe';
import { TOKENS, type Token } from './tokens.js';

/** A registration's value, typed by its token. */
export const get = <T>(c: DependencyContainer, t: Token<T>): T => c.resolve<T>(t);
/** An async resource, opened (once per container) on first use. */
export const open = <T>(c: DependencyContainer, t: Token<Promise<T>>): Promise<T> => c.resolve<Promise<T>>(t);

/** One instance per container that resolves it (a child container that overrides a dependency gets its own). */
export const perContainer = <T>(make: (c: DependencyContainer) => T): FactoryProvider<T> => ({
  useFactory: instancePerContainerCachingFactory(make),
});

/**
 * An async resource, one per container: opened on first resolve; once open, its `close` joins the
 * container's scope, so closing the scope closes it after everything opened later.
 */
export const resource = <T>(
  name: string,
  openIt: (c: DependencyContainer) => Promise<T>,
  close?: (value: NonNullable<T>) => Promise<unknown>,
): FactoryProvider<Promise<T>> =>
  perContainer(async (c) => {
    const value = await openIt(c);
    if (close && value !== null && value !== undefined) get(c, TOKENS.scope).add(name, () => close(value as NonNullable<T>));
    return value;
  });

/**
 * Register a provider: a value, or a factory from `perContainer` / `resource`. A value is
 * registered as a factory returning it (tsyringe takes a `useValue` of null or undefined for no
 * provider at all; "logging off" is null).
 */
export function provide<T>(c: DependencyContainer, t: Token<T>, provider: FactoryProvider<T> | { useValue: T }): void {
  c.register<T>(t, 'useValue' in provider ? { useFactory: () => provider.useValue } : provider);
}

/** The process logger, which the registrations below need (the operator side and the jobs log). */
export function loggerOf(c: DependencyContainer, what: string) {
  const log = get(c, TOKENS.logger);
  if (!log) throw new Error(`${what} logs: register a logger`);
  return log;
}

export const MiB = 1024 * 1024;
