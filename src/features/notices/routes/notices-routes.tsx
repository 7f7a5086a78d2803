/** The staff screens of notices and contact messages, re-exported for the router's lazy `screen()` (one chunk). */
export { ReportShowRoute, ReportsQueueRoute } from './reports-routes.tsx';
export { ContactMessagesRoute } from './messages-route.tsx';
