import { DashboardView } from '../components/dashboard-view.tsx';

/** The named dashboards of SPEC §2 (model.dashboard, publicist.dashboard, admin.dashboard, super-admin.dashboard). */
export const ModelDashboardRoute = () => <DashboardView kind="model" />;
export const PublicistDashboardRoute = () => <DashboardView kind="publicist" />;
export const AdminDashboardRoute = () => <DashboardView kind="admin" />;
export const SuperAdminDashboardRoute = () => <DashboardView kind="super_admin" />;
