// Fast result entry: one key per board, then on to the next board; Enter submits.
(function () {
  var form = document.getElementById("result-form");
  if (!form) return;
  var inputs = Array.prototype.slice.call(form.querySelectorAll("input[type=text]"));
  var next = function (i) {
    if (i + 1 < inputs.length) { inputs[i + 1].focus(); } else { document.getElementById("save-results").focus(); }
  };
  inputs.forEach(function (input, i) {
    // a saved result is shown as the box's value: a key typed on it replaces it, never appends
    input.addEventListener("focus", function () { input.select(); });
    input.addEventListener("input", function () {
      var v = input.value.trim();
      if (v === "1" || v === "0" || v === "=" || v === "5" || v === "+" || v === "--" || v === "x" || v === "X") { next(i); }
    });
  });
  var first = inputs.filter(function (x) { return !x.value; })[0];
  if (first) first.focus();
})();
