import { html, type SafeHtml } from '../directory/html.js';

/** Where the console's Copy buttons get their handler: a file of its own, so the CSP needs no inline script. */
export const CONSOLE_COPY_SCRIPT_PATH = '/console/assets/copy.js';

/**
 * The console's Copy handler (served at CONSOLE_COPY_SCRIPT_PATH; `script-src 'self'`). A button
 * copies its `data-copy` text, or the text of the element `data-copy-from` names (a secret is in
 * the page once). The clipboard API needs a secure context (HTTPS or loopback); elsewhere the text
 * is copied through a selected text area, and failing that the operator is told to select it.
 */
export const CONSOLE_COPY_SCRIPT = `(function () {
  var status = document.getElementById('copy-status');
  function say(button, text) {
    if (status) status.textContent = text;
    var label = button.getAttribute('data-label') || button.textContent;
    button.setAttribute('data-label', label);
    button.textContent = text === 'Copied' ? 'Copied' : label;
    setTimeout(function () { button.textContent = label; }, 2000);
  }
  function fallback(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand('copy'); } catch (e) { done = false; }
    document.body.removeChild(area);
    return done;
  }
  document.querySelectorAll('button[data-copy], button[data-copy-from]').forEach(function (button) {
    button.addEventListener('click', function () {
      var from = button.getAttribute('data-copy-from');
      var source = from ? document.getElementById(from) : null;
      var text = source ? source.textContent : button.getAttribute('data-copy');
      if (text === null) return;
      var failed = function () { say(button, fallback(text) ? 'Copied' : 'Select the text and copy it'); };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { say(button, 'Copied'); }, failed);
      else failed();
    });
  });
})();
`;

/** A Copy button for a value shown beside it (ids the CLI asks for); `label` names it for screen readers. */
export const copyButton = (value: string, label: string): SafeHtml =>
  html`<button type="button" class="copy" data-copy="${value}" aria-label="Copy ${label}">Copy</button>`;

/** An id as the CLI asks for it: in code, never wrapped, with a Copy button. */
export const copyableId = (value: string, label: string): SafeHtml => html`<code class="id">${value}</code>${copyButton(value, label)}`;

/** A Copy button for the text of the element with this id (a secret: in the page once). */
export const copyFromButton = (elementId: string, label: string): SafeHtml =>
  html`<button type="button" class="copy" data-copy-from="${elementId}" aria-label="Copy ${label}">Copy</button>`;
