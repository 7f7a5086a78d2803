/**
 * The photo uploader (issue 5 "Photos"): pick photos (file picker, drag and drop, camera on phones); each one is
 * compressed on the device, its faces are found and pixelated, the user checks and corrects the areas, and only
 * then is the pixelated JPEG sent — one request per photo, each with its own progress bar and outcome.
 *
 * Two uses:
 *   <PhotoUploader adId={ad.id} onUploaded={…} />          — a screen with an "Upload" button;
 *   const queue = usePhotoQueue();                          — a multi-step form: prepare now, send later
 *   <PhotoUploader mode="prepare" queue={queue} />            (the queue keeps the photos between steps)
 *   …once the ad exists: const result = await queue.upload(ad.id);
 *
 * Everything heavy is loaded only by the uploader: the compression library when a photo is added, the face detector
 * and its weights (in the photo worker) once the uploader has opened and the page is idle.
 */
import { Alert, Button, CloseButton, Group, List, SimpleGrid, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { useMediaQuery } from '@mantine/hooks';
import { IconCamera, IconPhotoPlus, IconUpload } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from '#src/lib/i18n-react.tsx';
import { AD_MAX_PHOTOS, ACCEPTED_IMAGE_TYPES } from '#contract/media.ts';
import { usePresenter } from '#src/lib/presenter.tsx';
import { DEFAULT_PLACEMENT } from '#src/lib/response-handler.ts';
import { ACCEPT_ATTRIBUTE } from './file-checks.ts';
import type { PhotoQueue, PhotoQueueOptions, UploadBatchResult } from './photo-queue.ts';
import { PhotoCard } from './photo-card.tsx';
import { usePhotoQueue, usePhotoQueueState } from './use-photo-queue.ts';

export type { ParkedPhoto, PhotoQueue, UploadBatchResult } from './photo-queue.ts';
export { usePhotoQueue } from './use-photo-queue.ts';

export interface PhotoUploaderProps {
  /** The ad the photos are for. Needed to upload; not needed to prepare. */
  adId?: number;
  /**
   * 'upload' (default): an "Upload" button sends the prepared photos to `adId`.
   * 'prepare': no button — the owner of `queue` calls `queue.upload(adId)` when the ad exists.
   */
  mode?: 'upload' | 'prepare';
  /** The state, when the caller must keep it (from usePhotoQueue()); otherwise the uploader keeps its own. */
  queue?: PhotoQueue;
  /** Photos the ad already has: they count against its limit (AD_MAX_PHOTOS). */
  existingCount?: number;
  /** After each upload made with the "Upload" button, with the accepted and refused files. (`queue.upload` resolves with the same.) */
  onUploaded?: (result: UploadBatchResult) => void;
  /**
   * Where a photo goes when there is no network (the outbox): stored as the pixelated JPEG with a thumbnail, to be
   * sent later. Without it, such a photo stays here as failed, as before.
   */
  park?: PhotoQueueOptions['park'];
}

/** react-dropzone's `accept` map: each accepted type with the extensions it may come as. */
const DROPZONE_ACCEPT: Record<string, string[]> = Object.fromEntries(
  ACCEPTED_IMAGE_TYPES.map((type) => [type, ACCEPT_ATTRIBUTE.split(',').filter((a) => a.startsWith('.'))]),
);

/**
 * Whoever opens the uploader is about to add photos: the face model is loaded in the photo worker once the page is
 * idle, so the first photo does not wait for it, and its files pass through the service worker, which keeps them
 * (sw/runtime-cache.ts): from then on faces are found without a network too. Visitors who never publish never
 * download it. A failure (offline before it was ever kept) only means the search is tried again with the photo.
 */
function warmFaceSearchSoon() {
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return;
  const warm = () =>
    void controlled()
      .then(() => import('./prepare-photo.ts'))
      .then((work) => work.warmFaceModel())
      .catch(() => undefined);
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(warm, { timeout: 3000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(warm, 1000);
  return () => clearTimeout(timer);
}

/**
 * Resolves once the service worker controls the page (at once where there is none): on a first visit it is still
 * installing, and what the photo worker fetched before it took over would not be kept for offline use.
 */
async function controlled(): Promise<void> {
  const sw = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!sw || sw.controller || !(await sw.getRegistration())) return;
  await new Promise<void>((resolve) => {
    sw.addEventListener('controllerchange', () => resolve(), { once: true });
    setTimeout(resolve, 10_000);
  });
}

export function PhotoUploader({ adId, mode = 'upload', queue: external, existingCount = 0, onUploaded, park }: PhotoUploaderProps) {
  const { t } = useTranslation();
  const ui = usePresenter();
  const own = usePhotoQueue();
  const queue = external ?? own;
  useEffect(() => {
    if (!park) return;
    queue.setPark(park);
    return () => queue.setPark(undefined);
  }, [queue, park]);
  useEffect(warmFaceSearchSoon, []);
  const { items, rejected, uploading } = usePhotoQueueState(queue);
  const coarse = useMediaQuery('(pointer: coarse)');
  const statusRef = useRef<HTMLDivElement>(null);

  const sendable = queue.sendable.length;
  const busy = queue.busy;
  const room = Math.max(0, AD_MAX_PHOTOS - existingCount - items.filter((i) => i.stage !== 'refused').length);

  const openRef = useRef<() => void>(null);
  const disabled = uploading || room === 0;

  const add = (files: File[]) => {
    if (files.length) queue.add(files, existingCount);
  };

  const upload = async () => {
    if (adId === undefined) return;
    const result = await queue.upload(adId);
    if (result.media.length) {
      const problems = result.refused.length + result.failed;
      ui.notify({
        type: problems ? 'warning' : 'success',
        message: result.message ?? t('photos.upload.done', { count: result.media.length }),
        ...(problems ? { description: t('photos.upload.someNotSent', { count: problems }) } : {}),
        placement: DEFAULT_PLACEMENT,
      });
    } else if (result.refused.length || result.failed) {
      ui.notify({ type: 'error', message: t('photos.upload.noneSent'), placement: DEFAULT_PLACEMENT });
    }
    if (result.queued)
      ui.notify({ type: 'info', message: t('photos.upload.queued', { count: result.queued }), placement: DEFAULT_PLACEMENT });
    onUploaded?.(result);
    statusRef.current?.focus();
  };

  return (
    <Stack gap="md">
      {/* A drop target for the mouse (a click on it opens the picker too); keyboard and screen-reader users get the
          real buttons below, so the area itself is no control and holds no nested one. */}
      <Dropzone
        onDrop={add}
        onReject={(rejections) => add(rejections.map((r) => r.file))}
        accept={DROPZONE_ACCEPT}
        multiple
        useFsAccessApi={false}
        activateOnKeyboard={false}
        openRef={openRef}
        disabled={disabled}
        inputProps={{ 'aria-label': t('photos.uploader.pick') }}
        data-testid="photo-dropzone"
        radius="md"
      >
        <Group justify="center" gap="md" mih={96} style={{ pointerEvents: 'none' }} wrap="nowrap">
          <Dropzone.Accept>
            <IconUpload size={40} aria-hidden />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconPhotoPlus size={40} aria-hidden />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconPhotoPlus size={40} aria-hidden />
          </Dropzone.Idle>
          <Stack gap={4}>
            <Text fw={600}>{coarse ? t('photos.uploader.pickTouch') : t('photos.uploader.pickDesktop')}</Text>
            <Text size="sm" c="dimmed">
              {room === 0 ? t('photos.uploader.full', { max: AD_MAX_PHOTOS }) : t('photos.uploader.limits', { count: room })}
            </Text>
          </Stack>
        </Group>
      </Dropzone>

      <Group gap="sm">
        <Button leftSection={<IconPhotoPlus size={16} aria-hidden />} disabled={disabled} onClick={() => openRef.current?.()}>
          {t('photos.uploader.pick')}
        </Button>
        {coarse && <CameraButton disabled={disabled} label={t('photos.uploader.camera')} onFile={(file) => add([file])} />}
      </Group>

      <Text size="sm" c="dimmed">
        {t('photos.uploader.privacy')}
      </Text>

      {rejected.length > 0 && (
        <Alert color="orange" variant="light" title={t('photos.uploader.notAdded')} role="alert">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <List size="sm" spacing={2}>
              {rejected.map((r, i) => (
                <List.Item key={`${r.name}-${i}`}>{t(`photos.fileProblem.${r.problem}`, { name: r.name, max: AD_MAX_PHOTOS })}</List.Item>
              ))}
            </List>
            <CloseButton aria-label={t('common.close')} onClick={() => queue.dismissRejected()} />
          </Group>
        </Alert>
      )}

      {items.length > 0 && (
        <SimpleGrid
          component="ul"
          cols={{ base: 1, md: 2 }}
          spacing="md"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('photos.uploader.queue')}
        >
          {items.map((item) => (
            <PhotoCard
              key={item.id}
              item={item}
              locked={uploading}
              onAreas={(areas) => queue.setAreas(item.id, areas)}
              onRemove={() => queue.remove(item.id)}
              onRetry={() => queue.retryPrepare(item.id)}
              onRequestReview={() => void queue.requestReview(item.id)}
            />
          ))}
        </SimpleGrid>
      )}

      <div ref={statusRef} tabIndex={-1} role="status" aria-live="polite">
        {items.length > 0 && (
          <Text size="sm">{busy ? t('photos.uploader.preparing') : t('photos.uploader.ready', { count: sendable })}</Text>
        )}
      </div>

      {mode === 'upload' && items.length > 0 && (
        <Group justify="flex-end">
          <Button
            leftSection={<IconUpload size={16} aria-hidden />}
            loading={uploading}
            disabled={sendable === 0 || busy || adId === undefined}
            onClick={() => void upload()}
          >
            {t('photos.uploader.upload', { count: sendable })}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** The phone's camera, one photo at a time (the `capture` attribute opens it directly instead of the gallery). */
function CameraButton({ disabled, label, onFile }: { disabled: boolean; label: string; onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconCamera size={16} aria-hidden />}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) onFile(file);
          e.currentTarget.value = '';
        }}
      />
    </>
  );
}
