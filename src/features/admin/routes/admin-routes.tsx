/** The staff screens, re-exported for the router's lazy `screen()` (one chunk for the admin feature). */
export {
  AdminClientShowRoute,
  AdminClientsRoute,
  AdminModelsRoute,
  AdminModelsUnderRoute,
  AdminPublicistsRoute,
  AdminReviewPublicistsRoute,
  AdminUsersWithoutProfileRoute,
} from './admin-lists.tsx';
export { AdminAppealsRoute, AdminReviewAdsRoute, AdminReviewPhotosRoute, AdminReviewVerificationsRoute } from './admin-review.tsx';
export { SuperAdminAdminsRoute, SuperAdminAuditRoute } from './super-admin.tsx';
export { AdminDashboardPanel } from '../components/admin-dashboard-panel.tsx';
