// The console's one script: the passkey ceremony, which needs the browser's WebAuthn
// API. Everything else in the console works without JavaScript. Uses the
// @simplewebauthn/browser bundle served from this same origin (webauthn.js).
(function () {
  'use strict';
  var W = window.SimpleWebAuthnBrowser;
  var LINK_ADVICE =
    'Without a passkey, ask the club’s operator for a sign-in link: a one-time address that signs you in.';

  function say(message) {
    var el = document.getElementById('passkey-status');
    if (el) el.textContent = message;
  }

  /** A refusal from the console itself, already written for a person. */
  function Refused(message) {
    this.message = message;
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
    if (!res.ok) {
      var r = data.refusal;
      throw new Refused(
        r ? r.reason + (r.next ? ' ' + r.next : '') : 'The console refused (HTTP ' + res.status + ').',
      );
    }
    return data;
  }

  /** True when the page's address is an IP address, where browsers refuse every passkey. */
  function onAnAddress() {
    var host = window.location.hostname;
    return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.charAt(0) === '[';
  }

  /**
   * What went wrong, in words for the person at the keyboard, never the browser's raw
   * WebAuthn message alone. `signingIn` tells the two ceremonies apart.
   */
  function readable(e, signingIn) {
    if (e instanceof Refused) return e.message;
    var code = e && e.code;
    var name = (e && e.cause && e.cause.name) || (e && e.name) || '';
    if (
      code === 'ERROR_INVALID_DOMAIN' ||
      code === 'ERROR_INVALID_RP_ID' ||
      name === 'SecurityError' ||
      onAnAddress()
    )
      return "Passkeys do not work at this address: browsers accept them only for a host name, not an IP address. Sign in with a link from the club's operator, as the note on this page says.";
    if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError')
      return 'This device already holds a passkey for you here: nothing new was registered. Sign in with it.';
    if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError')
      return 'Stopped before a passkey was used.';
    if (name === 'NotAllowedError')
      return signingIn
        ? 'No passkey was used: the prompt was closed or timed out, or this browser has no passkey for this club. ' +
            LINK_ADVICE
        : 'No passkey was made: the prompt was closed or timed out. Press the button to try again.';
    if (name === 'NotSupportedError' || name === 'ConstraintError')
      return signingIn
        ? 'This device cannot use a passkey here. ' + LINK_ADVICE
        : 'This device cannot make the kind of passkey the club asks for (one that signs you in without a user name). Try a password manager or a security key.';
    return (
      'The passkey step failed (' +
      (name || 'unknown error') +
      '). ' +
      (signingIn ? LINK_ADVICE : 'Press the button to try again, or try another device.')
    );
  }

  /** Says so at once when this browser has no passkeys at all, and keeps the button from promising them. */
  function ready(button) {
    if (W && W.browserSupportsWebAuthn()) return true;
    button.disabled = true;
    say(
      'This browser cannot use passkeys. ' +
        (button.id === 'passkey-signin'
          ? LINK_ADVICE
          : 'Open the console in a browser that can to register one.'),
    );
    return false;
  }

  var signin = document.getElementById('passkey-signin');
  if (signin && ready(signin)) {
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
        say('Not signed in. ' + readable(e, true));
      }
    });
  }

  var register = document.getElementById('passkey-register');
  if (register && ready(register)) {
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
        say('No passkey registered. ' + readable(e, false));
      }
    });
  }
})();
