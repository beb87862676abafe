/** What the scope reports to (the process logger; nothing in tests without one). */
export interface ScopeLog {
  warn(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

/**
 * The resources one container opened, closed in reverse order of opening. A step that fails is
 * logged and the next one still runs; a step still running after `slowMs` is named in the log (a
 * process manager's stop timeout should not come as a surprise). A resource added once the scope
 * is closed is closed at once (it finished opening during shutdown).
 */
export class ResourceScope {
  private readonly opened: Array<{ name: string; close: () => Promise<unknown> }> = [];
  private closed = false;

  constructor(
    private readonly log: () => ScopeLog | null,
    private readonly slowMs = 2_000,
  ) {}

  /** Names of the resources open now, in order of opening. */
  get names(): string[] {
    return this.opened.map((r) => r.name);
  }

  add(name: string, close: () => Promise<unknown>): void {
    this.opened.push({ name, close });
    if (this.closed) void this.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { name, close } of this.opened.splice(0).reverse()) {
      const slow = setTimeout(
        () => this.log()?.warn({ step: name }, `shutdown step still running after ${this.slowMs / 1000} s`),
        this.slowMs,
      );
      try {
        await close();
      } catch (error) {
        this.log()?.error({ err: error, step: name }, 'shutdown step failed');
      } finally {
        clearTimeout(slow);
      }
    }
  }
}
