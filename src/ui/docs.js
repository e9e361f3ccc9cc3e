// The API docs page: swagger-ui on the controller's own OpenAPI document (a file, since the CSP
// allows no inline script). Try-it-out requests go to this same controller.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
})
