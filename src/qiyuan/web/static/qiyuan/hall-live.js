// The live round page: asks the server again every few seconds and redraws the boards and standings
// (text only, never HTML from the server).
(function () {
  "use strict";
  var box = document.querySelector(".hall-live");
  if (!box || !window.fetch) return;
  var src = box.getAttribute("data-src");
  var seconds = parseInt(box.getAttribute("data-seconds"), 10) || 10;
  var latin = box.getAttribute("data-latin") === "1";  // an English page: names in Latin letters
  function rows(tbody, items, cells) {
    var body = document.getElementById(tbody);
    while (body.firstChild) body.removeChild(body.firstChild);
    items.forEach(function (item) {
      var tr = document.createElement("tr");
      cells(item).forEach(function (text, i) {
        var td = document.createElement("td");
        if (i === 2 && tbody === "live-boards") td.className = "result";
        td.textContent = text;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }
  function draw(data) {
    var head = document.getElementById("live-round");
    head.textContent = head.getAttribute("data-pattern").replace("#", data.round);
    var boards = document.getElementById("live-boards");
    rows("live-boards", data.boards, function (b) {
      var cells = [b.board, latin ? b.first_latin : b.first, b.result, latin ? b.second_latin : b.second];
      if (data.go) {  // a Go board: its stones, or the komi of an even game (the page's own words)
        cells.push(b.stones ? boards.getAttribute("data-stones").replace("#", b.stones)
          : boards.getAttribute("data-even").replace("#", b.komi));
      }
      return cells;
    });
    rows("live-standings", data.standings, function (r) { return [r.rank, latin ? r.name_latin : r.name, r.score]; });
  }
  function tick() {
    fetch(src, {headers: {"Accept": "application/json"}}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (data) { if (data) draw(data); }).catch(function () {})
      .then(function () { setTimeout(tick, seconds * 1000); });
  }
  setTimeout(tick, seconds * 1000);
})();
