/**
 * The publicist's workspace (issue 6), as the app shell loads it: one screen per file — the dashboard summary,
 * Profile/Publicist index, Profile/Publicist Create and edit (trader details, EU DSA art. 30), and the models' create
 * and edit screens.
 */
export { PublicistSummary } from './publicist-dashboard.tsx';
export { PublicistIndexRoute } from './publicist-index.tsx';
export { PublicistProfileCreateRoute } from './publicist-profile-create.tsx';
export { PublicistProfileEditRoute } from './publicist-profile-edit.tsx';
export { PublicistModelCreateRoute } from './publicist-model-create.tsx';
export { PublicistModelEditRoute } from './publicist-model-edit.tsx';
