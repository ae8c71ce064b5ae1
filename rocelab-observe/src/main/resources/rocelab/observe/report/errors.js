// Loaded first: every script error and console.error is shown in #js-errors (and read by the browser test).
(function () {
  var errors = [];
  function record(m) {
    errors.push(String(m));
    var e = document.getElementById('js-errors');
    if (e) { e.textContent = errors.join('\n'); e.style.display = 'block'; }
  }
  window.rocelabErrors = errors;
  window.onerror = function (msg, src, line, col) { record(msg + ' (line ' + line + ':' + col + ')'); };
  window.addEventListener('unhandledrejection', function (e) { record('unhandled rejection: ' + e.reason); });
  var original = console.error;
  console.error = function () { record(Array.prototype.join.call(arguments, ' ')); original.apply(console, arguments); };
})();
