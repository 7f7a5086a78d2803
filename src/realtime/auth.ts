/**
 * Channel authorization (`POST /broadcasting/auth`) and user authentication (`POST /broadcasting/user-auth`, for
 * `pusher:signin`) through our fetch client, so they carry what every other write carries: the session cookie, the
 * CSRF token, `X-Requested-With` and the language. The bodies are form-encoded (`socket_id`, `channel_name`), as
 * pusher-js and Laravel send them.
 */
import type {
  ChannelAuthorizationCallback,
  ChannelAuthorizationHandler,
  UserAuthenticationCallback,
  UserAuthenticationHandler,
} from 'pusher-js';
import { apiRequest, type ApiResponse, type RequestOptions } from '#src/lib/api-client.ts';
import { BROADCASTING_AUTH, BROADCASTING_USER_AUTH } from './echo-options.ts';

export type Request = <T>(path: string, opts: RequestOptions) => Promise<ApiResponse<T>>;

interface ChannelAuthData {
  auth: string;
  channel_data?: string;
  shared_secret?: string;
}
interface UserAuthData {
  auth: string;
  user_data: string;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

export function channelAuthorizer(request: Request = apiRequest): ChannelAuthorizationHandler {
  return ({ socketId, channelName }, callback: ChannelAuthorizationCallback) => {
    const body = new URLSearchParams({ socket_id: socketId, channel_name: channelName });
    request<ChannelAuthData>(BROADCASTING_AUTH, { method: 'POST', body }).then(
      ({ data }) => {
        if (typeof data?.auth !== 'string') callback(new Error('Malformed channel authorization'), null);
        else callback(null, data);
      },
      (err: unknown) => callback(asError(err), null),
    );
  };
}

export function userAuthenticator(request: Request = apiRequest): UserAuthenticationHandler {
  return ({ socketId }, callback: UserAuthenticationCallback) => {
    const body = new URLSearchParams({ socket_id: socketId });
    request<UserAuthData>(BROADCASTING_USER_AUTH, { method: 'POST', body }).then(
      ({ data }) => {
        if (typeof data?.auth !== 'string' || typeof data.user_data !== 'string') {
          callback(new Error('Malformed user authentication'), null);
        } else callback(null, data);
      },
      (err: unknown) => callback(asError(err), null),
    );
  };
}
