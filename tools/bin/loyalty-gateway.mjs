#!/usr/bin/env node
// `npx loyalty-gateway` inside the repository: the TypeScript sources through tsx when it is
// installed (development), else the compiled bundle (`npm run build -w tools`). Outside the
// repository the CLI is its own package (npm pack tools/dist), whose bin is the bundle itself.
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  register = undefined;
}
if (register) {
  register();
  await import(new URL('../src/cli.ts', import.meta.url).href);
} else {
  await import(new URL('../dist/cli.js', import.meta.url).href);
}
