import type { Tree } from '@nx/devkit';

export const ADAPTER_LIST = 'gateway/src/adapters.ts';

const EMPTY_LIST = `import type { AnyAdapter } from '@loyalty-gateway/core';

/**
 * The featured adapters the gateway mounts at /webhooks/{slug}: a typed list, not a directory scan,
 * so Nx's project graph sees every dependency. \`nx g @loyalty-gateway/tools:adapter <slug>\` adds to it.
 */
export const adapters: readonly AnyAdapter[] = [
];
`;

/** Add `import { adapter as x } ...` and `x,` to the gateway's typed adapter list. */
export function registerAdapter(tree: Tree, slug: string, variable: string): void {
  const source = tree.read(ADAPTER_LIST, 'utf-8') ?? EMPTY_LIST;
  const importLine = `import { adapter as ${variable} } from '@loyalty-gateway/adapter-${slug}';\n`;
  if (source.includes(`'@loyalty-gateway/adapter-${slug}'`)) return;
  const list = /export const adapters[^=]*=\s*\[([\s\S]*?)\]/.exec(source);
  if (!list) throw new Error(`${ADAPTER_LIST} has no \`export const adapters = [...]\` to add ${slug} to`);
  const entries = list[1]!.trimEnd();
  const separator = entries === '' || entries.endsWith(',') ? '' : ',';
  const updatedList = list[0].replace(list[1]!, `${entries}${separator}\n  ${variable},\n`);
  const withList = source.replace(list[0], updatedList);
  const lastImport = withList.lastIndexOf('\nimport ');
  const insertAt = lastImport === -1 ? 0 : withList.indexOf('\n', lastImport + 1) + 1;
  tree.write(ADAPTER_LIST, withList.slice(0, insertAt) + importLine + withList.slice(insertAt));
}
