import classes from './admin-badge.module.css';

/** `classNames` for a badge that wraps onto a second line on a narrow screen instead of ending in an ellipsis. */
export const WRAPPING_BADGE = { root: classes.root, label: classes.label };
