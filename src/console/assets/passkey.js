// The console's one script: the passkey ceremony, which needs the browser's WebAuthn
// API. Everything else in the console works without JavaScript. Uses the
// @simplewebauthn/browser bundle served from this same origin (webauthn.js).
(function () {
  'use strict';
  var W = window.SimpleWebAuthnBrowser;

  function say(message) {
    var el = document.getElementById('passkey-status');
    if (el) el.textContent = message;
  }

  async function post(url, body, csrf) {
    var headers = { 'Content-Type': 'application/json' };
    if (csrf) headers['X-CSRF-Token'] = csrf;
    var res = await fetch(url, {
      method: 'POST',
      headers: headers,
      body: JSON.stringify(body || {}),
      credentials: 'same-origin',
    });
    var data = await res.json().catch(function () {
      return {};
    });
    if (!res.ok)
      throw new Error((data.refusal && data.refusal.reason) || 'The server refused (' + res.status + ').');
    return data;
  }

  var signin = document.getElementById('passkey-signin');
  if (signin) {
    signin.addEventListener('click', async function () {
      try {
        say('Waiting for your passkey…');
        var options = await post(signin.dataset.options);
        var response = await W.startAuthentication({ optionsJSON: options });
        var done = await post(signin.dataset.verify, response);
        say('Signed in.');
        // A page that asked for sign-in (the OAuth consent page) names where to come back to.
        var back = signin.dataset.next;
        window.location.assign(back && back.indexOf('/console/') === 0 ? back : done.next);
      } catch (e) {
        say('Not signed in: ' + e.message);
      }
    });
  }

  var register = document.getElementById('passkey-register');
  if (register) {
    register.addEventListener('click', async function () {
      var csrf = register.dataset.csrf;
      var labelInput = document.getElementById('passkey-label');
      try {
        say('Follow your browser’s prompt to create the passkey…');
        var options = await post(register.dataset.options, {}, csrf);
        var response = await W.startRegistration({ optionsJSON: options });
        var done = await post(
          register.dataset.verify,
          { response: response, label: labelInput ? labelInput.value : '' },
          csrf,
        );
        say('Passkey registered.');
        window.location.assign(done.next);
      } catch (e) {
        say('No passkey registered: ' + e.message);
      }
    });
  }
})();
