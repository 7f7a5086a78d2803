import { Skeleton } from '@mantine/core';

/** What a map's place shows while its code and base map load: the same size, so nothing moves when it arrives. */
export function MapFallback({ height = 320 }: { height?: number | string }) {
  return <Skeleton height={height} radius="md" aria-hidden data-testid="map-fallback" />;
}
