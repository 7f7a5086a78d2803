/**
 * Roving focus for a group of choices (the radio-group pattern of the WAI-ARIA Authoring Practices): the group is one
 * Tab stop, the arrow keys move the focus inside it (wrapping), Home and End go to the ends.
 */

/** Where a key moves the focus from `current` among `count` items; null for a key the group does not handle. */
export function rovingTarget(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** The item that takes the group's single Tab stop: the focused one while the focus is inside, else the chosen one. */
export function tabStop(focused: number | null, selected: number, count: number): number {
  if (focused !== null && focused >= 0 && focused < count) return focused;
  return selected >= 0 && selected < count ? selected : 0;
}
