/**
 * Which methods each registered path answers, so an unknown method on a known path is a 405 with
 * an Allow header rather than a 404. Fed from onRoute; parametric segments (`:slug`) match one
 * path segment.
 */
export class AllowedMethods {
  private readonly exact = new Map<string, Set<string>>();
  private readonly patterns: Array<{ regex: RegExp; methods: Set<string> }> = [];

  add(url: string, methods: string | string[]): void {
    const list = Array.isArray(methods) ? methods : [methods];
    let set: Set<string> | undefined;
    if (url.includes(':') || url.includes('*')) {
      const source = url
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      const regex = new RegExp(`^${source}$`);
      set = this.patterns.find((p) => p.regex.source === regex.source)?.methods;
      if (!set) this.patterns.push({ regex, methods: (set = new Set()) });
    } else {
      set = this.exact.get(url);
      if (!set) this.exact.set(url, (set = new Set()));
    }
    for (const method of list) set.add(method.toUpperCase());
  }

  /** The methods registered for this request path (query string ignored), empty when none. */
  for(rawUrl: string): string[] {
    const queryAt = rawUrl.indexOf('?');
    const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const found = new Set<string>(this.exact.get(path) ?? []);
    for (const { regex, methods } of this.patterns) if (regex.test(path)) for (const m of methods) found.add(m);
    return [...found].sort();
  }
}
