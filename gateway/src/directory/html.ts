/** Escape text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A tagged template that escapes every interpolated value unless it is already `SafeHtml`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((v) => (v instanceof SafeHtml ? v.value : escapeHtml(String(v)))).join('')
      : value instanceof SafeHtml
        ? value.value
        : escapeHtml(String(value ?? ''));
    out += rendered + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** An adapter's logo is operator-authored SVG from the adapter package; only inline `<svg>` is accepted. */
export function trustedSvg(svg: string): SafeHtml {
  const trimmed = svg.trim();
  if (!/^<svg[\s>]/i.test(trimmed) || /<script|on\w+\s*=|javascript:/i.test(trimmed)) return new SafeHtml('');
  return new SafeHtml(trimmed);
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #4a5260; --card: #f4f6f8; --accent: #0b5cad; --border: #c9d1d9; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8ecf0; --bg: #101418; --muted: #b3bcc6; --card: #1a2027; --accent: #7ab7ff; --border: #3a444f; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem; }
header { border-bottom: 1px solid var(--border); }
.muted { color: var(--muted); }
ul.cards { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
.card { background: var(--card); border: 1px solid var(--border); border-radius: .5rem; padding: 1rem; }
.card h2 { font-size: 1.15rem; margin: .25rem 0; }
.logo svg { width: 48px; height: 48px; }
ol.steps > li { margin-bottom: 1rem; }
code, .url { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--card); padding: .1rem .3rem; border-radius: .25rem; overflow-wrap: anywhere; }
.url { word-break: break-all; }
/* A key is one word to type or paste: never broken across lines inside a table cell. */
td code { overflow-wrap: normal; white-space: nowrap; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; border-bottom: 1px solid var(--border); padding: .4rem; vertical-align: top; }
button { font: inherit; padding: .3rem .7rem; border-radius: .3rem; border: 1px solid var(--border); background: var(--card); color: var(--fg); cursor: pointer; }
`;

/** A whole document; `extraStyle` (trusted CSS of this codebase) follows the shared style. */
export function page(title: string, body: SafeHtml, extraStyle = ''): string {
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${new SafeHtml(STYLE + extraStyle)}</style></head>
<body><a class="skip" href="#main">Skip to content</a>${body}</body></html>`.value
  }`;
}
