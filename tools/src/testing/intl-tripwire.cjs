// Preloaded (node -r) into a gateway under test: appends to $INTL_TRIPWIRE_LOG the first stack of
// every call that makes ICU's data resident (Intl's formatters, locale-aware string and number
// methods), on every thread, and lets the call go on. The production-build test expects none:
// docs/benchmarks.md measures ICU's data at 8–9 MiB of the process's RSS.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (node -r), which node also runs in worker threads */
const { appendFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const file = process.env.INTL_TRIPWIRE_LOG;
const seen = new Set();
function trip(what) {
  const stack = new Error().stack.split('\n').slice(3, 8).join('\n');
  if (seen.has(what + stack)) return;
  seen.add(what + stack);
  appendFileSync(file, `${what} (${isMainThread ? 'main thread' : 'worker thread'})\n${stack}\n\n`);
}
for (const name of [
  'DateTimeFormat',
  'NumberFormat',
  'Collator',
  'PluralRules',
  'RelativeTimeFormat',
  'ListFormat',
  'Segmenter',
  'DisplayNames',
  'Locale',
]) {
  const Original = Intl[name];
  if (!Original) continue;
  const Wrapped = function (...args) {
    trip(`Intl.${name}`);
    return new Original(...args);
  };
  Wrapped.prototype = Original.prototype;
  Wrapped.supportedLocalesOf = Original.supportedLocalesOf;
  Intl[name] = Wrapped;
}
for (const [owner, method, label] of [
  [Number.prototype, 'toLocaleString', 'Number#toLocaleString'],
  [BigInt.prototype, 'toLocaleString', 'BigInt#toLocaleString'],
  [Array.prototype, 'toLocaleString', 'Array#toLocaleString'],
  [Date.prototype, 'toLocaleString', 'Date#toLocaleString'],
  [Date.prototype, 'toLocaleDateString', 'Date#toLocaleDateString'],
  [Date.prototype, 'toLocaleTimeString', 'Date#toLocaleTimeString'],
  [String.prototype, 'localeCompare', 'String#localeCompare'],
  [String.prototype, 'normalize', 'String#normalize'],
  [String.prototype, 'toLocaleLowerCase', 'String#toLocaleLowerCase'],
  [String.prototype, 'toLocaleUpperCase', 'String#toLocaleUpperCase'],
]) {
  const original = owner[method];
  Object.defineProperty(owner, method, {
    value: function (...args) {
      trip(label);
      return original.apply(this, args);
    },
    writable: true,
    configurable: true,
  });
}
