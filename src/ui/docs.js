// The API docs page: swagger-ui on the controller's own OpenAPI document (a file, since the CSP
// allows no inline script). Try-it-out requests go to this same controller, with the token of
// the Authorize button: shared with the topology page through this tab's sessionStorage only.
/* global SwaggerUIBundle */
import { storedToken, storeToken } from '../ui/token-store.js'

// swagger-ui keeps an authorisation in memory; persistAuthorization would copy it to localStorage,
// which outlives the tab: what is entered goes to sessionStorage instead, and comes back from it.
const tokenInSession = () => ({
  statePlugins: {
    auth: {
      wrapActions: {
        authorize: (authorize) => (payload) => {
          const token = payload?.bearer?.value
          if (typeof token === 'string') storeToken(token.trim())
          return authorize(payload)
        },
        logout: (logout) => (names) => {
          if (Array.isArray(names) && names.includes('bearer')) storeToken('')
          return logout(names)
        },
      },
    },
  },
})

window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: false,
  plugins: [tokenInSession],
  onComplete() {
    const token = storedToken()
    if (token) window.ui.preauthorizeApiKey('bearer', token)
  },
})
