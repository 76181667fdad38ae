import { createBrowserRouter } from 'react-router-dom';
import { Home } from '../routes/home';

/** The home page ships in the first bundle; every other route is loaded on demand. */
export const router = createBrowserRouter([
  { path: '/', element: <Home /> },
  { path: '*', lazy: async () => ({ Component: (await import('../routes/not-found')).NotFound }) },
]);
