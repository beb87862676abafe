import { engineUnavailable } from './engine-call-failure.js';

/**
 * At most `size` calls on the wire at once (one per pooled socket), the others waiting here in
 * order. A call's budget header is computed when it gets a slot, i.e. when it is really sent:
 * time spent waiting for a busy socket is not granted to the engine. A call still waiting at its
 * deadline is failed as a timeout without ever being sent (so certainly not committed).
 */
export class CallSlots {
  private free: number;
  private readonly waiting: Array<{ grant(): void }> = [];

  constructor(size: number) {
    this.free = size;
  }

  /** A free slot's `release` now, or undefined when every slot is taken. */
  tryAcquire(): (() => void) | undefined {
    if (this.free === 0) return undefined;
    this.free -= 1;
    return this.releaser();
  }

  /** Resolves with `release` once a slot is free; rejects (unavailable, timeout) at `deadline` (never when it is +∞). */
  acquire(deadline: number, label: string): Promise<() => void> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    if (deadline === Number.POSITIVE_INFINITY) {
      return new Promise((resolve) => this.waiting.push({ grant: () => resolve(this.releaser()) }));
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser());
        },
      };
      const timer = setTimeout(
        () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(engineUnavailable('timeout', `${label}: every connection to the engine stayed busy until the deadline; not sent`));
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.grant();
      else this.free += 1;
    };
  }
}
