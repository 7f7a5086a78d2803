/**
 * React bindings of the uploader's state. A screen that only needs the uploader lets <PhotoUploader> make its own
 * queue; a multi-step form calls usePhotoQueue() itself, passes it to <PhotoUploader queue={…}>, and later calls
 * `queue.upload(adId)` once the ad exists — the prepared photos survive the steps in between.
 */
import { useState, useSyncExternalStore } from 'react';
import { PhotoQueue, type PhotoQueueOptions, type QueueSnapshot } from './photo-queue.ts';

/** A queue that lives as long as the calling component. */
export function usePhotoQueue(opts?: PhotoQueueOptions): PhotoQueue {
  const [queue] = useState(() => new PhotoQueue(opts));
  return queue;
}

/** The queue's current state; re-renders on every change. */
export function usePhotoQueueState(queue: PhotoQueue): QueueSnapshot {
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot);
}
