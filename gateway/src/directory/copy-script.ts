/** Where the setup page's Copy button script is served: a file of its own, so the CSP needs no inline script. */
export const COPY_SCRIPT_PATH = '/directory/assets/copy.js';

/** The setup page's Copy handler (served at COPY_SCRIPT_PATH; `script-src 'self'`). */
export const COPY_SCRIPT = `document.querySelectorAll('button[data-copy]').forEach(function (b) {
  b.addEventListener('click', function () {
    var text = document.getElementById(b.getAttribute('data-copy')).textContent;
    var status = document.getElementById('copy-status');
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { status.textContent = 'Copied'; }, function () { status.textContent = 'Select the address and copy it'; });
    else status.textContent = 'Select the address and copy it';
  });
});
`;
