import { Image as MantineImage, Skeleton, Text, type ImageProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import { apiLanguage } from '#src/lib/api-client.ts';

interface PrivateImageProps {
  url: string;
  alt: string;
  /** Said in place of the image when it cannot be fetched (gone, or the staff member lost access). */
  unavailable: string;
  w: number;
  h: number;
  fit: ImageProps['fit'];
  bg?: ImageProps['bg'];
}

/**
 * A private image (a selfie, a refused photo kept for review): fetched with the API's headers and the session's
 * cookie, shown from a blob URL, so neither the browser's cache nor the service worker ever keeps it.
 */
export function PrivateImage({ url, alt, unavailable, w, h, fit, bg }: PrivateImageProps) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetch(url, {
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-Locale': apiLanguage() },
      credentials: 'same-origin',
      signal: controller.signal,
    })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        objectUrl = URL.createObjectURL(await res.blob());
        setSrc(objectUrl);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (failed) return <Text c="dimmed">{unavailable}</Text>;
  if (!src) return <Skeleton w={w} h={h} radius="sm" />;
  return <MantineImage src={src} alt={alt} w={w} h={h} fit={fit} radius="sm" bg={bg} />;
}
