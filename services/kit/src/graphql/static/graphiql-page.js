/* global document, window, React, ReactDOM, GraphiQL */
// Starts GraphiQL (the npm package's UMD build, on React 18's UMD build) from the page's JSON configuration block:
// the endpoint, the headers editor's content and one tab per example query. Loaded as a same-origin file: the
// page's Content-Security-Policy allows no inline script.
(function () {
  'use strict';
  // GraphiQL's dialogs insert a <style> element with this nonce (get-nonce reads __webpack_nonce__); the page's CSP
  // allows styles with it. It rides on this script's own tag.
  window.__webpack_nonce__ = document.currentScript.nonce;
  var config = JSON.parse(document.getElementById('graphiql-config').textContent);
  var headers = JSON.stringify(config.headers, null, 2);
  var tabs = config.examples.map(function (example) {
    return {
      query: example.query,
      variables: example.variables ? JSON.stringify(example.variables, null, 2) : undefined,
      headers: headers,
    };
  });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: config.endpoint }),
      defaultTabs: tabs,
      defaultHeaders: headers,
      // The headers hold credentials: open the headers editor so they are seen, and never store them in localStorage.
      defaultEditorToolsVisibility: 'headers',
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
    }),
  );
})();
