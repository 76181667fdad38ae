/** The repository's root folder. */
export const ROOT: string;
/** Runs `npm ci` unless node_modules was installed from this exact lockfile. */
export function ensureInstalled(): void;
/** Builds web/ with Vite unless web/dist was built from the current sources. */
export function ensureWebBuilt(): void;
/** How a process of this project is bundled for plain Node (esbuild options; dependencies stay external). */
export const NODE_BUNDLE: import('esbuild').BuildOptions;
/** Bundles the server and the worker into dist/ unless dist/ was built from the current sources. */
export function ensureServerBuilt(): Promise<void>;
