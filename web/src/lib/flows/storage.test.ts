import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { FlowIdStore, memoryStore, readJson, SHARED_FLOW_TTL_MS, writeJson } from './storage.js';

describe('readJson', () => {
  it('returns what the schema accepts and removes what it does not (corrupt data)', () => {
    const store = memoryStore();
    const schema = z.object({ n: z.number() });
    writeJson(store, 'good', { n: 1 });
    store.setItem('wrong-shape', JSON.stringify({ n: 'one' }));
    store.setItem('not-json', '{oops');
    expect(readJson(store, 'good', schema)).toEqual({ n: 1 });
    expect(readJson(store, 'wrong-shape', schema)).toBeNull();
    expect(store.getItem('wrong-shape')).toBeNull();
    expect(readJson(store, 'not-json', schema)).toBeNull();
    expect(store.getItem('not-json')).toBeNull();
    expect(readJson(store, 'missing', schema)).toBeNull();
  });
});

describe('FlowIdStore', () => {
  it("prefers this tab's flow, and offers a shared one to a new tab while it is recent", () => {
    let now = 1_000_000;
    const shared = memoryStore();
    const firstTab = new FlowIdStore(memoryStore(), shared, () => now);
    const secondTab = new FlowIdStore(memoryStore(), shared, () => now);
    firstTab.set('assessment', 'flow-1');
    expect(firstTab.get('assessment')).toBe('flow-1');
    expect(secondTab.get('assessment')).toBe('flow-1');

    secondTab.set('assessment', 'flow-2', { share: false });
    expect(secondTab.get('assessment')).toBe('flow-2');
    expect(firstTab.get('assessment')).toBe('flow-1');

    now += SHARED_FLOW_TTL_MS + 1;
    const lateTab = new FlowIdStore(memoryStore(), shared, () => now);
    expect(lateTab.get('assessment')).toBeNull();
    // a reload of the first tab still resumes its own flow
    expect(firstTab.get('assessment')).toBe('flow-1');
  });

  it('unshare keeps the tab its flow; forget drops it everywhere', () => {
    const shared = memoryStore();
    const tab = new FlowIdStore(memoryStore(), shared);
    tab.set('s', 'flow-1');
    tab.unshare('s');
    expect(tab.get('s')).toBe('flow-1');
    expect(new FlowIdStore(memoryStore(), shared).get('s')).toBeNull();
    tab.set('s', 'flow-1');
    tab.forget('s');
    expect(tab.get('s')).toBeNull();
    expect(new FlowIdStore(memoryStore(), shared).get('s')).toBeNull();
  });

  it('forgetAll drops every slot under a prefix and leaves the others', () => {
    const shared = memoryStore();
    const tab = new FlowIdStore(memoryStore(), shared);
    tab.set('child:f1:diagnostic:3', 'd1');
    tab.set('child:f1:diagnostic:9', 'd2');
    tab.set('child:f2:diagnostic:3', 'd3');
    tab.forgetAll('child:f1:');
    expect(tab.get('child:f1:diagnostic:3')).toBeNull();
    expect(tab.get('child:f1:diagnostic:9')).toBeNull();
    expect(tab.get('child:f2:diagnostic:3')).toBe('d3');
  });
});
