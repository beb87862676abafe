import { setupFormFields, type AnyAdapter, type SetupFormField } from '@loyalty-gateway/core';
import { html, type SafeHtml } from '../directory/html.js';

/** A console form as posted: every field a string (the last one of a name wins). */
export type ConsoleForm = Record<string, string>;

/**
 * The gateway's own settings key beside the adapter's (parseProviderSettings reads it): the
 * catalog pulls' schedule, for an adapter that pulls a catalog.
 */
const catalogScheduleField = (adapter: AnyAdapter): SetupFormField => ({
  key: 'catalogSchedule',
  label: 'Catalog schedule',
  help: "When the catalog is pulled: a cron expression (minute hour day month weekday, the gateway's local time); empty: the adapter's own schedule.",
  secret: false,
  input: 'text',
  required: false,
  defaultValue: adapter.catalog?.schedule,
});

/** The provider-settings form of an adapter: its settings schema's fields (their `.meta()`), then the catalog schedule. */
export function settingsFormFields(adapter: AnyAdapter): SetupFormField[] {
  const fields = setupFormFields(adapter.settings, `${adapter.slug} settings`);
  return adapter.catalog ? [...fields, catalogScheduleField(adapter)] : fields;
}

/** The credentials part of a new connection's form: the adapter's credentials schema's fields. */
export const credentialFormFields = (adapter: AnyAdapter): SetupFormField[] =>
  setupFormFields(adapter.credentials, `${adapter.slug} credentials`);

const nameOf = (prefix: string, key: string) => `${prefix}.${key}`;
const idOf = (prefix: string, key: string) => `f-${prefix}-${key}`;

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';
const shown = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/**
 * The inputs of generated fields. Secrets are write-only: their input is always empty (never
 * the stored value, never what was typed before a refusal), and says whether one is set; leaving
 * it empty keeps it. Other fields show the stored value, or what was typed when the form comes
 * back with an error.
 */
export function setupInputs(
  fields: readonly SetupFormField[],
  options: { prefix: string; stored: Record<string, unknown> | null; typed?: ConsoleForm | undefined },
): SafeHtml[] {
  return fields.map((field) => {
    const name = nameOf(options.prefix, field.key);
    const id = idOf(options.prefix, field.key);
    const stored = options.stored?.[field.key];
    const typed = options.typed?.[name];
    if (field.input === 'checkbox') {
      const checked = typed !== undefined ? typed === 'true' : typeof stored === 'boolean' ? stored : field.defaultValue === true;
      // The hidden "false" comes first: an unchecked box sends nothing, a checked one overrides it.
      return html`<div class="field check"><input type="hidden" name="${name}" value="false"><input type="checkbox" id="${id}" name="${name}" value="true"${checked ? html` checked` : html``} aria-describedby="${id}-help">
<label for="${id}">${field.label}</label><p class="help" id="${id}-help">${field.help}</p></div>`;
    }
    const required = field.required && !(field.secret && isSet(stored));
    // Whether a field may be left empty is in its label ("required") or its placeholder (the default that applies).
    const state =
      field.secret && isSet(stored)
        ? `Set${Array.isArray(stored) ? ` (${stored.length} values while rotating)` : ''}: leave empty to keep it, or type a new one to replace it.`
        : !field.required && field.defaultValue === undefined
          ? 'Optional.'
          : '';
    const value = field.secret ? '' : (typed ?? shown(stored));
    return html`<div class="field"><label for="${id}">${field.label}${required ? ' (required)' : ''}</label>
<input id="${id}" name="${name}"${field.secret ? html` type="password" autocomplete="new-password"` : html``} value="${value}"${field.defaultValue !== undefined && !field.secret ? html` placeholder="${String(field.defaultValue)}"` : html``} spellcheck="false" aria-describedby="${id}-help">
<p class="help" id="${id}-help">${field.help} ${state}</p></div>`;
  });
}

/**
 * The object the form describes, for the admin API's own validation: a checkbox is true or false,
 * text as typed, an empty text left out (its default applies), an empty secret kept as stored.
 */
export function readSetupForm(
  fields: readonly SetupFormField[],
  form: ConsoleForm,
  options: { prefix: string; stored: Record<string, unknown> | null },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = form[nameOf(options.prefix, field.key)];
    if (field.input === 'checkbox') {
      if (raw !== undefined) out[field.key] = raw === 'true';
      continue;
    }
    if (raw !== undefined && raw !== '') out[field.key] = raw;
    else if (field.secret && isSet(options.stored?.[field.key])) out[field.key] = options.stored![field.key];
  }
  return out;
}

/**
 * What stored provider settings hold that the form does not show and must keep: the operator's
 * `auth` override and the secret key it reads when that is not one of the adapter's fields (both
 * set through the admin API). Keys the adapter does not know are not kept: saving removes them.
 */
export function keptSettings(stored: Record<string, unknown> | null, fields: readonly SetupFormField[]): Record<string, unknown> {
  if (!stored || stored.auth === undefined) return {};
  const kept: Record<string, unknown> = { auth: stored.auth };
  const secret = (stored.auth as { secret?: { from?: unknown; key?: unknown } } | null)?.secret;
  if (secret?.from === 'settings' && typeof secret.key === 'string' && !fields.some((f) => f.key === secret.key) && secret.key in stored) {
    kept[secret.key] = stored[secret.key];
  }
  return kept;
}
