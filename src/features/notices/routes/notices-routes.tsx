/** The staff screens of notices and contact messages, re-exported for the router's lazy `screen()` (one chunk). */
export { ReportsQueueRoute } from './reports-queue.tsx';
export { ReportShowRoute } from './report-show.tsx';
export { ContactMessagesRoute } from './messages-route.tsx';
