/** /admin/*: the admin area's code, one chunk loaded only when an admin page is opened. */
export { AdminLayout } from '../features/admin/layout';
export { ComingSoonScreen } from '../features/admin/coming-soon';
export { MessagesScreen } from '../features/admin/messages';
export { OverviewScreen } from '../features/admin/overview';
