/**
 * `value` without the slashes it ends with (`https://gw.example.com///` → `https://gw.example.com`).
 * One backward scan: `value.replace(/\/+$/, '')` backtracks from every slash of a run that does
 * not reach the end, quadratic in the run (40,000 slashes held the event loop for seconds).
 */
export function trimTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x2f) end -= 1;
  return end === value.length ? value : value.slice(0, end);
}
