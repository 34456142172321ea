// Live preview on the Tokens page: as scopes are ticked, ask the server which tools
// the token would see today (the same computation a request makes). Without
// JavaScript the "Preview the tools" button does the same by posting the form.
(function () {
  'use strict';
  // Any form that names its preview endpoint: token issuance and the OAuth consent page.
  var form = document.querySelector('form[data-preview]');
  if (!form) return;
  var pending = null;
  async function refresh() {
    var body = new URLSearchParams(new FormData(form));
    body.delete('intent');
    var res = await fetch(form.dataset.preview, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      credentials: 'same-origin',
    });
    if (!res.ok) return;
    var doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    var fresh = doc.getElementById('token-preview');
    var old = document.getElementById('token-preview');
    // The same live region keeps the new words, so a screen reader announces them.
    if (fresh && old) old.replaceChildren(...document.adoptNode(fresh).childNodes);
  }
  form.addEventListener('change', function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      refresh().catch(function () {});
    }, 100);
  });
})();
