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
export { AdminReviewAdsRoute } from './admin-review-ads.tsx';
export { AdminReviewPhotosRoute } from './admin-review-photos.tsx';
export { AdminReviewVerificationsRoute } from './admin-review-verifications.tsx';
export { AdminAppealsRoute } from './admin-appeals.tsx';
export { SuperAdminAdminsRoute, SuperAdminAuditRoute } from './super-admin.tsx';
export { AdminDashboardPanel } from '../components/admin-dashboard-panel.tsx';
