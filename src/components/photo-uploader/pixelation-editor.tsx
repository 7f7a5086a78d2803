/**
 * The photo as it will be sent — pixelated areas included — with each area drawn over it, so the user can add,
 * move, resize or remove areas before anything leaves the device.
 *
 * Pointer: drag an area to move it, drag a corner to resize it, × removes it; with a mouse or pen, drag on the photo
 * to draw a new area; a tap or click on the photo adds a square area there (on touch screens a drag scrolls the page
 * as usual). Keyboard: every area is focusable; arrows move it, Shift+arrows resize it (Alt for bigger steps),
 * Delete or Backspace removes it; "Add area" adds one in the middle. Changes made with the keyboard are announced.
 */
import { Button, CloseButton, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { boxAround, boxForKey, boxFromDrag, moveBox, resizeBox, type Box, type Corner, type Point } from './box-geometry.ts';
import { pixelateAreas } from './pixelate.ts';
import type { PreparedPhoto } from './prepare-photo.ts';
import classes from './pixelation-editor.module.css';

const CORNERS: readonly Corner[] = ['nw', 'ne', 'sw', 'se'];
/** A touch that travels less than this (CSS px) is a tap, not a scroll. */
const TAP_SLOP = 10;

type Drag =
  | { kind: 'move' | 'resize'; index: number; corner: Corner; start: Point; box: Box; pointerId: number }
  | { kind: 'draw'; start: Point; pointerId: number }
  | { kind: 'tap'; start: Point; client: Point; pointerId: number };

export interface PixelationEditorProps {
  photo: Pick<PreparedPhoto, 'preview' | 'width' | 'height' | 'previewScale'>;
  areas: readonly Box[];
  onChange: (areas: Box[]) => void;
  /** The photo's file name, for the accessible labels. */
  name: string;
  disabled?: boolean;
}

const pct = (value: number, total: number) => `${(value / total) * 100}%`;

export function PixelationEditor({ photo, areas, onChange, name, disabled = false }: PixelationEditorProps) {
  const { t } = useTranslation();
  const helpId = useId();
  const stageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const boxRefs = useRef<(HTMLDivElement | null)[]>([]);
  const drag = useRef<Drag | undefined>(undefined);
  const [draft, setDraft] = useState<Box | undefined>(undefined);
  const [announcement, setAnnouncement] = useState('');
  const [focusIndex, setFocusIndex] = useState<number | undefined>(undefined);
  const bounds = { width: photo.width, height: photo.height };

  // Draw the preview with the areas pixelated exactly as the file sent will be (same grid, at preview scale).
  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d', { willReadFrequently: true });
    if (!canvas || !ctx) return;
    ctx.drawImage(photo.preview, 0, 0, canvas.width, canvas.height);
    pixelateAreas(ctx, areas, canvas, photo.previewScale);
  }, [photo, areas]);

  // Move the focus once the area it should go to exists (after adding) or is gone (after removing).
  useEffect(() => {
    if (focusIndex === undefined) return;
    const target = focusIndex >= 0 ? boxRefs.current[focusIndex] : addRef.current;
    (target ?? addRef.current)?.focus();
    setFocusIndex(undefined);
  }, [focusIndex, areas.length]);

  /** Photo pixels per CSS pixel of the stage as shown now. */
  const scale = () => photo.width / (stageRef.current?.getBoundingClientRect().width || photo.width);
  const toPhoto = (e: PointerEvent): Point => {
    const rect = stageRef.current!.getBoundingClientRect();
    const s = photo.width / rect.width;
    return { x: (e.clientX - rect.left) * s, y: (e.clientY - rect.top) * s };
  };

  const describe = (box: Box) => ({
    x: Math.round((box.x / photo.width) * 100),
    y: Math.round((box.y / photo.height) * 100),
    w: Math.round((box.w / photo.width) * 100),
    h: Math.round((box.h / photo.height) * 100),
  });

  const add = (box: Box) => {
    onChange([...areas, box]);
    setFocusIndex(areas.length);
    setAnnouncement(t('photos.editor.added', { n: areas.length + 1 }));
  };
  const removeAt = (index: number) => {
    onChange(areas.filter((_, i) => i !== index));
    // Next area if there is one, else the previous, else the add button.
    setFocusIndex(areas.length === 1 ? -1 : Math.min(index, areas.length - 2));
    setAnnouncement(t('photos.editor.removed', { n: index + 1 }));
  };

  const startBoxDrag = (e: PointerEvent<HTMLElement>, index: number, kind: 'move' | 'resize', corner: Corner = 'se') => {
    if (disabled || e.button !== 0) return;
    e.stopPropagation();
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { kind, index, corner, start: { x: e.clientX, y: e.clientY }, box: areas[index]!, pointerId: e.pointerId };
  };
  const onBoxPointerMove = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId || (d.kind !== 'move' && d.kind !== 'resize')) return;
    const s = scale();
    const dx = (e.clientX - d.start.x) * s;
    const dy = (e.clientY - d.start.y) * s;
    const next = d.kind === 'move' ? moveBox(d.box, dx, dy, bounds) : resizeBox(d.box, d.corner, dx, dy, bounds);
    onChange(areas.map((a, i) => (i === d.index ? next : a)));
  };
  const endDrag = (e: PointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId === e.pointerId) drag.current = undefined;
  };

  const onStagePointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (disabled || e.button !== 0) return;
    const start = toPhoto(e);
    if (e.pointerType === 'touch') {
      // No capture: if the finger moves, the browser scrolls and sends pointercancel.
      drag.current = { kind: 'tap', start, client: { x: e.clientX, y: e.clientY }, pointerId: e.pointerId };
      return;
    }
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { kind: 'draw', start, pointerId: e.pointerId };
  };
  const onStagePointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d?.kind !== 'draw' || d.pointerId !== e.pointerId) return;
    setDraft(boxFromDrag(d.start, toPhoto(e), bounds));
  };
  const onStagePointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    drag.current = undefined;
    if (d.kind === 'draw') {
      setDraft(undefined);
      add(boxFromDrag(d.start, toPhoto(e), bounds) ?? boxAround(d.start, bounds));
    } else if (d.kind === 'tap') {
      if (Math.hypot(e.clientX - d.client.x, e.clientY - d.client.y) <= TAP_SLOP) add(boxAround(d.start, bounds));
    }
  };
  const onStagePointerCancel = () => {
    drag.current = undefined;
    setDraft(undefined);
  };

  const onBoxKeyDown = (e: KeyboardEvent<HTMLDivElement>, index: number) => {
    if (disabled || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      removeAt(index);
      return;
    }
    const next = boxForKey(areas[index]!, e.key, bounds, { resize: e.shiftKey, large: e.altKey });
    if (!next) return;
    e.preventDefault();
    onChange(areas.map((a, i) => (i === index ? next : a)));
    setAnnouncement(t(e.shiftKey ? 'photos.editor.resized' : 'photos.editor.moved', { n: index + 1, ...describe(next) }));
  };

  return (
    <div className={classes.editor}>
      <div
        ref={stageRef}
        className={classes.stage}
        data-disabled={disabled || undefined}
        style={{ aspectRatio: `${photo.width} / ${photo.height}`, width: `min(100%, calc(70vh * ${photo.width / photo.height}))` }}
        onPointerDown={onStagePointerDown}
        onPointerMove={onStagePointerMove}
        onPointerUp={onStagePointerUp}
        onPointerCancel={onStagePointerCancel}
      >
        <canvas
          ref={canvasRef}
          className={classes.canvas}
          width={photo.preview.width}
          height={photo.preview.height}
          role="img"
          aria-label={t('photos.editor.previewAlt', { name, count: areas.length })}
        />
        {areas.map((area, index) => (
          <div
            key={index}
            className={classes.area}
            style={{
              left: pct(area.x, photo.width),
              top: pct(area.y, photo.height),
              width: pct(area.w, photo.width),
              height: pct(area.h, photo.height),
            }}
          >
            <div
              ref={(el) => {
                boxRefs.current[index] = el;
              }}
              className={classes.body}
              role="button"
              tabIndex={disabled ? -1 : 0}
              aria-roledescription={t('photos.editor.areaRole')}
              aria-label={t('photos.editor.areaLabel', { n: index + 1, total: areas.length, ...describe(area) })}
              aria-describedby={helpId}
              aria-disabled={disabled || undefined}
              data-testid="pixelation-area"
              onPointerDown={(e) => startBoxDrag(e, index, 'move')}
              onPointerMove={onBoxPointerMove}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              onKeyDown={(e) => onBoxKeyDown(e, index)}
            >
              <span className={classes.label} aria-hidden>
                {index + 1}
              </span>
            </div>
            {!disabled &&
              CORNERS.map((corner) => (
                <span
                  key={corner}
                  className={classes.handle}
                  data-corner={corner}
                  aria-hidden
                  onPointerDown={(e) => startBoxDrag(e, index, 'resize', corner)}
                  onPointerMove={onBoxPointerMove}
                  onPointerUp={endDrag}
                  onPointerCancel={endDrag}
                />
              ))}
            {!disabled && (
              <CloseButton
                className={classes.remove}
                size="sm"
                radius="xl"
                aria-label={t('photos.editor.remove', { n: index + 1 })}
                onPointerDown={(e) => e.stopPropagation()}
                onClick={() => removeAt(index)}
              />
            )}
          </div>
        ))}
        {draft && (
          <div
            className={classes.draft}
            aria-hidden
            style={{
              left: pct(draft.x, photo.width),
              top: pct(draft.y, photo.height),
              width: pct(draft.w, photo.width),
              height: pct(draft.h, photo.height),
            }}
          />
        )}
      </div>
      <Group justify="space-between" gap="xs" mt="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('photos.editor.count', { count: areas.length })}
        </Text>
        <Button
          ref={addRef}
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} aria-hidden />}
          disabled={disabled}
          onClick={() => add(boxAround({ x: photo.width / 2, y: photo.height / 2 }, bounds))}
        >
          {t('photos.editor.add')}
        </Button>
      </Group>
      <VisuallyHidden id={helpId}>{t('photos.editor.help')}</VisuallyHidden>
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
    </div>
  );
}
