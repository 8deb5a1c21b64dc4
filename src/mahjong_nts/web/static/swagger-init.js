// Starts Swagger UI on /docs (an external file: the pages allow no inline script).
"use strict";
(function () {
  var root = document.getElementById("swagger-ui");
  if (!root || typeof window.SwaggerUIBundle !== "function") {
    return; // the vendored bundle is missing: the link to the OpenAPI document stays
  }
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    // no deep links: they put a link inside each operation's button (axe: nested-interactive)
    deepLinking: false,
    validatorUrl: null,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
})();
