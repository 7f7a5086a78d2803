/**
 * The names of the cookies the server sets, in a file of their own: the session plugin and the CSRF guard both need
 * them, and each importing the other for a name made the one runtime import cycle of the server (issue 26).
 */
/** The HttpOnly session cookie (its value is the session id; only its hash is stored). */
export const SESSION_COOKIE = 'vitrina_session';
/** Laravel Sanctum's readable cookie that the client echoes in `X-XSRF-TOKEN`. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
