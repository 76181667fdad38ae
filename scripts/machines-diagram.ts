/*
 * `npm run machines:diagram` writes one Mermaid state diagram per machine into docs/machines/,
 * generated from the machine definitions themselves so the pictures cannot drift from the code;
 * scripts/machines-diagram.test.ts fails when a committed diagram is stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { assessmentFlowMachine } from '#machines/assessment-flow/assessment-flow.machine.js';
import { contactFormMachine } from '#machines/contact-form/contact-form.machine.js';
import { diagnosticMachine } from '#machines/diagnostic/diagnostic.machine.js';
import { localFallbackMachine } from '#machines/local-fallback/local-fallback.machine.js';
import { mirrorMachine } from '#machines/mirror/mirror.machine.js';
import { monitorConnectionMachine } from '#machines/monitor-connection/monitor-connection.machine.js';
import { signInMachine } from '#machines/sign-in/sign-in.machine.js';

/** Where the diagrams go, relative to the repository root. */
export const DIAGRAM_DIR = 'docs/machines';

/** Every machine with the folder (and file stem) it lives in. */
export const diagramSources: readonly { slug: string; machine: AnyStateMachine }[] = [
  { slug: 'assessment-flow', machine: assessmentFlowMachine },
  { slug: 'diagnostic', machine: diagnosticMachine },
  { slug: 'mirror', machine: mirrorMachine },
  { slug: 'contact-form', machine: contactFormMachine },
  { slug: 'sign-in', machine: signInMachine },
  { slug: 'local-fallback', machine: localFallbackMachine },
  { slug: 'monitor-connection', machine: monitorConnectionMachine },
];

/** A Mermaid id for a state node: its path below the machine, joined with underscores. */
function mermaidId(node: AnyStateNode): string {
  return node.path.join('_').replace(/[^A-Za-z0-9_]/g, '_');
}

function isTransient(node: AnyStateNode): boolean {
  return (node.always?.length ?? 0) > 0;
}

type Guard = AnyTransitionDefinition['guard'];

/** A guard in words: named guards by name, parameters by value, and/or/not spelled out. */
function guardLabel(guard: Guard): string {
  if (guard === undefined) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const combined = (guard as { guards?: Guard[] }).guards;
    if (combined) {
      const parts = combined.map(guardLabel);
      if (guard.name === 'not') return `not ${parts.join(', ')}`;
      return parts.join(` ${guard.name} `);
    }
    return guard.name || 'inline guard';
  }
  const params = guard.params === undefined ? '' : `(${Object.values(guard.params as object).join(', ')})`;
  return `${guard.type}${params}`;
}

/** The event of a transition in words: delays and invoked actors' outcomes read as such. */
function eventLabel(machine: AnyStateMachine, node: AnyStateNode, eventType: string): string {
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after?.[1]) {
    const delay: unknown = machine.implementations.delays[after[1]] ?? Number(after[1]);
    return typeof delay === 'number' ? `after ${delay} ms` : `after ${after[1]}`;
  }
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor?.[1] && actor[2]) {
    const invoked = node.invoke.find((definition) => definition.id === actor[2]);
    return `${typeof invoked?.src === 'string' ? invoked.src : actor[2]} ${actor[1]}`;
  }
  return eventType;
}

function edgeLabel(event: string, guard: Guard): string {
  const condition = guardLabel(guard);
  const text = [event, condition && `[${condition}]`].filter(Boolean).join(' ');
  // Mermaid ends a label at a semicolon or a hash; neither appears in our names, but never let one through.
  return text.replace(/[;#]/g, ' ');
}

function declareStates(node: AnyStateNode, indent: string, lines: string[]): void {
  const children = Object.values(node.states) as AnyStateNode[];
  if (children.length === 0) return;
  const initial = node.initial?.target[0];
  if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
  for (const child of children) {
    const id = mermaidId(child);
    if (child.key !== id) lines.push(`${indent}state "${child.key}" as ${id}`);
    if (isTransient(child)) lines.push(`${indent}state ${id} <<choice>>`);
    if (Object.keys(child.states).length > 0) {
      lines.push(`${indent}state ${id} {`);
      declareStates(child, `${indent}  `, lines);
      lines.push(`${indent}}`);
    }
    if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
  }
}

function collectEdges(machine: AnyStateMachine, node: AnyStateNode, lines: string[]): void {
  const source = mermaidId(node);
  for (const transition of node.always ?? []) {
    for (const target of transition.target ?? []) {
      lines.push(`  ${source} --> ${mermaidId(target)}: ${edgeLabel('always', transition.guard) || 'always'}`);
    }
  }
  for (const [eventType, transitions] of node.transitions) {
    const event = eventLabel(machine, node, eventType);
    for (const transition of transitions) {
      // A transition without a target handles the event in place: drawn as a loop.
      const targets: readonly AnyStateNode[] = transition.target ?? [node];
      for (const target of targets) {
        lines.push(`  ${source} --> ${mermaidId(target)}: ${edgeLabel(event, transition.guard)}`);
      }
    }
  }
  for (const child of Object.values(node.states) as AnyStateNode[]) collectEdges(machine, child, lines);
}

/** The machine as a Mermaid stateDiagram-v2. */
export function toMermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  declareStates(machine.root, '  ', lines);
  for (const child of Object.values(machine.root.states) as AnyStateNode[]) collectEdges(machine, child, lines);
  // Events the machine takes in any state are noted once, beside its initial state.
  const initial = mermaidId(machine.root.initial?.target[0] ?? machine.root);
  for (const [eventType, transitions] of machine.root.transitions) {
    for (const transition of transitions) {
      lines.push(`  note right of ${initial}: any state takes ${edgeLabel(eventType, transition.guard)}`);
    }
  }
  return lines.join('\n');
}

/**
 * What must be supplied with .provide(): the named side-effect actions (assign and enqueue
 * helpers are the machine's own), the invoked actors and the delays, by name.
 */
export function namedImplementations(machine: AnyStateMachine): {
  actions: string[];
  actors: string[];
  delays: string[];
} {
  const effects = Object.entries(machine.implementations.actions)
    .filter(([, action]) => typeof action === 'function' && !('resolve' in action))
    .map(([name]) => name);
  return {
    actions: effects,
    actors: Object.keys(machine.implementations.actors),
    delays: Object.keys(machine.implementations.delays),
  };
}

/** The Markdown file for one machine. */
export function renderDiagram(slug: string, machine: AnyStateMachine): string {
  const { actions, actors, delays } = namedImplementations(machine);
  const list = (names: string[]) => (names.length ? names.map((name) => `\`${name}\``).join(', ') : 'none');
  return [
    `# ${machine.id}`,
    '',
    `Generated from \`machines/${slug}/${slug}.machine.ts\` by \`npm run machines:diagram\`; do not edit by hand.`,
    '',
    '```mermaid',
    toMermaid(machine),
    '```',
    '',
    `- Effect actions to provide: ${list(actions)}`,
    `- Actors to provide: ${list(actors)}`,
    `- Named delays: ${list(delays)}`,
    '',
  ].join('\n');
}

/** Every diagram file, by path relative to the repository root. */
export function renderDiagrams(): Map<string, string> {
  return new Map(diagramSources.map(({ slug, machine }) => [join(DIAGRAM_DIR, `${slug}.md`), renderDiagram(slug, machine)]));
}

/** The repository root, found from this file's own location. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(join(repoRoot, DIAGRAM_DIR), { recursive: true });
  for (const [path, content] of renderDiagrams()) {
    writeFileSync(join(repoRoot, path), content);
    process.stdout.write(`wrote ${path}\n`);
  }
}
