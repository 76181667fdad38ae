/*
 * `npm run machines:corpus` writes the stored-snapshot corpus: for every flow machine, one persisted
 * snapshot of every state its model-based walk reaches (machines/snapshot-corpus/paths.ts), into
 * machines/snapshot-corpus/<machine>.v<version>.json for the version this build runs. Files of older
 * versions are left as they are: they are the snapshots those versions stored, which the corpus test
 * moves up through the migrations. machines/snapshot-corpus/snapshot-corpus.test.ts fails when the
 * current version's file is not what this writes (docs/changing-a-machine.md).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { AnyStateMachine } from 'xstate';
import { flowMachineVersions } from '#machines/flow-versions.js';
import { flowMachines } from '#machines/index.js';
import type { FlowMachineName } from '#machines/protocol/api.js';
import { buildCorpus, corpusFileName, type CorpusEntry } from '#machines/snapshot-corpus/paths.js';

const corpusDir = fileURLToPath(new URL('../machines/snapshot-corpus/', import.meta.url));

/**
 * The paths of the stored fixtures of this version that the machine can no longer restore. Such a
 * change needs a new version and a migration, so the file must stay as the old version's fixture
 * instead of being overwritten with the new machine's states.
 */
function unrestorable(machine: AnyStateMachine, entries: CorpusEntry[]): string[] {
  return entries.flatMap((entry) => {
    try {
      machine.resolveState(entry.snapshot as never);
      return [];
    } catch (error) {
      return [`${entry.path} (${error instanceof Error ? error.message : String(error)})`];
    }
  });
}

let refused = false;
for (const name of Object.keys(flowMachineVersions) as FlowMachineName[]) {
  const file = join(corpusDir, corpusFileName(name));
  const machine = flowMachines[name] as AnyStateMachine;
  if (existsSync(file)) {
    const broken = unrestorable(machine, JSON.parse(readFileSync(file, 'utf8')) as CorpusEntry[]);
    if (broken.length > 0) {
      process.stderr.write(
        `${file} holds ${broken.length} snapshot(s) the ${name} machine can no longer restore, e.g. ${broken[0]}.\n` +
          `  Bump its version in machines/flow-versions.ts with a migration (docs/changing-a-machine.md), then run this again: ` +
          `the file stays as the old version's fixture.\n`,
      );
      refused = true;
      continue;
    }
  }
  const entries = buildCorpus(name);
  // formatted as `prettier --check .` wants it, so a regenerated file is committed as it is
  const text = await format(JSON.stringify(entries), { ...(await resolveConfig(file)), filepath: file });
  writeFileSync(file, text);
  process.stdout.write(`${file}: ${entries.length} snapshots, ${Math.round(Buffer.byteLength(text) / 1024)} KB\n`);
}
if (refused) process.exit(1);
