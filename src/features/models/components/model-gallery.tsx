/**
 * The photos of an ad. Phones swipe natively (a horizontal scroll-snap strip, one photo per screen width);
 * desktops use the prev/next buttons, the thumbnails, or ArrowLeft/ArrowRight (Home/End) once the gallery has
 * focus. The first photo is the LCP element: eager and high priority; the others load lazily.
 */
import { ActionIcon, Skeleton, Text } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { IconArrowsMaximize, IconChevronLeft, IconChevronRight, IconPhotoOff } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import type { Image } from '#contract/listings.ts';
import classes from './model-gallery.module.css';

// The full-screen view (Modal and its focus trap) is not in the model page's first load: it is asked for when the
// pointer or the focus comes near its button, or on the first click.
const loadViewer = () => import('./gallery-viewer.tsx');
const GalleryViewer = lazy(async () => ({ default: (await loadViewer()).GalleryViewer }));

/** The strip is the full column on phones and about 55% of the page from `md` (see model-show.module.css). */
const SIZES_SLIDE = '(min-width: 75em) 688px, (min-width: 48em) 55vw, 100vw';
const SIZES_THUMB = '64px';
/** Scroll events stop arriving this long after a swipe or a smooth scroll has settled. */
const SCROLL_SETTLE_MS = 120;

export function ModelGallery({ images, name }: { images: Image[]; name: string }) {
  const { t } = useTranslation();
  const reduceMotion = useReducedMotion();
  const stripRef = useRef<HTMLDivElement>(null);
  const thumbsRef = useRef<HTMLDivElement>(null);
  const settleTimer = useRef<number | undefined>(undefined);
  const [index, setIndex] = useState(0);
  const [viewer, setViewer] = useState<'never' | 'open' | 'closed'>('never');
  const fullScreenRef = useRef<HTMLButtonElement>(null);
  const total = images.length;
  const current = Math.min(index, Math.max(total - 1, 0));

  useEffect(() => () => window.clearTimeout(settleTimer.current), []);

  // Keep the active thumbnail visible, scrolling the thumbnail row only (never the page).
  useEffect(() => {
    const row = thumbsRef.current;
    const thumb = row?.children[current] as HTMLElement | undefined;
    if (!row || !thumb) return;
    const left = thumb.offsetLeft - 8;
    const right = thumb.offsetLeft + thumb.offsetWidth + 8 - row.clientWidth;
    if (left < row.scrollLeft) row.scrollTo({ left, behavior: reduceMotion ? 'auto' : 'smooth' });
    else if (right > row.scrollLeft) row.scrollTo({ left: right, behavior: reduceMotion ? 'auto' : 'smooth' });
  }, [current, reduceMotion]);

  if (total === 0) {
    return (
      <div className={classes.gallery}>
        <div className={classes.strip}>
          <div className={classes.placeholder}>
            <IconPhotoOff size={40} aria-hidden />
            <Text size="sm">{t('model.gallery.noPhotos')}</Text>
          </div>
        </div>
      </div>
    );
  }

  const goTo = (target: number) => {
    const strip = stripRef.current;
    if (!strip) return;
    // Wrap around at both ends, so a focused button never becomes disabled under the keyboard.
    const next = (target + total) % total;
    setIndex(next);
    // Scroll the strip only: scrollIntoView would also move the page vertically when the photo is half visible.
    strip.scrollTo({ left: next * strip.clientWidth, behavior: reduceMotion ? 'auto' : 'smooth' });
  };

  // Follow swipes and smooth scrolls once they settle, so the counter does not announce every photo passed.
  const onScroll = () => {
    window.clearTimeout(settleTimer.current);
    settleTimer.current = window.setTimeout(() => {
      const strip = stripRef.current;
      if (strip && strip.clientWidth > 0) setIndex(Math.round(strip.scrollLeft / strip.clientWidth));
    }, SCROLL_SETTLE_MS);
  };

  // The viewer's moves follow in the strip, so closing it shows the photo it was on.
  const fromViewer = (target: number) => {
    const strip = stripRef.current;
    setIndex(target);
    strip?.scrollTo({ left: target * strip.clientWidth, behavior: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (total < 2 || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves: Record<string, number> = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: total - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    goTo(target);
  };

  return (
    <section
      className={classes.gallery}
      role="region"
      aria-roledescription={t('model.gallery.roleDescription')}
      aria-label={t('model.gallery.label', { name })}
      onKeyDown={onKeyDown}
      data-testid="model-gallery"
    >
      <div className={classes.viewport}>
        {/* The scroller is the single tab stop: keyboard users can scroll it, and arrow keys bubble to the region. */}
        <div ref={stripRef} className={classes.strip} onScroll={onScroll} tabIndex={0} aria-label={t('model.gallery.label', { name })}>
          {images.map((image, i) => (
            <div
              key={image.uid}
              className={classes.slide}
              role="group"
              aria-roledescription={t('model.gallery.slideRoleDescription')}
              aria-label={t('model.gallery.counter', { current: i + 1, total })}
            >
              <img
                src={image.url}
                srcSet={image.srcset}
                sizes={SIZES_SLIDE}
                width={image.width || undefined}
                height={image.height || undefined}
                alt={t('model.gallery.photoAlt', { n: i + 1, name })}
                loading={i === 0 ? 'eager' : 'lazy'}
                fetchPriority={i === 0 ? 'high' : 'auto'}
                decoding={i === 0 ? 'auto' : 'async'}
                draggable={false}
                onClick={() => setViewer('open')}
              />
            </div>
          ))}
        </div>
        <ActionIcon
          ref={fullScreenRef}
          className={classes.fullScreen}
          variant="default"
          radius="xl"
          size="lg"
          aria-label={t('model.gallery.fullScreen')}
          aria-haspopup="dialog"
          onClick={() => setViewer('open')}
          onPointerEnter={() => void loadViewer()}
          onFocus={() => void loadViewer()}
          data-testid="gallery-full-screen"
        >
          <IconArrowsMaximize size={18} aria-hidden />
        </ActionIcon>
        {total > 1 ? (
          <>
            <ActionIcon
              className={`${classes.nav} ${classes.prev}`}
              variant="default"
              radius="xl"
              size="lg"
              aria-label={t('model.gallery.previous')}
              onClick={() => goTo(current - 1)}
            >
              <IconChevronLeft size={20} aria-hidden />
            </ActionIcon>
            <ActionIcon
              className={`${classes.nav} ${classes.next}`}
              variant="default"
              radius="xl"
              size="lg"
              aria-label={t('model.gallery.next')}
              onClick={() => goTo(current + 1)}
            >
              <IconChevronRight size={20} aria-hidden />
            </ActionIcon>
          </>
        ) : null}
        {total > 1 ? (
          <div className={classes.counter} aria-live="polite" aria-atomic="true" data-testid="gallery-counter">
            {t('model.gallery.counter', { current: current + 1, total })}
          </div>
        ) : null}
      </div>

      {total > 1 ? (
        <div ref={thumbsRef} className={classes.thumbs}>
          {images.map((image, i) => (
            <button
              key={image.uid}
              type="button"
              className={classes.thumb}
              aria-current={i === current ? 'true' : undefined}
              onClick={() => goTo(i)}
            >
              {/* The image's alt is the button's name: "Foto 3 de Lucía". */}
              <img
                src={image.url}
                srcSet={image.srcset}
                sizes={SIZES_THUMB}
                width={image.width || undefined}
                height={image.height || undefined}
                alt={t('model.gallery.photoAlt', { n: i + 1, name })}
                loading="lazy"
                decoding="async"
                draggable={false}
              />
            </button>
          ))}
        </div>
      ) : null}
      {viewer !== 'never' ? (
        <Suspense fallback={null}>
          <GalleryViewer
            images={images}
            name={name}
            index={current}
            onIndex={fromViewer}
            opened={viewer === 'open'}
            onClose={() => {
              setViewer('closed');
              // Mantine gives the focus back only to what had it when the dialog opened, and this dialog's code
              // arrived after that: the button is where the viewer belongs (also when a click on the photo opened it).
              requestAnimationFrame(() => fullScreenRef.current?.focus());
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

export function ModelGallerySkeleton() {
  return (
    <div aria-hidden>
      <Skeleton h="auto" style={{ aspectRatio: '4 / 5' }} />
      <div className={classes.thumbs}>
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className={classes.thumb} h="auto" style={{ opacity: 1 }} />
        ))}
      </div>
    </div>
  );
}
