// The standings page: take each new page body the director pushes (server-sent events) and
// show it without a reload. EventSource reconnects by itself after a network drop.
(function () {
  "use strict";
  var board = document.getElementById("board");
  var live = document.getElementById("live");
  var updated = document.getElementById("updated");
  if (!window.EventSource) {
    live.textContent = "reload for news";
    return;
  }
  var source = new EventSource("/events?after=" + encodeURIComponent(board.dataset.version));
  source.addEventListener("standings", function (event) {
    var data = JSON.parse(event.data);
    board.innerHTML = data.html;
    board.dataset.version = String(data.version);
    updated.textContent = data.standings.updated;
  });
  source.onopen = function () {
    live.textContent = "live";
    live.className = "live on";
  };
  source.onerror = function () {
    live.textContent = "reconnecting";
    live.className = "live off";
  };
}());
