/** A path segment kept as it is: a lowercase word (`orders`, `wp-json`, `graphql.json`) or an API version (`v3`, `2024-10`). */
const KEPT_SEGMENT = /^(?:[a-z]+(?:[-_.][a-z]+)*|v\d{1,2}|\d{4}-\d{2}(?:-\d{2})?)$/;

/**
 * The vendor API call a URL names, as support may read it: its host and its path as a template,
 * every segment that is not a lowercase word or an API version replaced by `{id}`
 * (`api.clover.com/v3/merchants/{id}/orders/{id}`). The query (cursors, keys, expansions) and any
 * user info are left out. Ids are what vary between calls; the template is what an operator
 * compares with the vendor's API reference and status page.
 */
export function vendorCallTarget(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'an unreadable URL';
  }
  const path = parsed.pathname
    .split('/')
    .map((segment) => (segment === '' || KEPT_SEGMENT.test(segment) ? segment : '{id}'))
    .join('/');
  return `${parsed.host}${path === '/' ? '' : path}`;
}
