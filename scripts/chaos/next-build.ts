import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { flowMachineVersions } from '#machines/flow-versions.js';
import { NODE_BUNDLE, ROOT } from '../lib/ensure.mjs';

/** Where the next build goes: beside dist/, so its bundles find web/dist and node_modules as dist/'s do. */
const OUT_DIR = 'dist-next';

/**
 * The build a rolling deploy of the fault run moves to: this build's server and worker, with the
 * assessment flow's machine version one higher and an identity snapshot migration from the current
 * one, declared reversible (its down migration the identity too), as a real version bump
 * (docs/changing-a-machine.md) declares. Made by bundling the same
 * sources with machines/flow-versions.ts extended at load time, so no production code knows of it
 * (decision 0054). The deploy exercises what a bump does to a running system: new processes write
 * flows at the old version while an old one lives, move them up once the last has gone (decision
 * 0057), and flows begun before it finish after it.
 */
export async function buildNextVersion(): Promise<{ server: string; worker: string; version: number }> {
  const version = flowMachineVersions.assessmentFlow.current + 1;
  const source = path.join(ROOT, 'machines', 'flow-versions.ts');
  const { build } = await import('esbuild');
  rmSync(path.join(ROOT, OUT_DIR), { recursive: true, force: true });
  await build({
    ...NODE_BUNDLE,
    entryPoints: { 'server/main': 'server/main.ts', 'workers/main': 'workers/main.ts' },
    outdir: OUT_DIR,
    plugins: [
      {
        name: 'next-machine-version',
        setup(builder) {
          builder.onLoad({ filter: /machines[\\/]flow-versions\.ts$/ }, (args) => {
            if (path.resolve(args.path) !== source) return undefined;
            const bump = `
const nextAssessmentFlow = flowMachineVersions.assessmentFlow as { current: number; migrations: Record<number, unknown>; downMigrations?: Record<number, unknown> };
nextAssessmentFlow.migrations = { ...nextAssessmentFlow.migrations, [${version - 1}]: (snapshot: StoredSnapshot) => snapshot };
nextAssessmentFlow.downMigrations = { ...nextAssessmentFlow.downMigrations, [${version - 1}]: (snapshot: StoredSnapshot) => snapshot };
nextAssessmentFlow.current = ${version};
`;
            return { contents: readFileSync(source, 'utf8') + bump, loader: 'ts' };
          });
        },
      },
    ],
  });
  cpSync(path.join(ROOT, 'core', 'db', 'migrations'), path.join(ROOT, OUT_DIR, 'server', 'migrations'), { recursive: true });
  return { server: `${OUT_DIR}/server/main.mjs`, worker: `${OUT_DIR}/workers/main.mjs`, version };
}
