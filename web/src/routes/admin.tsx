/** /admin/*: the admin area's code, one chunk loaded only when an admin page is opened. */
export { AdminLayout } from '../features/admin/layout.js';
export { GradingScreen } from '../features/admin/grading/grading.js';
export { AdminNotFoundScreen } from '../features/admin/not-found.js';
export { MessagesScreen } from '../features/admin/messages/messages.js';
export { OverviewScreen } from '../features/admin/overview/overview.js';
export { SiteSettingsScreen } from '../features/admin/settings/site-settings.js';
