/**
 * The options Echo (and through it pusher-js) is created with, from the server's public runtime config
 * (`GET /api/config` → `realtime`). Kept free of Echo and the DOM so the choices are unit-tested: websocket only
 * (no XHR/SockJS fallbacks: our server speaks the websocket protocol alone), TLS whenever the page is HTTPS (a
 * secure page may not open `ws:`), our own authorizer and user authenticator (the fetch client's CSRF token and
 * headers) instead of pusher-js's XHR, no stats to Pusher's servers.
 */
import type { ChannelAuthorizationHandler, UserAuthenticationHandler } from 'pusher-js';
import { API } from '#contract/routes.ts';

export interface RealtimeSettings {
  key: string;
  /** The websocket's host name; empty: the page's own. */
  host: string;
  /** Its port; 0: the page's own. */
  port: number;
  force_tls: boolean;
}

export interface PageLocation {
  protocol: string;
  hostname: string;
  port: string;
}

export interface AuthHandlers {
  authorize: ChannelAuthorizationHandler;
  authenticate: UserAuthenticationHandler;
}

export const BROADCASTING_AUTH = API.broadcastingAuth;
export const BROADCASTING_USER_AUTH = API.broadcastingUserAuth;

export function echoOptions(settings: RealtimeSettings, page: PageLocation, auth: AuthHandlers) {
  const tls = page.protocol === 'https:' || settings.force_tls;
  const pagePort = Number(page.port) || (page.protocol === 'https:' ? 443 : 80);
  const port = settings.port || pagePort;
  return {
    broadcaster: 'pusher' as const,
    key: settings.key,
    // An empty cluster keeps pusher-js from building Pusher's own host names.
    cluster: '',
    wsHost: settings.host || page.hostname,
    wsPort: port,
    wssPort: port,
    forceTLS: tls,
    enabledTransports: tls ? (['wss'] as const) : (['ws'] as const),
    disableStats: true,
    // Echo's interceptors look for axios/jQuery/Vue/Turbo globals; our fetch client sends X-Socket-ID itself.
    withoutInterceptors: true,
    authEndpoint: BROADCASTING_AUTH,
    channelAuthorization: { customHandler: auth.authorize },
    userAuthentication: { endpoint: BROADCASTING_USER_AUTH, headers: {}, customHandler: auth.authenticate },
  };
}
