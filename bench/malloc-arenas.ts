/**
 * glibc's malloc arenas of a running process, read through gdb (Debian's package; as root or with
 * ptrace allowed): gdb attaches, has the process call `malloc_info` into a file, and detaches.
 * The process stops for that time (1–3 s with node's threads and symbols), so call this between
 * loads, not during one. Null when gdb is not installed or could not attach.
 *
 * Per arena: what it holds from the system now and at most since start, and how much of that sits
 * in its free lists. Held but free is fragmentation (what a trim cannot give back while a block
 * above it lives); held and not free is live blocks (and the arena's top, which the production
 * start's trim threshold keeps below 512 KiB). Arena 0 is the main arena: `[heap]` in smaps when
 * the kernel let it grow by brk, anonymous mappings otherwise. Blocks of 128 KiB or more (the
 * production start's mmap threshold) are mappings of their own, counted apart.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Arena {
  arena: number;
  heldMiB: number;
  maxHeldMiB: number;
  freeMiB: number;
}

export interface MallocArenas {
  arenas: Arena[];
  mmapped: { blocks: number; MiB: number };
}

const MiB = 1024 * 1024;

/** The XML that glibc's malloc_info writes, read into arenas. */
export function parseMallocInfo(xml: string): MallocArenas {
  const arenas: Arena[] = [];
  for (const match of xml.matchAll(/<heap nr="(\d+)">([\s\S]*?)<\/heap>/g)) {
    const body = match[2]!;
    const size = (pattern: RegExp) => Number(pattern.exec(body)?.[1] ?? 0) / MiB;
    arenas.push({
      arena: Number(match[1]),
      heldMiB: size(/<system type="current" size="(\d+)"/),
      maxHeldMiB: size(/<system type="max" size="(\d+)"/),
      freeMiB: size(/<total type="fast" count="\d+" size="(\d+)"/) + size(/<total type="rest" count="\d+" size="(\d+)"/),
    });
  }
  const after = xml.slice(xml.lastIndexOf('</heap>'));
  const mmap = /<total type="mmap" count="(\d+)" size="(\d+)"/.exec(after);
  return { arenas, mmapped: { blocks: Number(mmap?.[1] ?? 0), MiB: Number(mmap?.[2] ?? 0) / MiB } };
}

/** The process's arenas now, or null (no gdb, or it could not attach). */
export function mallocArenas(pid: number): MallocArenas | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'malloc-info-'));
  const file = path.join(dir, 'malloc-info.xml');
  try {
    execFileSync(
      'gdb',
      [
        '--batch',
        '--nx',
        '-p',
        String(pid),
        '-ex',
        `set $file = ((void *(*)(const char *, const char *)) fopen)("${file}", "w")`,
        '-ex',
        'call (int) malloc_info(0, $file)',
        '-ex',
        'call ((int (*)(void *)) fclose)($file)',
      ],
      { stdio: 'ignore', timeout: 60_000 },
    );
    return parseMallocInfo(readFileSync(file, 'utf8'));
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line: each arena's held (max) and free MiB, and the blocks mapped on their own. */
export function describeArenas({ arenas, mmapped }: MallocArenas): string {
  const each = arenas.map(
    (a) =>
      `arena ${a.arena}${a.arena === 0 ? ' (main)' : ''} ${a.heldMiB.toFixed(1)} held (at most ${a.maxHeldMiB.toFixed(1)}), ${a.freeMiB.toFixed(1)} of it free`,
  );
  return `${each.join('; ')}; ${mmapped.blocks} blocks of their own ${mmapped.MiB.toFixed(1)}`;
}
