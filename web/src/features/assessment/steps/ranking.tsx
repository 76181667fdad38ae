import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useId } from 'react';
import { Button, cx } from '#web/components/ui/index.js';
import type { Ranking } from '#machines/content/diagnostic-bank.js';
import { ScreenHeading } from './screen-heading.js';

/**
 * The priority ranking: starts in the bank's default order, reordered by drag
 * and drop or by keyboard (focus an item, Space to pick it up, arrow keys to move, Space to drop),
 * both through @dnd-kit's sortable; each new order is sent as REORDER_RANKING. Confirm is enabled
 * only when every item is placed.
 */
export function RankingList({
  ranking,
  order,
  onReorder,
  onConfirm,
}: {
  ranking: Ranking;
  order: string[];
  onReorder: (order: string[]) => void;
  onConfirm: () => void;
}) {
  const labelOf = (id: UniqueIdentifier) => ranking.items.find((item) => item.id === id)?.label ?? String(id);
  const positionOf = (id: UniqueIdentifier) => order.indexOf(String(id)) + 1;
  const instructionsId = useId();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${labelOf(active.id)}, in position ${positionOf(active.id)} of ${order.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `${labelOf(active.id)} is over position ${positionOf(over.id)} of ${order.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over ? `${labelOf(active.id)} dropped in position ${positionOf(over.id)} of ${order.length}.` : `${labelOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Moving ${labelOf(active.id)} was cancelled.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onReorder(arrayMove(order, order.indexOf(String(active.id)), order.indexOf(String(over.id))));
  };
  const allPlaced = order.length === ranking.items.length;

  return (
    <div className="flex flex-col gap-5">
      <ScreenHeading className="text-2xl text-balance">{ranking.prompt}</ScreenHeading>
      <p id={instructionsId} className="text-sm leading-relaxed text-muted">
        Drag the items into order, first priority at the top. With a keyboard: focus an item, press Space to pick it up, move it with the
        arrow keys and press Space again to drop it.
      </p>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable: 'Press Space to pick up this priority, the arrow keys to move it, and Space again to drop it.',
          },
        }}
      >
        <SortableContext items={order} strategy={verticalListSortingStrategy}>
          <ol className="flex flex-col gap-2.5" aria-describedby={instructionsId}>
            {order.map((id, index) => (
              <SortableItem key={id} id={id} rank={index + 1} label={labelOf(id)} />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <div>
        <Button size="lg" onClick={onConfirm} disabled={!allPlaced}>
          Confirm Ranking
        </Button>
      </div>
    </div>
  );
}

function SortableItem({ id, rank, label }: { id: string; rank: number; label: string }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cx('relative list-none', isDragging && 'z-10')}
      data-ranking-item={id}
    >
      <div
        {...attributes}
        {...listeners}
        className={cx(
          'flex cursor-grab touch-none items-center gap-4 rounded-2xl border bg-white px-4 py-3.5 select-none active:cursor-grabbing',
          isDragging ? 'border-ink shadow-lift' : 'border-line shadow-soft hover:border-ink/40',
        )}
      >
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-ink text-sm font-semibold text-brass tabular-nums">
          <span className="sr-only">Priority </span>
          {rank}
          <span className="sr-only">:</span>
        </span>
        <span className="flex-1 text-[0.95rem] leading-snug text-ink">{label}</span>
        <svg viewBox="0 0 20 20" className="size-5 shrink-0 text-muted" fill="currentColor" aria-hidden="true">
          <circle cx="7" cy="5" r="1.5" />
          <circle cx="13" cy="5" r="1.5" />
          <circle cx="7" cy="10" r="1.5" />
          <circle cx="13" cy="10" r="1.5" />
          <circle cx="7" cy="15" r="1.5" />
          <circle cx="13" cy="15" r="1.5" />
        </svg>
      </div>
    </li>
  );
}
