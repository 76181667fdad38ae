/** /admin/*: the admin area's code, one chunk loaded only when an admin page is opened. */
export { AdminLayout } from '../features/admin/layout';
export { AdminNotFoundScreen } from '../features/admin/not-found';
export { MessagesScreen } from '../features/admin/messages';
export { OverviewScreen } from '../features/admin/overview';
export { SiteSettingsScreen } from '../features/admin/site-settings';
