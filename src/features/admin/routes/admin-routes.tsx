/** The staff screens, re-exported for the router's lazy `screen()` (one chunk for the admin feature). */
export { AdminModelsRoute, AdminModelsUnderRoute } from './admin-models.tsx';
export { AdminPublicistsRoute, AdminReviewPublicistsRoute } from './admin-publicists.tsx';
export { AdminClientsRoute, AdminUsersWithoutProfileRoute } from './admin-users.tsx';
export { AdminClientShowRoute } from './admin-client-show.tsx';
export { AdminReviewAdsRoute } from './admin-review-ads.tsx';
export { AdminReviewPhotosRoute } from './admin-review-photos.tsx';
export { AdminReviewVerificationsRoute } from './admin-review-verifications.tsx';
export { AdminAppealsRoute } from './admin-appeals.tsx';
export { SuperAdminAdminsRoute } from './super-admin-admins.tsx';
export { SuperAdminAuditRoute } from './super-admin-audit.tsx';
export { AdminDashboardPanel } from '../components/admin-dashboard-panel.tsx';
