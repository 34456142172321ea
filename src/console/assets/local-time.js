// Dates in the reader's own time zone. The server writes each moment in UTC, naming the
// zone, since it cannot know the reader's; here every <time datetime> is rewritten in the
// browser's zone and language. Without JavaScript the UTC text stays, still true.
(function () {
  'use strict';
  var local = new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  function localise(root) {
    root.querySelectorAll('time[datetime]').forEach(function (el) {
      var at = new Date(el.getAttribute('datetime'));
      if (Number.isNaN(at.getTime()) || el.dataset.local) return;
      el.title = el.textContent;
      el.textContent = local.format(at);
      el.dataset.local = 'yes';
    });
  }
  localise(document);
})();
