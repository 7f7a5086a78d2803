/**
 * The gallery's full-screen view (issue 24 D), loaded only when first asked for (model-gallery.tsx). A full-screen
 * dialog: the focus stays inside it, Escape closes it and gives the focus back to the button that opened it,
 * ArrowLeft/ArrowRight (Home/End) move between photos, and on a touch screen a sideways swipe does too.
 */
import { ActionIcon, Modal } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useRef, type KeyboardEvent, type TouchEvent } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Image } from '#contract/listings.ts';
import classes from './gallery-viewer.module.css';

/** A sideways move at least this long (px), and longer than it is tall, is a swipe. */
const SWIPE_PX = 40;

interface Props {
  images: Image[];
  name: string;
  index: number;
  onIndex: (index: number) => void;
  opened: boolean;
  onClose: () => void;
}

export function GalleryViewer({ images, name, index, onIndex, opened, onClose }: Props) {
  const { t } = useTranslation();
  const touch = useRef<{ x: number; y: number } | null>(null);
  const total = images.length;
  const current = Math.min(Math.max(index, 0), total - 1);
  const image = images[current];
  const go = (target: number) => onIndex((target + total) % total);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (total < 2 || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves: Record<string, number> = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: total - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    // React passes a portal's events to its parents: the gallery under the dialog would move a second time.
    event.stopPropagation();
    go(target);
  };
  const onTouchStart = (event: TouchEvent) => {
    const t0 = event.touches[0];
    touch.current = event.touches.length === 1 && t0 ? { x: t0.clientX, y: t0.clientY } : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touch.current;
    const end = event.changedTouches[0];
    touch.current = null;
    if (!start || !end || total < 2) return;
    const dx = end.clientX - start.x;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(end.clientY - start.y)) go(current + (dx < 0 ? 1 : -1));
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      fullScreen
      returnFocus={false}
      title={t('model.gallery.label', { name })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
      classNames={{ content: classes.content, header: classes.header, body: classes.body }}
      transitionProps={{ duration: 0 }}
      onKeyDown={onKeyDown}
      data-testid="gallery-viewer"
    >
      <div className={classes.stage} onTouchStart={onTouchStart} onTouchEnd={onTouchEnd}>
        {image ? (
          <img
            key={image.uid}
            className={classes.photo}
            src={image.url}
            srcSet={image.srcset}
            sizes="100vw"
            alt={t('model.gallery.photoAlt', { n: current + 1, name })}
            draggable={false}
          />
        ) : null}
        {total > 1 ? (
          <>
            <ActionIcon
              className={`${classes.nav} ${classes.prev}`}
              variant="default"
              radius="xl"
              size="xl"
              aria-label={t('model.gallery.previous')}
              onClick={() => go(current - 1)}
            >
              <IconChevronLeft size={24} aria-hidden />
            </ActionIcon>
            <ActionIcon
              className={`${classes.nav} ${classes.next}`}
              variant="default"
              radius="xl"
              size="xl"
              aria-label={t('model.gallery.next')}
              onClick={() => go(current + 1)}
            >
              <IconChevronRight size={24} aria-hidden />
            </ActionIcon>
            <div className={classes.counter} aria-live="polite" aria-atomic="true" data-testid="viewer-counter">
              {t('model.gallery.counter', { current: current + 1, total })}
            </div>
          </>
        ) : null}
      </div>
    </Modal>
  );
}
